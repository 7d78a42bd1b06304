# The two commands a new machine needs: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: demo test lint bench-locomo bench-scale bench-http reliability clean

RUNTIME := $(VENV)/.runtime
LOCK   := requirements.lock

# `make demo` installs the library alone; `make test` adds the test tools and the libraries the
# adapters are tested against. Both take their versions from the lock (pip's constraints file).
$(RUNTIME): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c $(LOCK) -e .
	touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(BIN)/pip install --quiet -c $(LOCK) -e '.[dev]'
	touch $(STAMP)

# the web page's browser test (tests/test_web.py) drives Debian's Chromium; none is downloaded
$(CHROMIUM):
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium

demo: $(RUNTIME)
	$(BIN)/python examples/demo.py

# The suite runs on every core (pytest-xdist): one worker a core, each taking a whole test file
# at a time (--dist loadfile), so a module's fixtures are built once and no file waits on
# another; each worker starts a PostgreSQL of its own (tests/pg.py). Serial run: make test
# PYTEST_WORKERS=0. A developer's `pytest tests/test_x.py` stays serial (no -n in addopts): one
# file goes to one worker anyway, and starting workers would only add seconds.
PYTEST_WORKERS ?= auto

test: $(STAMP) $(CHROMIUM)
	$(BIN)/ruff check src tests bench examples tools
	$(BIN)/python tools/check_layout.py
	$(BIN)/python tools/data_overlap.py
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadfile

lint: $(STAMP)
	$(BIN)/ruff check src tests bench examples tools
	$(BIN)/python tools/check_layout.py
	$(BIN)/python tools/data_overlap.py

bench-locomo: $(STAMP)
	$(BIN)/python bench/locomo.py

bench-scale: $(STAMP)
	$(BIN)/python bench/scale.py

bench-http: $(STAMP)
	$(BIN)/python bench/http_load.py

# issue 18: load, SIGKILL and fuzzing; issue 29: I/O faults, power loss, the cost of FULL;
# minutes, not part of `make test` (its fast part is: tests/test_reliability_suite.py,
# tests/test_durability.py); figures in bench/results/reliability.md
reliability: $(STAMP)
	PYTHONPATH=src $(BIN)/python bench/reliability/concurrency.py
	PYTHONPATH=src $(BIN)/python bench/reliability/concurrency.py --served-postgres --writers 4 --per-writer 250 --readers 2
	PYTHONPATH=src $(BIN)/python bench/reliability/crash.py --kills 100 --phase-kills 15
	PYTHONPATH=src $(BIN)/python bench/reliability/fuzz.py --cases 10000
	PYTHONPATH=src $(BIN)/python bench/reliability/scope_probes.py
	PYTHONPATH=src $(BIN)/python bench/reliability/durability.py --sweeps 3 --losses 300
	PYTHONPATH=src $(BIN)/python bench/reliability/sync_cost.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .ruff_cache
