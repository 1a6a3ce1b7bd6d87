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
