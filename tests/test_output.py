"""Output: atomic replacement of files and one build per output folder."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kg.atomic import LOCK_NAME, BuildLock, atomic_write_bytes, atomic_writer
from kg.errors import BuildError


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_atomic_write_creates_and_replaces(tmp_path: Path, umask_022: None) -> None:
    target = tmp_path / "graph.nt"
    atomic_write_bytes(target, b"old\n")
    atomic_write_bytes(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert target.stat().st_mode & 0o777 == 0o644  # not the 0600 of a usual temp file
    assert os.listdir(tmp_path) == ["graph.nt"]


def test_replacement_keeps_the_old_files_permissions(tmp_path: Path) -> None:
    target = tmp_path / "graph.nt"
    target.write_bytes(b"old")
    target.chmod(0o640)
    atomic_write_bytes(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_text_mode_writes_utf8(tmp_path: Path) -> None:
    target = tmp_path / "view.html"
    with atomic_writer(target, "w") as out:
        out.write("Київ\n")
    assert target.read_bytes() == "Київ\n".encode()


def test_old_file_is_visible_until_the_block_ends(tmp_path: Path) -> None:
    target = tmp_path / "graph.nt"
    target.write_bytes(b"old")
    with atomic_writer(target) as out:
        out.write(b"new")
        out.flush()
        assert target.read_bytes() == b"old"
    assert target.read_bytes() == b"new"


@pytest.mark.parametrize("error", [ValueError("serialiser failed"), KeyboardInterrupt()])
def test_exception_leaves_old_file_and_no_temp_file(tmp_path: Path,
                                                    error: BaseException) -> None:
    target = tmp_path / "graph.nt"
    target.write_bytes(b"old")
    with pytest.raises(type(error)):
        with atomic_writer(target) as out:
            out.write(b"half of the ne")
            raise error
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["graph.nt"]


def test_exception_before_first_write_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError):
        with atomic_writer(tmp_path / "new.nt"):
            raise RuntimeError
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("obstacle", ["missing folder", "folder in the way"])
def test_unwritable_target_raises_build_error(tmp_path: Path, obstacle: str) -> None:
    target = tmp_path / "missing" / "graph.nt"
    if obstacle == "folder in the way":
        target = tmp_path / "graph.nt"
        target.mkdir()
    with pytest.raises(BuildError, match=f"cannot write {target}"):
        atomic_write_bytes(target, b"data")
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_bad_mode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mode"):
        with atomic_writer(tmp_path / "x", "a"):
            pass


def test_second_lock_in_the_same_process_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with BuildLock(out):
        with pytest.raises(BuildError) as caught:
            with BuildLock(out):
                pass
    message = str(caught.value)
    assert message.startswith(f"another kg build is writing to {out} (lock {out / LOCK_NAME}")
    assert message.endswith("wait for it or write to another output folder")
    assert f"held by process {os.getpid()}" in message
    with BuildLock(out):  # released: a later build may start
        pass


def test_lock_held_by_another_process_is_refused(tmp_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from pathlib import Path; from kg.atomic import BuildLock\n"
         "with BuildLock(Path(sys.argv[1])):\n    print('locked', flush=True); sys.stdin.read()",
         str(tmp_path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(BuildError, match=f"held by process {holder.pid}"):
            with BuildLock(tmp_path):
                pass
    finally:
        holder.communicate("", timeout=30)
    with BuildLock(tmp_path):  # the lock went with the process
        pass


def test_lock_on_an_unusable_folder_raises_build_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(BuildError, match="cannot use output folder"):
        with BuildLock(tmp_path / "file"):
            pass
