"""The ``kg`` command line: thin typer commands over the library.

Each command parses its options, calls one library function and turns ``KGError`` into a
clean message on stderr and exit code 1 (2 for usage errors, as typer does).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from kg.config import Settings
from kg.errors import KGError

app = typer.Typer(
    help="Build, validate, query, view and load knowledge graphs of news articles.",
    no_args_is_help=True,
    add_completion=False,
)

#: Exit code of a build that finished but skipped some inputs.
EXIT_SKIPPED = 3


@contextmanager
def clean_errors() -> Iterator[None]:
    """Turn kg's own errors into a one-line message and exit code 1."""
    try:
        yield
    except KGError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from e


def _progress(label: str) -> tuple[Callable[[Any], None], Callable[[], None]]:
    """A tick/close pair: a counter on a terminal, nothing otherwise."""
    if not sys.stderr.isatty():
        return (lambda _item: None), (lambda: None)
    count = 0

    def tick(_item: Any) -> None:
        nonlocal count
        count += 1
        sys.stderr.write(f"\r{label}: {count}")
        sys.stderr.flush()

    def close() -> None:
        if count:
            sys.stderr.write("\n")

    return tick, close


@app.command()
def build(
    paths: Annotated[list[str], typer.Argument(help="Article files, folders, or - for stdin.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("output"),
    fmt: Annotated[
        list[str] | None,
        typer.Option("--format", "-f", help="ttl, nt, nq, trig, jsonld (repeatable)."),
    ] = None,
    base: Annotated[str, typer.Option(help="Base IRI of the data.")] = Settings().base_iri,
) -> None:
    """Build the knowledge graph of news articles (.txt, .md) into OUT."""
    from kg.build import DEFAULT_FORMATS, build_corpus

    settings = Settings(out_dir=out, base_iri=base)
    tick, close = _progress("articles")

    def skip(item: Any) -> None:
        typer.echo(f"skipped {item.path}: {item.reason}", err=True)

    def warn(path: str, message: str) -> None:
        typer.echo(f"warning: {path}: {message}", err=True)

    with clean_errors():
        try:
            report = build_corpus(
                paths, settings, formats=fmt or DEFAULT_FORMATS, on_document=tick, on_skip=skip,
                on_warning=warn,
            )
        finally:
            close()
    typer.echo(report.summary())
    for path in report.outputs:
        typer.echo(f"wrote {path}")
    if report.skipped:
        typer.echo(f"{len(report.skipped)} input(s) skipped, see messages above", err=True)
        raise typer.Exit(EXIT_SKIPPED)


@app.command()
def validate(
    graph: Annotated[Path, typer.Argument(help="Graph file to check.")] = Path("output/graph.ttl"),
) -> None:
    """Check a graph against the SHACL shapes (ontology/shapes.ttl)."""
    from kg.validate import validate_graph

    with clean_errors():
        report = validate_graph(graph)
    if report.conforms:
        typer.echo(f"{graph}: conforms to the SHACL shapes")
        return
    typer.echo(report.text)
    typer.echo(f"{graph}: {report.violations} node(s) violate the shapes", err=True)
    raise typer.Exit(1)


GraphOption = Annotated[
    Path, typer.Option("--graph", "-g", help="Graph file: .trig, .nq, .ttl, .nt or .jsonld.")
]


@app.command()
def query(
    sparql: Annotated[
        str | None, typer.Argument(help="SPARQL text, a query file, - for stdin, or a name.")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", "-n", help="A named query.")] = None,
    list_names: Annotated[bool, typer.Option("--list", help="List the named queries.")] = False,
    graph: GraphOption = Path("output/graph.trig"),
    endpoint: Annotated[
        str | None, typer.Option("--endpoint", "-e", help="Query this SPARQL endpoint instead.")
    ] = None,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="table, csv, tsv, json; ttl or nt for graphs.")
    ] = "table",
    param: Annotated[
        list[str] | None,
        typer.Option("--param", "-p", help="name=value binds ?name (repeatable); "
                     "http(s)://… or <…> binds an IRI, anything else a string."),
    ] = None,
    cache: Annotated[
        bool, typer.Option("--cache/--no-cache", help="Keep big graphs in output/.kg/store.")
    ] = True,
) -> None:
    """Ask the graph a SPARQL question (SELECT, ASK, CONSTRUCT or DESCRIBE)."""
    from kg.query import (
        check_format,
        execute,
        named_queries,
        parse_params,
        read_query,
        write_result,
    )

    with clean_errors():
        if list_names:
            for named in named_queries():
                typer.echo(f"{named.name:<26} {named.title}")
            return
        check_format(fmt)
        text, source = read_query(sparql, name, sys.stdin)
        result = execute(text, source, graph=graph, endpoint=endpoint,
                         params=parse_params(param or []), cache=None if cache else False)
        write_result(result, fmt, sys.stdout.buffer)
