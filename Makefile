# Two commands do all set-up: `make run` opens the app, `make test` runs every check.
PYTHON ?= python3
VENV := .venv
# a virtual environment keeps its programs in Scripts/, named .exe, on Windows
BIN := $(VENV)/$(if $(filter Windows_NT,$(OS)),Scripts,bin)
EXE := $(if $(filter Windows_NT,$(OS)),.exe,)
RUN_STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
BUNDLE_STAMP := $(VENV)/.installed-bundle

.PHONY: run test bench fuzz lint clean screenshot pictures bundle bundle-check

$(BIN)/python$(EXE):
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python$(EXE)
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q campaign1813
	touch $@

$(TEST_STAMP): pyproject.toml | $(BIN)/python$(EXE)
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@ $(RUN_STAMP)

# the bundle's tools (PyInstaller, Pillow) beside the test extra, whose pypdf reads its PDFs back
$(BUNDLE_STAMP): pyproject.toml | $(BIN)/python$(EXE)
	$(BIN)/python -m pip install --quiet -e ".[test,bundle]"
	touch $@ $(TEST_STAMP) $(RUN_STAMP)

run: $(RUN_STAMP)
	$(BIN)/campaign1813-gui

lint: $(TEST_STAMP)
	$(BIN)/ruff check campaign1813 tests benchmarks tools packaging
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

# the fuzzers at length (make test runs each with a bounded number of examples), the races
# of every pair of a battle's actions five times each (make test races each pair once), and
# all ten recorded days of the 10x campaign's End Day (make test plays the first two), and four
# clients racing 200 orders each on one server campaign, and two umpires and two players
# racing 200 each on one (make test races 25 each)
fuzz: $(TEST_STAMP)
	QT_QPA_PLATFORM=offscreen FUZZ_EXAMPLES=1000 END_DAY_RECORD_DAYS=10 RACE_ACTIONS=200 \
		$(BIN)/python -m pytest tests/fuzz tests/store/test_battle_races.py \
		tests/day/test_end_day_record.py tests/store/test_server.py tests/store/test_club.py

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

# the standalone application folder, dist/campaign1813/ (docs/packaging.md): the window
# (campaign1813-gui) and the command line (campaign1813) on one set of libraries
bundle: $(BUNDLE_STAMP)
	$(BIN)/pyinstaller --noconfirm --log-level WARN --distpath dist --workpath build/bundle \
		packaging/campaign1813.spec

# the bundle used as a user would: the window's first start, the command line, an old file
bundle-check: bundle
	$(BIN)/python packaging/check_bundle.py dist/campaign1813

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache .coverage
