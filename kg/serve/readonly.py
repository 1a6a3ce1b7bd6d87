"""Which free SPARQL the explorer runs: queries only, and never one that calls another server.

A query is parsed (rdflib's SPARQL parser, the grammar of SPARQL 1.1) and its parse tree is
searched for ``SERVICE`` at any depth; an update is recognised by parsing it as one. Pattern
matching over the text is not enough: a filter that blanked strings with a pattern that did
not know ``\"\"\"`` strings let ``BIND(\"\"\"⏎'\"\"\" AS ?z) SERVICE <http://…> {…} #'`` through,
and the server fetched that URL (issue 38).

Oxigraph's grammar is wider than rdflib's in places (SPARQL 1.2 drafts, RDF-star): a query
rdflib cannot parse is run only if the word ``SERVICE`` appears nowhere in it, in any case,
not even in a string or a comment — what cannot be checked is refused rather than trusted.
A query rdflib parses is also read token by token (strings, IRIs and comments set apart as
the SPARQL grammar sets them): a ``SERVICE`` keyword there refuses it too, so the two readings
would both have to miss it.

>>> check_read_only("SELECT * { ?s ?p ?o }")
>>> check_read_only("SELECT * { ?s ?p ?o FILTER EXISTS { SERVICE <http://127.0.0.1:9/> {} } }")
Traceback (most recent call last):
kg.serve.readonly.QueryRefused: SERVICE is refused: this server does not query other endpoints
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Any

from kg.errors import QueryError
from kg.store.sparql import keywords

#: Longest free query accepted (characters): parsing is linear at best, and no question a
#: person types comes near it.
MAX_QUERY_CHARS = 200_000
UPDATE_REFUSED = "SPARQL Update is refused: this server is read-only"
SERVICE_REFUSED = "SERVICE is refused: this server does not query other endpoints"
_PARSER_LOCK = threading.Lock()  # pyparsing's packrat cache is not safe across threads


class QueryRefused(QueryError):
    """A query this read-only, local server will not run (an update, a federated call)."""


def check_read_only(sparql: str) -> None:
    """Refuse SPARQL Update and ``SERVICE`` (at any depth) before a query runs.

    >>> check_read_only("SELECT ?add ?load { ?add ?drop ?load }")
    >>> check_read_only("DROP ALL")
    Traceback (most recent call last):
    kg.serve.readonly.QueryRefused: SPARQL Update is refused: this server is read-only
    """
    if len(sparql) > MAX_QUERY_CHARS:
        raise QueryError(f"the query is {len(sparql):,} characters long; at most "
                         f"{MAX_QUERY_CHARS:,} are accepted")
    verdict = _verdict(sparql)
    if verdict == "update":
        raise QueryRefused(UPDATE_REFUSED)
    if verdict == "service":
        raise QueryRefused(SERVICE_REFUSED)


@lru_cache(maxsize=256)
def _verdict(sparql: str) -> str:
    """``"query"``, ``"update"``, ``"service"``, or ``"unparsed"`` (left to the engine, which
    reports the syntax error; it holds no ``SERVICE`` anywhere)."""
    tree = _parsed(sparql)
    if tree is None:
        if _parsed(sparql, update=True) is not None:
            return "update"
        return "service" if "service" in sparql.casefold() else "unparsed"
    if _holds_service(tree) or any(t.upper() == "SERVICE" for t in keywords(sparql)):
        return "service"
    return "query"


def _parsed(sparql: str, update: bool = False) -> Any:
    from pyparsing import ParseException
    from rdflib.plugins.sparql.parser import parseQuery, parseUpdate

    try:
        with _PARSER_LOCK:
            return (parseUpdate if update else parseQuery)(sparql)
    except (ParseException, RecursionError, ValueError, TypeError, AttributeError):
        return None
    except Exception:  # rdflib's parser raises a few others on odd input: unchecked
        return None


def _holds_service(tree: Any) -> bool:
    """Whether a parse tree holds a ``ServiceGraphPattern`` anywhere (walked without
    recursion: a query may nest its groups thousands deep)."""
    from rdflib.plugins.sparql.parserutils import CompValue

    stack = [tree]
    seen = 0
    while stack:
        node = stack.pop()
        seen += 1
        if isinstance(node, CompValue):
            if node.name == "ServiceGraphPattern":
                return True
            stack.extend(node.values())
        elif isinstance(node, list | tuple):
            stack.extend(node)
        elif hasattr(node, "asList") and not isinstance(node, str):
            stack.extend(list(node))
    return False


__all__ = ["QueryRefused", "check_read_only"]
