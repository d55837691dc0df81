# Every target does its own set-up, so a fresh clone needs only `make demo` or `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The viewer's browser tests drive Debian's Chromium (headless); installed when missing.
CHROMIUM ?= $(or $(REGELWERK_CHROMIUM),/usr/bin/chromium)
export REGELWERK_CHROMIUM := $(CHROMIUM)
# `regelwerk serve`'s PostgreSQL tests start a throw-away cluster with the local server's initdb.
PG_CTLCLUSTER := /usr/bin/pg_ctlcluster

.PHONY: demo test bench lint clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,browser,lsp,report,dask,openspiel,serve]'
	# byte-compiled once, so a fresh `regelwerk check` does not compile the package each time
	$(BIN)/python -m compileall -q dsl interpreter regelwerk >/dev/null
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/regelwerk run rulesets/classic/tictactoe.rules --players 2 --seed 7 --trace demo-trace.jsonl
	$(BIN)/regelwerk trace show demo-trace.jsonl

$(CHROMIUM):
	@command -v apt-get >/dev/null || { echo "no $(CHROMIUM): install Chromium and set REGELWERK_CHROMIUM"; exit 1; }
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

$(PG_CTLCLUSTER):
	@command -v apt-get >/dev/null || { echo "no PostgreSQL: install it or set REGELWERK_PG_URL"; exit 1; }
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null

test: $(STAMP) $(CHROMIUM) $(PG_CTLCLUSTER)
	$(BIN)/ruff check .
	REGELWERK_REQUIRE_EXTRAS=1 $(BIN)/python -m pytest -q -p no:cacheprovider -n 2

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info demo-trace.jsonl
