"""Issue 22 ("Trust III"), the command line, trace display, what a player sees and simulate:
one regression test per defect, each failing before its fix."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from fractions import Fraction
from importlib.metadata import version
from pathlib import Path

import pytest
from regelwerk.interpreter.engine.moves import Action
from regelwerk.interpreter.observe.infostate import move_as_seen
from regelwerk.interpreter.observe.secrets import secrets_of
from regelwerk.interpreter.observe.visibility import HIDDEN, observer
from regelwerk.interpreter.tools.trace import trace_lines, write_trace

import regelwerk
from regelwerk.cli import main

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
BREAKTHROUGH = ROOT / "rulesets" / "classic" / "breakthrough.rules"
CANARY = FIXTURES / "visibility" / "canary.rules"


def run(capsys, *argv: object) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------------- 1. --version
def test_version_prints_the_installed_version_and_exits_0(capsys):
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"regelwerk {version('regelwerk')}\n"
    done = subprocess.run([sys.executable, "-m", "regelwerk.cli", "--version"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"regelwerk {version('regelwerk')}" and not done.stderr


# ---------------------------------------------------------------------- 2. trace show without --rules
def _decisions(text: str) -> list[str]:
    """`#4    Black: step(b7, SW)  [step]` → `Black: step(b7, SW)`."""
    return [line.split(None, 1)[1].split("  [")[0] for line in text.splitlines()
            if line.startswith("#") and "(automatic)" not in line]


@pytest.fixture(scope="module")
def breakthrough_trace(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("bt") / "t.jsonl"
    assert main(["run", str(BREAKTHROUGH), "--seed", "7", "--trace", str(path)]) == 0
    return path


def test_trace_show_of_a_game_without_hidden_state_masks_no_move(capsys, breakthrough_trace):
    """`step(?, b7)` for `step(b7, SW)`: the order of the sorted bindings, and `?` although
    breakthrough has no secret."""
    assert json.loads(breakthrough_trace.read_text().splitlines()[0])["hidden_state"] is False
    _, full, _ = run(capsys, "trace", "show", breakthrough_trace)
    for player in ("White", "Black"):
        code, seen, _ = run(capsys, "trace", "show", breakthrough_trace, "--player", player)
        assert code == 0 and "?" not in seen
        assert _decisions(seen) == _decisions(full) and len(_decisions(full)) > 10
        assert "seed hidden" in seen  # the seed still is not shown
        _, with_rules, _ = run(capsys, "trace", "show", breakthrough_trace, "--player", player, "--rules", BREAKTHROUGH)
        assert _decisions(with_rules) == _decisions(full)


def test_an_old_trace_without_the_mark_masks_arguments_in_their_order(capsys, breakthrough_trace, tmp_path):
    """A trace written before `hidden_state` existed: others' arguments that might be secret
    are still masked, each in its own place (the text gives the order, not the sorted keys)."""
    lines = breakthrough_trace.read_text().splitlines()
    head = json.loads(lines[0])
    del head["hidden_state"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
    _, full, _ = run(capsys, "trace", "show", old)
    code, seen, _ = run(capsys, "trace", "show", old, "--player", "White")
    assert code == 0
    pairs = list(zip(_decisions(full), _decisions(seen), strict=True))
    assert any("?" in s for _, s in pairs)
    for f, s in pairs:
        if f.startswith("White"):
            assert s == f
        else:  # `Black: step(b7, ?)`: the square left (it shows on the board), the direction masked
            fa, sa = f.split("(")[1].rstrip(")").split(", "), s.split("(")[1].rstrip(")").split(", ")
            assert sa[0] == fa[0] and sa[1] == "?", (f, s)


def test_trace_show_without_rules_still_masks_hidden_arguments(capsys, tmp_path):
    """A game with hidden state (the canary): without --rules every argument that might be
    secret stays masked, and no card a player never saw is shown."""
    from test_visibility_property import CARDS, RULES, leaks, seen_by, start_of

    masked = 0
    for seed in range(4):
        path = tmp_path / f"c{seed}.jsonl"
        assert main(["run", str(CANARY), "--players", "3", "--seed", str(seed), "--trace", str(path)]) == 0
        capsys.readouterr()
        lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
        assert lines[0]["hidden_state"] is True
        for p in ("Ann", "Cid"):
            code, seen, _ = run(capsys, "trace", "show", path, "--player", p)
            assert code == 0
            secret = CARDS - seen_by(p, lines, RULES.model, start_of(RULES, 3, seed))
            assert not leaks(seen, secret)
            masked += sum("?" in d for d in _decisions(seen))
    assert masked > 0


# ---------------------------------------------------------------------- 4. over-masking
THIEVES = FIXTURES / "visibility" / "thieves.rules"


def _thieves_game() -> tuple[regelwerk.Ruleset, regelwerk.Game]:
    """Ann steals from Bob, Bob seals a bid, Cid names a card he holds, Ann lays one face up."""
    rules = regelwerk.load(THIEVES)
    game = rules.new_game(players=3, seed=4, record=True)
    game.apply("steal(Bob)")
    game.apply("seal(3)")
    game.apply(f"claim({game.vars['hand']['Cid'][0]})")
    game.apply(f"show({game.vars['hand']['Ann'][0]})")
    return rules, game


def test_an_argument_is_masked_only_when_its_value_is_hidden(capsys, tmp_path):
    """`steal(?)`: whom Ann steals from is public although the move moves hidden cards; a
    sealed bid and a card named as held stay masked; a card laid face up shows."""
    rules, game = _thieves_game()
    claimed = next(a for a in (s.get("decision") or {} for s in game.trace) if a.get("action", "").startswith("claim"))
    laid = game.vars["shown"][0]
    path = tmp_path / "t.jsonl"
    write_trace(game, path)
    code, out, _ = run(capsys, "trace", "show", path, "--player", "Cid", "--rules", THIEVES)
    assert code == 0
    moves = _decisions(out)
    assert moves[:2] == ["Ann: steal(Bob)", "Bob: seal(?)"] and moves[3] == f"Ann: show({laid})"
    code, out, _ = run(capsys, "trace", "show", path, "--player", "Ann", "--rules", THIEVES)
    assert _decisions(out)[2] == "Cid: claim(?)" and claimed["by"] == "Cid"
    view = observer(rules.model, "Ann").trace([json.loads(x) for x in trace_lines(game)])
    steal = next(s for s in view[1:] if s.get("rule") == "steal" and s.get("decision"))
    assert steal["bindings"] == {"p": "Bob"}
    bob = {"kind": "play", "player": "Bob"}  # information states (OpenSpiel) see moves the same way
    assert move_as_seen(game, Action("seal", (3,)), bob, "Ann") == "Bob: seal(?)"
    assert move_as_seen(game, Action("steal", ("Cid",)), bob, "Ann") == "Bob: steal(Cid)"


def test_sizes_of_hidden_hands_are_public_in_checks(tmp_path):
    """`len(hand[current])`, `hand[p] != []`: how many cards a hidden hand holds is shown (as
    views show `{"hidden": 2}`), the cards are not."""
    rules, game = _thieves_game()
    lines = [json.loads(x) for x in trace_lines(game)]
    steal = next(s for s in observer(rules.model, "Cid").trace(lines)[1:] if s.get("rule") == "steal"
                 and s.get("decision"))
    values = {k: v for c in steal["checks"] for k, v in c["values"].items()}
    assert values["hand[p] != []"] is True and values["len(hand[current])"] == 2
    assert values["hand[p]"] == HIDDEN and values["hand[current]"] == HIDDEN
    assert observer(rules.model, "Cid").view(game)["vars"]["hand"]["Bob"] == {"hidden": 1}
    climb = regelwerk.load(ROOT / "rulesets" / "examples" / "climb.rules")
    assert "hand_size" not in secrets_of(climb.model).secret_defines  # define hand_size(p) = len(hand[p])


def test_values_stored_in_hidden_state_are_secret_whatever_their_domain():
    """The class of the fix: a decision is secret when its value is a value of hidden state
    (drawn from it, stored in it, required to be in it), not when it only steers a test."""
    text = ("players A, B\nenum Card = x, y, z\nstate\n    hand: Player -> list Card = [] hidden except owner\n"
            "    mark: Player -> Card? = none hidden except owner\n    seen: Card -> bool = false hidden\n"
            "    n: int = 0\n"
            "action keep(c: Card)\n    let d = c\n    set mark[current] = d\n"
            "action note(c: Card)\n    set seen[c] = true\n"
            "action name(c: Card)\n    require c == top(hand[current])\n    add 1 to n\n"
            "action pass_to(p: Player, k in 1..3)\n    if k > 1\n        set hand[p] = list q in hand[p] where q != x\n"
            "action ask\n    choose b in [true, false] by other(current) \"agree?\"\n"
            "    if b\n        set hand[current] = []\n"
            "    choose v in 1..9 \"counted\"\n    do store(v)\n"
            "    choose u in Card \"kept\"\n    do hide(u)\n"
            "procedure hide(w: Card)\n    set mark[current] = w\n"
            "procedure store(w: int)\n    set n = 0\n    add w to n\n    set mark[current] = none\n"
            "    if w > 100\n        set seen[x] = true\n"
            "flow\n    repeat\n        turn\n            play keep, note, name, pass_to, ask\n")
    s = secrets_of(regelwerk.load_text(text, "f.rules").model)
    assert s.secret_params["keep"] == {"c"}  # stored through a let
    assert s.secret_params["note"] == {"c"}  # a key of a hidden map (`seen[?]`)
    assert s.secret_params["name"] == {"c"}  # required to be a hidden value
    assert s.secret_params["pass_to"] == set()  # a player key, a test: both public
    assert not s.choice_is_secret("b") and not s.choice_is_secret("v")
    assert s.choice_is_secret("u") and not s.options_are_secret("u")  # stored by a procedure; its options public


# ---------------------------------------------------------------------- 3. legal --player
def _save(game: regelwerk.Game, path: Path) -> Path:
    path.write_text(json.dumps(game.to_json()), encoding="utf-8")
    return path


def test_legal_as_another_player_shows_no_card_of_the_deciders_hand(capsys, tmp_path):
    """`legal` printed the decider's hidden hand (`lay(agate)`) to whoever ran it."""
    rules = regelwerk.load(CANARY)
    game = rules.new_game(players=3, seed=3)
    ann_hand = set(game.vars["hand"]["Ann"])
    save = _save(game, tmp_path / "s.json")
    _, everything, _ = run(capsys, "legal", CANARY, "--state", save)
    assert any(card in everything for card in ann_hand)  # the decider's own view, as before
    code, mine, _ = run(capsys, "legal", CANARY, "--state", save, "--player", "Ann")
    assert code == 0 and mine == everything
    code, out, _ = run(capsys, "legal", CANARY, "--state", save, "--player", "Bob")
    assert code == 0 and not any(card in out for card in ann_hand)
    lines = out.splitlines()
    assert lines[0] == "Ann decides now; as Bob sees it:"
    assert lines[-1].startswith("hidden from Bob: bluff, lay, offer, peek (")
    assert set(lines[1:-1]) <= set(everything.splitlines())  # only real moves, whole
    assert {"take", "ask(1)", "ask(2)", "ask(3)", "give", "steal", "pass"} <= set(lines[1:-1])
    code, _, err = run(capsys, "legal", CANARY, "--state", save, "--player", "Zed")
    assert code == 2 and "not a player" in err


def test_legal_as_another_player_names_a_hidden_action_whether_or_not_it_has_moves(capsys, tmp_path):
    """An action whose legality reads a hidden hand is named either way: that `peek` has a
    move would say that the next hand is not empty... through its top card."""
    rules = regelwerk.load(CANARY)
    outs = set()
    for emptied in (False, True):
        game = rules.new_game(players=2, seed=3)
        if emptied:
            game.vars["hand"]["Bob"] = []
            game.invalidate()
        save = _save(game, tmp_path / f"s{emptied}.json")
        _, out, _ = run(capsys, "legal", CANARY, "--state", save, "--player", "Bob")
        outs.add(out.splitlines()[-1])
    assert len(outs) == 1 and "peek" in outs.pop()


def test_legal_as_another_player_at_a_choice(capsys, tmp_path):
    """A choice among the decider's cards shows only how many there are (as views do); a
    public choice ("let them steal?") shows its options to everybody."""
    rules = regelwerk.load(CANARY)
    game = rules.new_game(players=3, seed=3)
    game.apply("give")
    save = _save(game, tmp_path / "give.json")
    _, out, _ = run(capsys, "legal", CANARY, "--state", save, "--player", "Cid")
    assert out.splitlines() == ["Ann decides now; as Cid sees it:",
                                "hidden from Cid: choose (3 options) (which moves are legal there depends on "
                                "what only Ann sees)"]
    game = rules.new_game(players=3, seed=3)
    game.apply("steal")
    save = _save(game, tmp_path / "steal.json")
    _, out, _ = run(capsys, "legal", CANARY, "--state", save, "--player", "Cid")
    assert out.splitlines() == ["Bob decides now; as Cid sees it:", "choose(true)", "choose(false)"]


# ---------------------------------------------------------------------- 5. simulate locates failures
RUNAWAY = {
    "at_start": ("players X\nstate\n    n: int = 0\nwhen n == 0\n    set n = 1\nwhen n == 1\n    set n = 0\n"
                 "action a\n    set n = n\nflow\n    repeat\n        turn\n            play a\n", "4:1"),
    "in_a_move": ("players X\nstate\n    n: int = 5\nwhen n == 0\n    set n = 1\nwhen n == 1\n    set n = 0\n"
                  "action a\n    set n = 0\nflow\n    repeat\n        turn\n            play a\n", "4:1"),
    "work_budget": ("players X\nstate\n    n: int = 0\naction a\n    while n >= 0\n        add 1 to n\n"
                    "flow\n    repeat\n        turn\n            play a\n", "5:5"),
}


@pytest.mark.parametrize("case", sorted(RUNAWAY))
def test_simulate_locates_a_runaway_rule_as_run_does(capsys, tmp_path, case):
    """A runaway trigger chain: `run` said `chain.rules:4:1: trigger chain ...`, simulate's
    records and report only `trigger chain ...` (and at the start, simulate stopped with the
    bare message before any game)."""
    text, where = RUNAWAY[case]
    rules = tmp_path / "chain.rules"
    rules.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "run", rules, "--work-budget", "100000")
    assert code == 1 and err.startswith(f"error: {rules}:{where}: ")
    said = err.strip().split(f"{rules}:{where}: ", 1)[1]
    out_json = tmp_path / "r.json"
    code, out, _ = run(capsys, "simulate", rules, "--games", "2", "--jobs", "2", "-q", "--work-budget", "100000",
                       "--json", out_json)
    assert code == 1
    failures = json.loads(out_json.read_text(encoding="utf-8"))["failures"]
    assert len(failures) == 2
    for f in failures:  # the same place and words as `run`, relative to the rules' folder
        assert f["at"] == f"chain.rules:{where}" and f["error"] == said
    assert f"game 0 (seed 0) failed at chain.rules:{where}: {said}" in out


# ---------------------------------------------------------------------- 6. workers die with their parent
def _children(pid: int) -> dict[int, str]:
    """The processes whose parent is `pid`, with their states (Linux: /proc)."""
    out = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out[int(entry.name)] = fields[0]
    return out


def _running(pids: set[int]) -> set[int]:
    """Those of `pids` still running (a zombie waiting for a reaper has ended)."""
    alive = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.add(pid)
    return alive


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds the workers through /proc")
def test_simulate_workers_die_when_it_is_killed(tmp_path):
    """`simulate --jobs 2` killed with `kill -9` left its worker processes playing on."""
    cmd = [sys.executable, "-m", "regelwerk.cli", "simulate", str(ROOT / "rulesets" / "khan" / "khan.rules"),
           "--players", "3", "--games", "400", "--jobs", "2", "-q", "--no-firings"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and proc.poll() is None:
            kids = _children(proc.pid)
            busy = {pid for pid in kids if "spawn_main" in Path(f"/proc/{pid}/cmdline").read_text(errors="replace")}
            if len(busy) >= 2:
                workers = set(kids)
                break
            time.sleep(0.2)
        assert len(workers) >= 2 and proc.poll() is None, "the workers never started"
        time.sleep(1.0)  # playing games now
        workers |= set(_children(proc.pid))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 5
        while _running(workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(workers), f"still running after the driver was killed: {sorted(_running(workers))}"
    finally:
        for pid in _running(workers):  # only the processes this test started
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()


# ---------------------------------------------------------------------- 7. shared wins, draws and fairness
TIE = FIXTURES / "tie.rules"


def test_analyze_names_shared_wins_apart_from_outright_wins_and_draws(capsys):
    """`finish ranking` with a tie gives a shared win: analyze counted it in each player's wins
    beside the draws, with nothing to say so (the table added up to 11/9)."""
    code, out, _ = run(capsys, "analyze", TIE, "--json")
    assert code == 0
    data = json.loads(out)
    assert data["win"] == {"A": "1/3", "B": "1/3"} and data["draw"] == "5/9"
    assert data["outright"] == {"A": "1/9", "B": "1/9"} and data["shared"] == {"A": "2/9", "B": "2/9"}
    assert data["shared_win"] == "2/9"
    total = sum(Fraction(v) for v in data["outright"].values()) + Fraction(data["shared_win"]) + Fraction(data["draw"])
    assert total == 1  # every game ends exactly one of these ways
    code, out, _ = run(capsys, "analyze", TIE)
    assert "shared win            2/9 (0.2222)" in out and "of them shared" in out and "is not a draw" in out
    _, kuhn, _ = run(capsys, "analyze", ROOT / "rulesets" / "examples" / "kuhn.rules")
    assert "shared" not in kuhn  # no tie possible: the table as before


def test_simulate_counts_shared_wins_and_leaves_draws_out_of_fairness(capsys, tmp_path):
    """Simulate named no shared win, and its 'first player ... fair 50%' line counted every draw
    as a first-player loss: -27 points on a game where neither seat has an edge."""
    out_json = tmp_path / "r.json"
    code, out, _ = run(capsys, "simulate", TIE, "--games", "900", "--jobs", "1", "-q", "--json", out_json)
    assert code == 0
    rep = json.loads(out_json.read_text(encoding="utf-8"))
    assert rep["outright_wins"] + rep["shared_wins"] + rep["draws"] == rep["finished"] == 900
    assert rep["shared"] == {"A": rep["shared_wins"], "B": rep["shared_wins"]}
    for rate, exact in ((rep["shared_win_rate"], Fraction(2, 9)), (rep["draw_rate"], Fraction(5, 9))):
        assert rate["low"] <= exact <= rate["high"]  # as analyze works it out
    fp = rep["first_player"]
    assert fp["decided"] == 900 - rep["draws"] and fp["draws"] == rep["draws"]
    assert fp["low"] <= 0 <= fp["high"] and abs(fp["advantage"]) < 0.06
    head = out.splitlines()[0]
    assert head == f"900 games, 0 failed, {rep['draws']} draws, {rep['shared_wins']} shared wins"
    assert "a shared win, not a draw" in out
    line = next(x for x in out.splitlines() if "first player:" in x)
    assert f"of the {fp['decided']} games with a winner; {rep['draws']} draws" in line and "left out" in line
