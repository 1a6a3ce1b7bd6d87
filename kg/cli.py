"""The ``kg`` command line: thin typer commands over the library.

Each command parses its options, calls one library function and turns ``KGError`` into a
clean message on stderr and exit code 1 (2 for usage errors, as typer does).
"""

from __future__ import annotations

import re
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


def terminal_safe(text: str) -> str:
    """``text`` with control and format characters escaped, so that a hostile file name
    cannot move the cursor, recolour or retitle the terminal, or reorder a line (bidi).

    >>> terminal_safe("skipped \\x1b[2Jx\\u202e.txt: empty file")
    'skipped \\\\x1b[2Jx\\\\u202e.txt: empty file'
    """
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


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


def _check_scheduler(value: str | None) -> str | None:
    if value is None or value == "local" or re.fullmatch(r"[a-z]+://\S+", value):
        return value
    raise typer.BadParameter("expected 'local' or an address such as tcp://10.0.0.5:8786")


def _check_base(value: str) -> str:
    """Every IRI kg writes starts with the base: refuse one that is not a valid IRI up front."""
    from kg.rdf.terms import safe_http_iri

    if safe_http_iri(value) is None or not value.endswith(("/", "#")):
        raise typer.BadParameter("expected an http(s) IRI ending in / or #, without spaces, "
                                 "quotes, <, >, {, }, |, \\, ^ or `")
    return value


@app.command()
def build(
    paths: Annotated[list[str], typer.Argument(help="Article files, folders, or - for stdin.")],
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder.")] = Path("output"),
    fmt: Annotated[
        list[str] | None,
        typer.Option("--format", "-f", help="ttl, nt, nq, trig, jsonld (repeatable)."),
    ] = None,
    base: Annotated[
        str, typer.Option(help="Base IRI of the data.", callback=_check_base)
    ] = Settings().base_iri,
    workers: Annotated[
        int, typer.Option(min=1, help="Processes that run spaCy (Dask: workers of 'local').")
    ] = 1,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Extract on Dask: 'local' or a scheduler address tcp://HOST:PORT.",
                     callback=_check_scheduler),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Parse every article again; ignore OUT/.kg/.")
    ] = False,
    max_article_mb: Annotated[
        float, typer.Option(min=0.001, help="Skip article files larger than this (MB).")
    ] = Settings().max_article_bytes / 2**20,
) -> None:
    """Build the knowledge graph of news articles (.txt, .md) into OUT."""
    from kg.build.corpus import DEFAULT_FORMATS, build_corpus

    settings = Settings(out_dir=out, base_iri=base, workers=workers, scheduler=scheduler,
                        cache=not no_cache, max_article_bytes=int(max_article_mb * 2**20))
    tick, close = _progress("articles")

    def skip(item: Any) -> None:
        typer.echo(terminal_safe(f"skipped {item.path}: {item.reason}"), err=True)

    def warn(path: str, message: str) -> None:
        typer.echo(terminal_safe(f"warning: {path}: {message}"), err=True)

    with clean_errors():
        try:
            report = build_corpus(
                paths, settings, formats=fmt or DEFAULT_FORMATS, on_document=tick, on_skip=skip,
                on_warning=warn,
            )
        finally:
            close()
    typer.echo(report.summary())
    if report.up_to_date:
        typer.echo(f"up to date: inputs, settings and {', '.join(map(str, report.outputs))} "
                   "unchanged since the last build")
    elif report.cached:
        typer.echo(f"{report.cached} of {report.documents} extractions from the cache")
    for path in () if report.up_to_date else report.outputs:
        typer.echo(f"wrote {path}")
    if report.skipped:
        typer.echo(f"{len(report.skipped)} input(s) skipped, see messages above", err=True)
        raise typer.Exit(EXIT_SKIPPED)


@app.command()
def validate(
    graph: Annotated[Path, typer.Argument(help="Graph file to check.")] = Path("output/graph.ttl"),
) -> None:
    """Check a graph against the SHACL shapes (ontology/shapes.ttl)."""
    from kg.views.validate import validate_graph

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
    from kg.api import execute
    from kg.store.sparql import (
        check_format,
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


@app.command()
def viz(
    graph: GraphOption = Path("output/graph.trig"),
    out: Annotated[Path, typer.Option("--out", "-o", help="HTML file to write.")] = Path(
        "output/view.html"),
    focus: Annotated[
        str | None, typer.Option(help="Only this entity (name, alias or IRI) and its neighbours.")
    ] = None,
    depth: Annotated[int, typer.Option(min=0, help="Steps around --focus.")] = 1,
    types: Annotated[
        list[str] | None, typer.Option("--types", help="Only these classes, e.g. Person,Place.")
    ] = None,
    view_query: Annotated[
        Path | None, typer.Option("--query", help="A CONSTRUCT query file defining the view.")
    ] = None,
    max_nodes: Annotated[int, typer.Option(min=1, help="Refuse bigger views.")] = 2000,
    show_text: Annotated[
        bool, typer.Option("--show-text", help="Also show sentences and articles.")
    ] = False,
) -> None:
    """Write an offline HTML view of the entity graph (open it in any browser)."""
    from kg.views.viz import view

    title = f"{graph.name}" + (f": {focus} and {depth} step(s) around" if focus else "")
    with clean_errors():
        page = view(graph, focus=focus, depth=depth, types=types or (), query=view_query,
                    max_nodes=max_nodes, show_text=show_text, title=f"kg view of {title}")
        page.save(out)
    typer.echo(f"wrote {out} ({page.nodes:,} nodes, {page.edges:,} edges)")


@app.command()
def stats(
    graph: GraphOption = Path("output/graph.trig"),
    top: Annotated[int, typer.Option(min=1, help="Entities in each top list.")] = 10,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead.")] = False,
) -> None:
    """Counts by class and relation, most reported and most central entities, components."""
    import json

    from kg.store.embedded import open_store
    from kg.views.analytics import graph_statistics

    with clean_errors():
        report = graph_statistics(open_store(graph), top=top)
    typer.echo(json.dumps(report.as_dict(), indent=2) if as_json else report.to_text())


@app.command()
def export(
    graph: GraphOption = Path("output/graph.trig"),
    fmt: Annotated[str, typer.Option("--format", "-f", help="graphml, gexf or csv.")] = "graphml",
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="File (a folder for csv); default output/entities.*"),
    ] = None,
) -> None:
    """Export the entity graph for Gephi or Cytoscape, with node and edge attributes."""
    from kg.store.embedded import open_store
    from kg.views.export import default_target, export_graph

    with clean_errors():
        written = export_graph(open_store(graph), fmt, out or default_target(fmt))
    for path in written:
        typer.echo(f"wrote {path}")


@app.command()
def load(
    endpoint: Annotated[
        str, typer.Option("--endpoint", "-e", help="The store: its base URL with --preset, "
                          "else its Graph Store (gsp) or SPARQL Update (update) URL.")
    ],
    graph: Annotated[
        Path, typer.Argument(help="Graph file to load (.trig, .nq, .ttl, .nt).")
    ] = Path("output/graph.trig"),
    protocol: Annotated[
        str, typer.Option(help="gsp (Graph Store Protocol) or update (SPARQL 1.1 Update).")
    ] = "gsp",
    preset: Annotated[
        str | None, typer.Option(help="oxigraph, virtuoso, fuseki or graphdb: the store's "
                                 "paths under --endpoint.")
    ] = None,
    batch_size: Annotated[
        int | None, typer.Option(min=1, help="Triples per request (default: the preset's).")
    ] = None,
    user: Annotated[str | None, typer.Option(envvar="KG_STORE_USER", help="Store user.")] = None,
    password: Annotated[
        str | None, typer.Option(envvar="KG_STORE_PASSWORD", show_envvar=True,
                                 help="Store password (safer in the environment variable).")
    ] = None,
    auth: Annotated[
        str | None, typer.Option(help="basic or digest (default: the preset's, digest for "
                                 "virtuoso).")
    ] = None,
    whole_graph: Annotated[
        str | None, typer.Option("--whole-graph", metavar="IRI", help="Load everything into "
                                 "this one graph ('default': the default graph).")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only show what would change.")
    ] = False,
    bulk: Annotated[
        bool, typer.Option("--bulk", help="Add new graphs without a transaction (Oxigraph: "
                           "2x faster; an interrupted load may leave them partly written "
                           "until run again).")
    ] = False,
    insecure: Annotated[
        bool, typer.Option("--insecure", help="Do not verify TLS certificates.")
    ] = False,
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds per request.")] = 60.0,
    retries: Annotated[
        int, typer.Option(min=0, help="Retries on connection errors, timeouts and 5xx.")
    ] = 3,
) -> None:
    """Load the graph into a SPARQL 1.1 store, replacing only the graphs that changed."""
    from kg.remote.load import load_dataset
    from kg.remote.store import credentials

    with clean_errors():
        report = load_dataset(
            graph, endpoint, protocol=protocol, preset=preset,  # type: ignore[arg-type]
            batch_size=batch_size, auth=credentials(user, password, auth),
            whole_graph=whole_graph, dry_run=dry_run, bulk=bulk, verify=not insecure,
            timeout=timeout, retries=retries,
        )
    typer.echo(report.summary())
    if not report.ok:
        raise typer.Exit(1)


@app.command()
def serve(
    graph: Annotated[
        Path, typer.Argument(help="Graph file, or the OUT folder of kg build.")
    ] = Path("output"),
    host: Annotated[str, typer.Option(help="Address to listen on (other than 127.0.0.1: "
                                      "reachable from other machines).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8080,
    timeout: Annotated[
        float, typer.Option(min=0.1, help="Seconds a free SPARQL query may run.")
    ] = 10.0,
    max_rows: Annotated[int, typer.Option(min=1, help="Rows a free SPARQL query returns.")
                        ] = 10_000,
    processes: Annotated[int, typer.Option(min=1, max=32, help="Web server processes (one "
                                           "per core serves more readers at once).")] = 1,
) -> None:
    """Explore the graph in a browser: search, entities, articles, timeline, map, SPARQL."""
    from kg.serve import serve as serve_graph

    with clean_errors():
        serve_graph(graph, host, port, timeout=timeout, max_rows=max_rows, processes=processes,
                    say=lambda line: typer.echo(terminal_safe(line), err=True))
