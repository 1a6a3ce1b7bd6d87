"""kg: a knowledge-graph builder for news articles.

>>> import kg
>>> kg.Settings().base_iri
'https://w3id.org/kgnews/id/'
"""

from typing import Any

from kg.config import Settings
from kg.errors import KGError

__all__ = ["KGError", "Settings", "build_graph", "query", "view"]
__version__ = "0.1.0"

# The notebook API, imported on first use so that `kg --help` stays instant.
_LAZY = {"build_graph": "kg.api", "query": "kg.api", "view": "kg.api"}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'kg' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)
