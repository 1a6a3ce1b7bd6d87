"""bench/run.py builds its corpora as folders ``kg build`` reads whole: when they were folders
of symbolic links, ``kg build`` (which follows no link out of the folder it reads) read none of
their files, and the benchmark measured nothing."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from kg.ingest.files import read_documents

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture
def bench_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))  # bench/run.py imports its siblings by name
    import run

    monkeypatch.setattr(run, "WORK", tmp_path / "work")
    return run


def test_a_benchmark_corpus_is_read_whole(bench_run: ModuleType, tmp_path: Path) -> None:
    sources = tmp_path / "corpus"
    sources.mkdir()
    files = []
    for number in range(3):
        path = sources / f"article-{number}.txt"
        path.write_text(f"Title {number}\n\nThe council met in Leeds on day {number}.\n")
        files.append(path)
    (sources / "article-1.meta.json").write_text('{"date": "2020-01-02"}')

    folder = bench_run.link_set("corpus", files)
    skipped: list[object] = []
    documents = list(read_documents([folder], on_skip=lambda *why: skipped.append(why)))
    assert len(documents) == 3 and not skipped
    assert (folder / "article-1.meta.json").read_text() == '{"date": "2020-01-02"}'

    bench_run.unlink(folder, files[1])  # how the benchmark takes articles out again
    assert sorted(p.name for p in folder.iterdir()) == ["article-0.txt", "article-2.txt"]
