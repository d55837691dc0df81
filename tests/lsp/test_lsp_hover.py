"""Hover: the rulebook behind a rule, the type and home of a name, a spec id's inventory entry."""

from __future__ import annotations

from .conftest import KHAN, KHAN_ACTIONS, TICTACTOE, write
from .lsp_client import find


def _hover(client, u: str, text: str, needle: str, offset: int = 0, nth: int = 0) -> str:
    result = client.request("textDocument/hover", client.at(u, *find(text, needle, offset, nth)))
    assert result is not None, needle
    assert result["contents"]["kind"] == "markdown"
    return result["contents"]["value"]


def test_action_conquer_shows_its_dutch_quote_source_and_spec(client, khan):
    text = KHAN.read_text(encoding="utf-8")
    md = _hover(client, khan, text, "action conquer", offset=len("action co"))
    assert "action conquer(t in sorted(supply), area in placements(TILES[t].shape, layable(t)))" in md
    assert "> De speler pakt een veroveringstegel of een brug van de voorraad" in md
    assert "minstens één van zijn yurts bedekken" in md
    assert "source `000_2c60e2dc917b8970.txt:38-43`, `000_2c60e2dc917b8970.txt:52`" in md
    assert "spec `KHAN-2C-01`, `KHAN-2C-02`, `KHAN-2C-03`" in md


def test_a_use_of_a_procedure_shows_the_procedure(client, khan):
    text = KHAN.read_text(encoding="utf-8")
    md = _hover(client, khan, text, "do ask_consent", offset=4)
    assert "procedure ask_consent(asked: list Player)" in md
    assert "> Als een andere speler een vorm wil neerleggen" in md
    line = text[: text.index("procedure ask_consent")].count("\n") + 1
    assert f"declared at `khan.rules:{line}:" in md
    assert "*not in the rulebook:* Asked only when a joint conquest" in md


def test_a_state_variable_shows_its_type_and_where_it_is_declared(client, khan):
    text = KHAN.read_text(encoding="utf-8")
    md = _hover(client, khan, text, "set ruler_at[", offset=len("set "))
    assert "(state) ruler_at: Ruler -> Land?" in md
    line = text[: text.index("    ruler_at: ")].count("\n") + 1
    assert f"declared at `khan.rules:{line}:5`" in md


def test_names_in_an_included_file_resolve_to_the_main_file(client, khan):
    text = KHAN_ACTIONS.read_text(encoding="utf-8")
    u = client.open(KHAN_ACTIONS)
    md = _hover(client, u, text, "expect ruler_at[seljuk]", offset=len("expect "))
    assert "(state) ruler_at: Ruler -> Land?" in md and "declared at `khan.rules:" in md
    md = _hover(client, u, text, "do drive_off(seljuk)", offset=len("do drive_off("))
    assert "(member) seljuk: Ruler" in md and "member of enum Ruler" in md


def test_a_parameter_and_a_library_function(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8")
    u = client.open(write(tmp_path, "t.rules", text))
    md = _hover(client, u, text, "cell[s] == none", offset=5)
    assert "(parameter) s: Square" in md
    md = _hover(client, u, text, "lines_through(s, 3)")
    assert "lines_through(sq, n) → list list" in md
    assert "the straight runs of n squares containing a square" in md


def test_a_trigger_shows_its_quote(client, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8") + (
        '\nwhen moves == 5\n    "Halverwege het spel zegt de scheidsrechter „nog één ronde”."\n'
        '    source "regels.txt:3"\n    spec TTT-9\n    log "halfway"\n')
    u = client.open(write(tmp_path, "when.rules", text))
    md = _hover(client, u, text, "when moves")
    assert "**when …**" in md
    assert "> Halverwege het spel zegt de scheidsrechter „nog één ronde”." in md
    assert "source `regels.txt:3`" in md and "spec `TTT-9`" in md


def test_a_spec_id_shows_its_inventory_line(client, khan):
    """The session's server is given a test inventory through `specDir`."""
    text = KHAN.read_text(encoding="utf-8")
    line = text[text.index("action conquer"):].index("spec KHAN-2C-01")
    at = text.index("action conquer") + line + text[text.index("action conquer") + line:].index("KHAN-2C-03")
    pos = (text.count("\n", 0, at), at - text.rfind("\n", 0, at) - 1 + 2)
    md = client.request("textDocument/hover", client.at(khan, *pos))["contents"]["value"]
    assert md.startswith("**KHAN-2C-03** — `khan.md:3`")
    assert "26. **KHAN-2C-03: the formal condition**" in md
    assert "the tile must cover at least one of the player's own yurts" in md
    assert "KHAN-2C-04" not in md


def test_without_an_inventory_a_spec_id_says_so(fresh, tmp_path):
    text = TICTACTOE.read_text(encoding="utf-8")
    u = fresh.open(write(tmp_path, "t.rules", text))
    md = _hover(fresh, u, text, "TTT-1", offset=1)
    assert "no inventory found" in md


def test_the_inventory_is_found_by_option_then_env_var_then_above_the_file(tmp_path, monkeypatch):
    from regelwerk.lsp.specs import ENV_VAR, SpecInventory

    from .conftest import INVENTORY

    rules = tmp_path / "checkout" / "rulesets" / "khan" / "khan.rules"
    rules.parent.mkdir(parents=True)
    above = tmp_path / "shared" / "spec"
    above.mkdir(parents=True)
    (above / "khan.md").write_text(INVENTORY.replace("formal condition", "found above"), encoding="utf-8")
    env = tmp_path / "env"
    env.mkdir()
    (env / "khan.md").write_text(INVENTORY.replace("formal condition", "from the env"), encoding="utf-8")
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert "found above" in SpecInventory().lookup("KHAN-2C-03", str(rules)).text
    monkeypatch.setenv(ENV_VAR, str(env))
    assert "from the env" in SpecInventory().lookup("KHAN-2C-03", str(rules)).text
    opt = SpecInventory(configured=str(above)).lookup("KHAN-2C-03", str(rules))
    assert (opt.line, "found above" in opt.text) == (3, True)
    assert SpecInventory().lookup("KHAN-9Z-99", str(rules)) is None
