"""The embedded SPARQL engine: graph files and in-memory graphs as ``pyoxigraph.Store``.

Every query in kg runs on Oxigraph (Rust), never on rdflib's own evaluator, which is 10-100x
slower. ``open_store`` reads a graph file (``.trig``, ``.nq``, ``.ttl``, ``.nt``, ``.jsonld``);
queries see the union of all named graphs (``use_default_graph_as_union=True``).

Cache
    A graph file of ``CACHE_MIN_BYTES`` or more is bulk-loaded once into an on-disk store at
    ``<folder>/.kg/store/<file name>/``, keyed by the file's size, mtime and inode, and opened
    read-only afterwards (~0.03 s instead of seconds of parsing; many readers at once are
    fine). A changed file rebuilds the cache; a folder that cannot be written falls back to
    loading in memory. Smaller files are parsed into memory: the on-disk store opens at once
    but evaluates joins 20-40x slower (people-roles on the 1.2M-triple BBC graph: 225 s on
    disk, 5.5 s in memory), so below the threshold a fresh parse wins on every question that
    joins, and the 256 MB of TriG (~4M triples, ~1.3 GB in memory) above it is where memory,
    not time, decides.

>>> store = open_store("output/graph.trig")  # doctest: +SKIP
>>> bool(store.query("ASK { ?s ?p ?o }", use_default_graph_as_union=True))  # doctest: +SKIP
True
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from kg.errors import GraphError
from kg.limits import load_json
from kg.rdf.serialize import oxigraph_quads

#: Graph file extension → Oxigraph parser.
GRAPH_FORMATS: dict[str, ox.RdfFormat] = {
    ".trig": ox.RdfFormat.TRIG,
    ".nq": ox.RdfFormat.N_QUADS,
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".jsonld": ox.RdfFormat.JSON_LD,
}
DEFAULT_GRAPH = Path("output/graph.trig")
CACHE_MIN_BYTES = 256 * 1024 * 1024
CACHE_DIR = Path(".kg") / "store"
CACHE_VERSION = 1  # bump when the cache layout changes
BUILD_HINT = "build one first (a build writes graph.trig into its output folder)"

_log = logging.getLogger(__name__)


def graph_format(path: Path) -> ox.RdfFormat:
    """The RDF format of a graph file, from its extension.

    >>> graph_format(Path("out/graph.nq")).name
    'N-Quads'
    """
    try:
        return GRAPH_FORMATS[path.suffix.lower()]
    except KeyError:
        known = ", ".join(GRAPH_FORMATS)
        raise GraphError(f"{path}: unknown graph format {path.suffix!r}; use one of {known}")\
            from None


def open_store(path: str | Path, *, cache: bool | None = None) -> ox.Store:
    """A store holding the graph file at ``path``; ``cache=None`` caches big files only.

    Raises ``GraphError`` when the file is missing (saying how to build one), has an unknown
    extension or does not parse.

    >>> open_store("no/such/graph.trig")
    Traceback (most recent call last):
    kg.errors.GraphError: graph file no/such/graph.trig not found; build one first ...
    """
    path = Path(path)
    fmt = graph_format(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise GraphError(f"graph file {path} not found; {BUILD_HINT}", option="graph") from None
    except OSError as e:
        raise GraphError(f"cannot read graph file {path}: {e.strerror or e}") from e
    if path.is_dir():
        raise GraphError(f"{path} is a folder; give the graph file, e.g. {path / 'graph.trig'}")
    if cache or (cache is None and size >= CACHE_MIN_BYTES):
        cached = _cached_store(path, fmt)
        if cached is not None:
            return cached
    store = ox.Store()
    _parse_into(store, path, fmt, bulk=False)
    return store


def _parse_into(store: ox.Store, path: Path, fmt: ox.RdfFormat, *, bulk: bool) -> None:
    """Load ``path`` into ``store``, turning parser errors into ``GraphError``."""
    try:
        if bulk:
            store.bulk_load(path=str(path), format=fmt)
        else:
            store.load(path=str(path), format=fmt)
    except SyntaxError as e:
        raise GraphError(f"{path} is not valid {fmt.name}: {e}") from e
    except OSError as e:
        raise GraphError(f"cannot read graph file {path}: {e.strerror or e}") from e


def _file_key(path: Path) -> dict[str, int]:
    info = path.stat()
    return {"size": info.st_size, "mtime_ns": info.st_mtime_ns, "inode": info.st_ino,
            "version": CACHE_VERSION}


def cache_folder(path: Path) -> Path:
    """Where the on-disk store of graph file ``path`` lives.

    >>> str(cache_folder(Path("output/graph.trig")))
    'output/.kg/store/graph.trig'
    """
    return path.parent / CACHE_DIR / path.name


def _cached_store(path: Path, fmt: ox.RdfFormat) -> ox.Store | None:
    """The read-only cached store of ``path``, (re)built when stale; ``None`` if impossible."""
    folder, key = cache_folder(path), _file_key(path)
    store = _open_if_current(folder, key)
    if store is not None:
        return store
    try:
        with _cache_lock(folder):
            store = _open_if_current(folder, key)  # another process may have just built it
            if store is None:
                _rebuild_cache(path, fmt, folder, key)
                store = _open_if_current(folder, key)
    except OSError as e:
        _log.warning("not caching %s (%s); loading it in memory", path, e.strerror or e)
        return None
    return store


def _open_if_current(folder: Path, key: dict[str, int]) -> ox.Store | None:
    try:
        if load_json((folder / "key.json").read_bytes()) != key:
            return None
        return ox.Store.read_only(str(folder / "db"))
    except (OSError, ValueError):
        return None


@contextmanager
def _cache_lock(folder: Path) -> Iterator[None]:
    """One process at a time (re)builds a cache; the others wait, then reuse it."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder.with_name(folder.name + ".lock"), os.O_RDWR | os.O_CREAT, 0o666)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _rebuild_cache(path: Path, fmt: ox.RdfFormat, folder: Path, key: dict[str, int]) -> None:
    """Bulk-load into a fresh folder, then swap it in (readers never see half a store)."""
    temp = folder.with_name(f".{folder.name}.{secrets.token_hex(4)}.tmp")
    try:
        temp.mkdir()
        store = ox.Store(str(temp / "db"))
        _parse_into(store, path, fmt, bulk=True)
        del store  # closes the database before it is opened read-only
        (temp / "key.json").write_text(json.dumps(key))
        if folder.exists():
            trash = folder.with_name(f".{folder.name}.{secrets.token_hex(4)}.old")
            os.rename(folder, trash)
            shutil.rmtree(trash, ignore_errors=True)
        os.rename(temp, folder)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def store_of(source: Any, *, cache: bool | None = None) -> ox.Store:
    """A ``pyoxigraph.Store`` for a graph file path, a store, or an rdflib Graph/Dataset.

    rdflib graphs backed by oxrdflib (``store="Oxigraph"``) are used as they are; other
    rdflib graphs are copied quad by quad.

    >>> store_of(ox.Store()).__class__.__name__
    'Store'
    """
    if isinstance(source, ox.Store):
        return source
    if isinstance(source, str | os.PathLike):
        return open_store(Path(source), cache=cache)
    inner = getattr(getattr(source, "store", None), "_inner", None)
    if isinstance(inner, ox.Store):
        return inner
    if hasattr(source, "quads") or hasattr(source, "triples"):
        return _copy_rdflib(source)
    raise GraphError(f"cannot query a {type(source).__name__}: give a graph file path, "
                     "a pyoxigraph.Store or an rdflib Graph/Dataset")


def _copy_rdflib(graph: Any) -> ox.Store:
    from rdflib import Dataset, Graph

    store = ox.Store()
    if isinstance(graph, Dataset):
        default = graph.default_graph.identifier
        quads = ((s, p, o, None if _name(c) == default else _name(c))
                 for s, p, o, c in graph.quads())
    elif isinstance(graph, Graph):
        quads = ((s, p, o, None) for s, p, o in graph)
    else:
        raise GraphError(f"cannot copy a {type(graph).__name__} into a store")
    store.extend(oxigraph_quads(quads))
    return store


def _name(context: Any) -> Any:
    """A graph name from what rdflib gives as a quad's context (a Graph or its identifier)."""
    return getattr(context, "identifier", context)
