"""Virtuoso's fast path: new graphs loaded through its SQL port with Debian's ``isql-vt``.

Virtuoso's Graph Store endpoint takes one graph per ``PUT`` (~0.1 s each); its SQL port
parses a whole N-Quads file at bulk-loader speed. kg writes the graphs the store does not
hold yet as N-Quads into a folder the server may read (its ``DirsAllowed``, asked over SQL;
only when the server is on this machine), then parses each batch of them with one
``DB.DBA.TTLP_MT`` call in transactional mode (``log_mode`` 1, ``transactional`` 1): one
transaction, so killed before its commit the server restarts without any graph of the batch
(tests/test_load_servers.py kills it mid-call). Graphs the store already holds are replaced
by ``PUT`` as before: the same call preceded by a ``DELETE`` of the old content was measured
not atomic (the kill kept the ``DELETE`` and lost the new content), and copying a staging
graph over the target with SQL was measured at 25-48 s for 300,000 triples.

The password goes to ``isql-vt`` on its standard input, never on its command line (``ps``).
``isql-vt`` first tries its default password and only then reads the given one, so a login
with another password costs the server one failed attempt per run (Virtuoso blocks an
address for a while after several): kg checks the credentials over HTTP first and never
starts ``isql-vt`` again after a refused login.

Where this path cannot be taken (no ``isql-vt``, a server elsewhere, no folder both can use,
no credentials, the SQL port closed) the caller says why and uses the Graph Store Protocol.

>>> _sql_text("it's")
"'it''s'"
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from kg.errors import StoreError
from kg.remote.client import AccessRefused, Credentials, StoreUnavailable
from kg.remote.replacement import SourceGraph

__all__ = ["DEFAULT_SQL_PORT", "LOAD", "SESSIONS", "SqlLoad", "SqlPort", "SqlUnreachable",
           "allowed_folder", "load_graphs", "sql_port"]

#: Virtuoso's SQL port unless its virtuoso.ini says otherwise (``--sql-port``).
DEFAULT_SQL_PORT = 1111
#: Triples per transaction (one file and one call; a graph is never split). Two sessions
#: loaded 300,000 triples in 6.6-9.0 s in batches of 50,000, 9.3 s in 25,000, 11.3 s in
#: 100,000 and 8.3-14.7 s in 150,000 (bench/RESULTS-load.md): shorter transactions hold
#: their locks for less time, and a deadlock costs a smaller batch.
BATCH_TRIPLES = 50_000
#: ``isql-vt`` sessions at once, each its own transactions (``kg load --sql-sessions``): a
#: transactional ``TTLP_MT`` runs on one thread. Two transactions inserting the same IRIs or
#: index pages can deadlock: Virtuoso rolls one back whole (SQLSTATE 40001), ``isql-vt``
#: runs it again at once (``SESSION_SETTINGS``), and a batch still deadlocked is loaded again
#: alone, after the others. Faster than one session in 9 of 15 bench runs, equal in 2,
#: slower in 4 (3 by at most 0.3 s; bench/RESULTS-load.md, fourth and fifth passes).
SESSIONS = 2
#: Virtuoso's SQLSTATE for a transaction it rolled back to break a deadlock.
DEADLOCK = "40001"
ISQL = "isql-vt"
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: Seconds one ``isql-vt`` run may take.
TIMEOUT = 3600.0
FILE_PREFIX = "kg-load-"

#: How each ``isql-vt`` run starts. ``errors stdout``: isql-vt prints errors on standard
#: error and results on standard output, so read apart a batch's error came after the marker
#: of its end and the batch passed for loaded (the "batch lost with no error" of two sessions:
#: a deadlock nobody saw). ``deadlock_retries``: a statement Virtuoso rolled back to break a
#: deadlock (40001) is run again at once, while the other session goes on.
SESSION_SETTINGS = "set errors stdout;\nset deadlock_retries 3;\nselect 'kg-ready';"
#: What isql-vt prints after a statement that succeeded; its exit status is 0 whatever failed.
DONE = "\nDone. -- "
#: Parses one N-Quads file in one transaction (``log_mode`` 1, ``transactional`` 1).
LOAD = ("DB.DBA.TTLP_MT (file_to_string_output ({path}), '', 'urn:kgnews:load:unused', "
        "512, 1, 3, 1);")


@dataclass(frozen=True)
class SqlPort:
    """Where and as whom ``isql-vt`` logs in; the password never shows in a repr."""

    host: str
    port: int
    user: str
    password: str = field(repr=False)
    isql: str = ISQL

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


def sql_port(url: str, port: int | None, credentials: Credentials | None) -> SqlPort | str:
    """The SQL port of the Virtuoso at ``url``, or why the fast path cannot be taken."""
    host = urlsplit(url).hostname or ""
    isql = shutil.which(ISQL)
    if isql is None:
        return f"{ISQL} not found on PATH (Debian package virtuoso-opensource-7-bin)"
    if host not in LOCAL_HOSTS:
        return f"the server {host} is not on this machine, so it cannot read kg's file"
    if credentials is None:
        return "no user and password for Virtuoso's SQL port"
    return SqlPort(host, port or DEFAULT_SQL_PORT, credentials.user, credentials.password, isql)


class SqlUnreachable(StoreError):
    """The SQL port does not answer: the load falls back to the Graph Store Protocol."""


def run(sql: SqlPort, script: str) -> str:
    """Run ``script`` through ``isql-vt``: one login, the password on standard input."""
    with tempfile.NamedTemporaryFile("w", suffix=".sql", prefix=FILE_PREFIX,
                                     delete=False) as file:
        file.write(script)
    try:
        done = subprocess.run(
            [sql.isql, sql.address, sql.user, f"exec=load {file.name};"],
            input=sql.password + "\n", stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, timeout=TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise StoreUnavailable(f"{ISQL} {sql.address} did not finish within {TIMEOUT:.0f} s") \
            from None
    finally:
        os.unlink(file.name)
    output = done.stdout
    if "Connected to" not in output:
        if "Bad login" in output:
            raise AccessRefused(
                f"Virtuoso's SQL port {sql.address} refused the login of {sql.user!r} "
                f"({ISQL}): wrong password, or this address is blocked for a minute after "
                "failed logins; not retried")
        raise SqlUnreachable(f"{ISQL} could not connect to {sql.address}: "
                             f"{_error(output) or 'no answer'}")
    return output


def _error(output: str) -> str:
    """The first error isql printed, without the statement (nothing secret is in it)."""
    for line in output.splitlines():
        if line.startswith("*** Error"):
            return line.removeprefix("*** ").strip()
    return ""


def _sql_text(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "''") + "'"


def allowed_folder(sql: SqlPort) -> Path | str:
    """A folder of the server's ``DirsAllowed`` that kg may write to, or why there is none."""
    output = run(sql, "select '[' || cfg_item_value (virtuoso_ini_path (), 'Parameters', "
                      "'DirsAllowed') || ']';\n")
    start, end = output.find("\n["), output.find("]\n")
    if start < 0 or end < start:
        return f"{sql.address} did not say which folders it may read ({_error(output)})"
    for entry in output[start + 2:end].split(","):
        folder = Path(entry.strip())
        if folder.is_absolute() and folder.is_dir() and os.access(folder, os.W_OK | os.X_OK):
            return folder
    return "none of the folders Virtuoso may read (DirsAllowed) is writable by kg"


def _batches(graphs: list[SourceGraph], limit: int) -> Iterator[list[SourceGraph]]:
    batch: list[SourceGraph] = []
    total = 0
    for graph in graphs:
        if batch and total + graph.size > limit:
            yield batch
            batch, total = [], 0
        batch.append(graph)
        total += graph.size
    if batch:
        yield batch


@dataclass(frozen=True)
class SqlLoad:
    """What the SQL port did: per label ``None`` or why its batch failed (nothing of it kept);
    how many batches there were and how many lost a deadlock and were loaded again."""

    outcome: dict[str, str | None]
    batches: int
    deadlocked: int = 0


def load_graphs(sql: SqlPort, folder: Path, graphs: list[SourceGraph],
                sessions: int = SESSIONS) -> SqlLoad:
    """Add ``graphs`` the store does not hold, a batch per transaction, ``sessions`` at once."""
    total = sum(graph.size for graph in graphs)
    limit = min(BATCH_TRIPLES, -(-total // sessions))  # every session gets work
    batches = list(_batches(graphs, limit))
    work = [batches[start::sessions] for start in range(sessions)]
    with ThreadPoolExecutor(sessions) as pool:
        done = list(pool.map(lambda mine: _load_session(sql, folder, mine),
                             [mine for mine in work if mine]))
    outcome = {label: why for each, _ in done for label, why in each.items()}
    retried = sum(count for _, count in done)
    # A batch still deadlocked after isql-vt's retries is loaded once more, alone, after the
    # others; a batch refused for another reason is not (its graphs go by PUT).
    again = [batch for batch in batches if DEADLOCK in (outcome[batch[0].label] or "")]
    if again:
        outcome.update(_load_session(sql, folder, again)[0])
    return SqlLoad(outcome, len(batches), retried + len(again))


def _load_session(sql: SqlPort, folder: Path,
                  batches: list[list[SourceGraph]]) -> tuple[dict[str, str | None], int]:
    """One ``isql-vt`` run parsing ``batches`` one after the other, each one transaction;
    the outcome per label, and how many batches finished after a deadlock retry."""
    files: list[Path] = []
    try:
        script = [SESSION_SETTINGS]
        for number, batch in enumerate(batches):
            with tempfile.NamedTemporaryFile("wb", suffix=".nq", prefix=FILE_PREFIX,
                                             dir=folder, delete=False) as file:
                file.write(b"".join(graph.nquads() for graph in batch))
            path = Path(file.name)
            files.append(path)
            path.chmod(0o644)  # the server may run as another user
            script += [LOAD.format(path=_sql_text(str(path))),
                       f"select 'kg-batch-{number}-done';"]
        output = run(sql, "\n".join(script) + "\n")
    finally:
        for path in files:
            path.unlink(missing_ok=True)
    return _outcome(output, batches, sql)


def _outcome(output: str, batches: list[list[SourceGraph]],
             sql: SqlPort) -> tuple[dict[str, str | None], int]:
    """A batch is loaded only where isql-vt said its statement was done; one that printed an
    error first was retried after a deadlock."""
    outcome: dict[str, str | None] = {}
    retried = 0
    _, _, rest = output.partition("\nkg-ready")  # what the settings printed is not a batch's
    for number, batch in enumerate(batches):
        part, _, rest = rest.partition(f"\nkg-batch-{number}-done")
        error = _error(part)
        done = DONE in part
        retried += bool(done and error)
        why = None if done else (f"Virtuoso's SQL port {sql.address} refused the batch: "
                                 f"{error or 'the load stopped before this batch ended'}")
        outcome.update((graph.label, why) for graph in batch)
    return outcome, retried
