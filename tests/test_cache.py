"""The extraction cache and the build manifest never serve a stale or damaged result."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from kg.build.cache import CACHE_FOLDER, ExtractionCache, document_key
from kg.build.corpus import BuildReport, build_corpus
from kg.build.manifest import MANIFEST_PATH
from kg.config import Settings
from kg.ingest.files import document_from_text, read_documents
from kg.model import ArticleMeta, Extraction, Sentence
from kg.rdf.serialize import FORMATS
from kg.resolve.registry import REGISTRY_PATH

from .conftest import SEEDS

ALL_FORMATS = tuple(FORMATS)


@pytest.fixture()
def articles(tmp_path: Path) -> Path:
    """A private copy of the seed articles (with their metadata files) to edit."""
    return Path(shutil.copytree(SEEDS, tmp_path / "in"))


@pytest.fixture()
def extracted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The ids of the documents each build hands to spaCy, in order."""
    import kg.build.corpus

    seen: list[str] = []
    real = kg.build.corpus.extract_missing

    def spy(documents: Any, settings: Settings, nlp: Any = None) -> Any:
        seen.extend(d.doc_id for d in documents)
        return real(documents, settings, nlp)

    monkeypatch.setattr(kg.build.corpus, "extract_missing", spy)
    return seen


@pytest.fixture()
def build(nlp: Any) -> Callable[..., BuildReport]:
    def run(articles: Path, out: Path, **settings: Any) -> BuildReport:
        return build_corpus([articles], Settings(out_dir=out, **settings),
                            formats=ALL_FORMATS, nlp=nlp)
    return run


def graph_bytes(out: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(out.glob("graph.*"))}


def cache_entries(out: Path) -> list[Path]:
    return sorted((out / CACHE_FOLDER).rglob("*.extraction"))


def test_outputs_are_byte_identical_with_a_cold_cache_a_warm_one_and_none(
    articles: Path, tmp_path: Path, build: Callable[..., BuildReport], extracted: list[str]
) -> None:
    build(articles, tmp_path / "none", cache=False)
    cold = build(articles, tmp_path / "cached")
    (tmp_path / "cached" / MANIFEST_PATH).unlink()  # force the work, not the fast path
    warm = build(articles, tmp_path / "cached")
    assert (cold.cached, warm.cached, warm.up_to_date) == (0, 3, False)
    assert len(extracted) == 6  # the uncached build and the cold one; the warm one none
    assert graph_bytes(tmp_path / "cached") == graph_bytes(tmp_path / "none")
    assert len(graph_bytes(tmp_path / "none")) == len(ALL_FORMATS)


def test_without_the_cache_nothing_is_read_or_written(
    articles: Path, tmp_path: Path, build: Callable[..., BuildReport], extracted: list[str]
) -> None:
    build(articles, tmp_path / "out")
    again = build(articles, tmp_path / "out", cache=False)
    assert not again.up_to_date and again.cached == 0 and len(extracted) == 6
    fresh = build(articles, tmp_path / "fresh", cache=False)
    assert fresh.cached == 0 and not (tmp_path / "fresh" / CACHE_FOLDER).exists()


def test_a_changed_article_is_extracted_again_and_only_it(
    articles: Path, tmp_path: Path, build: Callable[..., BuildReport], extracted: list[str]
) -> None:
    build(articles, tmp_path / "out")
    # The reference starts from the same state (its entity registry keeps keys across builds).
    shutil.copytree(tmp_path / "out", tmp_path / "reference")
    changed = sorted(articles.glob("*.txt"))[1]
    changed.write_text(changed.read_text() + "\nAngela Merkel later visited Madrid.\n")
    extracted.clear()
    report = build(articles, tmp_path / "out")
    assert extracted == [changed.stem.replace("_", "-")] and report.cached == 2
    assert "Angela Merkel" in (tmp_path / "out" / "graph.ttl").read_text()
    build(articles, tmp_path / "reference", cache=False)
    assert graph_bytes(tmp_path / "out") == graph_bytes(tmp_path / "reference")


def test_changed_metadata_is_extracted_again(
    articles: Path, tmp_path: Path, build: Callable[..., BuildReport], extracted: list[str]
) -> None:
    build(articles, tmp_path / "out")
    sidecar = sorted(articles.glob("*.meta.json"))[0]
    sidecar.write_text('{"date": "2021-01-05"}')
    extracted.clear()
    build(articles, tmp_path / "out")
    assert extracted == [sidecar.name.split(".")[0].replace("_", "-")]
    assert '"2021-01-05"^^xsd:date' in (tmp_path / "out" / "graph.ttl").read_text()


def _truncate(entry: Path, _other: Path) -> None:
    entry.write_bytes(entry.read_bytes()[:-40])


def _flip_a_payload_byte(entry: Path, _other: Path) -> None:
    data = bytearray(entry.read_bytes())
    data[-10] ^= 0xFF
    entry.write_bytes(bytes(data))


def _empty(entry: Path, _other: Path) -> None:
    entry.write_bytes(b"")


def _another_documents_entry(entry: Path, other: Path) -> None:
    entry.write_bytes(other.read_bytes())  # whole and hashed, but stored under another key


def _valid_hash_wrong_contents(entry: Path, _other: Path) -> None:
    import hashlib
    import pickle

    payload = pickle.dumps({"not": "an extraction"})
    digest = hashlib.sha256(payload).hexdigest().encode()
    entry.write_bytes(b"kg-extraction 1 %s\n%s\n%s" % (entry.stem.encode(), digest, payload))


@pytest.mark.parametrize("damage", [_truncate, _flip_a_payload_byte, _empty,
                                    _another_documents_entry, _valid_hash_wrong_contents])
def test_a_damaged_entry_is_recomputed_not_served(
    articles: Path, tmp_path: Path, build: Callable[..., BuildReport], extracted: list[str],
    damage: Callable[[Path, Path], None],
) -> None:
    first = build(articles, tmp_path / "out")
    expected = graph_bytes(tmp_path / "out")
    entries = cache_entries(tmp_path / "out")
    assert len(entries) == 3
    damage(entries[0], entries[1])
    (tmp_path / "out" / MANIFEST_PATH).unlink()
    extracted.clear()
    second = build(articles, tmp_path / "out")
    assert len(extracted) == 1 and second.cached == 2
    assert graph_bytes(tmp_path / "out") == expected and second.triples == first.triples
    cache = ExtractionCache(tmp_path / "out")
    assert all(cache.get(d) is not None for d in read_documents([articles]))  # rewritten


def test_an_interrupted_build_keeps_what_it_extracted(
    articles: Path, tmp_path: Path, build: Callable[..., BuildReport], extracted: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def crash(*_args: Any) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr("kg.build.corpus.write_graph_files", crash)
        with pytest.raises(KeyboardInterrupt):
            build(articles, tmp_path / "out")
    assert not list((tmp_path / "out").glob("graph.*"))
    cache = tmp_path / "out" / CACHE_FOLDER  # a shard no entry uses: entries are keyed by a hash
    shard = next(cache / f"{i:02x}" for i in range(256) if not (cache / f"{i:02x}").exists())
    shard.mkdir()
    (shard / ".half-written.tmp").write_bytes(b"kg-extr")
    extracted.clear()
    report = build(articles, tmp_path / "out")
    assert extracted == [] and report.cached == 3 and not report.up_to_date
    build(articles, tmp_path / "reference", cache=False)
    assert graph_bytes(tmp_path / "out") == graph_bytes(tmp_path / "reference")


def test_an_unchanged_rebuild_is_up_to_date_without_loading_the_model(
    articles: Path, tmp_path: Path, build: Callable[..., BuildReport],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    first = build(articles, tmp_path / "out")
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "out").glob("graph.*")}

    def no_model(*_args: Any) -> None:
        raise AssertionError("an up-to-date build must not load spaCy")

    monkeypatch.setattr("kg.build.corpus.load_pipeline", no_model)
    again = build_corpus([articles], Settings(out_dir=tmp_path / "out"), formats=ALL_FORMATS)
    assert again.up_to_date and again.cached == 3
    assert (again.documents, again.triples, again.mentions, again.entities_by_kind) == (
        first.documents, first.triples, first.mentions, first.entities_by_kind)
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps
    assert sorted(again.outputs) == sorted(first.outputs)


@pytest.mark.parametrize("change", ["edit output", "delete output", "delete entity registry",
                                    "base IRI", "formats"])
def test_a_rebuild_after_any_change_is_not_up_to_date(
    articles: Path, tmp_path: Path, build: Callable[..., BuildReport], change: str
) -> None:
    out = tmp_path / "out"
    build(articles, out)
    expected = graph_bytes(out)
    settings, formats = Settings(out_dir=out), ALL_FORMATS
    if change == "edit output":
        (out / "graph.ttl").write_text("# edited by hand\n")
    elif change == "delete output":
        (out / "graph.nq").unlink()
    elif change == "delete entity registry":
        (out / REGISTRY_PATH).unlink()
    elif change == "base IRI":
        settings = replace(settings, base_iri="https://example.org/kg/")
    else:
        formats = ("ttl",)
    report = build_corpus([articles], settings, formats=formats)  # the cache spares spaCy
    assert not report.up_to_date and report.cached == 3
    if change.startswith("delete") or change == "edit output":
        assert graph_bytes(out) == expected


def test_the_key_changes_with_everything_an_extraction_depends_on() -> None:
    document = document_from_text("Joe Biden visited Paris.", path="a.txt", doc_id="a",
                                  meta=ArticleMeta(date_published=date(2022, 5, 18)))
    variants = [
        document,
        replace(document, sha256="1" * 64),
        replace(document, doc_id="b"),
        replace(document, path="b.txt"),
        replace(document, meta=ArticleMeta(date_published=date(2022, 5, 19))),
        replace(document, meta=replace(document.meta, title="Visit")),
    ]
    keys = {document_key(v, "fingerprint") for v in variants}
    keys.add(document_key(document, "another extractor"))
    assert len(keys) == len(variants) + 1
    assert document_key(document, "fingerprint") == document_key(
        replace(document), "fingerprint")


def test_entries_put_in_the_background_are_all_there_after_flush(tmp_path: Path) -> None:
    cache = ExtractionCache(tmp_path, fingerprint="test")
    documents = [document_from_text(f"Text number {i}.", doc_id=f"d{i}")
                 for i in range(ExtractionCache.MAX_PENDING + 44)]
    for document in documents:
        cache.put(Extraction(document, (Sentence(0, 0, len(document.text)),), ()))
    cache.flush()
    found = [cache.get(d) for d in documents]
    assert [e.sentences[0].end if e else None for e in found] == [len(d.text) for d in documents]


def test_a_cache_that_cannot_be_written_costs_only_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / ".kg").write_text("a file where the cache folder should be")
    cache = ExtractionCache(tmp_path, fingerprint="test")
    document = document_from_text("Joe Biden visited Paris.", doc_id="d1")
    cache.put(Extraction(document, (), ()))
    cache.flush()
    assert cache.get(document) is None and "extraction cache not written" in caplog.text


def test_fingerprint_covers_every_module_extraction_imports() -> None:
    from kg.build.cache import _SOURCES, extraction_sources

    names = {str(p.relative_to(_SOURCES)) for p in extraction_sources()}
    # the fact classes and the country table are not under kg/extract/ but decide its output
    assert {"extract/pipeline.py", "model/document.py", "model/facts.py",
            "lexicon/countries.py"} <= names


def test_the_build_signature_covers_every_module_of_kg() -> None:
    # a change to the resolver or the RDF writer must make the next build run again: the
    # code fingerprint hashes every file below the kg package, not below kg/build only
    from kg.build import manifest

    assert (manifest._PACKAGE / "resolve" / "resolver.py").is_file()
    assert (manifest._PACKAGE / "rdf" / "facts.py").is_file()
