"""Shared fixtures: the loaded spaCy pipeline and one build of the seed articles per session.

When ``KG_REQUIRE_SERVERS=1`` (set by ``.ci/run``), a skipped test marked ``server`` or
``browser`` counts as a failure: in CI a missing Chromium or Virtuoso must not pass quietly.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
REQUIRED_MARKERS = ("server", "browser")
#: Debian's Chromium, driven by playwright (never a downloaded browser), and its flags here.
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]


@pytest.fixture(scope="session")
def nlp() -> Any:
    """The spaCy pipeline, loaded once."""
    from kg.extract import load_pipeline

    return load_pipeline()


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory: pytest.TempPathFactory, nlp: Any) -> Path:
    """An output folder holding a build of seeds/ in every format (built once per session)."""
    from kg.build.corpus import build_corpus
    from kg.config import Settings
    from kg.rdf.serialize import FORMATS

    out = tmp_path_factory.mktemp("seed-build")
    build_corpus([SEEDS], Settings(out_dir=out), formats=tuple(FORMATS), nlp=nlp)
    return out


#: A few BBC politics articles beside the seeds: Tony Blair's posts, claims made through "he",
#: tax (the journalist's tasks of issue 37, tested on kg serve); ../shared, read-only.
BBC = ROOT.parent / "shared" / "corpora" / "bbc"
DESK_BBC = ("bbc_politics_262.txt", "bbc_politics_277.txt", "bbc_politics_226.txt",
            "bbc_politics_409.txt")


@pytest.fixture(scope="session")
def desk_build(tmp_path_factory: pytest.TempPathFactory, nlp: Any) -> Path:
    """An output folder holding a build of the seeds and ``DESK_BBC`` (built once per
    session); skips when the BBC corpus is not beside the project."""
    import shutil

    from kg.build.corpus import build_corpus
    from kg.config import Settings

    if not all((BBC / name).is_file() for name in DESK_BBC):
        pytest.skip(f"the BBC corpus is not beside the project ({BBC})")
    articles = tmp_path_factory.mktemp("desk-articles")
    for path in [*SEEDS.iterdir(), *(BBC / name for name in DESK_BBC)]:
        shutil.copy(path, articles / path.name)
    out = tmp_path_factory.mktemp("desk-build")
    build_corpus([articles], Settings(out_dir=out), nlp=nlp)
    return out


@pytest.fixture(scope="session")
def seed_corpus(nlp: Any) -> Any:
    """The seed corpus in memory (``kg.build.corpus.Corpus``): extractions, resolution, quads."""
    from kg.build.corpus import corpus_from_extractions, extract_corpus
    from kg.config import Settings
    from kg.ingest.files import read_documents

    settings = Settings()
    extractions = list(extract_corpus(read_documents([SEEDS]), settings, nlp))
    return corpus_from_extractions(extractions, settings)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Any:
    outcome = yield
    report = outcome.get_result()
    required = os.environ.get("KG_REQUIRE_SERVERS") == "1"
    if required and report.skipped and any(item.get_closest_marker(m) for m in REQUIRED_MARKERS):
        report.outcome = "failed"
        report.longrepr = f"skipped, but KG_REQUIRE_SERVERS=1 requires it to run: {report.longrepr}"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium for a test module (the view's and kg serve's browser tests)."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} missing; `make system-deps` installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=ARGS)
        yield chromium
        chromium.close()
