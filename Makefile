# Two commands do all set-up: `make run` opens the app, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test bench fuzz lint clean screenshot pictures

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q campaign1813
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/campaign1813-gui

lint: $(TEST_STAMP)
	$(BIN)/ruff check campaign1813 tests benchmarks tools
	$(BIN)/lint-imports
	$(BIN)/mypy --strict --warn-unreachable

# Two workers (the tests of a file together, so a module's fixture is made once). The battle
# engine's own tests run under coverage, which must reach 95 % of it; the rest run without
# (coverage's tracer doubles to sextuples the time of every test it watches).
PYTEST := QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n 2 --dist loadfile
BATTLE_TESTS := tests/battle tests/ui/battle

test: lint
	$(PYTEST) $(BATTLE_TESTS) \
		--cov=campaign1813.campaign.battle --cov-report=term:skip-covered --cov-fail-under=95
	$(PYTEST) $(addprefix --ignore=,$(BATTLE_TESTS))

# the fuzzers at length (make test runs each with a bounded number of examples), and the races
# of every pair of a battle's actions five times each (make test races each pair once)
fuzz: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen FUZZ_EXAMPLES=1000 $(BIN)/python -m pytest tests/fuzz \
		tests/store/test_battle_races.py

bench: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python benchmarks/run.py

# the picture tools are in tools/, beside the package and not installed with it; run from here.
# On a virtual X screen where Xvfb is installed, so the pictures come from the real window
SHOT := $(shell command -v xvfb-run >/dev/null && echo 'xvfb-run -a -s "-screen 0 1920x1200x24"' \
          || echo 'env QT_QPA_PLATFORM=offscreen')

screenshot: $(RUN_STAMP)
	$(SHOT) $(BIN)/python -m tools.screenshot docs
	$(SHOT) $(BIN)/python -m tools.battle_screenshots docs

pictures: $(RUN_STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m tools.map_pictures docs/maps

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .coverage
