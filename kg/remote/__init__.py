"""External SPARQL 1.1 stores over HTTP: one client, remote questions and ``kg load``.

    client.py       the one HTTP client: credentials, TLS, deadlines, retries, redirects
    store.py        a store's endpoints (presets) and graph operations
    endpoint.py     questions sent to a remote endpoint, seeing every graph
    replacement.py  whole graphs replaced so none is ever left half-replaced
    load.py         load_dataset: a built dataset into a store
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kg.remote.endpoint import run_remote
    from kg.remote.load import load_dataset

__all__ = ["load_dataset", "run_remote"]
_HOMES = {"load_dataset": "kg.remote.load", "run_remote": "kg.remote.endpoint"}


def __getattr__(name: str) -> Any:
    """``load_dataset`` and ``run_remote`` imported when first used: ``kg load`` needs no
    query machinery (kg.store, rdflib: ~0.12 s of each start)."""
    if name in _HOMES:
        return getattr(import_module(_HOMES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
