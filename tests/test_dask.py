"""The build on a Dask cluster: a local 2-worker cluster by address, and `--scheduler local`."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kg.build.corpus import build_corpus
from kg.build.parallel import NO_DASHBOARD, check_workers
from kg.cli import app
from kg.config import MODEL_PACKAGE, Settings
from kg.errors import BuildError
from kg.rdf.serialize import FORMATS

from .conftest import SEEDS

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a local cluster of 2 worker processes, like a remote one."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", **NO_DASHBOARD) as cluster:
        yield cluster.scheduler_address


def same_bytes(out: Path, reference: Path, formats: tuple[str, ...]) -> None:
    for fmt in formats:
        name = f"graph.{FORMATS[fmt][2]}"
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name


@pytest.mark.slow
def test_a_cluster_by_address_builds_the_same_bytes(
    scheduler: str, seed_build: Path, tmp_path: Path
) -> None:
    assert scheduler.startswith("tcp://127.0.0.1:")
    report = build_corpus([SEEDS], Settings(out_dir=tmp_path, scheduler=scheduler, cache=False),
                          formats=tuple(FORMATS))
    assert report.documents == 3
    same_bytes(tmp_path, seed_build, tuple(FORMATS))


@pytest.mark.slow
def test_scheduler_local_from_the_command_line(seed_build: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["build", str(SEEDS), "--out", str(tmp_path), "--scheduler", "local"])
    assert result.exit_code == 0, result.output
    same_bytes(tmp_path, seed_build, ("ttl", "trig"))


def test_an_unreachable_scheduler_is_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr("kg.build.parallel.CONNECT_TIMEOUT", 1)
    with pytest.raises(BuildError, match=f"127.0.0.1:{port}"):
        build_corpus([SEEDS], Settings(out_dir=tmp_path, scheduler=f"tcp://127.0.0.1:{port}"))


class FakeClient:
    """Answers ``run`` and ``scheduler_info`` like a cluster of the given workers."""

    def __init__(self, fingerprints: dict[str, Any]) -> None:
        self.fingerprints = fingerprints

    def run(self, function: Any, model: str) -> dict[str, str]:
        return {address: found if found is not None else function(model)
                for address, found in self.fingerprints.items()}

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {address: {"nthreads": 2} for address in self.fingerprints}}


def test_workers_are_counted_when_they_extract_like_this_machine() -> None:
    client = FakeClient({"tcp://a:1": None, "tcp://b:1": None})
    assert check_workers(client, MODEL_PACKAGE) == 4


@pytest.mark.parametrize("workers", [{}, {"tcp://a:1": None, "tcp://b:1": "old kg"}])
def test_a_cluster_without_matching_workers_is_refused(workers: dict[str, Any]) -> None:
    with pytest.raises(BuildError, match="no workers" if not workers else "tcp://b:1"):
        check_workers(FakeClient(workers), MODEL_PACKAGE)
