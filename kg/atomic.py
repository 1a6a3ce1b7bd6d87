"""Safe writing: whole files or nothing, and one build per output folder at a time.

``atomic_writer`` writes to a temporary file in the target's folder, fsyncs it and renames it
over the target with ``os.replace``, so a reader sees the old file or the new one, never half
of one, and a crash or an exception leaves the old file as it was. ``BuildLock`` holds an
exclusive ``flock`` on ``<out_dir>/.kg.lock`` for the length of a build (the lock file stays
behind; the kernel frees the lock when the process ends, however it ends).

A writer killed outright (SIGKILL, power loss) cannot delete its hidden temporary file
``.<name>.<8 hex>.tmp``. Each writer holds a ``flock`` on its temporary file until the rename,
so ``remove_stale_temps`` can tell a dead writer's leftovers from a live one's; every build
calls it on its output folder once it holds the lock.
"""

from __future__ import annotations

import fcntl
import os
import re
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from kg.errors import BuildError

LOCK_NAME = ".kg.lock"
KG_FOLDER = ".kg"  # kg's own files below an output folder (caches, manifest)
_TEMP_NAME = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step.

    >>> import tempfile; target = Path(tempfile.mkdtemp()) / "graph.nt"
    >>> atomic_write_bytes(target, b"<a> <b> <c> .\\n"); target.read_bytes()
    b'<a> <b> <c> .\\n'
    """
    with atomic_writer(path) as file:
        file.write(data)


@contextmanager
def atomic_writer(path: Path, mode: str = "wb") -> Iterator[IO[Any]]:
    """A file to write ``path`` through; it replaces ``path`` only if the block succeeds.

    ``mode`` is ``"wb"`` or ``"w"`` (UTF-8 text). The new file gets the old file's
    permissions, or the usual ones for a new file (0666 less the umask).

    >>> import tempfile; target = Path(tempfile.mkdtemp()) / "view.html"
    >>> with atomic_writer(target, "w") as out:
    ...     _ = out.write("<html></html>")
    >>> target.read_text()
    '<html></html>'
    """
    if mode not in ("wb", "w"):
        raise ValueError(f"mode must be 'wb' or 'w', not {mode!r}")
    path = Path(path)
    temp, fd = _create_temp(path)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # "a live writer owns this temp" (remove_stale_temps)
        with os.fdopen(fd, mode, encoding="utf-8" if mode == "w" else None) as file:
            yield file
            file.flush()
            os.fsync(file.fileno())
            _replace(temp, path)  # before closing, so the temp is never unlocked and present
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    _fsync_folder(path.parent)


def remove_stale_temps(folder: Path) -> list[Path]:
    """Delete the temporary files killed ``atomic_writer`` calls left in ``folder`` and in its
    ``.kg`` subfolder (kg's own); other subfolders are not kg's to clean.

    A temporary file is stale when no process holds its lock; a live writer's is left alone.

    >>> import tempfile; out = Path(tempfile.mkdtemp())
    >>> _ = (out / ".graph.ttl.0123abcd.tmp").write_bytes(b"half a gra")
    >>> [p.name for p in remove_stale_temps(out)]
    ['.graph.ttl.0123abcd.tmp']
    """
    removed = []
    for root, folders, files in os.walk(folder):
        top = root == str(folder)
        folders[:] = [f for f in folders if (f == KG_FOLDER or not top)
                      and not _TEMP_NAME.fullmatch(f)]  # a folder is not a writer's temp
        for name in files:
            temp = Path(root, name)
            if _TEMP_NAME.fullmatch(name) and _remove_if_unlocked(temp):
                removed.append(temp)
    return removed


def _remove_if_unlocked(temp: Path) -> bool:
    try:
        fd = os.open(temp, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return False  # renamed or removed meanwhile, or a symlink: not a writer's temp
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        temp.unlink()
        return True
    except OSError:  # locked by a live writer, or already gone
        return False
    finally:
        os.close(fd)


def _create_temp(path: Path) -> tuple[Path, int]:
    """A new hidden file next to ``path`` (same file system, so the rename is atomic)."""
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as e:
        raise BuildError(f"cannot write {path}: {e.strerror or e}") from e
    try:
        os.chmod(fd, stat.S_IMODE(path.stat().st_mode))
    except FileNotFoundError:
        pass  # a new file keeps the umask's permissions
    return temp, fd


def _replace(temp: Path, path: Path) -> None:
    try:
        os.replace(temp, path)
    except OSError as e:
        raise BuildError(f"cannot write {path}: {e.strerror or e}") from e


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable; not every file system allows it, so best effort."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class BuildLock:
    """Exclusive lock on an output folder for the length of a build.

    >>> import tempfile; out = Path(tempfile.mkdtemp())
    >>> with BuildLock(out):
    ...     BuildLock(out).__enter__()
    Traceback (most recent call last):
    kg.errors.BuildError: another kg build is writing to ...
    """

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.lock_file = self.out_dir / LOCK_NAME
        self._fd: int | None = None

    def __enter__(self) -> BuildLock:
        try:
            self.out_dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o666)
        except OSError as e:
            raise BuildError(f"cannot use output folder {self.out_dir}: {e.strerror or e}") from e
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read_holder(fd)
            os.close(fd)
            raise BuildError(
                f"another kg build is writing to {self.out_dir} (lock {self.lock_file}{holder});"
                " wait for it or write to another output folder", option="out_dir"
            ) from None
        _write_holder(fd)
        self._fd = fd
        remove_stale_temps(self.out_dir)
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def _write_holder(fd: int) -> None:
    """Record our process id in the lock file, for the message another build prints."""
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)


def _read_holder(fd: int) -> str:
    pid = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
    return f", held by process {pid}" if pid.isdigit() else ""
