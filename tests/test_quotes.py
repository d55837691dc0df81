"""Quotes against the seed lines they cite (dsl/quotes.py), notes beside them, and how both
reach traces, `trace show`, `explain` and `check`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from regelwerk.dsl import ast as A
from regelwerk.dsl.parse import parse_text
from regelwerk.dsl.printer import print_module
from regelwerk.dsl.quotes import SEEDS_ENV, SeedLibrary, fragments, squash, verify
from regelwerk.interpreter.tools.trace import render_step

import regelwerk
from regelwerk.cli import main

SEED = """2B. Een heerser verdrijven
De speler zegt welke heerser hij gaat verdrijven. Hij draait de bovenste kaart van
de trekstapel open. Is er geen opstand in de provincie dan tellen alle boe-
renlegers mee. Geen enkele speler mag in het betreff ende gebied
meer yurts hebben dan hij.
Elke eigen provincie ……………………………1 punt
Let op: De meeste vakjes langs de rand grenzen aan het „buitengebied”*.
Yurts mogen alleen worden geplaatst op land.
"""


@pytest.fixture
def library(tmp_path: Path) -> SeedLibrary:
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    (seeds / "000_0000000000000000.txt").write_text(SEED, encoding="utf-8")
    (seeds / "001_0000000000000001.txt").write_text("Heersers kunnen niet worden bedekt!\n",
                                                    encoding="utf-8")
    return SeedLibrary([seeds])


F = "000_0000000000000000.txt"


def test_extraction_noise_does_not_count(library):
    quotes = [
        "De speler zegt welke heerser hij gaat verdrijven.",  # line break inside the sentence
        "Is er geen opstand in de provincie dan tellen alle boerenlegers mee.",  # hyphenation
        "Geen enkele speler mag in het betreffende gebied meer yurts hebben dan hij.",  # OCR space
        "Elke eigen provincie 1 punt",  # leader dots
        'grenzen aan het "buitengebied".',  # quotation marks and a footnote star
    ]
    for q in quotes:
        assert verify(q, [f"{F}:1-8"], library) == [], q


def test_a_word_changed_is_not_verbatim_and_the_closest_words_are_named(library):
    (p,) = verify("De speler zegt welke heerser hij wil verdrijven.", [f"{F}:2-3"], library)
    assert p.code == "W002"
    assert "welke heerser hij wil verdrijven" in p.message
    assert "«welke heerser hij gaat verdrijven" in p.help and "«welke heerser hij wil" in p.help


def test_case_and_punctuation_count(library):
    assert verify("de speler zegt welke heerser hij gaat verdrijven.", [f"{F}:2"], library)
    assert verify("Heersers kunnen niet worden bedekt?", ["001_0000000000000001.txt:1"], library)


def test_a_gap_must_be_written_as_an_elision(library):
    joined = "De speler zegt welke heerser hij gaat verdrijven. Yurts mogen alleen worden geplaatst op land."
    (p,) = verify(joined, [f"{F}:1-8"], library)
    assert p.code == "W002" and "is not followed by «Yurts mogen" in p.message
    assert p.help == "mark the gap with '…'"
    assert verify(joined.replace("verdrijven. ", "verdrijven. … "), [f"{F}:1-8"], library) == []
    assert verify(joined.replace("verdrijven. ", "verdrijven. ... "), [f"{F}:1-8"], library) == []
    assert fragments("a … b ... c") == ["a", "b", "c"]


def test_a_quote_runs_from_one_cited_range_into_the_next_only_where_they_meet(library):
    q = "Hij draait de bovenste kaart van de trekstapel open. Is er geen opstand"
    assert verify(q, [f"{F}:2", f"{F}:3"], library) == []  # lines 2 and 3 meet
    (p,) = verify("De speler zegt welke heerser hij gaat verdrijven. Yurts mogen alleen worden "
                  "geplaatst op land.", [f"{F}:2", f"{F}:8"], library)
    assert p.help == "mark the gap with '…'"


def test_words_outside_the_cited_lines_are_found_where_they_stand(library):
    (p,) = verify("Yurts mogen alleen worden geplaatst op land.", [f"{F}:2-3"], library)
    assert p.help == f"these words stand at {F}:8: cite those lines"
    (p,) = verify("Heersers kunnen niet worden bedekt!", [f"{F}:1-8"], library)
    assert "001_0000000000000001.txt:1" in p.help


def test_authored_words_are_told_to_go_in_a_note(library):
    (p,) = verify("SUBSTRATE: a war chest card as the bid.", [f"{F}:1-8"], library)
    assert p.code == "W002" and "note" in p.help


def test_sources_that_name_no_lines(library):
    (p,) = verify("Yurts mogen alleen worden geplaatst op land.", [f"{F}:7-99"], library)
    assert p.code == "W004" and "has lines 1-8" in p.message
    (p,) = verify("x", [f"{F}:abc"], library)
    assert p.code == "W004"
    assert verify("x", ["public domain"], library) == []  # free text: nothing to check against


def test_an_unreachable_seed_is_not_checked(library):
    assert verify("Wat dan ook.", ["999_ffffffffffffffff.txt:1-3"], library) == []
    assert verify("Wat dan ook.", [f"{F}:1", "999_ffffffffffffffff.txt:1"], library) == []


def test_squash_keeps_letters_case_and_signs():
    assert squash("a  b.\n„c”…") == "abc"
    assert squash("Hé!") != squash("he!")


# ---------------------------------------------------------------------- through the checker
RULES = """players A, B

state
    n: int

action step
    "De speler zegt welke heerser hij wil verdrijven."
    source "{F}:2-3"
    add 1 to n

action rest
    "Wij hebben dit bedacht."
    add 0 to n

procedure tidy
    "Heersers kunnen niet worden bedekt!"
    source "001_0000000000000001.txt:1"
    note "Our reading: also neutral yurts."
    set n = 0

flow
    repeat 2 times
        turn
            play step, rest
    do tidy
"""


def _write_rules(tmp_path: Path) -> Path:
    path = tmp_path / "game" / "g.rules"
    path.parent.mkdir()
    path.write_text(RULES.replace("{F}", F), encoding="utf-8")
    return path


def test_check_warns_with_located_codes(tmp_path, library, monkeypatch):
    path = _write_rules(tmp_path)
    monkeypatch.setenv(SEEDS_ENV, str(library.folders[0]))
    r = regelwerk.load(path)
    got = sorted((w.code, w.span.line, w.span.column) for w in r.warnings)
    assert got == [("W002", 7, 5), ("W003", 12, 5)]
    text = next(w for w in r.warnings if w.code == "W002").format(r.sources[str(path)])
    assert "7 |     \"De speler zegt" in text and "^^^" in text and "help: the closest words" in text


def test_seeds_are_found_above_the_rules_file(tmp_path, library, monkeypatch):
    monkeypatch.delenv(SEEDS_ENV, raising=False)
    path = _write_rules(tmp_path)  # tmp_path/seeds is above tmp_path/game/g.rules
    assert {w.code for w in regelwerk.load(path).warnings} == {"W002", "W003"}


def test_cli_check_seeds_option(tmp_path, tmp_path_factory, library, capsys, monkeypatch):
    monkeypatch.delenv(SEEDS_ENV, raising=False)
    path = tmp_path_factory.mktemp("elsewhere") / "g.rules"  # no seeds folder above it
    path.write_text(RULES.replace("{F}", F), encoding="utf-8")
    assert main(["check", str(path)]) == 0
    assert "W002" not in capsys.readouterr().err  # no seeds reachable: nothing to check
    assert main(["check", "--seeds", str(library.folders[0]), str(path)]) == 0
    err = capsys.readouterr().err
    assert "warning: quote not verbatim in its cited lines" in err and "[W002]" in err
    assert main(["check", "--seeds", str(tmp_path / "nowhere"), str(path)]) == 2
    assert "no such folder" in capsys.readouterr().err


def test_a_ruleset_without_line_citations_gets_no_w003():
    r = regelwerk.load_text('game "T"\n    source "public domain"\nplayers A, B\n'
                            'action x\n    "Zomaar een zin."\n    require true\n'
                            'flow\n    turn\n        play x\n', "<t>")
    assert [w.code for w in r.warnings] == []


# ---------------------------------------------------------------------- notes in traces
def test_notes_reach_traces_apart_from_quotes(tmp_path, library, monkeypatch):
    monkeypatch.setenv(SEEDS_ENV, str(library.folders[0]))
    r = regelwerk.load(_write_rules(tmp_path))
    g = r.new_game(record=True)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    tidy = next(s for s in g.trace if s.get("rule") == "tidy")
    assert tidy["quote"] == "Heersers kunnen niet worden bedekt!"
    assert tidy["note"] == "Our reading: also neutral yurts."
    step = next(s for s in g.trace if s.get("rule") == "step")
    assert "note" not in step
    lines = render_step(tidy)
    assert "      „Heersers kunnen niet worden bedekt!”" in lines
    assert "      not in the rulebook: Our reading: also neutral yurts." in lines


def test_explain_prints_the_quote_and_the_note(tmp_path, capsys):
    path = tmp_path / "g.rules"
    path.write_text('players A, B\nstate\n    n: int\naction step\n    "Zet een stap."\n'
                    '    source "x.txt:1"\n    note "Ours: one step a turn."\n'
                    '    require n < 1 else "al gezet"\n    add 1 to n\n'
                    'flow\n    repeat 3 times\n        turn\n            play optional step\n', encoding="utf-8")
    save = tmp_path / "s.json"
    assert main(["run", str(path), "--agent", "first", "--stop-after", "1", "--save", str(save)]) == 0
    capsys.readouterr()
    assert main(["explain", str(path), "--state", str(save), "step"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("step is illegal: al gezet")
    assert "  „Zet een stap.”  (x.txt:1)" in out
    assert "  not in the rulebook: Ours: one step a turn." in out


def test_notes_print_and_parse_back():
    prov = A.Provenance("Een zin.", ("f.txt:1-2",), ("X-1",), "Onze lezing.")
    mod = A.Module(A.NO_SPAN, "g.rules", (A.ProcedureDecl(A.NO_SPAN, "p", (), prov, (A.LogStmt(A.NO_SPAN, "x"),)),))
    text = print_module(mod)
    assert '    note "Onze lezing."' in text
    again = parse_text(text, "g.rules")
    assert again.decls == mod.decls
    assert json.dumps(again.decls[0].prov.note) == '"Onze lezing."'


def test_check_says_when_no_seed_texts_were_found_to_check_quotes_against(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv(SEEDS_ENV, raising=False)
    lone = tmp_path / "lone.rules"  # no seeds folder above a temporary folder
    lone.write_text(RULES.replace("{F}", F), encoding="utf-8")
    assert main(["check", str(lone)]) == 0
    out, err = capsys.readouterr()
    assert "lone.rules: ok (2 actions" in out
    assert "no seeds folder was found, so they were not checked" in err and "--seeds DIR" in err
    khan = Path(__file__).resolve().parent.parent / "rulesets" / "khan" / "khan.rules"
    if SeedLibrary.for_rules(str(khan)).folders:  # beside ../shared: found, so nothing is said
        assert main(["check", str(khan)]) == 0
        assert "not checked" not in capsys.readouterr().err
