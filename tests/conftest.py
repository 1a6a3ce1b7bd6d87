"""Shared fixtures: the loaded spaCy pipeline and one build of the seed articles per run.

When ``KG_REQUIRE_SERVERS=1`` (set by ``.ci/run``), a skipped test marked ``server`` or
``browser`` counts as a failure: in CI a missing Chromium or Virtuoso must not pass quietly.

The suite runs under pytest-xdist (``make check`` passes ``-n auto``): each worker is a
process of its own with its own session fixtures. ``once_per_run`` lets a session fixture
whose result is a folder be made by one worker and read by the others (``seed_build``);
servers bind free ports (``tests/servers.py``); every test writes under ``tmp_path``.
docs/contributing.md says how to write a test that stays safe under xdist.
"""

from __future__ import annotations

import fcntl
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
#: Data beside the checkout (read-only): the only place outside it a test may read.
SHARED = ROOT.parent / "shared"
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


def run_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary folder common to every xdist worker of this run (the session's own
    folder without xdist)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str,
                 make: Callable[[Path], None]) -> Path:
    """A folder ``make(folder)`` fills once per test run, whichever xdist worker comes first;
    the others wait for it and read it. Tests must treat it as read-only."""
    root = run_root(tmp_path_factory)
    folder, done = root / name, root / f"{name}.done"
    with _locked(root / f"{name}.lock"):
        if not done.exists():
            folder.mkdir(parents=True, exist_ok=True)
            make(folder)
            done.touch()
    return folder


@pytest.fixture(scope="session")
def seed_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An output folder holding a build of seeds/ in every format (built once per run, shared
    by the xdist workers: read it, never write into it)."""
    from kg.build.corpus import build_corpus
    from kg.config import Settings
    from kg.rdf.serialize import FORMATS

    def build(out: Path) -> None:
        build_corpus([SEEDS], Settings(out_dir=out), formats=tuple(FORMATS))

    return once_per_run(tmp_path_factory, "seed-build", build)


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


#: ``pytestmark = pytest.mark.xdist_group("NAME")`` at the top of a test file.
_GROUP = re.compile(r"""^pytestmark\s*=\s*pytest\.mark\.xdist_group\(\s*["']([^"']+)["']""",
                    re.M)


def declared_groups(folder: Path) -> dict[str, str]:
    """Test file (as pytest names it, ``tests/test_x.py``) -> the xdist group it declares."""
    groups = {}
    for path in sorted(folder.glob("test_*.py")):
        found = _GROUP.search(path.read_text(encoding="utf-8"))
        if found is not None:
            groups[path.relative_to(ROOT).as_posix()] = found.group(1)
    return groups


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup`` (``make check``), by file: each test file runs on one worker (its
    module fixtures, servers and browser start once), and files that must not run at the same
    time as each other (two Virtuosos) run on one worker too, by declaring a group at their
    top: ``pytestmark = pytest.mark.xdist_group("virtuoso")``. (xdist's own reading of the
    marker renames test ids, which pytest 9 no longer lets it do.)"""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    groups = declared_groups(ROOT / "tests")

    class FileGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return groups.get(path, path)

    return FileGroups(config, log)


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
