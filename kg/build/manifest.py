"""The build manifest: what the last build read and wrote, so an unchanged rebuild is free.

``<out_dir>/.kg/manifest.json`` records a signature of the build's inputs — every document's
id, path, text hash and metadata, the settings that shape the graph, the formats, the source of
the ``kg`` package and the versions of spaCy, the model, rdflib and pyoxigraph — together with
the SHA-256 of every file written and the counts of the report. A rebuild whose signature
matches and whose output files still hash the same has nothing to do.

The manifest is written last, after the graph files, so a build interrupted earlier leaves a
manifest whose output hashes no longer match: the next build does the work again.

>>> import tempfile; out = Path(tempfile.mkdtemp())
>>> write_manifest(out, Manifest("sig", {}, {"documents": 0}))
>>> read_manifest(out).signature
'sig'
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from kg.atomic import atomic_write_bytes
from kg.build.cache import extractor_fingerprint, installed_version
from kg.config import Settings
from kg.limits import load_json
from kg.model import Document

MANIFEST_PATH = Path(".kg") / "manifest.json"
_PACKAGE = Path(__file__).resolve().parents[1]  # the whole kg package, not kg/build
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Manifest:
    """A finished build: input signature, output file hashes (by name), report counts, and
    the hashes of the state files the next build reads (by path below the output folder)."""

    signature: str
    outputs: dict[str, str]
    report: dict[str, Any]
    state: dict[str, str] = field(default_factory=dict)
    #: Each article id -> the path of the article that had it: the next build keeps it there.
    ids: dict[str, str] = field(default_factory=dict)


@cache
def code_fingerprint() -> str:
    """A hash of the ``kg`` package's files and the RDF libraries' versions.

    >>> len(code_fingerprint())
    64
    """
    digest = hashlib.sha256()
    for name in ("rdflib", "pyoxigraph"):
        digest.update(f"{name} {installed_version(name)}\0".encode())
    for path in sorted(p for p in _PACKAGE.rglob("*") if p.is_file() and _is_source(p)):
        digest.update(f"{path.relative_to(_PACKAGE)}\0".encode())
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _is_source(path: Path) -> bool:
    return "__pycache__" not in path.parts and path.suffix not in (".pyc", ".pyo")


def build_signature(documents: Iterable[Document], settings: Settings,
                    formats: Sequence[str]) -> str:
    """The hash of everything a build's output depends on.

    >>> build_signature([], Settings(), ["ttl"]) == build_signature([], Settings(), ["trig"])
    False
    """
    digest = hashlib.sha256()
    header = [code_fingerprint(), extractor_fingerprint(settings.model), settings.base_iri,
              sorted(set(formats)), sorted(settings.rules_off), settings.min_confidence]
    digest.update(json.dumps(header).encode())
    for document in documents:
        meta = {k: str(v) for k, v in asdict(document.meta).items() if v is not None}
        row = [document.doc_id, document.path, document.sha256, sorted(meta.items())]
        digest.update(json.dumps(row).encode() + b"\n")
    return digest.hexdigest()


def read_manifest(out_dir: Path) -> Manifest | None:
    """The manifest of the last finished build in ``out_dir``, or ``None``."""
    try:
        raw = load_json((Path(out_dir) / MANIFEST_PATH).read_bytes())
        return Manifest(str(raw["signature"]), dict(raw["outputs"]), dict(raw["report"]),
                        dict(raw.get("state", {})), dict(raw.get("ids", {})))
    except (OSError, ValueError, KeyError, TypeError) as e:
        _log.debug("no usable manifest in %s: %s", out_dir, e)
        return None


def write_manifest(out_dir: Path, manifest: Manifest) -> None:
    """Record a finished build (atomically)."""
    path = Path(out_dir) / MANIFEST_PATH
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, json.dumps(asdict(manifest), indent=1, sort_keys=True).encode())


def outputs_intact(out_dir: Path, manifest: Manifest) -> bool:
    """Whether every file the manifest lists is still there with the same contents."""
    expected = {**manifest.outputs, **manifest.state}
    return file_hashes(out_dir, expected) == expected


def file_hashes(out_dir: Path, names: Iterable[str | Path]) -> dict[str, str]:
    """The SHA-256 of each file of ``names`` (below ``out_dir``) that exists.

    >>> file_hashes(Path("."), ["no-such-file"])
    {}
    """
    hashes = {}
    for name in names:
        try:
            hashes[str(name)] = file_sha256(Path(out_dir) / name)
        except OSError:
            continue
    return hashes


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while block := file.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()
