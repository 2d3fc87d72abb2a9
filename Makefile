# agenthooks: every target makes its own virtualenv, so a fresh clone needs only python3.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
E2E_CACHE ?= $(HOME)/.cache/agenthooks-e2e
E2E_PINS := tests/e2e/pins.txt
# PyPI pins (`pip:` in pins.txt) go into one virtualenv in the cache.
E2E_PIP_VENV := $(E2E_CACHE)/pip-venv
DEMO := .demo/sample-repo

.PHONY: all demo test test-awk e2e-deps bench stress lint clean

all: test

$(BIN)/agenthooks: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	@touch $@

# The main job: install agenthooks, install it into a sample repo, show what the agent gets.
# Its own virtualenv, with agenthooks alone (no test extras), as a user would install it.
DEMO_VENV := .venv-demo

$(DEMO_VENV)/bin/agenthooks: pyproject.toml
	$(PYTHON) -m venv $(DEMO_VENV)
	$(DEMO_VENV)/bin/pip install -q .
	@touch $@

demo: $(DEMO_VENV)/bin/agenthooks
	rm -rf $(DEMO) && mkdir -p $(DEMO) && git -C $(DEMO) init -q
	mkdir -p $(DEMO)/.claude
	$(DEMO_VENV)/bin/agenthooks install --yes $(DEMO)
	printf -- '- Indent with 4 spaces, never tabs\n- Every API returns {code, data, msg}\n' >> $(DEMO)/.agent/memory/tattoo.md
	@echo; echo "== the generated tree"; cd $(DEMO) && find .agent .claude -type f | sort
	@echo; echo "== the block the agent gets at session start, as text"
	bash $(DEMO)/.agent/hooks/pre_task.sh </dev/null
	@echo; echo "== the same block as Claude Code receives it: the SessionStart hook's JSON output"
	cd $(DEMO) && echo '{"hook_event_name":"SessionStart","source":"startup","session_id":"demo"}' \
	  | CLAUDE_PROJECT_DIR=$$PWD bash -p .agent/hooks/pre_task.sh claude-code; echo

# GNU userland, no slow or end-to-end tests: a few minutes on 2 cores. CI=true (.ci/run) and
# make stress run the whole matrix; AGENTHOOKS_USERLANDS=all and AGENTHOOKS_FULL=1 pick parts.
test: $(BIN)/agenthooks
	$(BIN)/python -m pytest -q -n 2 tests

# The suite's awk checks (the awk programs, the hooks that run them, past releases' hooks)
# with each awk a Debian box may have as `awk`, started in a UTF-8 locale (the hooks run
# awk under LC_ALL=C; tests/test_locales.py runs them under C, C.UTF-8, en_US.UTF-8, zh_CN.UTF-8).
AWKS ?= mawk gawk original-awk
AWK_LANG ?= C.UTF-8
AWK_TESTS ?= tests/test_render.py tests/test_locales.py tests/runtime/test_hooks.py \
	tests/test_upgrade_layout.py tests/memory/test_memory_show.py
test-awk: $(BIN)/agenthooks
	@set -e; for a in $(AWKS); do echo "test-awk: awk is $$a, LANG=$(AWK_LANG)"; \
	  AGENTHOOKS_AWK=$$a LANG=$(AWK_LANG) $(BIN)/python -m pytest -q -n 2 $(AWK_TESTS); done

# The pinned agent CLIs and SDKs for tests/e2e (about 5 GB); `make test` never downloads them.
# A line `FOLDER/ SPEC...` of pins.txt installs its specs together into $(E2E_CACHE)/FOLDER.
e2e-deps:
	@command -v npm >/dev/null || { echo "e2e-deps: npm is not installed (apt-get install npm)" >&2; exit 1; }
	@echo "e2e-deps: installing the pinned agent CLIs and SDKs ($(E2E_PINS), about 5 GB) into $(E2E_CACHE)"
	@set -e; n=$$(grep -Ecv '^(#|$$)' $(E2E_PINS)); i=0; seen=; \
	grep -Ev '^(#|$$)' $(E2E_PINS) | while read -r first rest; do i=$$((i + 1)); \
	  echo "e2e-deps: [$$i/$$n] $$first $$rest"; \
	  case $$first in */) dir=$(E2E_CACHE)/$${first%/}; specs=$$rest;; *) dir=; specs=$$first;; esac; \
	  case $$specs in \
	    pip:*) venv=$${dir:-$(E2E_PIP_VENV)}; [ -x $$venv/bin/pip ] || $(PYTHON) -m venv $$venv; \
	      $$venv/bin/pip install -q --disable-pip-version-check $${specs#pip:} ;; \
	    *) if [ -z "$$dir" ]; then pkg=$${specs%@*}; dir=$(E2E_CACHE); \
	        case " $$seen " in *" $$pkg "*) dir=$$dir/$${pkg##*/}-$${specs##*@};; esac; seen="$$seen $$pkg"; fi; \
	      npm install --prefix $$dir --no-audit --no-fund --loglevel=error $$specs ;; \
	  esac; done
	@echo "e2e-deps: done ($$(du -sh $(E2E_CACHE) | cut -f1) in $(E2E_CACHE))"

bench: $(BIN)/agenthooks
	$(BIN)/python bench/run.py

# The whole matrix: tests/reliability with larger counts (one process: the concurrency tests
# start their own workers), then the rest on every userland with the slow and end-to-end tests.
stress: $(BIN)/agenthooks
	AGENTHOOKS_STRESS=1 $(BIN)/python -m pytest -q tests/reliability
	AGENTHOOKS_STRESS=1 $(BIN)/python -m pytest -q -n 2 tests --ignore=tests/reliability

# mypy in fresh virtualenvs holding only agenthooks, mypy and stubs (no test extras, so no
# stray click), at the newest and the oldest typer that pyproject's pin allows.
TYPER_PIN := $(shell sed -n 's/^ *"\(typer[^"]*\)".*/\1/p' pyproject.toml)
TYPER_OLDEST := $(shell echo '$(TYPER_PIN)' | sed -n 's/.*>=\([0-9.]*\).*/\1/p')
LINT_VENVS := .venv-lint-newest .venv-lint-oldest

.venv-lint-newest/ok: TYPER_SPEC = $(TYPER_PIN)
.venv-lint-oldest/ok: TYPER_SPEC = typer==$(TYPER_OLDEST)
.venv-lint-%/ok: pyproject.toml
	rm -rf .venv-lint-$*
	$(PYTHON) -m venv .venv-lint-$*
	.venv-lint-$*/bin/pip install -q -e . mypy types-PyYAML '$(TYPER_SPEC)'
	@touch $@

lint: $(BIN)/agenthooks $(LINT_VENVS:%=%/ok)
	@set -e; for v in $(LINT_VENVS); do \
	  echo "lint: mypy with $$($$v/bin/python -c 'import typer; print("typer", typer.__version__)')"; \
	  $$v/bin/python -m mypy; done
	$(BIN)/python -m pytest -q tests/test_render.py

clean:
	rm -rf $(VENV) $(DEMO_VENV) $(LINT_VENVS) .demo dist build .pytest_cache
