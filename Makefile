# The verbs of the project. `make run` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
# localhost, not 127.0.0.1: browsers make passkeys for a host name, never for an IP address.
HOST   ?= localhost
PORT   ?= 8000
# Ctrl+C: open responses get this long to finish (event streams end at once) before they are cut.
GRACE  ?= 5

.PHONY: run test test-quick test-rules shots coverage lint bench bench-load migrate install install-dev lock docs clean

# Installs come from the locks in requirements/ (every package, pinned); `make lock` rewrites
# them from pyproject.toml. app.lock: what the server runs; dev.lock: that plus tests and tools.
APP_LOCK := requirements/app.lock
DEV_LOCK := requirements/dev.lock

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: $(APP_LOCK) pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -r $(APP_LOCK)
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $@

$(VENV)/.installed-dev: $(DEV_LOCK) pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -r $(DEV_LOCK)
	$(BIN)/python -m pip install -q --no-deps -e .
	touch $(VENV)/.installed $@

# Resolve pyproject.toml's pins and everything they pull in, into the two lock files.
LOCKER := .lockenv/bin/pip-compile --quiet --strip-extras --no-emit-index-url \
	--no-emit-find-links --no-emit-trusted-host --allow-unsafe
lock:
	$(PYTHON) -m venv .lockenv
	.lockenv/bin/python -m pip install -q pip-tools==7.6.2
	$(LOCKER) --output-file $(APP_LOCK) pyproject.toml
	$(LOCKER) --extra dev --constraint $(APP_LOCK) --output-file $(DEV_LOCK) pyproject.toml

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(BIN)/alembic upgrade head

run: migrate
	$(BIN)/uvicorn app.main:app --host $(HOST) --port $(PORT) --timeout-graceful-shutdown $(GRACE) \
		--ws-per-message-deflate false

# The tests keep the app's compiled bytecode (__pycache__/, ignored by git) even where the
# environment says PYTHONDONTWRITEBYTECODE: a run starts dozens of Python processes that import
# the app (test workers, servers, command lines), and each compiled its 336 modules from source
# again (0.45 CPU-s, a sixth of a server's start).
PYTEST := env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest

# The tests. Parallel workers (pytest-xdist), four unless WORKERS says otherwise: the tests
# mostly wait (on browsers, servers in processes of their own, the database), so four workers
# finish sooner than one a core even on two cores. A module's tests stay on one worker (its
# servers, browser and databases are its own).
WORKERS ?= 4
XDIST   := -n $(WORKERS) --dist loadfile
# make test: two workers (TEST_WORKERS chooses). Its CPU is mostly Chromium's, and four browsers
# on two cores cost more CPU for the same tests (CI=true, pytest's time: four workers 15:59 and
# 1,811 CPU-s, screenshots still taken; two workers 12:37 and 1,289 CPU-s, without them).
TEST_WORKERS ?= 2
# test: every test — the engine, the server on SQLite, on Postgres where the database matters,
# servers in processes of their own, and the browser.
test: install-dev
	$(PYTEST) -n $(TEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# test-quick: everything but the browser, servers in processes of their own and Postgres.
test-quick: install-dev
	$(PYTEST) $(XDIST) -m "not browser and not stack and not postgres" \
		--ignore=tests/browser $(PYTEST_ARGS)

# test-rules: the engine alone — its scenarios, golden games and properties.
test-rules: install-dev
	$(PYTEST) $(XDIST) tests/rules tests/rulesref $(PYTEST_ARGS)

# shots: the browser tests with their screenshots written to test-artifacts/, to look at the
# screens (`make test` takes none: no test asserts on a picture; tests/browser/shots.py).
shots: install-dev
	EMARA_SCREENSHOTS=1 $(PYTEST) $(XDIST) -m browser $(PYTEST_ARGS)

# coverage: line and branch coverage of app/ over every test (the test processes, servers in
# threads included; servers in processes of their own are not measured).
coverage: install-dev
	rm -f .coverage .coverage.*
	$(BIN)/python -m coverage erase
	$(PYTEST) $(XDIST) -p tests.coverage_plugin $(PYTEST_ARGS)
	$(BIN)/python -m coverage combine -q
	$(BIN)/python -m coverage report --skip-covered --sort=cover | tail -n 25

lint: install-dev
	$(BIN)/ruff check app tests bench migrations
	$(BIN)/ruff format --check app tests bench migrations
	$(BIN)/mypy app

# Engine speed, then a short bot-strength run. Load (needs Postgres) is separate: bench-load.
bench: install-dev
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/bots.py --games 3

bench-load: install-dev
	$(BIN)/python bench/load.py --tables 10 --seconds 10

# The generated contracts in docs/ (a test fails when they are stale).
docs: install
	$(BIN)/python -m app.openapi > docs/openapi.json
	$(BIN)/python -m app.frames_schema > docs/frames.schema.json

clean:
	rm -rf $(VENV) .lockenv .pytest_cache .mypy_cache .ruff_cache emara.db test-artifacts
