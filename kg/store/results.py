"""Query results for people and notebooks: an aligned text table, Python rows, DataFrames.

Oxigraph writes the standard formats (JSON, CSV, TSV) itself, see ``kg.store.sparql``; this module
holds only what needs Python: turning terms into short text (``schema:Person`` rather than
``<https://schema.org/Person>``) and into Python values (``int``, ``date``, ``str`` …).

>>> import pyoxigraph as ox
>>> print(table(ox.Store().query('SELECT ?n ?c { VALUES (?n ?c) {("Kyiv" 2) ("Lviv" 1)} }')))
n    | c
-----+--
Kyiv | 2
Lviv | 1
(2 rows)
<BLANKLINE>
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

import pyoxigraph as ox

from kg.config import Settings
from kg.errors import KGError
from kg.rdf.namespaces import PREFIXES

MAX_CELL = 80
#: Rows an aligned table shows at most: it is held whole to be aligned, and nobody reads more.
MAX_TABLE_ROWS = 1000
DATA_BASE = Settings().base_iri
_BY_LENGTH = sorted(PREFIXES.items(), key=lambda item: -len(item[1]))


def term_text(term: Any) -> str:
    """A term as a table shows it: a literal's text, a prefixed name or the bare IRI.

    >>> term_text(ox.NamedNode("https://schema.org/Person")), term_text(ox.Literal("a\\nb"))
    ('schema:Person', 'a b')
    """
    if term is None:
        return ""
    if isinstance(term, ox.NamedNode):
        return compact_iri(term.value)
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    if isinstance(term, ox.Literal):
        return " ".join(term.value.split())
    return str(term)


def compact_iri(iri: str) -> str:
    """``iri`` as ``prefix:local`` with a predeclared prefix, when the local part is simple;
    data IRIs relative to the default base, in angle brackets.

    >>> compact_iri("http://www.w3.org/2000/01/rdf-schema#label"), compact_iri("urn:x")
    ('rdfs:label', 'urn:x')
    >>> compact_iri("https://w3id.org/kgnews/id/person/vladimir-putin")
    '<person/vladimir-putin>'
    """
    if iri.startswith(DATA_BASE):
        return f"<{iri[len(DATA_BASE):]}>"
    for prefix, namespace in _BY_LENGTH:
        local = iri[len(namespace):]
        if iri.startswith(namespace) and local.replace("-", "_").replace(".", "_").isidentifier():
            return f"{prefix}:{local}"
    return iri


def table(solutions: ox.QuerySolutions, max_width: int = MAX_CELL,
          max_rows: int | None = None) -> str:
    """SELECT results as an aligned text table with a row count; long cells end in "…".

    With ``max_rows`` at most that many rows are read (a table is aligned, so it is held
    whole); when there are more, the last line says the table was cut.

    >>> print(table(ox.Store().query("SELECT ?n { VALUES ?n {1 2 3} }"), max_rows=2))
    n
    -
    1
    2
    (first 2 rows; more not shown: the csv, tsv and json formats show every row)
    <BLANKLINE>
    """
    names = [v.value for v in solutions.variables]
    rows = solutions if max_rows is None else itertools.islice(solutions, max_rows + 1)
    cells = [[_clip(term_text(row[name]), max_width) for name in names] for row in rows]
    cut = max_rows is not None and len(cells) > max_rows
    cells = cells[:max_rows] if cut else cells
    widths = [max([len(n), *(len(r[i]) for r in cells)]) for i, n in enumerate(names)]
    lines = [_line(names, widths), "-+-".join("-" * w for w in widths)]
    lines += [_line(row, widths) for row in cells]
    if cut:
        lines.append(f"(first {max_rows:,} rows; more not shown: the csv, tsv and json formats "
                     "show every row)")
    else:
        lines.append(f"({len(cells)} row{'s' if len(cells) != 1 else ''})")
    return "\n".join(lines) + "\n"


def _line(cells: Iterable[str], widths: list[int]) -> str:
    return " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def python_value(term: Any) -> Any:
    """A term as a Python value: IRIs as ``rdflib.URIRef`` (a ``str``), typed literals as
    ``int``/``float``/``Decimal``/``bool``/``date``/``datetime``, other literals as ``str``.

    >>> python_value(ox.Literal("3", datatype=ox.NamedNode(f"{PREFIXES['xsd']}integer")))
    3
    """
    from rdflib import BNode, Literal, URIRef

    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return URIRef(term.value)
    if isinstance(term, ox.BlankNode):
        return BNode(term.value)
    if isinstance(term, ox.Literal):
        if term.language:
            return term.value
        value = Literal(term.value, datatype=term.datatype.value).toPython()
        return term.value if isinstance(value, Literal) else value
    return str(term)


class Rows(list[dict[str, Any]]):
    """SELECT results as a list of ``{variable: value}`` dicts (unbound variables are ``None``).

    >>> rows = Rows(["n"], [{"n": 1}]); rows.variables, rows[0]["n"]
    (('n',), 1)
    """

    def __init__(self, variables: Iterable[str], rows: Iterable[dict[str, Any]] = ()) -> None:
        super().__init__(rows)
        self.variables = tuple(variables)

    def to_dataframe(self) -> Any:
        """The rows as a ``pandas.DataFrame``, columns in SELECT order (needs pandas)."""
        try:
            import pandas as pd
        except ImportError as e:
            raise KGError("to_dataframe needs pandas: pip install pandas") from e
        return pd.DataFrame(list(self), columns=list(self.variables))


def rows_of(solutions: ox.QuerySolutions) -> Rows:
    """SELECT results as ``Rows`` of Python values."""
    names = [v.value for v in solutions.variables]
    return Rows(names, ({n: python_value(row[n]) for n in names} for row in solutions))
