"""The whole build: files → documents → extractions → entities → RDF files.

>>> from kg.config import Settings
>>> report = build_corpus(["seeds"], Settings(out_dir=Path("output")))  # doctest: +SKIP
>>> report.summary()  # doctest: +SKIP
'3 documents (0 skipped), 52 entities (…), 117 mentions, 3,210 triples in 4.1 s'
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

from kg.atomic import BuildLock
from kg.build.cache import ExtractionCache, extractor_fingerprint
from kg.build.manifest import (
    MANIFEST_PATH,
    Manifest,
    build_signature,
    file_hashes,
    outputs_intact,
    read_manifest,
    write_manifest,
)
from kg.build.parallel import extract_in_processes, extract_on_dask
from kg.build.rules import check_rules_off
from kg.config import Settings
from kg.errors import BuildError, InputError
from kg.extract import extract_documents, load_pipeline
from kg.heuristics import switched_off
from kg.ingest.copies import mark_copies
from kg.ingest.fetch import FETCH_FOLDER, Fetcher
from kg.ingest.files import Skipped, read_documents
from kg.model import Document, Extraction, Resolution
from kg.rdf.graph import corpus_graphs, corpus_quads
from kg.rdf.graphfiles import WrittenGraph, write_graph_files
from kg.rdf.serialize import FORMATS
from kg.rdf.terms import Quad
from kg.resolve.corpus_names import with_corpus_names
from kg.resolve.registry import REGISTRY_PATH, Registry, load_registry, save_registry
from kg.resolve.resolver import resolve_entities
from kg.verify import verified

DEFAULT_FORMATS = ("ttl", "trig")


@dataclass(frozen=True)
class BuildReport:
    """What a build did: counts, time, files written and inputs skipped."""

    documents: int
    skipped: tuple[Skipped, ...]  # inputs not built (exact copies are in ``copies``)
    entities_by_kind: dict[str, int]
    mentions: int
    triples: int
    seconds: float
    outputs: tuple[Path, ...] = field(default=())
    cached: int = 0  # extractions read from the cache instead of running spaCy
    up_to_date: bool = False  # nothing changed since the last build: nothing was written
    copies: tuple[Skipped, ...] = ()  # exact copies of earlier inputs, built once: not lost

    def summary(self) -> str:
        """One line for people: documents, entities by class, mentions, triples, seconds."""
        kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.entities_by_kind.items()))
        total = sum(self.entities_by_kind.values())
        copies = f", {len(self.copies)} exact copies counted once" if self.copies else ""
        return (
            f"{self.documents} documents ({len(self.skipped)} skipped{copies}), {total} entities "
            f"({kinds or 'none'}), {self.mentions} mentions, {self.triples:,} triples "
            f"in {self.seconds:.1f} s"
        )

    def counts(self) -> dict[str, Any]:
        """The counts of the report, as the build manifest keeps them."""
        return {"documents": self.documents, "entities_by_kind": self.entities_by_kind,
                "mentions": self.mentions, "triples": self.triples}


@dataclass(frozen=True)
class Corpus:
    """A resolved corpus in memory: extractions and their resolution (quads on demand)."""

    extractions: tuple[Extraction, ...]
    resolution: Resolution
    base_iri: str = Settings().base_iri
    model: str = Settings().model  # the pipeline that extracted it, for the build record

    @cached_property
    def quads(self) -> tuple[Quad, ...]:
        """Every quad of the corpus; builds never need them all at once (``write_outputs``)."""
        return tuple(corpus_quads(list(self.extractions), self.resolution, self.base_iri,
                                 self.model))


def extraction_fingerprint(settings: Settings) -> str:
    """What decides an extraction besides its document: the extractor and the heuristics off."""
    return "|".join([extractor_fingerprint(settings.model), *sorted(settings.rules_off)])


def extract_corpus(
    documents: Iterable[Document], settings: Settings, nlp: Any = None
) -> Iterator[Extraction]:
    """Extractions of ``documents``, streamed (parsed spaCy docs are never kept)."""
    pipeline = nlp if nlp is not None else load_pipeline(settings.model)
    yield from extract_documents(pipeline, documents, batch_size=settings.batch_size)


def extract_all(documents: Sequence[Document], settings: Settings, nlp: Any = None,
                cache: ExtractionCache | None = None) -> Iterator[Extraction]:
    """Extractions of ``documents`` in order: from ``cache`` when it has them, the rest
    extracted here, in a process pool or on Dask (as ``settings`` say) and then cached."""
    known = [cache.get(d) if cache else None for d in documents]
    missing = [d for d, e in zip(documents, known, strict=True) if e is None]
    fresh = extract_missing(missing, settings, nlp)
    try:
        for extraction in known:
            if extraction is None:
                extraction = next(fresh)
                if cache is not None:
                    cache.put(extraction)
            yield extraction
    finally:
        if hasattr(fresh, "close"):
            fresh.close()  # stops worker processes at once when the build stops early
        if cache is not None:
            cache.flush()  # what was extracted is kept, even when the build stops here


def extract_missing(documents: Sequence[Document], settings: Settings,
                    nlp: Any = None) -> Iterator[Extraction]:
    """Extractions of ``documents`` where ``settings`` say; no model is loaded for none."""
    if not documents:
        return iter(())
    if settings.scheduler:
        return extract_on_dask(documents, settings.model, settings.scheduler, settings.workers,
                               settings.batch_size, settings.rules_off)
    if settings.workers > 1:
        return extract_in_processes(documents, settings.model, settings.workers,
                                    settings.batch_size, settings.rules_off)
    return extract_corpus(documents, settings, nlp)


def corpus_from_extractions(extractions: Sequence[Extraction], settings: Settings,
                            registry: Registry | None = None) -> Corpus:
    """Resolve entities across ``extractions`` (keeping the keys ``registry`` gave out), after
    adding the names other articles found where an article's tagger missed them."""
    extractions = with_corpus_names(extractions)
    resolution = resolve_entities(extractions, registry)
    extractions = verified(extractions, resolution, settings.min_confidence)
    return Corpus(tuple(extractions), resolution, settings.base_iri, settings.model)


def write_outputs(corpus: Corpus, out_dir: Path, formats: Sequence[str]) -> WrittenGraph:
    """Write the corpus in each format graph by graph, each file replaced atomically."""
    graphs = corpus_graphs(corpus.extractions, corpus.resolution, corpus.base_iri,
                           corpus.model)
    return write_graph_files(graphs, out_dir, formats, corpus.base_iri)


def check_formats(formats: Sequence[str]) -> None:
    """Raise ``InputError`` for a format kg cannot write, before any work is done."""
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise InputError(f"unknown format {unknown[0] if unknown else ''!r}; "
                         f"choose from {', '.join(FORMATS)}")


def build_corpus(
    paths: Sequence[str | Path],
    settings: Settings,
    formats: Sequence[str] = DEFAULT_FORMATS,
    on_document: Callable[[Document], None] | None = None,
    on_skip: Callable[[Skipped], None] | None = None,
    nlp: Any = None,
    on_warning: Callable[[str, str], None] | None = None,
    on_start: Callable[[int], None] | None = None,
    fields: Mapping[str, str] | None = None,
    refresh: bool = False,
    fetcher: Fetcher | None = None,
) -> BuildReport:
    """Build the graph of the articles under ``paths`` into ``settings.out_dir``.

    With ``settings.cache`` a build whose inputs, settings, code and outputs are unchanged
    writes nothing, and known documents are not parsed again (``kg.build.cache``,
    ``kg.build.manifest``). ``on_start`` is told how many documents extraction will hand to
    ``on_document``, once they are read (a progress bar's total). ``fields`` names the fields
    of JSON Lines and CSV records (``kg.ingest.records``); web addresses among ``paths`` are
    fetched once and kept under ``OUT/.kg/fetch/`` (``refresh`` fetches them again;
    ``kg.ingest.fetch``). Near-copies of one story are marked ``copyOf`` their original
    (``kg.ingest.copies``).

    Outputs and state are committed together: the graph files, the entity registry and the
    manifest are first written into a staging folder in ``OUT/.kg/`` and then moved into
    place, the manifest last; a build that fails (``OUT/.kg/`` not writable, a full disk)
    fails before anything in ``OUT`` is replaced, so both stay as the last build left them.
    """
    started = time.perf_counter()
    check_formats(formats)
    if settings.rules_off:
        check_rules_off(settings.rules_off)
    skipped: list[Skipped] = []
    copies: list[Skipped] = []

    def skip(item: Skipped) -> None:
        (copies if item.is_copy else skipped).append(item)
        if on_skip is not None:
            on_skip(item)

    with BuildLock(settings.out_dir):
        staging_parent = state_folder(settings.out_dir)
        own = fetcher or Fetcher(settings.out_dir / FETCH_FOLDER, refresh=refresh,
                                 on_warning=on_warning,
                                 max_page_bytes=settings.max_article_bytes)
        last = read_manifest(settings.out_dir)
        try:
            documents = mark_copies(list(read_documents(
                paths, on_skip=skip, on_warning=on_warning, max_bytes=settings.max_article_bytes,
                fields=fields, fetcher=own, follow_links=settings.follow_links,
                previous_ids=last.ids if last is not None else None)))
        finally:
            if fetcher is None:
                own.close()
        signature = build_signature(documents, settings, formats)
        finished = unchanged_build(settings, signature)
        if finished is not None:
            return replace(report_of_unchanged(finished, settings.out_dir, skipped, started),
                           copies=tuple(copies))
        cache = ExtractionCache(settings.out_dir, extraction_fingerprint(settings)) \
            if settings.cache else None
        if on_start is not None:
            on_start(len(documents))
        extractions = []
        with switched_off(settings.rules_off):
            for extraction in extract_all(documents, settings, nlp, cache):
                extractions.append(extraction)
                if on_document is not None:
                    on_document(extraction.document)
            registry = load_registry(settings.out_dir)
            corpus = corpus_from_extractions(extractions, settings, registry)
        with staging_folder(staging_parent) as staging:
            try:
                with switched_off(settings.rules_off):  # the rdf stage's filters too
                    written = write_outputs(corpus, staging, formats)
                save_registry(staging, registry.updated(corpus.resolution), corpus.resolution)
            except OSError as e:
                raise BuildError(f"cannot write the build's files in {staging_parent}: "
                                 f"{e.strerror or e}; nothing in {settings.out_dir} was "
                                 "changed", option="out_dir") from e
            report = replace(report_of(corpus, skipped, time.perf_counter() - started, written,
                                       cache.hits if cache else 0), copies=tuple(copies))
            state = file_hashes(staging, [REGISTRY_PATH])  # the next build reads it
            ids = {d.doc_id: d.path for d in documents}
            write_manifest(staging, Manifest(signature, written.hashes, report.counts(), state,
                                             ids))
            commit_staged(staging, settings.out_dir)
    return report_in(report, settings.out_dir)


_STAGING_PREFIX = "staging-"


def state_folder(out_dir: Path) -> Path:
    """``OUT/.kg/``, checked writable before any work (``BuildError`` otherwise); staging
    folders a killed build left there are removed (the caller holds the build lock)."""
    folder = Path(out_dir) / MANIFEST_PATH.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as e:
        raise BuildError(f"cannot write to {folder}: {e.strerror or e}; nothing was built or "
                         "changed", option="out_dir") from e
    for stale in folder.glob(f"{_STAGING_PREFIX}*"):
        shutil.rmtree(stale, ignore_errors=True)
    return folder


@contextmanager
def staging_folder(parent: Path) -> Iterator[Path]:
    """A fresh folder in ``parent`` for a build's files, removed on leaving."""
    path = Path(tempfile.mkdtemp(prefix=_STAGING_PREFIX, dir=parent))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def commit_staged(staging: Path, out_dir: Path) -> None:
    """Move every file of ``staging`` to the same place under ``out_dir`` (each rename is
    atomic); the manifest goes last, so until it is in place the next build sees that the
    outputs differ from what the manifest records and builds again."""
    files = sorted((p for p in staging.rglob("*") if p.is_file()),
                   key=lambda p: p.relative_to(staging) == MANIFEST_PATH)
    for path in files:
        target = out_dir / path.relative_to(staging)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, target)


def report_in(report: BuildReport, out_dir: Path) -> BuildReport:
    """``report`` with its outputs named where they were committed."""
    return replace(report, outputs=tuple(Path(out_dir) / p.name for p in report.outputs))


def unchanged_build(settings: Settings, signature: str) -> Manifest | None:
    """The manifest of the last build when this one would write exactly the same files."""
    if not settings.cache:
        return None
    manifest = read_manifest(settings.out_dir)
    if manifest is None or manifest.signature != signature:
        return None
    return manifest if outputs_intact(settings.out_dir, manifest) else None


def report_of(corpus: Corpus, skipped: Sequence[Skipped], seconds: float,
              written: WrittenGraph, cached: int = 0) -> BuildReport:
    """The report of a finished build."""
    kinds = Counter(e.kind.value for e in corpus.resolution.entities)
    return BuildReport(
        documents=len(corpus.extractions),
        skipped=tuple(skipped),
        entities_by_kind=dict(kinds),
        mentions=len(corpus.resolution.assignments),
        triples=written.triples,
        seconds=seconds,
        outputs=written.outputs,
        cached=cached,
    )


def report_of_unchanged(manifest: Manifest, out_dir: Path, skipped: Sequence[Skipped],
                        started: float) -> BuildReport:
    """The report of a build that found nothing to do, with the last build's counts."""
    counts = manifest.report
    return BuildReport(
        documents=int(counts["documents"]),
        skipped=tuple(skipped),
        entities_by_kind=dict(counts["entities_by_kind"]),
        mentions=int(counts["mentions"]),
        triples=int(counts["triples"]),
        seconds=time.perf_counter() - started,
        outputs=tuple(out_dir / name for name in manifest.outputs),
        cached=int(counts["documents"]),
        up_to_date=True,
    )
