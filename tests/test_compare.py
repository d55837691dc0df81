"""`regelwerk compare OLD NEW` (issue 28): the same seeds and agents on both versions; identical
games, where the others part, every measure with a paired test and Holm's correction, the
scenarios whose verdict changed, JSON and an HTML page, exit 0 / 1 / 2."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from regelwerk.cli import main
from regelwerk.compare import stats

ROOT = Path(__file__).resolve().parent.parent
TTT = ROOT / "rulesets" / "classic" / "tictactoe.rules"
KHAN = ROOT / "rulesets" / "khan"


def test_the_documented_example_prints_what_the_docs_show(capsys):
    """docs/compare.md's example, run as written: the same output, exit 0."""
    text = (ROOT / "docs" / "compare.md").read_text(encoding="utf-8")
    block = re.search(r"```console\n\$ regelwerk (compare .*?)\n(.*?)```", text, re.S)
    args, shown = block.group(1).split(), block.group(2)
    assert main(args) == 0
    assert capsys.readouterr().out == shown


def test_a_ruleset_compared_with_itself_has_identical_games_and_no_difference(tmp_path, capsys):
    out = tmp_path / "same.json"
    assert main(["compare", str(TTT), str(TTT), "--games", "30", "--jobs", "1", "-q", "--json", str(out)]) == 0
    rep = json.loads(out.read_text())
    assert set(rep) >= {"games", "identical_games", "differences", "scenarios", "first_divergence", "timing"}
    assert rep["games"] == rep["identical_games"] == 30
    assert rep["first_divergence"] == [] and rep["scenarios"] == [] and rep["significant"] == []
    for m in rep["differences"]:
        assert set(m) >= {"measure", "old", "new", "difference", "interval", "p_value", "significant"}
        assert m["difference"] == 0 and m["p_value"] == 1 and not m["significant"]


def test_khan_without_its_area_bonus_scores_less(tmp_path, capsys):
    """The issue's example: BONUS 0/0/0. Scores drop significantly for every player, the
    bonus scenarios fail, every game parts at the final scoring on the points; exit 1."""
    changed = tmp_path / "khan"
    shutil.copytree(KHAN, changed)
    rules = changed / "khan.rules"
    text = rules.read_text(encoding="utf-8")
    assert "const BONUS = [10, 6, 3]" in text
    rules.write_text(text.replace("const BONUS = [10, 6, 3]", "const BONUS = [0, 0, 0]"), encoding="utf-8")
    out, page = tmp_path / "khan.json", tmp_path / "page"
    code = main(["compare", str(KHAN / "khan.rules"), str(rules), "--players", "3", "--games", "24", "--jobs", "1",
                 "-q", "--json", str(out), "--report", str(page)])
    assert code == 1
    rep = json.loads(out.read_text())
    by = {m["measure"]: m for m in rep["differences"]}
    for p in ("Red", "Yellow", "Blue"):
        m = by[f"score {p}"]
        assert m["significant"] and m["difference"] < 0 and m["interval"][1] < 0
    assert not by["game length"]["significant"] and by["game length"]["difference"] == 0
    # the rule that gives the bonus, final_scoring, gives each player significantly less
    assert set(rep["significant"]) == {f"{what} {p}" for what in ("score", "points from final_scoring")
                                       for p in ("Red", "Yellow", "Blue")}
    assert by["points from final_scoring Red"]["difference"] == by["score Red"]["difference"]
    assert {"bonus table 1: 10, 6, 3, 0", "bonus table 2: 10, 10, 6, 3"} <= {s["scenario"] for s in rep["scenarios"]}
    assert all(s["old"] == "passed" and s["new"] == "failed" for s in rep["scenarios"])
    assert rep["identical_games"] == 0 and len(rep["first_divergence"]) == 24
    for d in rep["first_divergence"]:  # the same moves, until the final scoring gives other points
        assert d["old"]["rule"] == d["new"]["rule"] == "final_scoring"
        assert any(path.startswith("points[") for path in d["differ"])
    html = (page / "index.html").read_text(encoding="utf-8")
    assert "score Red" in html and "bonus table 1" in html
    for png in ("rates.png", "means.png", "lengths.png"):
        assert (page / png).read_bytes().startswith(b"\x89PNG") and f"src='{png}'" in html
    assert json.loads((page / "compare.json").read_text()) == rep
    text = capsys.readouterr().out
    assert "significant (Holm-corrected p < 0.05): score Red, score Yellow, score Blue, points from final_scoring" in text


def test_a_legality_change_parts_games_at_the_first_move_it_touches(tmp_path):
    rules = tmp_path / "ttt.rules"
    rules.write_text(TTT.read_text(encoding="utf-8").replace(
        '    require cell[s] == none else "the square is already taken"\n',
        '    require cell[s] == none else "the square is already taken"\n'
        '    require moves > 0 or s != b2 else "the first mark may not go in the centre"\n'), encoding="utf-8")
    out = tmp_path / "c.json"
    assert main(["compare", str(TTT), str(rules), "--games", "40", "--jobs", "1", "-q", "--json", str(out)]) == 0
    rep = json.loads(out.read_text())
    assert 0 < rep["identical_games"] < 40
    assert len(rep["first_divergence"]) == 40 - rep["identical_games"]
    # a first mark elsewhere parts at once; the same first mark may part later, as the agent's
    # random choices among one square fewer line up differently
    assert all(d["old"]["rule"] == d["new"]["rule"] == "place" for d in rep["first_divergence"])
    assert any(d["step"] == 1 for d in rep["first_divergence"])
    assert all(d["old"]["bindings"] != d["new"]["bindings"] for d in rep["first_divergence"])


@pytest.mark.parametrize(("args", "message"), [
    (["nothere.rules", str(TTT)], "no such file"),
    ([str(ROOT / "rulesets/classic/connect4.rules"), str(TTT)], "other players"),
    ([str(TTT), str(TTT), "--games", "1"], "at least two games"),
    ([str(TTT), str(TTT), "--agent", "Z=random"], "not a player here"),
    ([str(TTT), str(TTT), "--players", "5"], "players"),
])
def test_bad_input_is_exit_2_with_a_message(args, message, capsys):
    assert main(["compare", *args, "-q"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_rules_that_do_not_check_are_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.rules"
    bad.write_text('game "x"\nplayers A\nflow\n    finish winnr A\n', encoding="utf-8")
    assert main(["compare", str(bad), str(TTT), "-q"]) == 2
    assert "bad.rules:4:12: error" in capsys.readouterr().err


def test_the_paired_tests_and_the_correction():
    # McNemar: 9 pairs disagree, all one way: 2 * (1/2)^9
    assert stats.mcnemar([True] * 9 + [False], [False] * 9 + [False]) == pytest.approx(2 / 512)
    assert stats.mcnemar([True, False], [True, False]) == 1.0
    # Wilcoxon: 10 differences all positive and distinct: z = (27.5 - 0.5) / sqrt(96.25)
    from math import erfc, sqrt
    assert stats.wilcoxon(list(range(1, 11))) == pytest.approx(erfc((27.5 - 0.5) / sqrt(96.25) / sqrt(2)))
    assert stats.wilcoxon([0, 0, 0]) == 1.0
    assert stats.wilcoxon([1, -1, 2, -2]) == pytest.approx(1.0)
    # Holm: sorted p times (m - rank), made monotone, in the order given
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    lo, hi = stats.bootstrap_interval([1, 2, 3, 4, 5], seed=1)
    assert 1 <= lo < 3 < hi <= 5 and stats.bootstrap_interval([1, 2, 3, 4, 5], seed=1) == [lo, hi]
    assert stats.paired_rate_interval([False] * 4, [True] * 4) == [1.0, 1.0]
