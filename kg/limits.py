"""Bounded reads: the one place where kg reads bytes it did not write.

Every input kg reads — article files, sidecars, ``--urls`` lists, query files and standard
input, password files, HTTP bodies, archive records, JSON — goes through this module, so that
no input can make kg wait for ever or fill the memory:

* **size**: at most ``limit`` bytes are read; one byte more is ``TooLarge``;
* **kind**: a file found in a corpus must be a regular file (a FIFO would block, ``/dev/zero``
  never ends); a file the user names may be a pipe (``<(echo pw)``) but is still bounded;
* **time**: a pipe, a socket or an HTTP body must be finished within ``seconds``;
* **decompressed size**: compressed bodies (``Content-Encoding: gzip, gzip``) are inflated
  a chunk at a time, never past the limit (a 13 KB body cannot become 10 GB in memory);
* **depth**: JSON nested deeper than ``MAX_JSON_DEPTH`` is refused before it is parsed.

Errors are ``ReadRefused`` (an ``InputError``) with a reason fit for one line after the name
of what was read: ``a.meta.json: not a regular file (a FIFO)``.

>>> import io
>>> read_stream(io.BytesIO(b"x" * 10), 4, what="stdin")
Traceback (most recent call last):
kg.limits.TooLarge: stdin: larger than the limit of 4 bytes
"""

from __future__ import annotations

import json
import os
import select
import stat
import time
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

from kg.errors import InputError

#: JSON nested deeper than this is refused: ``json`` recurses once per level, and a line of
#: 100,000 ``[`` would end in RecursionError; no news record comes near it.
MAX_JSON_DEPTH = 200
_CHUNK = 1 << 16
_KINDS = {stat.S_IFIFO: "a FIFO", stat.S_IFCHR: "a character device",
          stat.S_IFBLK: "a block device", stat.S_IFSOCK: "a socket", stat.S_IFDIR: "a folder"}


class ReadRefused(InputError):
    """An input kg will not read (further): too large, too slow, not a file, too deep."""


class TooLarge(ReadRefused):
    """More bytes than the limit (``option`` names the setting that raises it, if any)."""


class TooSlow(ReadRefused):
    """The input was not finished within the time allowed."""


def size_text(limit: int) -> str:
    """A byte count for people.

    >>> size_text(5 * 2**20), size_text(2048), size_text(12)
    ('5 MB', '2 KB', '12 bytes')
    """
    if limit >= 2**20:
        return f"{limit / 2**20:g} MB"
    return f"{limit / 1024:g} KB" if limit >= 1024 else f"{limit} bytes"


def too_large(what: str, limit: int, option: str | None = None) -> TooLarge:
    setting = f" (the {option} setting)" if option else ""
    return TooLarge(f"{what}: larger than the limit of {size_text(limit)}{setting}",
                    option=option)


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words ("a FIFO")."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def read_file(path: str | os.PathLike[str], limit: int, *, what: str | None = None,
              regular_only: bool = True, seconds: float | None = 30.0,
              option: str | None = None) -> bytes:
    """The bytes of the file at ``path``: at most ``limit`` (``TooLarge`` past it).

    ``regular_only`` refuses FIFOs, devices and sockets without waiting on them (files found
    in a corpus); otherwise (files a user names, such as ``<(echo pw)``) they are read within
    ``seconds``. ``OSError`` passes through for the caller to word (missing, no permission).

    >>> read_file("/dev/zero", 10, regular_only=False)
    Traceback (most recent call last):
    kg.limits.TooLarge: /dev/zero: larger than the limit of 10 bytes
    """
    what = what or os.fspath(path)
    # O_NONBLOCK: opening a FIFO without a writer would block for ever
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        regular = stat.S_ISREG(info.st_mode)
        if not regular and (regular_only or stat.S_ISDIR(info.st_mode)):
            raise ReadRefused(f"{what}: not a regular file ({kind_of(info.st_mode)})")
        if regular:
            if info.st_size > limit:
                raise too_large(what, limit, option)
            os.set_blocking(fd, True)
            return _read_regular(fd, limit, what, option)
        return _read_pipe(fd, limit, what, seconds, option)
    finally:
        os.close(fd)


def _read_regular(fd: int, limit: int, what: str, option: str | None) -> bytes:
    chunks, size = [], 0
    while chunk := os.read(fd, min(_CHUNK << 4, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise too_large(what, limit, option)
    return b"".join(chunks)


def _read_pipe(fd: int, limit: int, what: str, seconds: float | None,
               option: str | None) -> bytes:
    deadline = None if seconds is None else time.monotonic() + seconds
    chunks: list[bytes] = []
    size = 0
    while True:
        wait = None if deadline is None else deadline - time.monotonic()
        if wait is not None and wait <= 0:
            raise TooSlow(f"{what}: not finished within {seconds:g} s")
        ready, _, _ = select.select([fd], [], [], wait)
        if not ready:
            continue
        try:
            chunk = os.read(fd, _CHUNK)
        except BlockingIOError:
            continue
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise too_large(what, limit, option)


def read_stream(stream: IO[Any], limit: int, *, what: str = "standard input",
                option: str | None = None) -> bytes | str:
    """At most ``limit`` bytes (or characters) of an open stream; ``TooLarge`` past it.

    >>> import io; read_stream(io.StringIO("ASK {}"), 100)
    'ASK {}'
    """
    source = getattr(stream, "buffer", stream)
    data: bytes | str = source.read(limit + 1)
    if len(data) > limit:
        raise too_large(what, limit, option)
    return data


def read_text_file(path: str | os.PathLike[str], limit: int, *, what: str | None = None,
                   regular_only: bool = False, encoding: str = "utf-8-sig") -> str:
    """A text file a user named (a URL list, a query, a password file), bounded.

    ``ReadRefused`` when too large or too slow, ``OSError`` and ``UnicodeDecodeError`` as
    Python raises them.
    """
    return read_file(path, limit, what=what, regular_only=regular_only).decode(encoding)


# -- bodies that arrive in chunks (HTTP, archives) -----------------------------------------


@dataclass
class Budget:
    """Bytes and seconds allowed to one body arriving in chunks.

    >>> budget = Budget(limit=4, what="https://x.org/a")
    >>> budget.take(b"abc"); budget.take(b"de")
    Traceback (most recent call last):
    kg.limits.TooLarge: https://x.org/a: larger than the limit of 4 bytes
    """

    limit: int
    seconds: float | None = None
    what: str = "the body"
    option: str | None = None
    started: float = field(default_factory=time.monotonic)
    size: int = 0

    def take(self, chunk: bytes) -> bytes:
        """Count ``chunk``; ``TooLarge`` or ``TooSlow`` when the body goes past a bound."""
        self.size += len(chunk)
        if self.size > self.limit:
            raise too_large(self.what, self.limit, self.option)
        self.check_time()
        return chunk

    def check_time(self) -> None:
        if self.seconds is not None and time.monotonic() - self.started > self.seconds:
            raise TooSlow(f"{self.what}: not finished within {self.seconds:g} s")

    def remaining(self) -> float | None:
        """Seconds left (``None``: no limit)."""
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - (time.monotonic() - self.started))

    def collect(self, chunks: Iterable[bytes]) -> bytes:
        """All of ``chunks``, within the budget."""
        return b"".join(self.take(chunk) for chunk in chunks)


#: Content codings kg inflates (``identity`` is none at all).
ENCODINGS = frozenset({"gzip", "x-gzip", "deflate", "identity"})


def content_codings(header: str | None) -> list[str]:
    """The codings of a ``Content-Encoding`` header, in the order they were applied.

    >>> content_codings("gzip, gzip")
    ['gzip', 'gzip']
    """
    return [c.strip().lower() for c in (header or "").split(",") if c.strip()]


def decoded(chunks: Iterable[bytes], codings: list[str], budget: Budget) -> bytes:
    """The body of ``chunks`` with ``codings`` undone, never inflating past ``budget``.

    ``ReadRefused`` for a coding kg does not know (brotli, zstd) or bytes that do not inflate.

    >>> import gzip
    >>> decoded([gzip.compress(gzip.compress(b"news"))], ["gzip", "gzip"], Budget(10))
    b'news'
    """
    unknown = [c for c in codings if c not in ENCODINGS]
    if unknown:
        raise ReadRefused(f"{budget.what}: content encoding {unknown[0]!r} is not supported")
    stream: Iterator[bytes] = iter(chunks)
    for coding in reversed([c for c in codings if c != "identity"]):
        stream = _inflate(stream, coding, budget)
    return budget.collect(stream)


def _inflate(chunks: Iterator[bytes], coding: str, budget: Budget) -> Iterator[bytes]:
    """One coding undone, chunk by chunk; each step yields at most what the budget allows."""
    window = 16 + zlib.MAX_WBITS if coding in ("gzip", "x-gzip") else zlib.MAX_WBITS
    inflater = zlib.decompressobj(window)
    step = budget.limit + 1
    try:
        for chunk in chunks:
            data = chunk
            while data:
                out = inflater.decompress(data, step)
                yield out
                data = inflater.unconsumed_tail
                budget.check_time()
                if inflater.eof:
                    data = b""
        while not inflater.eof and (out := inflater.decompress(b"", step)):
            yield out
    except zlib.error as e:
        raise ReadRefused(f"{budget.what}: broken {coding} data ({e})") from e


# -- JSON --------------------------------------------------------------------------------


def json_depth(text: str | bytes) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside strings ignored),
    computed without recursion.

    >>> json_depth('{"a": [1, {"b": "]]"}]}')
    3
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if b"[" not in data and b"{" not in data:
        return 0
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def load_json(text: str | bytes, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads`` that refuses nesting deeper than ``max_depth`` with ``ValueError``
    (a subclass of which, ``json.JSONDecodeError``, is what callers already catch).

    >>> load_json("[" * 500 + "]" * 500)
    Traceback (most recent call last):
    ValueError: JSON nested 500 deep (more than 200)
    """
    if len(text) > 2 * max_depth:  # a short text cannot nest deeply: skip the scan
        depth = _quick_depth(text, max_depth)
        if depth > max_depth:
            raise ValueError(f"JSON nested {depth} deep (more than {max_depth})")
    try:
        return json.loads(text)
    except RecursionError:  # pragma: no cover - the scan above refuses such texts first
        raise ValueError(f"JSON nested more than {max_depth} deep") from None


def _quick_depth(text: str | bytes, max_depth: int) -> int:
    """``json_depth``, after a cheap test that most texts pass: no run of brackets deep
    enough shows in the bracket characters alone."""
    raw = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    opens = raw.count(b"[") + raw.count(b"{")
    return json_depth(raw) if opens > max_depth else 0
