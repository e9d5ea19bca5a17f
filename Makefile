# Two commands for a fresh machine: `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: serve test check lint schema bench build screenshots browser-deps clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# --strict: warnings (plausibility-range, text-plain-chinese, text-missing-en, text-en-numbers, model-calibration-error) fail too, as in CI.
check: $(STAMP)
	$(PY) -m generator check --strict specs

# Not strict: the preview shows warnings at the top of every page instead of refusing to start.
serve: $(STAMP)
	$(PY) -m generator check specs
	$(VENV)/bin/mkdocs serve -a 127.0.0.1:8000

build: check
	$(VENV)/bin/mkdocs build --strict

# Lighthouse runs the full Chromium (package chromium), not the tests' headless shell.
bench: $(STAMP)
	@tools/browser-deps.sh chromium
	$(PY) benchmarks/bench.py

screenshots: $(STAMP)
	$(PY) tools/screenshots.py

lint: $(STAMP)
	$(PY) -m ruff check generator tests benchmarks tools
	$(PY) -m mypy

# The browser tests need Debian's chromium-headless-shell and CJK fonts: installed here when missing (as root),
# or a one-line message with the command to run.
browser-deps:
	@tools/browser-deps.sh

# Four workers (pytest-xdist) on the 2-core machines CI runs on. The browser and serve tests spend
# much of their time waiting on Chromium and on `mkdocs serve`, so two workers leave the cores
# idle part of the time; with four, vmstat shows them busy (0.5 % idle). Measured on one slow
# day's machine: three workers 754 s, four 677 s (two took 976 s, before a change that saved about
# 100 s of one worker's time); on an earlier day, one worker 440 s, two 291 s.
# --dist worksteal: a worker that runs out takes half of the longest queue left. Under the default
# (blocks of consecutive tests), one worker was handed every browser test and ran on alone for the
# last 170 s while the other three had finished (a log of each test's start and end per worker);
# with worksteal all four end within 25 s of each other.
test: browser-deps $(STAMP) lint
	$(PY) -m generator check --strict specs
	$(PY) -m pytest -n 4 --dist worksteal

schema: $(STAMP)
	$(PY) -m generator schema --out schema

clean:
	rm -rf $(VENV) site build .pytest_cache .hypothesis .cache
