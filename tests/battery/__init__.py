"""The trust battery of issue 10 §5: fuzzers and corpora that keep the guarantees true.

A few hundred inputs run with every `make test`; `pytest -m slow tests/battery` runs
thousands. Each input is classified (tally.py) and the run fails on any traceback, exit 70,
unlocated error, hang or leak; `REGELWERK_BATTERY_REPORT=FILE` writes the totals as JSON.
"""
