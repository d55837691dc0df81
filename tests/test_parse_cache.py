"""The user cache folder: the parser's tables and the trees of files parsed before, so that
`regelwerk check` of an unchanged ruleset starts fast; a stale or broken cache is never used."""

from __future__ import annotations

from pathlib import Path

from regelwerk.dsl import cache, parse, sources


def test_trees_are_cached_by_text_and_path(tmp_path, monkeypatch):
    monkeypatch.setenv("REGELWERK_CACHE", str(tmp_path / "cache"))
    rules = tmp_path / "g.rules"
    rules.write_text("players X, O\nflow\n    finish draw\n", encoding="utf-8")
    first = sources.parse_file(rules)
    trees = list((tmp_path / "cache").glob("tree-*.pickle"))
    assert len(trees) == 1
    again = sources.parse_file(rules)
    assert again == first and again.decls[0].span.file == str(rules)
    rules.write_text("players X, O, Z\nflow\n    finish draw\n", encoding="utf-8")
    changed = sources.parse_file(rules)
    assert changed != first and changed.decls[0].names == ("X", "O", "Z")
    assert len(list((tmp_path / "cache").glob("tree-*.pickle"))) == 2


def test_a_broken_cached_tree_is_parsed_again(tmp_path, monkeypatch):
    monkeypatch.setenv("REGELWERK_CACHE", str(tmp_path / "cache"))
    rules = tmp_path / "g.rules"
    rules.write_text("players X, O\nflow\n    finish draw\n", encoding="utf-8")
    first = sources.parse_file(rules)
    (tree,) = (tmp_path / "cache").glob("tree-*.pickle")
    tree.write_bytes(b"not a pickle")
    assert sources.parse_file(rules) == first


def test_no_cache_when_switched_off(tmp_path, monkeypatch):
    monkeypatch.setenv("REGELWERK_CACHE", "")
    assert cache.cache_folder() is None
    rules = tmp_path / "g.rules"
    rules.write_text("players X, O\nflow\n    finish draw\n", encoding="utf-8")
    assert sources.parse_file(rules).decls


def test_the_parser_tables_are_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("REGELWERK_CACHE", str(tmp_path / "cache"))
    parse._parser.cache_clear()
    try:
        parse._parser()
        assert [p.name.startswith("grammar-") for p in Path(tmp_path / "cache").iterdir()] == [True]
    finally:
        parse._parser.cache_clear()


def test_a_check_of_cached_files_does_not_load_the_parser(tmp_path):
    """Lark and the tree builder are imported only when a file must really be parsed: that is
    what keeps a fresh `regelwerk check` of an unchanged ruleset fast (issue 8)."""
    import os
    import subprocess
    import sys

    khan = Path(__file__).resolve().parent.parent / "rulesets" / "khan" / "khan.rules"
    probe = ("import sys\nfrom regelwerk.cli import main\ncode = main(['check', sys.argv[1]])\n"
             "print(code, 'lark' in sys.modules, 'regelwerk.dsl.parse' in sys.modules)\n")
    env = {**os.environ, "REGELWERK_CACHE": str(tmp_path / "cache")}
    runs = [subprocess.run([sys.executable, "-c", probe, str(khan)], capture_output=True, text=True,
                           env=env, timeout=120) for _ in range(2)]
    assert runs[0].stdout.split()[-3:] == ["0", "True", "True"], runs[0].stderr  # parsed and cached
    assert runs[1].stdout.split()[-3:] == ["0", "False", "False"], runs[1].stderr  # read from the cache


def test_a_cached_tree_of_every_seed_ruleset_is_the_tree_parsed():
    """Trees are pickled as each node's class and fields (dsl/ast.py `_reduce`): a whole
    ruleset read back equals the one parsed, node for node, spans and sources included."""
    import pickle

    from regelwerk.dsl.ast import iter_nodes
    from regelwerk.dsl.sources import parse_text

    root = Path(__file__).resolve().parent.parent / "rulesets"
    for path in sorted(root.glob("*/*.rules")):
        tree = parse_text(path.read_text(encoding="utf-8"), str(path))
        back = pickle.loads(pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL))
        assert back == tree
        pairs = zip(iter_nodes(back), iter_nodes(tree), strict=True)
        assert all(type(a) is type(b) and getattr(a, "span", None) == getattr(b, "span", None) for a, b in pairs)
