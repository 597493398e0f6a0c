# The verbs of the project. `make run` and `make test` do all the set-up on a fresh machine.
PYTHON ?= python3.11
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test lint bench bench-load migrate install install-dev clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(BIN)/alembic upgrade head

run: migrate
	$(BIN)/uvicorn app.main:app --host $(HOST) --port $(PORT) --ws-per-message-deflate false

test: install-dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

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

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache emara.db test-artifacts
