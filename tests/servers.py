"""Real SPARQL servers for integration tests, started on 127.0.0.1 and always stopped.

Import the fixtures into a test module (``from tests.servers import oxigraph_server``); the
context managers also serve ``bench/``. A missing binary skips the test, unless
``KG_REQUIRE_SERVERS=1`` (set by ``.ci/run``), where it fails: CI must not pass quietly.

    with run_oxigraph(tmp_path / "db") as server:   # server.url: "http://127.0.0.1:41234"
        httpx.post(server.url + "/update", content=b"INSERT DATA { <a:s> <a:p> <a:o> }", ...)
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

OXIGRAPH = Path(sys.executable).parent / "oxigraph"
RDFLIB_ENDPOINT = Path(sys.executable).parent / "rdflib-endpoint"
VIRTUOSO = Path("/usr/bin/virtuoso-t")
VIRTUOSO_INI = Path("/etc/virtuoso-opensource-7/virtuoso.ini")


@dataclass(frozen=True)
class Virtuoso:
    """A running Virtuoso: its HTTP base URL and the account that may write (Digest auth).

    ``isql`` is its SQL port's address (for ``isql-vt``), ``directory`` where it may read
    files (``DirsAllowed``: its bulk loader takes them from there).
    """

    url: str
    user: str
    password: str
    isql: str = ""
    directory: Path | None = None
    process: subprocess.Popen[bytes] | None = None  # for tests that kill it

    @property
    def sql_port(self) -> int:
        return int(self.isql.rsplit(":", 1)[1])


def require_binary(path: Path, what: str) -> Path:
    """Skip (or, under ``KG_REQUIRE_SERVERS=1``, fail) when a server binary is missing."""
    if path.exists() and os.access(path, os.X_OK):
        return path
    found = shutil.which(path.name)
    if found:
        return Path(found)
    reason = f"{what} not installed ({path} missing); `make system-deps` installs it"
    if os.environ.get("KG_REQUIRE_SERVERS") == "1":
        pytest.fail(f"KG_REQUIRE_SERVERS=1 but {reason}")
    pytest.skip(reason)


def free_port() -> int:
    """A TCP port nobody listens on right now (another xdist worker may take it before the
    server binds it: start servers with ``start_on_free_port``, which tries again)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_on_free_port(command: Callable[[int], list[str]], ready: Callable[[int], str],
                       seconds: float, *, attempts: int = 3,
                       **popen: object) -> tuple[int, subprocess.Popen[bytes]]:
    """Start ``command(port)`` on a free port and wait until ``ready(port)`` answers 200.

    Safe under pytest-xdist: when the server exits before it answers (another worker took
    the port between ``free_port`` and the bind), it is started again on another port.
    """
    for attempt in range(attempts):
        port = free_port()
        process = subprocess.Popen(command(port), **popen)  # type: ignore[call-overload]
        try:
            wait_until_ready(ready(port), process, seconds)
            return port, process
        except RuntimeError:
            stop(process)
            if process.returncode is None or attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def wait_until_ready(url: str, process: subprocess.Popen[bytes], seconds: float) -> None:
    """Poll ``url`` until it answers 200; fail early if the process died."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before {url} answered")
        try:
            if httpx.get(url, timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


def stop(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """SIGTERM, wait, then SIGKILL: nothing started by a test outlives it."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass(frozen=True)
class Process:
    """A running server: its base URL and process (tests that kill it need the latter)."""

    url: str
    process: subprocess.Popen[bytes]


@contextmanager
def run_oxigraph(location: Path | None = None, *, union: bool = True) -> Iterator[Process]:
    """``oxigraph serve`` on a free port (on disk at ``location``, else in memory).

    ``union`` makes queries without ``GRAPH`` see every named graph, as the embedded store
    does for kg's queries (``--union-default-graph``).
    """
    binary = require_binary(OXIGRAPH, "the oxigraph server (pip install oxigraph)")

    def command(port: int) -> list[str]:
        args = [str(binary), "serve", "--bind", f"127.0.0.1:{port}"]
        args += ["--location", str(location)] if location is not None else []
        return args + (["--union-default-graph"] if union else [])

    port, process = start_on_free_port(
        command, lambda port: f"http://127.0.0.1:{port}/query?query=ASK%7B%7D", 15.0,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield Process(f"http://127.0.0.1:{port}", process)
    finally:
        stop(process)


@contextmanager
def run_rdflib_endpoint() -> Iterator[Process]:
    """``rdflib-endpoint serve --enable-update`` (PyPI): rdflib's in-memory dataset and SPARQL
    engine behind SPARQL 1.1 Query and Update at ``/`` (no Graph Store Protocol)."""
    binary = require_binary(RDFLIB_ENDPOINT, "rdflib-endpoint (pip install 'rdflib-endpoint[cli]')")
    port, process = start_on_free_port(
        lambda port: [str(binary), "serve", "--host", "127.0.0.1", "--port", str(port),
                      "--enable-update"],
        lambda port: f"http://127.0.0.1:{port}/?query=ASK%7B%7D", 60.0,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield Process(f"http://127.0.0.1:{port}", process)
    finally:
        stop(process)


def virtuoso_ini(directory: Path, isql_port: int, http_port: int) -> str:
    """Debian's virtuoso.ini with every file in ``directory`` and private ports (NOTES.md)."""
    text = VIRTUOSO_INI.read_text()
    section, lines = "", []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped
        if section == "[Plugins]":
            continue
        key = stripped.split("=", 1)[0].strip()
        value = _virtuoso_value(section, key, line, directory, isql_port, http_port)
        lines.append(line if value is None else f"{key} = {value}")
    return "\n".join(lines) + "\n"


def _virtuoso_value(
    section: str, key: str, line: str, directory: Path, isql_port: int, http_port: int
) -> str | None:
    if section in ("[Database]", "[TempDatabase]") and "/var/lib/" in line:
        return str(directory / Path(line.split("=", 1)[1].strip()).name)
    if section == "[Parameters]" and key == "ServerPort":
        return f"127.0.0.1:{isql_port}"
    if section == "[Parameters]" and key == "DirsAllowed":
        return f"., {directory}, /usr/share/virtuoso-opensource-7/vad"
    if section == "[HTTPServer]" and key == "ServerPort":
        return f"127.0.0.1:{http_port}"
    if section == "[Parameters]" and key in ("NumberOfBuffers", "MaxDirtyBuffers"):
        return "20000" if key == "NumberOfBuffers" else "15000"
    return None


@contextmanager
def run_virtuoso(directory: Path) -> Iterator[Virtuoso]:
    """``virtuoso-t`` on a fresh database in ``directory``; writes need Digest as dba."""
    binary = require_binary(VIRTUOSO, "Virtuoso (Debian virtuoso-opensource)")
    directory.mkdir(parents=True, exist_ok=True)
    http_port, isql_port = free_port(), free_port()
    ini = directory / "virtuoso.ini"
    ini.write_text(virtuoso_ini(directory, isql_port, http_port))
    log = (directory / "stdout.log").open("wb")
    process = subprocess.Popen(
        [str(binary), "+configfile", str(ini), "+foreground"],
        cwd=directory, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        url = f"http://127.0.0.1:{http_port}"
        wait_until_ready(f"{url}/sparql?query=ASK%7B%7D", process, 180.0)  # slow on a busy machine
        yield Virtuoso(url, "dba", "dba", f"127.0.0.1:{isql_port}", directory, process)
    finally:
        stop(process, grace=30.0)
        log.close()


@pytest.fixture(scope="session")
def oxigraph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh on-disk Oxigraph server for the whole session; yields its base URL."""
    with run_oxigraph(tmp_path_factory.mktemp("oxigraph")) as server:
        yield server.url


@pytest.fixture(scope="session")
def virtuoso_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Virtuoso]:
    """A fresh Virtuoso for the whole session (starting one takes ~4 s)."""
    with run_virtuoso(tmp_path_factory.mktemp("virtuoso")) as server:
        yield server


@pytest.fixture(scope="session")
def rdflib_server() -> Iterator[str]:
    """A fresh rdflib-endpoint for the whole session; yields its base URL (query = update)."""
    with run_rdflib_endpoint() as server:
        yield server.url


# -- a misbehaving HTTP server -------------------------------------------------------------

Behaviour = Callable[[BaseHTTPRequestHandler, int], None]


@contextmanager
def run_fake_server(behaviour: Behaviour) -> Iterator[tuple[str, list[str]]]:
    """A stdlib HTTP server calling ``behaviour(handler, request_number)`` for every request.

    Yields the base URL and the list of request lines it saw.
    """
    seen: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def handle_one(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            self.body = self.rfile.read(length)  # for behaviours that keep what is sent
            seen.append(f"{self.command} {self.path}")
            behaviour(self, len(seen))

        do_GET = do_POST = do_PUT = do_DELETE = handle_one  # noqa: N815

        def log_message(self, format: str, *args: object) -> None:  # noqa: A002
            pass

    class Server(ThreadingHTTPServer):
        daemon_threads = True

        def handle_error(self, request: object, client_address: object) -> None:
            pass  # resets and timeouts are the point here, not errors

    server = Server(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
