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

# the catalogues: the window's (new strings into the .ts files, to translate, see
# resources/translations/GLOSSARY.md; then the .qm files the package ships) and the
# command line's (resources/locale/*/LC_MESSAGES/*.mo from resources/translations/*.po,
# with Babel)
TS := resources/translations/paper_reader
LUPDATE := $(VENV)/bin/pyside6-lupdate -silent -extensions py -no-obsolete -locations none
translations: $(STAMP)
	$(LUPDATE) -target-language zh_CN reader -ts $(TS)_zh_CN.ts
	$(LUPDATE) -pluralonly -target-language en reader -ts $(TS)_en.ts
	$(VENV)/bin/pyside6-lrelease -silent $(TS)_zh_CN.ts -qm $(TS)_zh_CN.qm
	$(VENV)/bin/pyside6-lrelease -silent $(TS)_en.ts -qm $(TS)_en.qm
	$(PY) -m tests.helpers.po

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) bench/run.py --papers $(or $(N),3300)

clean:
	rm -rf $(VENV) build *.egg-info
