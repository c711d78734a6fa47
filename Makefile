# `make run` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean translations

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,lint]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m reader $(ARGS)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

# ruff (rules and format), mypy --strict on everything without Qt, import-linter's layers
lint: $(STAMP)
	$(VENV)/bin/ruff check reader tests bench
	$(VENV)/bin/ruff format --check reader tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# the command line's catalogue: resources/locale/*/LC_MESSAGES/*.mo from resources/translations/*.po (Babel)
translations: $(STAMP)
	$(PY) -m tests.helpers.po

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) bench/run.py --papers $(or $(N),3300)

clean:
	rm -rf $(VENV) build *.egg-info
