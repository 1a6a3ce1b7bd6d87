"""Files that travel inside the package, read through ``importlib.resources``.

The top-level ``ontology/`` and ``queries/`` folders of a checkout are linked into the package
(``kg/ontology``, ``kg/queries``) and copied into the wheel, so a plain ``pip install .``
finds the same files as an editable install.

>>> (QUERIES_DIR / "people-roles.rq").is_file(), SHAPES.name
(True, 'shapes.ttl')
"""

from __future__ import annotations

import hashlib
from importlib.resources import files
from pathlib import Path

from kg.errors import ModelError

#: The installed package's folder (pip installs unpacked, so this is a real folder).
PACKAGE_DIR = Path(str(files("kg")))
#: Page templates, scripts and verified hash lists.
PACKAGE_DATA = PACKAGE_DIR / "data"
#: The named SPARQL questions (``queries/*.rq`` of a checkout).
QUERIES_DIR = PACKAGE_DIR / "queries"
#: kg's ontology and its SHACL shapes (``ontology/*.ttl`` of a checkout).
ONTOLOGY_DIR = PACKAGE_DIR / "ontology"
ONTOLOGY = ONTOLOGY_DIR / "kg.ttl"
SHAPES = ONTOLOGY_DIR / "shapes.ttl"


def hashed_bytes(data_file: Path, hash_file: Path, what: str, remedy: str) -> bytes | None:
    """The bytes of a shipped model's ``data_file`` (``None`` when the package has none),
    checked against the SHA-256 recorded in ``hash_file``; ``ModelError`` naming ``what`` and
    the ``remedy`` when they differ."""
    try:
        data = data_file.read_bytes()
        expected = hash_file.read_text(encoding="utf-8").split()[0]
    except (OSError, IndexError):
        return None
    if hashlib.sha256(data).hexdigest() != expected:
        raise ModelError(f"{what} ({data_file.name}) do not match their recorded hash: "
                         f"reinstall kg or {remedy}")
    return data
