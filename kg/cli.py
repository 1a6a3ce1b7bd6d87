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

from kg.config import MODEL_PACKAGE, NEWS_NER_PART, Settings
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
    """Turn kg's own errors into a one-line message (and a hint about the flag that would
    help, when the error names one of the library's options) and exit code 1."""
    try:
        yield
    except KGError as e:
        typer.echo(f"error: {e}{flag_hint(e.option)}", err=True)
        raise typer.Exit(1) from e


#: The library's option names (``KGError.option``, ``Skipped.option``) → the flags that set them.
FLAG_HINTS = {
    "max_nodes": "narrow the view with --focus NAME --depth N, --types or --query, "
                 "or raise --max-nodes",
    "out_dir": "give another --out",
    "scheduler": "drop --scheduler, or install kg[dask]",
    "graph": "kg build ARTICLES --out FOLDER writes FOLDER/graph.trig; --graph names another file",
    "params": "--param name=value",
    "format": "choose another --format",
    "query": "give the query as an argument, - for stdin, or --name NAME (kg query --list)",
    "max_article_bytes": "kg build --max-article-mb raises it",
    "timeout": "or allow more with --timeout SECONDS, 0 for no limit",
    "rules": "kg rules lists every heuristic's id",
    "follow_links": "kg build --follow-links follows symlinks out of the folder",
}


def flag_hint(option: str | None) -> str:
    """`` (hint: …)`` naming the flag behind a library option, or nothing.

    >>> flag_hint("max_article_bytes")
    ' (hint: kg build --max-article-mb raises it)'
    """
    return f" (hint: {FLAG_HINTS[option]})" if option in FLAG_HINTS else ""


def terminal_safe(text: str) -> str:
    """``text`` with control and format characters escaped, so that a hostile file name
    cannot move the cursor, recolour or retitle the terminal, or reorder a line (bidi).

    >>> terminal_safe("skipped \\x1b[2Jx\\u202e.txt: empty file")
    'skipped \\\\x1b[2Jx\\\\u202e.txt: empty file'
    """
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


@contextmanager
def _progress(label: str, console: Any = None
              ) -> Iterator[tuple[Callable[[int], None], Callable[[Any], None]]]:
    """A (start, tick) pair driving a progress bar on standard error — total, rate and time
    left — when it is a terminal; quiet otherwise (pipes, CI logs)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = console or Console(stderr=True)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("elapsed,"),
               TimeRemainingColumn(), TextColumn("left"))
    with Progress(*columns, console=console, disable=not console.is_terminal,
                  transient=True) as progress:
        task = progress.add_task(label, total=None, rate="")

        def start(total: int) -> None:
            progress.update(task, total=total)

        def tick(_item: Any) -> None:
            progress.advance(task)
            speed = progress.tasks[0].speed
            progress.update(task, rate=f"{speed:.1f}/s" if speed else "")

        yield start, tick


def _check_scheduler(value: str | None) -> str | None:
    if value is None or value == "local" or re.fullmatch(r"[a-z]+://\S+", value):
        return value
    raise typer.BadParameter("expected 'local' or an address such as tcp://10.0.0.5:8786")


def _check_ner(value: str) -> str:
    if value not in ("news", "small"):
        raise typer.BadParameter("expected 'news' or 'small'")
    return value


def _check_base(value: str) -> str:
    """Every IRI kg writes starts with the base: refuse one that is not a valid IRI up front."""
    from kg.rdf.terms import safe_http_iri

    if safe_http_iri(value) is None or not value.endswith(("/", "#")):
        raise typer.BadParameter("expected an http(s) IRI ending in / or #, without spaces, "
                                 "quotes, <, >, {, }, |, \\, ^ or `")
    return value


@app.command()
def build(
    paths: Annotated[
        list[str] | None,
        typer.Argument(help="Article files (.txt .md .html .rss .atom .xml .jsonl .csv "
                       ".warc[.gz]), folders, http(s) URLs, or - for stdin."),
    ] = None,
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
    ner: Annotated[
        str, typer.Option(help="Names from 'news' (kg's own NER, the default, see "
                               "docs/model-card.md) or 'small' (the small model's NER alone).",
                          callback=_check_ner)
    ] = "news" if Settings().model.endswith(NEWS_NER_PART) else "small",
    urls: Annotated[
        list[Path] | None,
        typer.Option("--urls", help="A file of URLs to fetch, one a line (repeatable)."),
    ] = None,
    field: Annotated[
        list[str] | None,
        typer.Option("--field", help="FIELD=NAME: where JSON Lines/CSV records keep a field, "
                     "e.g. text=maintext, date=date_publish, source=source.name (repeatable)."),
    ] = None,
    refresh: Annotated[
        bool, typer.Option("--refresh", help="Fetch URLs again instead of using OUT/.kg/fetch/.")
    ] = False,
    rules: Annotated[
        str | None,
        typer.Option("--rules", help="Heuristics to switch off, comma-separated: -ID or "
                     "-PATTERN ('-resolve.corpus.*'), +ID back on (kg rules lists the ids).")
    ] = None,
    min_confidence: Annotated[
        float | None,
        typer.Option("--min-confidence", min=0.0, max=1.0,
                     help="Write only the roles, claims and events whose verified confidence "
                     "reaches this; default: each kind's shipped cut (docs/verifier-card.md).")
    ] = None,
    follow_links: Annotated[
        bool, typer.Option("--follow-links", help="Follow symlinks inside a folder that lead "
                           "out of it (skipped by default: they would publish other files).")
    ] = False,
) -> None:
    """Build the knowledge graph of news articles (files, folders, feeds, URLs) into OUT."""
    from kg.build.corpus import DEFAULT_FORMATS, build_corpus
    from kg.build.rules import switches
    from kg.errors import InputError
    from kg.ingest.fetch import read_url_list
    from kg.ingest.records import parse_field_options

    try:
        fields = parse_field_options(field or [])
    except ValueError as e:
        raise typer.BadParameter(str(e), param_hint="--field") from e
    with clean_errors():
        listed = [read_url_list(path) for path in urls or []]
    sources = [*(paths or []), *(url for found, _bad in listed for url in found)]
    bad_lines = [line for _found, bad in listed for line in bad]
    if not sources and not bad_lines:
        raise typer.BadParameter("give article files, folders, URLs or --urls FILE",
                                 param_hint="PATHS")

    try:
        rules_off = switches(rules) if rules else frozenset()
    except InputError as e:
        raise typer.BadParameter(str(e), param_hint="--rules") from e
    settings = Settings(out_dir=out, base_iri=base, workers=workers, scheduler=scheduler,
                        cache=not no_cache, max_article_bytes=int(max_article_mb * 2**20),
                        follow_links=follow_links,
                        model=MODEL_PACKAGE + (NEWS_NER_PART if ner == "news" else ""),
                        rules_off=rules_off, min_confidence=min_confidence)
    def skip(item: Any) -> None:
        verb = "note:" if item.is_copy else "skipped"  # an exact copy is not lost: exit 0
        typer.echo(terminal_safe(f"{verb} {item.path}: {item.reason}{flag_hint(item.option)}"),
                   err=True)

    def warn(path: str, message: str) -> None:
        typer.echo(terminal_safe(f"warning: {path}: {message}"), err=True)

    for line in bad_lines:
        typer.echo(terminal_safe(f"skipped {line}"), err=True)
    with clean_errors(), _progress("articles") as (start, tick):
        report = build_corpus(
            sources, settings, formats=fmt or DEFAULT_FORMATS, on_document=tick, on_skip=skip,
            on_warning=warn, on_start=start, fields=fields, refresh=refresh,
        )
    typer.echo(report.summary())
    if report.up_to_date:
        typer.echo(f"up to date: inputs, settings and {', '.join(map(str, report.outputs))} "
                   "unchanged since the last build")
    elif report.cached:
        typer.echo(f"{report.cached} of {report.documents} extractions from the cache")
    for path in () if report.up_to_date else report.outputs:
        typer.echo(f"wrote {path}")
    if report.skipped or bad_lines:
        skipped = len(report.skipped) + len(bad_lines)
        typer.echo(f"{skipped} input(s) skipped, see messages above", err=True)
        raise typer.Exit(EXIT_SKIPPED)


@app.command()
def validate(
    graph: Annotated[Path, typer.Argument(help="Graph file to check.")] = Path("output/graph.ttl"),
    inference: Annotated[str, typer.Option(
        "--inference", help="Reason first: none or rdfs (kg's ontology and the axioms of the "
        "vocabularies it imports).")] = "none",
) -> None:
    """Check a graph against the SHACL shapes (ontology/shapes.ttl)."""
    from kg.views.validate import validate_graph

    with clean_errors():
        report = validate_graph(graph, inference=inference)
    if report.conforms:
        typer.echo(f"{graph}: conforms to the SHACL shapes")
        return
    typer.echo(report.text)
    typer.echo(f"{graph}: {report.violations} node(s) violate the shapes", err=True)
    raise typer.Exit(1)


GraphOption = Annotated[
    Path, typer.Option("--graph", "-g", help="Graph file: .trig, .nq, .ttl, .nt or .jsonld.")
]


# -- options of the commands that talk to a remote store (query --endpoint, load) ----------

UserOption = Annotated[str | None, typer.Option(envvar="KG_STORE_USER", help="Store user.")]
PasswordOption = Annotated[
    str | None, typer.Option(envvar="KG_STORE_PASSWORD", show_envvar=True,
                             help="Store password. Visible to other users in `ps` and kept in "
                             "the shell history: prefer KG_STORE_PASSWORD or --password-file "
                             "(asked for on a terminal when only --user is given).")
]
PasswordFileOption = Annotated[
    Path | None, typer.Option("--password-file", metavar="FILE",
                              help="Read the store password from the first line of FILE.")
]
AuthOption = Annotated[
    str | None, typer.Option(help="basic or digest (default: the preset's, digest for "
                             "virtuoso; basic for queries).")
]
InsecureOption = Annotated[
    bool, typer.Option("--insecure", help="Do not verify TLS certificates.")
]
CaCertOption = Annotated[
    Path | None, typer.Option("--ca-cert", metavar="PEM",
                              help="Trust the TLS certificates in this PEM file.")
]
AUTH_HINT = ("give --user and --password (or KG_STORE_USER and KG_STORE_PASSWORD, or "
             "--password-file) and --auth basic|digest")


def _store_password(user: str | None, password: str | None,
                    password_file: Path | None) -> str | None:
    """The password from the option, the file, or a prompt on a terminal (never echoed)."""
    from kg.remote.client import read_password_file

    if password_file is not None:
        if password is not None:
            raise typer.BadParameter("give --password or --password-file, not both")
        return read_password_file(password_file)
    if password is None and user is not None and sys.stdin.isatty():
        return str(typer.prompt(f"Password for {user}", hide_input=True))
    return password


@contextmanager
def remote_errors() -> Iterator[None]:
    """Remote errors completed with the options that fix them."""
    from kg.errors import InputError, StoreError
    from kg.remote.client import AccessRefused, MissingCredentials, StoreTimeout

    try:
        yield
    except AccessRefused as e:
        raise StoreError(f"{e}: {AUTH_HINT}") from e
    except StoreTimeout as e:
        raise StoreError(f"{e}; allow more time with --timeout") from e
    except MissingCredentials as e:
        raise InputError(f"{e}: {AUTH_HINT}") from e


def _connection(user: str | None, password: str | None, password_file: Path | None,
                auth: str | None, insecure: bool, ca_cert: Path | None, **limits: Any) -> Any:
    from kg.remote.client import Connection, credentials

    secret = _store_password(user, password, password_file)
    return Connection(credentials(user, secret, auth), verify=not insecure, ca_cert=ca_cert,
                      **limits)


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
        bool, typer.Option("--cache/--no-cache", help="Keep graphs over 256 MB in "
                           "output/.kg/store.")
    ] = True,
    user: UserOption = None,
    password: PasswordOption = None,
    password_file: PasswordFileOption = None,
    auth: AuthOption = None,
    insecure: InsecureOption = False,
    ca_cert: CaCertOption = None,
    timeout: Annotated[
        float, typer.Option(min=0, help="Stop the query after this many seconds (0: never); "
                            "with --endpoint it bounds the whole exchange, retries included.")
    ] = 60.0,
) -> None:
    """Ask the graph a SPARQL question (SELECT, ASK, CONSTRUCT or DESCRIBE)."""
    from kg.api import write_query
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
        if endpoint is not None:
            from kg.remote.endpoint import run_remote

            with remote_errors():
                limit = timeout or 24 * 3600.0
                connection = _connection(user, password, password_file, auth, insecure,
                                         ca_cert, timeout=limit, deadline=limit)
                result = run_remote(endpoint, text, parse_params(param or []), source,
                                    connection=connection,
                                    warn=lambda line: typer.echo(f"hint: {line}", err=True))
            write_result(result, fmt, sys.stdout.buffer)
            return
        try:
            write_query(text, source, fmt, sys.stdout.buffer, graph=graph,
                        params=parse_params(param or []), cache=None if cache else False,
                        timeout=timeout or None)
        except KeyboardInterrupt:  # the query has stopped; so does kg, without the interpreter's
            typer.echo("interrupted", err=True)  # shutdown (a second or more with rdflib loaded)
            _exit_now(130)


def _exit_now(code: int) -> None:
    """Flush the standard streams and end the process at once."""
    import os

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


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
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="graphml, gexf, csv, or ftm (Follow-the-Money "
                          "JSON Lines).")
    ] = "graphml",
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", help="File (a folder for csv); default output/entities.*"),
    ] = None,
) -> None:
    """Export the entity graph for Gephi or Cytoscape, or as Follow-the-Money entities."""
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
    user: UserOption = None,
    password: PasswordOption = None,
    password_file: PasswordFileOption = None,
    auth: AuthOption = None,
    whole_graph: Annotated[
        str | None, typer.Option("--whole-graph", metavar="IRI", help="Load everything into "
                                 "this one graph ('default': the default graph).")
    ] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Only show what would change.")
    ] = False,
    bulk: Annotated[
        bool, typer.Option("--bulk", help="Add new graphs without a transaction (the oxigraph "
                           "preset already does, each batch whole or not at all).")
    ] = False,
    compare: Annotated[
        bool, typer.Option("--compare", help="Read every graph back to compare, instead of "
                           "trusting kg's record of what it wrote (after editing by hand).")
    ] = False,
    insecure: InsecureOption = False,
    ca_cert: CaCertOption = None,
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds per request.")] = 60.0,
    retries: Annotated[
        int, typer.Option(min=0, help="Retries on connection errors, timeouts and 5xx.")
    ] = 3,
    sql_port: Annotated[
        int | None, typer.Option("--sql-port", min=1, max=65535, help="Virtuoso's SQL port "
                                 "(default 1111): the virtuoso preset adds new graphs through "
                                 "it with isql-vt when the server is on this machine.")
    ] = None,
    sql_sessions: Annotated[
        int | None, typer.Option("--sql-sessions", min=1, help="isql-vt sessions loading new "
                                 "graphs into Virtuoso at once (default 2), each batch one "
                                 "transaction.")
    ] = None,
) -> None:
    """Load the graph into a SPARQL 1.1 store, replacing only the graphs that changed."""
    import time

    from kg.remote.load import load_dataset

    started = last = time.monotonic()

    def progress(ended: int, failed: int) -> None:  # a line every 10 s: a slow load says so
        nonlocal last
        now = time.monotonic()
        if now - last >= 10:
            last = now
            refused = f", {failed} refused" if failed else ""
            typer.echo(f"… {ended} write requests done{refused} in {now - started:.0f} s",
                       err=True)

    with clean_errors(), remote_errors():
        connection = _connection(user, password, password_file, auth, insecure, ca_cert)
        report = load_dataset(
            graph, endpoint, protocol=protocol, preset=preset,  # type: ignore[arg-type]
            batch_size=batch_size, auth=connection.credentials, whole_graph=whole_graph,
            dry_run=dry_run, bulk=bulk, compare=compare, verify=not insecure,
            ca_cert=ca_cert, timeout=timeout, retries=retries, sql=sql_port,
            sql_sessions=sql_sessions, on_write=progress,
        )
    typer.echo(report.summary())
    if not report.ok:
        raise typer.Exit(1)


@app.command()
def rules(
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the Markdown page docs/rules.md instead.")
    ] = False,
) -> None:
    """List every heuristic: id, stage, what it reads and writes, confidence, example."""
    from kg.build.rules import registry
    from kg.extract.rules.registry import rules_markdown

    declared = registry()
    if markdown:
        typer.echo(rules_markdown(declared), nl=False)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table()
    for column in ("id", "stage"):  # looked for by eye and by grep: never wrapped
        table.add_column(column, no_wrap=True)
    for column in ("reads", "writes", "confidence", "what it does", "example"):
        table.add_column(column)
    for rule in declared:
        confidence = f"{rule.confidence:g}" if rule.confidence is not None else rule.model
        table.add_row(rule.id, rule.stage, rule.reads, rule.writes, confidence,
                      rule.description, rule.example)
    Console(soft_wrap=False).print(table)


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
