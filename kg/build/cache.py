"""The extraction cache: one verified file per document, so rebuilds skip spaCy for what is known.

An entry lives at ``<out_dir>/.kg/cache/<key[:2]>/<key>.extraction`` and holds one
document's ``Extraction`` without its ``Document`` (the current one is put back on read).
The key is the SHA-256 of the document's text hash, id, path and metadata together with the
extractor fingerprint: ``EXTRACTOR_VERSION``, the model package and its version, spaCy's
version, the source of ``kg/extract`` and what it imports, and the lexicon's word lists
(``kg/lexicon/data/``), the recorded hashes of the trained weights the extractor reads (the
news NER's, the trigger-sense and event-factuality models') — so editing the extractor, a
word list or changing a model can never serve an old result.

Entries are written atomically (``kg.atomic``) and carry the SHA-256 of their payload; a file
that is truncated, altered, renamed or unreadable by this version of kg is a miss and is
recomputed, never an error. The cache is trusted like the output folder itself: entries are
pickles, so only kg should write there.

>>> import tempfile
>>> from kg.ingest.files import document_from_text
>>> cache = ExtractionCache(Path(tempfile.mkdtemp()), fingerprint="test")
>>> document = document_from_text("Joe Biden visited Paris.", doc_id="d1")
>>> cache.put(Extraction(document, (), ()))
>>> cache.flush()
>>> cache.get(document) == Extraction(document, (), ())
True
"""

from __future__ import annotations

import hashlib
import json
import logging
import pickle
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import fields
from functools import cache
from importlib import metadata
from pathlib import Path

from kg.atomic import atomic_write_bytes
from kg.config import DEFAULT_MODEL, EXTRACTOR_VERSION
from kg.errors import BuildError
from kg.extract.pipeline import NEWS_NER_HASHES, split_model
from kg.extract.rules.event_factuality import HASH_FILE as FACTUALITY_HASH
from kg.extract.rules.trigger_sense import HASH_FILE as SENSE_HASH
from kg.lexicon import data_files
from kg.model import Document, Extraction

CACHE_FOLDER = Path(".kg") / "cache"
_MAGIC = b"kg-extraction 1"
_SOURCES = Path(__file__).resolve().parents[1]  # the kg package
_log = logging.getLogger(__name__)


@cache
def extractor_fingerprint(model: str = DEFAULT_MODEL) -> str:
    """A hash of everything besides the document that decides an extraction.

    >>> len(extractor_fingerprint())
    64
    """
    digest = hashlib.sha256()
    package, news_ner = split_model(model)
    for part in (EXTRACTOR_VERSION, model, installed_version(package), installed_version("spacy")):
        digest.update(f"{part}\0".encode())
    for source in extraction_sources():
        digest.update(f"{source.relative_to(_SOURCES)}\0".encode())
        digest.update(hashlib.sha256(source.read_bytes()).digest())
    for word_list in data_files():  # the words the rules read are part of the extractor
        digest.update(f"lexicon/{word_list.name}\0".encode())
        digest.update(hashlib.sha256(word_list.read_bytes()).digest())
    if news_ner:  # the trained weights decide the names: their verified hash list stands in
        digest.update(NEWS_NER_HASHES.read_bytes())
    # the learned models decide which events are kept (trigger sense) and stated as happened
    # (factuality): each recorded hash stands in for its weights, wordllama's version for the
    # embeddings the sense model reads
    for recorded in (SENSE_HASH, FACTUALITY_HASH):
        if recorded.exists():
            digest.update(recorded.read_bytes())
    digest.update(f"{installed_version('wordllama')}\0".encode())
    return digest.hexdigest()


def extraction_sources() -> list[Path]:
    """Every kg module that extraction runs: kg/extract/ and what it imports, transitively.

    Found by reading the imports, so a module the extractors start to use (a lexicon, the
    fact classes) changes the fingerprint without anyone remembering to list it here.

    >>> _SOURCES / "model" / "document.py" in extraction_sources()
    True
    """
    pending = sorted((_SOURCES / "extract").rglob("*.py"))
    seen: set[Path] = set()
    while pending:
        source = pending.pop()
        if source not in seen:
            seen.add(source)
            pending += _imported_sources(source)
    return sorted(seen)


def _imported_sources(source: Path) -> list[Path]:
    import ast

    names = []
    for node in ast.walk(ast.parse(source.read_bytes())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
    found = []
    for name in names:
        if name == "kg" or name.startswith("kg."):
            base = _SOURCES.joinpath(*name.split(".")[1:])
            found += [p for p in (base.with_suffix(".py"), base / "__init__.py") if p.is_file()]
    return found


def installed_version(distribution: str) -> str:
    """The installed version of a distribution, or ``"not installed"``.

    >>> installed_version("no-such-distribution-kg")
    'not installed'
    """
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def document_key(document: Document, fingerprint: str) -> str:
    """The cache key of ``document``'s extraction (64 hex digits).

    >>> from kg.ingest.files import document_from_text
    >>> document = document_from_text("Hi.", doc_id="a")
    >>> document_key(document, "extractor 1") != document_key(document, "extractor 2")
    True
    """
    meta = document.meta
    parts = [fingerprint, document.sha256, document.doc_id, document.path,
             meta.date_published and meta.date_published.isoformat(), meta.title, meta.source,
             meta.url, meta.identifier]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


class ExtractionCache:
    """Extractions by document, under ``<out_dir>/.kg/cache/``; counts its hits and misses.

    ``put`` hands the file to a background thread, so waiting for the disk (each entry is
    fsynced) overlaps parsing; ``flush`` waits until every entry is written.
    """

    #: Entries waiting for the writer at most; ``put`` waits when the disk falls behind.
    MAX_PENDING = 256

    def __init__(self, out_dir: Path, fingerprint: str | None = None) -> None:
        self.folder = Path(out_dir) / CACHE_FOLDER
        self.fingerprint = fingerprint or extractor_fingerprint()
        self.hits = self.misses = 0
        self._writer: ThreadPoolExecutor | None = None
        self._room = threading.BoundedSemaphore(self.MAX_PENDING)

    def path(self, document: Document) -> Path:
        """Where ``document``'s entry is (or would be) stored."""
        key = document_key(document, self.fingerprint)
        return self.folder / key[:2] / f"{key}.extraction"

    def get(self, document: Document) -> Extraction | None:
        """The cached extraction of ``document``, or ``None`` (missing or not trustworthy)."""
        path = self.path(document)
        found = _read_entry(path, document)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def put(self, extraction: Extraction) -> None:
        """Store ``extraction`` (in the background; a cache that cannot be written only costs
        a warning)."""
        path = self.path(extraction.document)
        payload = pickle.dumps(
            {f.name: getattr(extraction, f.name) for f in fields(Extraction)
             if f.name != "document"},
            protocol=pickle.HIGHEST_PROTOCOL,
        )
        header = b"%s %s\n%s\n" % (_MAGIC, path.stem.encode(), _digest(payload))
        if self._writer is None:
            self._writer = ThreadPoolExecutor(1, thread_name_prefix="kg-cache")
        self._room.acquire()
        done = self._writer.submit(_write_entry, path, header + payload)
        done.add_done_callback(lambda _done: self._room.release())

    def flush(self) -> None:
        """Wait until every entry given to ``put`` is written."""
        if self._writer is not None:
            self._writer.shutdown(wait=True)
            self._writer = None


def _write_entry(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, data)
    except (OSError, BuildError) as e:
        _log.warning("extraction cache not written (%s): %s", path, e)


def _digest(payload: bytes) -> bytes:
    return hashlib.sha256(payload).hexdigest().encode()


def _read_entry(path: Path, document: Document) -> Extraction | None:
    """The entry at ``path`` if it is whole, is for this key, and unpickles to our fields."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    magic_and_key, _, rest = data.partition(b"\n")
    digest, _, payload = rest.partition(b"\n")
    if magic_and_key != b"%s %s" % (_MAGIC, path.stem.encode()) or digest != _digest(payload):
        _log.debug("ignoring damaged cache entry %s", path)
        return None
    try:
        return Extraction(document=document, **pickle.loads(payload))
    except Exception as e:  # whatever makes an entry unreadable, it is just a miss
        _log.debug("ignoring unreadable cache entry %s: %s", path, e)
        return None
