"""One exception tree for everything kg raises on purpose.

    KGError
    ├── InputError        a file or argument cannot be used (names the file and the problem)
    ├── ModelError        the spaCy model is missing or does not match its pinned hashes
    ├── BuildError        a build cannot run (lock held, output folder unusable)
    ├── GraphError        a graph file is missing, unreadable or fails validation
    ├── QueryError        a SPARQL query is malformed or names an unknown named question
    └── StoreError        an external triple store refused, failed or could not be reached

Callers (the CLI above all) catch ``KGError`` and print ``str(error)``; causes are chained
with ``raise ... from e`` so tracebacks still show what went wrong underneath. Messages speak
the library's words: an error that a setting or parameter would fix names it in ``option``
(``"max_nodes"``, ``"out_dir"`` …), and the CLI turns that into a hint about its own flags.

>>> KGError("the view is too big", option="max_nodes").option
'max_nodes'
"""

from __future__ import annotations


class KGError(Exception):
    """Base class of every error kg raises deliberately."""

    def __init__(self, message: str, *, option: str | None = None) -> None:
        super().__init__(message)
        #: The library parameter or setting that would fix this, if one would.
        self.option = option


class InputError(KGError):
    """An input file or argument cannot be used."""


class ModelError(KGError):
    """The spaCy model is missing, broken or not the verified one."""


class BuildError(KGError):
    """A build cannot start or finish."""


class GraphError(KGError):
    """A graph file is missing, unreadable or invalid."""


class QueryError(KGError):
    """A SPARQL query is malformed or refers to an unknown named question."""


class StoreError(KGError):
    """An external SPARQL store failed, refused or could not be reached."""
