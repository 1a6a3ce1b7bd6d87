"""Running SPARQL: named questions, safe parameters, embedded Oxigraph or a remote endpoint.

    text / .rq file / --name ─▶ with prefixes ─▶ run_query (embedded store) ──────┐
                                              └▶ kg.remote.endpoint.run_remote ─┴▶ write_result

Prefixes
    Every prefix of ``kg.rdf.namespaces.PREFIXES`` (``schema:``, ``nif:``, ``kg:`` …) is
    predeclared; a query's own ``PREFIX`` declarations win.

Parameters
    ``params`` bind variables without ever pasting text into the query. A value starting
    with ``http://`` or ``https://`` binds an IRI (it must be a valid one), ``<…>`` binds any
    IRI, anything else a plain string literal. Embedded queries use Oxigraph's
    substitutions (SEP-0007), which require a SELECT query to project the bound variable;
    remote queries (``kg.remote.endpoint``) get a trailing ``VALUES`` clause of escaped terms,
    after the same check.

Results are Oxigraph's own objects (``QuerySolutions``, ``QueryBoolean``, triples), so JSON
(W3C SPARQL 1.1 Query Results JSON) and TSV are written by Oxigraph without a Python loop per
row. CSV is written by Python's ``csv`` module (RFC 4180: a value with a comma, quote or line
break is quoted), since Oxigraph leaves IRIs unquoted and a mention IRI ends in
``#char=780,787``. The aligned table is for people and shows at most ``MAX_TABLE_ROWS`` rows.

Time limits
    ``write_query_result`` and ``query_result`` run the query in a child process
    (``kg.store.isolated``) that is stopped after ``timeout`` seconds or on Ctrl-C; the first
    streams the output as it is written.

>>> [q.name for q in named_queries()][:1]  # doctest: +SKIP
['claims']
"""

from __future__ import annotations

import csv
import io
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO

import pyoxigraph as ox

from kg.errors import GraphError, QueryError
from kg.limits import ReadRefused, read_stream, read_text_file
from kg.rdf.namespaces import PREFIXES
from kg.resources import QUERIES_DIR
from kg.store.isolated import DEFAULT_MEMORY, DEFAULT_TIMEOUT, run_isolated
from kg.store.results import MAX_TABLE_ROWS, table

RESULT_FORMATS = ("table", "csv", "tsv", "json")
GRAPH_FORMATS = {"ttl": ox.RdfFormat.TURTLE, "nt": ox.RdfFormat.N_TRIPLES}
_SOLUTION_FORMATS = {"tsv": ox.QueryResultsFormat.TSV, "json": ox.QueryResultsFormat.JSON}
#: A query larger than this is not a query (``kg query /dev/zero``): refused unread.
MAX_QUERY_BYTES = 16 * 2**20
#: Suffixes of query files: a missing file with one is reported as missing, not parsed.
QUERY_SUFFIXES = (".rq", ".sparql", ".txt")
_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")
_DECLARED = re.compile(r"\bPREFIX\s+([A-Za-z][\w.-]*)?\s*:", re.I)
_POSITION = re.compile(r"error at (\d+):(\d+): ?")
_PREFIXED = re.compile(r"(?<![\w:?$/#@.-])([A-Za-z][\w-]*):[A-Za-z_0-9]")
_IRI_OR_STRING = re.compile(r"<[^<>\s]*>|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|#[^\n]*")

# The lexical tokens of SPARQL 1.1 that can hold a keyword's letters without being one
# (long strings first, then strings, IRIs, comments, variables), then words.
_TOKEN = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"|'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"(?:[^"\\\n\r]|\\.)*"'
    r"|'(?:[^'\\\n\r]|\\.)*'"
    r'|<[^<>"{}|^`\\\x00-\x20]*>'
    r"|#[^\n\r]*"
    r"|[?$][\w\u00b7\u0300-\u036f\u203f-\u2040]+"
    r"|[^\W\d][\w.\-]*(?::[\w.\-:%\\]*)?"
    r"|\S", re.S)

Result = ox.QuerySolutions | ox.QueryBoolean | ox.QueryTriples | list[ox.Triple]


@dataclass(frozen=True)
class Dataset:
    """The graphs a query runs over, as the SPARQL 1.1 Protocol names them
    (``default-graph-uri``, ``named-graph-uri``); they override the query's own ``FROM`` and
    ``FROM NAMED``. Without either, and without ``FROM`` in the query, a query sees the union
    of all graphs.

    >>> bool(Dataset()), bool(Dataset(named=("https://x.org/g",)))
    (False, True)
    """

    default: tuple[str, ...] = ()
    named: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.default or self.named)


def keywords(sparql: str) -> list[str]:
    """The words of ``sparql`` outside strings, IRIs, comments, variables and prefixed names.

    >>> keywords('SELECT ?from FROM <http://x/FROM> { ?s ex:from "FROM" } # FROM')
    ['SELECT', 'FROM']
    """
    found = []
    for match in _TOKEN.finditer(sparql):
        token = match.group()
        if (token[0].isalpha() or token[0] == "_") and ":" not in token:
            found.append(token)
    return found


def has_dataset_clause(sparql: str) -> bool:
    """Whether ``sparql`` names its own dataset (``FROM`` or ``FROM NAMED``).

    >>> has_dataset_clause("SELECT * FROM <https://x.org/g> { ?s ?p ?o }")
    True
    >>> has_dataset_clause('SELECT * { ?s rdfs:label "from" } # from')
    False
    """
    return "from" in sparql.casefold() and any(w.upper() == "FROM" for w in keywords(sparql))


def dataset_options(sparql: str, dataset: Dataset | None = None) -> dict[str, Any]:
    """How Oxigraph is told which graphs ``sparql`` sees: the protocol's dataset, else the
    query's own ``FROM``, else the union of all graphs."""
    if dataset:
        try:
            return {"default_graph": [ox.NamedNode(iri) for iri in dataset.default],
                    "named_graphs": [ox.NamedNode(iri) for iri in dataset.named] or None}
        except ValueError as e:
            raise QueryError(f"not a graph IRI: {e}") from None
    if has_dataset_clause(sparql):
        return {}
    return {"use_default_graph_as_union": True}


@dataclass(frozen=True)
class NamedQuery:
    """A documented ``.rq`` file of the queries library; ``title`` is its header's first line."""

    name: str
    path: Path
    title: str
    text: str


def named_queries(folder: Path = QUERIES_DIR) -> list[NamedQuery]:
    """Every ``*.rq`` file in ``folder``, sorted by name.

    >>> "entities-across-articles" in [q.name for q in named_queries()]
    True
    """
    return [_read_named(path) for path in sorted(Path(folder).glob("*.rq"))]


def named_query(name: str, folder: Path = QUERIES_DIR) -> NamedQuery:
    """The named query ``name``; ``QueryError`` lists the known names when there is none.

    >>> named_query("evidence").path.name
    'evidence.rq'
    """
    path = Path(folder) / f"{name}.rq"
    if not _VARIABLE.fullmatch(name.replace("-", "_")) or not path.is_file():
        known = ", ".join(q.name for q in named_queries(folder)) or "none"
        raise QueryError(f"no named query {name!r} in {folder} (known: {known})")
    return _read_named(path)


def _read_named(path: Path) -> NamedQuery:
    text = path.read_text(encoding="utf-8")
    title = next((line.lstrip("#").strip() for line in text.splitlines()
                  if line.startswith("#") and line.lstrip("#").strip()), "")
    return NamedQuery(path.stem, path, title, text)


def bind_value(value: str) -> ox.NamedNode | ox.Literal:
    """The RDF term a parameter value binds: an IRI for ``http(s)://…`` or ``<…>``, else a string.

    >>> bind_value("https://w3id.org/kgnews/id/person/x"), bind_value("Putin")
    (<NamedNode value=https://w3id.org/kgnews/id/person/x>, <Literal value=Putin ...>)
    """
    iri = value[1:-1] if value.startswith("<") and value.endswith(">") else None
    if iri is None and value.startswith(("http://", "https://")):
        iri = value
    if iri is None:
        return ox.Literal(value)
    try:
        return ox.NamedNode(iri)
    except ValueError as e:
        raise QueryError(f"parameter value {value!r} is not a valid IRI: {e}") from None


Term = ox.NamedNode | ox.BlankNode | ox.Literal | ox.Triple


def substitutions(params: Mapping[str, str]) -> dict[ox.Variable, Term]:
    """``params`` as Oxigraph substitutions; variable names are checked, values bound as terms.

    >>> substitutions({"name": "Kyiv"})
    {<Variable value=name>: <Literal value=Kyiv ...>}
    """
    bound: dict[ox.Variable, Term] = {}
    for name, value in params.items():
        name = name.removeprefix("?").removeprefix("$")
        if not _VARIABLE.fullmatch(name):
            raise QueryError(f"parameter name {name!r} is not a SPARQL variable name")
        bound[ox.Variable(name)] = bind_value(value)
    return bound


def parse_params(pairs: Iterable[str]) -> dict[str, str]:
    """``name=value`` strings (``--param``) as a dict; the value may contain ``=``.

    >>> parse_params(["entity=https://x.org/a", "q=a=b"])
    {'entity': 'https://x.org/a', 'q': 'a=b'}
    """
    params = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise QueryError(f"parameter {pair!r}: write it as name=value", option="params")
        params[name.strip()] = value
    return params


def missing_prefixes(sparql: str) -> dict[str, str]:
    """The predeclared prefixes ``sparql`` does not declare itself.

    >>> sorted(missing_prefixes("PREFIX schema: <http://schema.org/> SELECT * {}"))[:2]
    ['dcterms', 'gn']
    """
    declared = {m.group(1) or "" for m in _DECLARED.finditer(sparql)}
    return {p: iri for p, iri in PREFIXES.items() if p not in declared}


def with_prefixes(sparql: str) -> str:
    """``sparql`` with the missing prefixes declared on its first line (line numbers kept).

    >>> with_prefixes("SELECT * { ?s a schema:Person }").count("PREFIX schema:")
    1
    """
    declarations = " ".join(f"PREFIX {p}: <{iri}>" for p, iri in missing_prefixes(sparql).items())
    return f"{declarations} {sparql}" if declarations else sparql


def run_query(store: ox.Store, sparql: str, params: Mapping[str, str] | None = None,
              source: str = "query", dataset: Dataset | None = None) -> Result:
    """Run ``sparql`` on ``store`` over the union of its graphs, or over the graphs its
    ``FROM`` clauses or ``dataset`` name; ``source`` names it in errors.

    >>> run_query(ox.Store(), "ASK { ?s a schema:Person }")
    <QueryBoolean false>
    """
    try:
        return store.query(sparql, prefixes=missing_prefixes(sparql),
                           substitutions=substitutions(params or {}) or None,
                           **dataset_options(sparql, dataset))
    except SyntaxError as e:
        raise syntax_error(sparql, str(e), source) from None
    except RuntimeError as e:  # a parameter the SELECT clause does not project
        raise QueryError(f"{source}: cannot bind the parameters: {e}; a SELECT query must "
                         "list each parameter's variable") from None
    except OSError as e:
        raise GraphError(f"{source}: cannot read the store: {e}") from e


def syntax_error(sparql: str, message: str, source: str) -> QueryError:
    """A ``QueryError`` pointing at the line and column of a parser message.

    >>> print(syntax_error("SELECT *\\nWHERE { ?s ?p }", "error at 2:15: expected", "q.rq"))
    q.rq: SPARQL syntax error at line 2, column 15: expected
      2 | WHERE { ?s ?p }
        |               ^
    """
    found = _POSITION.match(message)
    detail = short(_POSITION.sub("", message, count=1).strip(), 160)
    hint = _unknown_prefix_hint(sparql)
    if found is None:
        return QueryError(f"{source}: SPARQL syntax error: {detail}{hint}")
    line, column = int(found.group(1)), int(found.group(2))
    lines = sparql.splitlines() or [""]
    text = lines[min(line, len(lines)) - 1]
    gutter = " " * len(str(line))
    return QueryError(
        f"{source}: SPARQL syntax error at line {line}, column {column}: {detail}{hint}\n"
        f"  {line} | {text}\n  {gutter} | {' ' * max(column - 1, 0)}^"
    )


def _unknown_prefix_hint(sparql: str) -> str:
    """Oxigraph reports an undeclared prefix as some other error: name the likely cause."""
    code = _IRI_OR_STRING.sub(" ", sparql)
    declared = {m.group(1) or "" for m in _DECLARED.finditer(sparql)} | set(PREFIXES)
    unknown = sorted({m.group(1) for m in _PREFIXED.finditer(code)} - declared)
    return f" (undeclared prefix: {', '.join(u + ':' for u in unknown)})" if unknown else ""


def short(text: str, limit: int) -> str:
    """``text`` on one line, cut to ``limit`` characters with "…".

    >>> short("a  b\\nc", 4)
    'a b…'
    """
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def write_result(result: Result, fmt: str, out: IO[bytes]) -> None:
    """Write ``result`` to the binary stream ``out`` as ``fmt`` (table, csv, tsv, json, ttl, nt).

    >>> import io; buffer = io.BytesIO()
    >>> write_result(ox.Store().query("SELECT ?x { BIND(1 AS ?x) }"), "json", buffer)
    >>> buffer.getvalue()
    b'{"head":{"vars":["x"]},"results":{"bindings":[{"x":{"type":"literal",...}}]}}\\n'
    """
    if isinstance(result, ox.QueryBoolean):
        _write_boolean(result, fmt, out)
    elif isinstance(result, ox.QuerySolutions):
        _write_solutions(result, fmt, out)
    else:
        _write_triples(result, fmt, out)


def _write_boolean(result: ox.QueryBoolean, fmt: str, out: IO[bytes]) -> None:
    if fmt in ("table", "csv", "tsv"):
        out.write(b"true\n" if bool(result) else b"false\n")
    elif fmt == "json":
        result.serialize(out, format=ox.QueryResultsFormat.JSON)
        out.write(b"\n")
    else:
        raise QueryError(f"an ASK query answers true or false; the {fmt} format is for "
                         "CONSTRUCT and DESCRIBE (use table, csv, tsv or json)", option="format")


def _write_solutions(result: ox.QuerySolutions, fmt: str, out: IO[bytes]) -> None:
    if fmt == "table":
        out.write(table(result, max_rows=MAX_TABLE_ROWS).encode())
    elif fmt == "csv":
        write_csv(result, out)
    elif fmt in _SOLUTION_FORMATS:
        result.serialize(out, format=_SOLUTION_FORMATS[fmt])
        if fmt == "json":
            out.write(b"\n")
    else:
        raise QueryError(f"a SELECT query gives rows; the {fmt} format is for CONSTRUCT and "
                         "DESCRIBE (use table, csv, tsv or json)", option="format")


def write_csv(result: ox.QuerySolutions, out: IO[bytes]) -> None:
    """SELECT results as CSV (SPARQL 1.1 CSV results: bare IRIs and lexical forms, ``_:``
    blank nodes), quoted as RFC 4180 asks, so every value round-trips through ``csv``.

    >>> buffer = io.BytesIO()
    >>> write_csv(ox.Store().query('SELECT ?v { BIND(<http://x.org/#char=1,2> AS ?v) }'), buffer)
    >>> buffer.getvalue()
    b'v\\r\\n"http://x.org/#char=1,2"\\r\\n'
    """
    text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=False)
    names = [v.value for v in result.variables]
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow(names)
    blank = ox.BlankNode
    writer.writerows([("" if t is None else f"_:{t.value}" if type(t) is blank else t.value)
                      for t in row] for row in result)
    text.flush()
    text.detach()


def write_query_result(store: ox.Store, sparql: str, fmt: str, out: IO[bytes], *,
                       params: Mapping[str, str] | None = None, source: str = "query",
                       timeout: float | None = DEFAULT_TIMEOUT,
                       memory: int | None = DEFAULT_MEMORY) -> None:
    """Run ``sparql`` on ``store`` and write the result to ``out`` as ``fmt`` while it comes,
    stopping after ``timeout`` seconds (``None``: no limit) or on Ctrl-C (``QueryError``,
    ``KeyboardInterrupt``).

    >>> buffer = io.BytesIO()
    >>> write_query_result(ox.Store(), "ASK {}", "csv", buffer, timeout=10)
    >>> buffer.getvalue()
    b'true\\n'
    """
    def work(pipe: BinaryIO) -> None:
        write_result(run_query(store, sparql, params, source), fmt, pipe)

    run_isolated(work, out, timeout=timeout, source=source, memory=memory)


def query_result(store: ox.Store, sparql: str, *, params: Mapping[str, str] | None = None,
                 source: str = "query", timeout: float | None = DEFAULT_TIMEOUT,
                 memory: int | None = DEFAULT_MEMORY) -> Result:
    """Run ``sparql`` on ``store`` within ``timeout`` seconds; the whole result, as
    ``run_query`` gives it (it travels from the child as SPARQL JSON or N-Triples).

    >>> query_result(ox.Store(), "ASK {}", timeout=10)
    <QueryBoolean true>
    """
    def work(pipe: BinaryIO) -> None:
        result = run_query(store, sparql, params, source)
        if isinstance(result, ox.QuerySolutions | ox.QueryBoolean):
            pipe.write(b"R")
            result.serialize(pipe, format=ox.QueryResultsFormat.JSON)
        else:
            pipe.write(b"T")
            ox.serialize(result, pipe, format=ox.RdfFormat.N_TRIPLES)

    buffer = io.BytesIO()
    run_isolated(work, buffer, timeout=timeout, source=source, memory=memory)
    data = buffer.getvalue()
    if data[:1] == b"R":
        return ox.parse_query_results(data[1:], format=ox.QueryResultsFormat.JSON)
    return list(ox.parse(data[1:], format=ox.RdfFormat.N_TRIPLES))


def _write_triples(result: Iterable[ox.Triple], fmt: str, out: IO[bytes]) -> None:
    fmt = "ttl" if fmt == "table" else fmt
    if fmt not in GRAPH_FORMATS:
        raise QueryError(f"a CONSTRUCT or DESCRIBE query gives triples; the {fmt} format is "
                         "for SELECT (use ttl or nt)", option="format")
    rdf_format = GRAPH_FORMATS[fmt]
    prefixes = PREFIXES if rdf_format == ox.RdfFormat.TURTLE else None
    data = ox.serialize(result, format=rdf_format, prefixes=prefixes)
    out.write(data or b"")




def read_query(source: str | Path | None, name: str | None = None,
               stdin: IO[str] | None = None) -> tuple[str, str]:
    """Query text, and a name for errors, from what a user gave.

    ``name`` (or a bare word as ``source``, e.g. ``"people-roles"``) is a named query;
    ``"-"`` reads ``stdin``; a ``Path``, or a string naming an existing file, is read; a
    string that can only be a path (one word ending in ``.rq``/``.sparql``/``.txt`` or
    holding a ``/``, no ``{``) and names nothing, or names a folder, is a ``QueryError``
    saying so; any other string, however long, is the query itself.

    >>> read_query("evidence")[1].endswith("evidence.rq"), read_query("ASK {}")
    (True, ('ASK {}', 'query'))
    """
    if name is not None:
        named = named_query(name)
        return named.text, str(named.path)
    if source is None:
        raise QueryError("no query given: pass SPARQL text, a .rq file, '-' for standard input "
                         "or the name of a named question (named_queries() lists them)",
                         option="query")
    if source == "-":
        return _bounded_stdin(stdin), "<stdin>"
    kind = _path_kind(source)
    if kind == "folder":
        raise QueryError(f"{source} is a folder, not a query file", option="query")
    if kind == "file":
        try:  # kg.limits: a query file is not /dev/zero, nor a FIFO nobody writes to
            return read_text_file(source, MAX_QUERY_BYTES, encoding="utf-8"), str(source)
        except ReadRefused as e:
            raise QueryError(f"cannot read query file {e}", option="query") from None
        except (OSError, UnicodeDecodeError) as e:
            raise QueryError(f"cannot read query file {source}: {e}") from e
    if isinstance(source, Path) or _looks_like_path(source):
        raise QueryError(f"{source}: no such query file", option="query")
    if _NAME.fullmatch(source):
        return read_query(None, source)
    return source, "query"




def _bounded_stdin(stdin: IO[str] | None) -> str:
    if stdin is None:
        return ""
    try:
        data = read_stream(stdin, MAX_QUERY_BYTES, what="standard input")
    except ReadRefused as e:
        raise QueryError(f"cannot read the query from {e}", option="query") from None
    return data if isinstance(data, str) else data.decode("utf-8", "replace")


def _path_kind(source: str | Path) -> str | None:
    """"file", "folder" or ``None`` (nothing there, or text no file could be named by)."""
    if isinstance(source, str) and ("\n" in source or "{" in source):
        return None
    try:
        if os.path.isdir(source):
            return "folder"
        return "file" if os.path.exists(source) else None
    except (OSError, ValueError):  # a name too long for the file system, a NUL character
        return None


def _looks_like_path(text: str) -> bool:
    return not any(c.isspace() or c == "{" for c in text) and (
        text.lower().endswith(QUERY_SUFFIXES) or "/" in text or os.sep in text)


def check_format(fmt: str) -> str:
    """``fmt`` if it is an output format ``write_result`` knows, else ``QueryError``.

    >>> check_format("json")
    'json'
    """
    if fmt not in (*RESULT_FORMATS, *GRAPH_FORMATS):
        known = ", ".join((*RESULT_FORMATS, *GRAPH_FORMATS))
        raise QueryError(f"unknown output format {fmt!r}; choose from {known}")
    return fmt
