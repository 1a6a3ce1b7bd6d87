"""bench/same_output.py decides whether a speed-up changed any output byte: its comparison must
call identical files identical and report any byte changed, added or missing."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture
def same_output(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    import same_output

    return same_output


def write(folder: Path, **files: bytes) -> Path:
    folder.mkdir()
    for name, data in files.items():
        (folder / name.replace("_", ".")).write_bytes(data)
    return folder


def test_identical_outputs_are_the_same(same_output: ModuleType, tmp_path: Path) -> None:
    data = {"graph_trig": b"<a> <b> <c> .\n", "graph_ttl": b"<a> <b> <c> .\n"}
    old, new = write(tmp_path / "old", **data), write(tmp_path / "new", **data)
    assert same_output.compare(old, new) == []


def test_one_changed_byte_is_reported_with_its_line(same_output: ModuleType,
                                                    tmp_path: Path) -> None:
    old = write(tmp_path / "old", graph_trig=b"x\n<a> <b> 1 .\n", graph_ttl=b"t\n")
    new = write(tmp_path / "new", graph_trig=b"x\n<a> <b> 2 .\n", graph_ttl=b"t\n")
    assert same_output.compare(old, new) == [
        "graph.trig: differs, line 2: '<a> <b> 1 .' vs '<a> <b> 2 .'"]


def test_a_longer_file_and_a_missing_file_differ(same_output: ModuleType,
                                                 tmp_path: Path) -> None:
    old = write(tmp_path / "old", graph_trig=b"x\n", graph_ttl=b"t\n")
    new = write(tmp_path / "new", graph_trig=b"x\ny\n")
    differences = same_output.compare(old, new)
    assert differences[0] == "graph.trig: differs, line 2: '' vs 'y'"
    assert differences[1].startswith("graph.ttl: missing in ") and "new" in differences[1]
    assert len(differences) == 2


def test_the_slice_spans_the_folder(same_output: ModuleType) -> None:
    files = [Path(f"bbc_{kind}_{i:03d}.txt") for kind in ("business", "sport", "tech")
             for i in range(50)]
    picked = same_output.spread(files, 15)
    assert len(picked) == 15 and len(set(picked)) == 15
    assert {p.name.split("_")[1] for p in picked} == {"business", "sport", "tech"}


def test_a_build_starts_from_an_empty_folder_but_its_cache(same_output: ModuleType,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / ".kg" / "cache" / "ab").mkdir(parents=True)
    (out / ".kg" / "cache" / "ab" / "entry").write_text("kept")
    (out / ".kg" / "entities.json").write_text("{}")  # an earlier build's keys
    (out / "graph.trig").write_text("old")
    same_output.clear_output(out)
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*")) == [
        ".kg", ".kg/cache", ".kg/cache/ab", ".kg/cache/ab/entry"]
