"""Extraction in a process pool: how documents are shared out, and the same bytes as one process."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kg.build.cache import ExtractionCache
from kg.build.corpus import build_corpus
from kg.build.parallel import MAX_TASK_DOCUMENTS, TASKS_PER_WORKER, task_sizes, tasks_of
from kg.config import Settings
from kg.ingest.files import read_documents
from kg.rdf.serialize import FORMATS

from .conftest import SEEDS


@given(count=st.integers(0, 5000), workers=st.integers(1, 16), batch_size=st.integers(1, 256))
def test_tasks_cover_every_document_once_in_even_pieces(
    count: int, workers: int, batch_size: int
) -> None:
    sizes = task_sizes(count, workers, batch_size)
    assert sum(sizes) == count and all(sizes)
    assert max(sizes, default=0) <= min(batch_size, MAX_TASK_DOCUMENTS)
    assert max(sizes, default=0) - min(sizes, default=0) <= 1
    assert len(sizes) >= min(count, workers * TASKS_PER_WORKER)


def test_tasks_keep_document_order() -> None:
    documents = [str(i) for i in range(37)]
    tasks = tasks_of(documents, workers=2, batch_size=64)  # type: ignore[arg-type]
    assert [d for task in tasks for d in task] == documents and len(tasks) == 8


@pytest.mark.slow
def test_two_worker_processes_build_the_same_bytes_as_one(seed_build: Path, tmp_path: Path) -> None:
    report = build_corpus([SEEDS], Settings(out_dir=tmp_path, workers=2),
                          formats=tuple(FORMATS))
    assert report.documents == 3 and report.cached == 0
    for fmt in FORMATS:
        name = f"graph.{FORMATS[fmt][2]}"
        assert (tmp_path / name).read_bytes() == (seed_build / name).read_bytes(), name
    cache = ExtractionCache(tmp_path)  # what the workers extracted serves a one-process build
    assert all(cache.get(d) is not None for d in read_documents([SEEDS]))
