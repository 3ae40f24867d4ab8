# fivedice: `make play` to play, `make test` to run every check.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

.PHONY: install warm dev play test test-fast test-cluster test-full-solve lint typecheck pytest clean system-deps warm-kernels warm-kernels-tables warm-kernels-players docs docs-serve docs-check similar-code screenshots

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Runtime install; the stamp is redone whenever pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

# Ready before the first game: numba's kernels compiled into its cache and the classic tables
# solved into the user cache (`fivedice warm`, a few minutes once; quick when done). Not part
# of `make dev`/`make test`: the tests build the tables they need in fixtures of their own.
$(VENV)/.warmed: $(VENV)/.installed
	$(BIN)/fivedice warm
	touch $@

install: $(VENV)/.installed $(VENV)/.warmed

dev: $(VENV)/.installed-dev system-deps

# System packages the tests need (PostgreSQL for the store tests, Chromium for the browser
# tests); kept in one script.
system-deps:
	@bash scripts/system-deps.sh

warm: $(VENV)/.installed
	$(BIN)/fivedice warm

play: install
	$(BIN)/fivedice play

lint: dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: dev
	$(BIN)/mypy --strict src

# Compiled modules and pytest's rewritten tests are cached (__pycache__, ignored by git) even
# where the environment turns bytecode off: a second run skips 5 s of compiling per worker, and
# every server a test starts imports fivedice from the cache. Work stealing keeps both
# workers busy to the end (the terminal-app tests wait more than they compute).
PYTEST_ENV := env -u PYTHONDONTWRITEBYTECODE

# The strategy kernels (numba) compiled once before the workers start, so that both load them
# instead of compiling the same ones at the same time (minutes of CPU each on a fresh clone);
# `make test` runs it beside mypy, in two halves that compile different kernels (the table
# engines', the CPU players'), so both cores work once mypy is done. numba's cache is the
# directory of this version of the kernels' sources (strategy/kernel_cache.py: under the user
# cache, or $NUMBA_CACHE_DIR), the same for this step, the workers and every server they start.
warm-kernels: warm-kernels-tables warm-kernels-players

warm-kernels-tables warm-kernels-players: warm-kernels-%: dev
	$(PYTEST_ENV) $(PY) -m tests.support.kernels $*

# Two workers (pytest-xdist): every server a test starts takes a free port, every database
# is the test's own. The store tests run on SQLite and on a throwaway PostgreSQL server
# started (and stopped, also on failure) by scripts/with-postgres.sh. The fault drill across
# hosts (tests/cluster/) is part of it: skipped, with the reason, where network namespaces
# cannot be made; bounded by its own deadline and pytest-timeout where they can.
pytest: dev
	$(PYTEST_ENV) bash scripts/with-postgres.sh $(BIN)/pytest -n 2 --dist worksteal -m "not full_solve" --durations=25

# The fault drill across hosts alone (tests/cluster/: network namespaces, HAProxy,
# PostgreSQL; root needed): to run it again and again while changing the cluster's code.
test-cluster: dev
	$(PYTEST_ENV) bash scripts/with-postgres.sh $(BIN)/pytest -p no:cacheprovider -m cluster tests/cluster

# The whole Maxi Yatzy table without saved rolls (about 4 minutes on two cores, 0.7 GB) and
# 4,000 games of its own policy against its optimum: too long for make test (the same check
# over 20,000 games is benchmarks/bench_maxi.py). The reduced games against brute force are
# in make test.
test-full-solve: dev
	$(PYTEST_ENV) $(BIN)/pytest -p no:cacheprovider -m full_solve tests/strategy

# The inner loop: every test but the slow kinds (marked in tests/conftest.py): real browsers,
# tests that start processes or servers of their own, PostgreSQL, solved strategy tables,
# and the few marked slow. No lint, no mypy, no PostgreSQL server.
FAST_TESTS := not (browser or processes or postgres or tables or slow or full_solve or cluster)

test-fast: $(VENV)/.installed-dev
	$(PYTEST_ENV) $(BIN)/pytest -n 2 --dist worksteal -m "$(FAST_TESTS)"

# The docs site (mkdocs.yml, docs/): built strictly into site/ (git-ignored); a broken link, a
# page left out of the nav or a docstring mkdocstrings cannot read fails the build.
docs: dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

docs-serve: dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve

docs-check: docs

# Repeated code held down: pylint's similarity check against the pairs known when it came in
# (scripts/similar_code_baseline.txt); a new pair fails.
similar-code: dev
	$(PY) scripts/similar_code.py

# The pictures of the docs, made again from real runs (Chromium pages, the terminal app's own
# SVG screenshots) into docs/images/.
screenshots: dev
	$(PYTEST_ENV) $(PY) scripts/screenshots.py

test: lint
	$(MAKE) --no-print-directory -j 2 typecheck warm-kernels-tables warm-kernels-players similar-code docs-check
	$(MAKE) --no-print-directory pytest

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
