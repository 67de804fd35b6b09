# League manager for Blood Bowl. `make help` lists the targets.
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
FLASK := $(BIN)/flask --app app
HOST ?= 127.0.0.1
PORT ?= 5000
export PYTHONPATH := $(CURDIR)

.PHONY: help install run test checks lint fmt imports typecheck migrations-check pytest pytest-postgres \
        pytest-postgres-web pytest-postgres-rest soak smoke \
        pdf-fonts browser-deps bench clean i18n-compile i18n-update i18n-check

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

$(STAMP): requirements.lock pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	touch $(STAMP)

install: $(STAMP) ## Create the virtual environment and install the pinned dependencies

instance/secret_key:
	@mkdir -p instance
	@$(PYTHON) -c 'import secrets; print(secrets.token_hex(32))' > $@
	@chmod 600 $@
	@echo "Generated a development SECRET_KEY into $@"

run: install pdf-fonts instance/secret_key i18n-compile ## Migrate, seed the demo league on first run, serve on http://127.0.0.1:5000 with a job worker
	$(FLASK) db upgrade
	$(FLASK) seed-demo
	@# The job worker (league pack, sheets rendered ahead) runs beside the server and stops with it.
	$(FLASK) jobs worker & worker=$$!; trap 'kill $$worker' EXIT; $(FLASK) run --host $(HOST) --port $(PORT)

i18n-compile: install ## Compile the translation catalogues (translations/*/LC_MESSAGES/*.mo, not committed)
	$(BIN)/python -m league.i18n.catalogues compile

i18n-update: install ## Extract the texts into translations/messages.pot and update every catalogue from it
	$(BIN)/python -m league.i18n.catalogues update

i18n-check: install ## Fail on any text untranslated, fuzzy or with wrong placeholders once the catalogues are up to date
	$(BIN)/python -m league.i18n.catalogues check

# The static checks, the SQLite pass, the PostgreSQL pass (which spends much of its time
# waiting on the server, in two halves), the soak run and the production smoke test side
# by side on the machine's cores; each prints its output when it ends.
test: install browser-deps i18n-compile ## Everything CI runs
	$(MAKE) --no-print-directory --output-sync=target -j4 \
		checks pytest pytest-postgres-web pytest-postgres-rest soak smoke
	@echo "All checks passed."

checks: lint imports typecheck i18n-check migrations-check ## The static checks: lint, layering, types, catalogues, migrations

lint: install ## ruff: lint and format check
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fmt: install ## Format the code and apply safe lint fixes
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

imports: install ## import-linter: the layering contracts (docs/architecture.md)
	$(BIN)/lint-imports

typecheck: install ## mypy: league/rules and league/services strict, the rest checked (pyproject.toml)
	$(BIN)/mypy

migrations-check: install ## `flask db upgrade` on an empty database, then `flask db check`
	@tmp=$$(mktemp -d); \
	export DATABASE_URL="sqlite:///$$tmp/check.sqlite3" SECRET_KEY=migrations-check; \
	$(FLASK) db upgrade && $(FLASK) db check; status=$$?; rm -rf $$tmp; exit $$status

# The SQLite pass and the longer PostgreSQL half run on two pytest-xdist workers each, a
# test file to each worker in turn (a module's seeded world is built once), so that
# whichever ends last has both cores; tests/conftest.py fails a run in which fewer
# tests ran than were collected.
PYTEST_WORKERS ?= 2
XDIST := -n $(PYTEST_WORKERS) --dist loadfile

pytest: install i18n-compile ## The test suite on SQLite, on PYTEST_WORKERS processes (2)
	SECRET_KEY=tests $(BIN)/python -m pytest -q $(XDIST)

PYTEST_POSTGRES := SECRET_KEY=tests TEST_DATABASE=postgresql $(BIN)/python -m pytest -q

pytest-postgres: install i18n-compile ## The test suite on PostgreSQL (127.0.0.1:5432; skipped if absent unless CI=true)
	$(PYTEST_POSTGRES)

pytest-postgres-web: install i18n-compile
	$(PYTEST_POSTGRES) tests/web

pytest-postgres-rest: install i18n-compile
	$(PYTEST_POSTGRES) $(XDIST) --ignore=tests/web

# Left out of the pytest passes above (pyproject.toml: -m 'not smoke').
smoke: install i18n-compile ## The production smoke test: gunicorn, a job worker, PostgreSQL and Redis, used over HTTP (skipped if absent unless CI=true)
	SECRET_KEY=tests $(BIN)/python -m pytest -q -m smoke tests/smoke

soak: install ## Seconds of concurrent hires, results, advancements, voids on PostgreSQL, then recompute --check (skipped if absent unless CI=true)
	SECRET_KEY=soak $(BIN)/python bench/soak.py --short

# The PDF roster prints with DejaVu Sans, Droid Sans Fallback for CJK names and
# Noto Color Emoji for emoji in names.
FONT_FILES := /usr/share/fonts/truetype/dejavu/DejaVuSansCondensed.ttf \
              /usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf \
              /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf
FONT_PACKAGES := fonts-dejavu-core fonts-droid-fallback fonts-noto-color-emoji
# WeasyPrint warns (an error in the tests) without HarfBuzz's subsetting library.
TEST_PACKAGES := chromium poppler-utils libharfbuzz-subset0 $(FONT_PACKAGES)
HAVE_FONTS := ls $(FONT_FILES) >/dev/null 2>&1

# $(call debian_install,PACKAGES,CHECK,WHAT IF MISSING): install PACKAGES from Debian
# (as root) unless the shell command CHECK succeeds.
define debian_install
	@if $(2); then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "Installing $(1) from Debian..."; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q $(1) >/dev/null 2>&1 || \
		{ apt-get update -q >/dev/null && apt-get install -y -q $(1) >/dev/null; }; \
	else echo "$(1): some missing and not root: $(3)"; fi
endef

pdf-fonts: ## Install the PDF fonts from Debian (as root)
	$(call debian_install,$(FONT_PACKAGES),$(HAVE_FONTS),roster sheets print missing characters as boxes.)

browser-deps: ## Install Debian's chromium, poppler-utils and the PDF fonts for the tests (as root)
	$(call debian_install,$(TEST_PACKAGES),command -v chromium >/dev/null && command -v pdftotext >/dev/null && ldconfig -p | grep -q libharfbuzz-subset && $(HAVE_FONTS),browser tests will skip.)

bench: install ## Run the benchmarks under bench/ and print their figures
	SECRET_KEY=bench $(BIN)/python bench/run.py

clean: ## Remove the virtual environment and caches (keeps instance/)
	rm -rf $(VENV) .pytest_cache .ruff_cache .import_linter_cache .mypy_cache
