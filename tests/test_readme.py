"""The docs are checked: SPARQL examples run, links resolve, README short, CLI tables current."""

from __future__ import annotations

import re
from pathlib import Path

import pyoxigraph as ox
import pytest

from kg.rdf.namespaces import PREFIXES

from .cli_reference import documented_block, reference
from .conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LIMIT = 10 * 1024  # bytes: what a newcomer reads; everything else lives in docs/
#: Link targets that another change generates; a page may link them before they exist.
PENDING = {ROOT / "docs" / "rules.md": "generated from the rule registry (`kg rules`)"}

FENCE = re.compile(r"^```.*?^```", re.S | re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def page_id(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def sparql_examples() -> list[tuple[str, str]]:
    """(id, query) of every ```sparql block, the id naming the page and the block's index."""
    examples = []
    for page in PAGES:
        blocks = re.findall(r"```sparql\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
        examples += [(f"{page_id(page)}-{i}", query) for i, query in enumerate(blocks)]
    return examples


EXAMPLES = sparql_examples()


def prose(text: str) -> str:
    """``text`` without fenced and inline code, where brackets are not links."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def anchors(page: Path) -> set[str]:
    """The heading anchors GitHub gives ``page`` (lower case, punctuation dropped, - for spaces)."""
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#+\s+(.*)$", FENCE.sub("", page.read_text("utf-8")), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        seen[slug] = seen.get(slug, -1) + 1
        if seen[slug]:
            seen[f"{slug}-{seen[slug]}"] = 0
    return set(seen)


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in LINK.findall(prose(page.read_text(encoding="utf-8"))):
        if re.match(r"[a-z][a-z+.-]*:", target):  # http:, https:, mailto: …
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if file in PENDING:
            continue
        if not file.exists():
            broken.append(f"{target}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    return broken


@pytest.fixture(scope="module")
def store(seed_build: Path) -> ox.Store:
    store = ox.Store()
    store.load(path=str(seed_build / "graph.trig"), format=ox.RdfFormat.TRIG)
    return store


def test_the_docs_have_sparql_examples() -> None:
    ids = [example_id for example_id, _ in EXAMPLES]
    assert any(i.startswith("README.md-") for i in ids)
    assert len(ids) >= 10, ids


@pytest.mark.parametrize("query", [q for _, q in EXAMPLES], ids=[i for i, _ in EXAMPLES])
def test_docs_query_returns_rows(store: ox.Store, query: str) -> None:
    header = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in PREFIXES.items())
    if "GRAPH" in query:
        rows = list(store.query(header + query))  # type: ignore[arg-type]
    else:
        rows = list(store.query(header + query, use_default_graph_as_union=True))  # type: ignore[arg-type]
    assert rows, query


def test_the_readme_is_short() -> None:
    size = len((ROOT / "README.md").read_bytes())
    assert size <= README_LIMIT, f"README.md is {size:,} bytes; move detail into docs/"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_relative_links_point_to_existing_files(page: Path) -> None:
    assert broken_links(page) == []


def test_the_link_check_sees_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "there.md").write_text("# Here\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text("[a](there.md#here) [b](gone.md) [c](there.md#nowhere) `[d](code.md)`\n"
                    "[e](https://example.org/x) [f](#top)\n\n# Top\n", encoding="utf-8")
    assert broken_links(page) == ["gone.md: no such file",
                                  "there.md#nowhere: no heading #nowhere in there.md"]


def test_the_cli_reference_matches_the_code() -> None:
    documented = documented_block((ROOT / "docs" / "cli.md").read_text(encoding="utf-8"))
    assert documented == reference(), (
        "docs/cli.md is out of date: run .venv/bin/python -m tests.cli_reference --write")
