"""Crash safety: SIGKILL a real ``python -m kg build`` at several points, then check that the
previous outputs are intact, nothing half-written is visible, the lock does not stick and a
re-run (with whatever the killed build left in the cache) gives exactly the right output.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kg.atomic import LOCK_NAME, BuildLock, atomic_writer, remove_stale_temps
from kg.build.cache import CACHE_FOLDER
from kg.build.corpus import build_corpus
from kg.build.manifest import MANIFEST_PATH
from kg.config import Settings
from tests.conftest import SHARED
from tests.graph_checks import read_quads

BBC = SHARED / "corpora" / "bbc"
ARTICLES = 24  # enough for a build of several seconds
FORMATS = ("ttl", "trig", "nt")
OUTPUTS = tuple(f"graph.{fmt}" for fmt in FORMATS)
TIMEOUT = 300.0

pytestmark = pytest.mark.skipif(not BBC.is_dir(), reason=f"needs the corpus in {BBC}")


@dataclass(frozen=True)
class Setup:
    """The corpus, the outputs a build of it must give, and the outputs of an earlier build."""

    corpus: Path
    reference: dict[str, bytes]
    previous: dict[str, bytes]
    seconds: float  # how long the reference build took
    #: What a build gives on top of a finished one (same input, the entity registry it
    #: left): a killed build that got as far as saving the registry leaves a folder like that.
    rebuilt: dict[str, bytes]


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, seed_build: Path, nlp: Any) -> Setup:
    base = tmp_path_factory.mktemp("crash")
    corpus = base / "corpus"
    corpus.mkdir()
    for article in sorted(BBC.glob("bbc_*.txt"))[:ARTICLES]:
        shutil.copy(article, corpus / article.name)
    started = time.perf_counter()
    build_corpus([corpus], Settings(out_dir=base / "reference"), formats=FORMATS, nlp=nlp)
    seconds = time.perf_counter() - started
    reference = _outputs(base / "reference")
    (base / "reference" / MANIFEST_PATH).unlink()  # so the next build does not skip the work
    build_corpus([corpus], Settings(out_dir=base / "reference"), formats=FORMATS, nlp=nlp)
    return Setup(corpus, reference, _outputs(seed_build), seconds, _outputs(base / "reference"))


def _outputs(folder: Path) -> dict[str, bytes]:
    return {name: (folder / name).read_bytes() for name in OUTPUTS}


def _previous_build(setup: Setup, out: Path) -> Path:
    out.mkdir()
    for name, data in setup.previous.items():
        (out / name).write_bytes(data)
    return out


def _start_build(corpus: Path, out: Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "kg", "build", str(corpus), "--out", str(out)]
    command += [arg for fmt in FORMATS for arg in ("--format", fmt)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


# --- when to kill -------------------------------------------------------------------------

Trigger = Callable[[subprocess.Popen[str], Path], bool]


def _holds_lock(build: subprocess.Popen[str], out: Path) -> bool:
    try:
        return (out / LOCK_NAME).read_text().strip() == str(build.pid)
    except OSError:
        return False


def _extracting(build: subprocess.Popen[str], out: Path) -> bool:
    """Some documents are parsed and cached, so the killed build leaves a partial cache."""
    cache = out / CACHE_FOLDER
    return _holds_lock(build, out) and sum(1 for p in cache.rglob("*") if p.is_file()) >= 3


def _writing(out: Path) -> Trigger:
    """A graph file is being written (its temp file exists) or has just been replaced."""
    inodes = {name: (out / name).stat().st_ino for name in OUTPUTS}

    def writing(build: subprocess.Popen[str], out: Path) -> bool:
        staged = list((out / ".kg").glob("staging-*/.graph.*.tmp"))  # kg/build/corpus.py
        temps = [n for n in os.listdir(out) if n.startswith(".graph.") and n.endswith(".tmp")]
        return bool(temps or staged) or any((out / n).stat().st_ino != inodes[n]
                                            for n in OUTPUTS)

    return writing


def _after(seconds: float) -> Trigger:
    deadline = time.monotonic() + seconds
    return lambda build, out: time.monotonic() >= deadline


def _after_lock(seconds: float) -> Trigger:
    """``seconds`` after the build took its lock: mid-build however long Python's start and
    the model's load take on a busy machine (a kill timed from the start once landed before
    the lock was taken, under CI load)."""
    locked: list[float] = []

    def trigger(build: subprocess.Popen[str], out: Path) -> bool:
        if not locked and _holds_lock(build, out):
            locked.append(time.monotonic())
        return bool(locked) and time.monotonic() >= locked[0] + seconds

    return trigger


@dataclass(frozen=True)
class KillPoint:
    name: str
    trigger: Callable[[Setup, Path], Trigger]  # made just before the build starts
    before_writing: bool  # the previous outputs must then be untouched, byte for byte
    rerun: bool  # also check that a re-run gives the reference output


#: Fractions of the reference build's time for the random kills, counted from when the build
#: takes its lock (before that it only starts Python and loads the model).
RANDOM_FRACTIONS = [round(fraction, 3) for fraction in random.Random(8).sample(
    [n / 100 for n in range(5, 95)], 2)]
KILL_POINTS = [
    KillPoint("at-start", lambda setup, out: _after(0.0), True, False),
    KillPoint("lock-taken", lambda setup, out: _holds_lock, True, False),
    KillPoint("extracting", lambda setup, out: _extracting, True, True),
    KillPoint("writing", lambda setup, out: _writing(out), False, True),
    *(KillPoint(f"random-{f}", lambda setup, out, f=f: _after_lock(f * setup.seconds), False,
                f == RANDOM_FRACTIONS[-1]) for f in RANDOM_FRACTIONS),
]


def _kill_when(build: subprocess.Popen[str], out: Path, trigger: Trigger) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not trigger(build, out):
        assert build.poll() is None, f"build ended before the kill point: {build.stderr}"
        assert time.monotonic() < deadline, "kill point never reached"
        time.sleep(0.002)
    build.send_signal(signal.SIGKILL)
    build.communicate(timeout=TIMEOUT)


# --- the tests -----------------------------------------------------------------------------


@pytest.mark.parametrize("point", KILL_POINTS, ids=[p.name for p in KILL_POINTS])
def test_killed_build_leaves_previous_outputs_and_a_rerun_completes(
        setup: Setup, tmp_path: Path, point: KillPoint) -> None:
    out = _previous_build(setup, tmp_path / "out")
    trigger = point.trigger(setup, out)
    build = _start_build(setup.corpus, out)
    _kill_when(build, out, trigger)
    assert build.returncode == -signal.SIGKILL
    _assert_outputs_whole(out, setup, point.before_writing)
    if point.name != "at-start":  # the lock file still names the dead build ...
        assert (out / LOCK_NAME).read_text().strip() == str(build.pid)
    _assert_lock_is_free(out)  # ... but does not hold anyone back
    if point.rerun:
        _assert_rerun_gives_reference(out, setup)


def _assert_outputs_whole(out: Path, setup: Setup, before_writing: bool) -> None:
    visible = sorted(n for n in os.listdir(out) if not n.startswith("."))
    assert visible == sorted(OUTPUTS)  # nothing half-written under a name anyone reads
    for name in OUTPUTS:
        data = (out / name).read_bytes()
        allowed = [setup.previous[name]] if before_writing else [setup.previous[name],
                                                                 setup.reference[name]]
        assert data in allowed, f"{name} is neither the previous nor the new output"
        assert read_quads(out / name)


def _assert_lock_is_free(out: Path) -> None:
    with BuildLock(out):  # the dead build's flock went with it, whatever the file says
        pass


def _assert_rerun_gives_reference(out: Path, setup: Setup) -> None:
    build = _start_build(setup.corpus, out)
    _, stderr = build.communicate(timeout=TIMEOUT)
    assert build.returncode == 0, stderr
    assert _outputs(out) in (setup.reference, setup.rebuilt)
    assert not [p for p in out.rglob("*.tmp") if p.is_file()]  # stale temps were removed


def test_second_build_into_the_same_folder_fails_fast_and_harms_nothing(
        setup: Setup, tmp_path: Path) -> None:
    out = _previous_build(setup, tmp_path / "out")
    first = _start_build(setup.corpus, out)
    _wait_for(lambda: _holds_lock(first, out), first)
    second = _start_build(setup.corpus, out)
    _, stderr = second.communicate(timeout=TIMEOUT)
    assert second.returncode == 1
    assert f"another kg build is writing to {out}" in stderr
    assert f"held by process {first.pid}" in stderr
    assert first.poll() is None  # the second did not wait for the first: it failed at once
    _, stderr = first.communicate(timeout=TIMEOUT)
    assert first.returncode == 0, stderr
    assert _outputs(out) == setup.reference


def _wait_for(condition: Callable[[], bool], build: subprocess.Popen[str]) -> None:
    started = time.monotonic()
    while not condition():
        assert build.poll() is None, "build ended early"
        assert time.monotonic() - started < TIMEOUT
        time.sleep(0.01)


# --- stale temporary files -----------------------------------------------------------------


def test_stale_temps_of_dead_writers_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    kg_own = tmp_path / ".kg" / "cache" / "ab"
    other = tmp_path / "elsewhere"
    for folder in (kg_own, other):
        folder.mkdir(parents=True)
    stale = [tmp_path / ".graph.ttl.0123abcd.tmp", kg_own / ".x.extraction.89abcdef.tmp"]
    kept = [other / ".notes.txt.0123abcd.tmp", tmp_path / ".graph.ttl.tmp", tmp_path / "a.tmp"]
    for path in stale + kept:
        path.write_bytes(b"half")
    (tmp_path / ".store.0123abcd.tmp").mkdir()  # a folder: not a writer's temp file
    with atomic_writer(tmp_path / "graph.nt") as live:
        live.write(b"<a:s> <a:p> <a:o> .\n")
        assert sorted(remove_stale_temps(tmp_path)) == sorted(stale)
    assert (tmp_path / "graph.nt").read_bytes() == b"<a:s> <a:p> <a:o> .\n"
    assert all(path.exists() for path in kept) and not any(p.exists() for p in stale)
    assert (tmp_path / ".store.0123abcd.tmp").is_dir()


def test_a_build_removes_temps_a_killed_build_left(tmp_path: Path) -> None:
    (tmp_path / ".graph.trig.0123abcd.tmp").write_bytes(b"@prefix half")
    with BuildLock(tmp_path):
        assert [p.name for p in tmp_path.iterdir()] == [LOCK_NAME]
