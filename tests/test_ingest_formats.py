"""Pages, feeds, JSON Lines/CSV exports and WARC archives → documents (docs/formats.md).

The samples under tests/samples/ were written for these tests, not downloaded.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from kg.ingest.copies import find_copy_pairs, mark_copies, shingles
from kg.ingest.files import Skipped, document_from_text, input_kind, read_documents
from kg.ingest.html import NoArticle, fragment_text, read_page
from kg.ingest.records import parse_field_options, record_articles

SAMPLES = Path(__file__).parent / "samples"


def read(*names: str, **options: object) -> tuple[list, list[str], list[str]]:
    skipped: list[Skipped] = []
    warnings: list[str] = []
    documents = list(read_documents([str(SAMPLES / n) for n in names], on_skip=skipped.append,
                                    on_warning=lambda p, m: warnings.append(f"{p}: {m}"),
                                    **options))  # type: ignore[arg-type]
    return documents, [str(s).removeprefix(str(SAMPLES) + "/") for s in skipped], warnings


# --- HTML ----------------------------------------------------------------------------------

def test_page_keeps_the_article_and_drops_the_boilerplate() -> None:
    [page], skipped, _ = read("page.html")
    assert skipped == []
    assert page.text.startswith("Harbour talks resume in Valmora\n\nNegotiators from the port")
    assert "Ingrid Halvorsen" in page.text
    for boilerplate in ("cookies", "Related stories", "Ten pictures", "Copyright", "Sport"):
        assert boilerplate not in page.text
    assert page.meta.title == "Harbour talks resume in Valmora"
    assert page.meta.date_published == date(2024, 3, 4)
    assert page.meta.author == "Mara Lindqvist"
    assert page.meta.source == "The Coastal Ledger"
    assert page.meta.url == "https://ledger.example.org/world/harbour-talks-resume"
    assert page.doc_id == "page"


def test_page_in_its_declared_charset() -> None:
    [page], _, _ = read("page-cp1252.html")
    assert "Café owners" in page.text and "€400" in page.text


@pytest.mark.parametrize(("name", "reason"), [
    ("no-article.html", "no-article.html: HTML page without article text (no running text"),
    ("binary.html", "binary.html: binary file, not an HTML page"),
])
def test_page_without_article_is_skipped_with_its_reason(name: str, reason: str) -> None:
    documents, skipped, _ = read(name)
    assert documents == [] and len(skipped) == 1 and skipped[0].startswith(reason)


def test_text_file_holding_a_page_is_read_as_a_page(tmp_path: Path) -> None:
    (tmp_path / "saved.txt").write_bytes((SAMPLES / "page.html").read_bytes())
    warnings: list[str] = []
    [document] = read_documents([tmp_path / "saved.txt"],
                                on_warning=lambda p, m: warnings.append(m))
    assert "Related stories" not in document.text and "Tomas Reyes" in document.text
    assert any("looks like HTML" in w for w in warnings)


def test_read_page_refuses_a_page_of_links() -> None:
    with pytest.raises(NoArticle):
        read_page("<html><body><ul><li><a href=/a>World</a></li><li>Sport</li></ul></body></html>")


def test_fragment_text_keeps_paragraphs() -> None:
    assert fragment_text("<p>One <i>two</i>.</p><ul><li>Three</li></ul>") == "One two.\n\nThree"


# --- feeds ---------------------------------------------------------------------------------

def test_feed_entries_become_articles_with_content_kind() -> None:
    documents, skipped, _ = read("wire.rss", "council.atom")
    by_title = {d.meta.title: d for d in documents}
    ferry = by_title["Ferry services cut after storm damages pier"]
    assert ferry.meta.content == "full" and "Elin Sand" in ferry.text
    assert ferry.meta.url == "https://wire.example.org/2024/03/ferry-services-cut"
    assert ferry.meta.date_published == date(2024, 3, 5)
    assert ferry.meta.author == "Jonas Berg" and ferry.meta.source == "Northern Wire"
    assert ferry.path.endswith("wire.rss#entry 1")
    library = by_title["Mayor opens new library"]
    assert library.meta.content == "summary" and library.text.startswith("The mayor of Norrhavn")
    budget = by_title["Council approves harbour budget"]
    assert budget.meta.content == "summary" and budget.meta.date_published == date(2024, 3, 7)
    assert skipped == ["wire.rss#entry 3: entry without content or summary"]


@pytest.mark.parametrize(("name", "reason"), [
    ("empty.rss", "empty.rss: feed without entries"),
    ("sitemap.xml", "sitemap.xml: not an RSS or Atom feed"),
])
def test_feed_without_entries_is_skipped(name: str, reason: str) -> None:
    documents, skipped, _ = read(name)
    assert documents == [] and skipped == [reason]


# --- JSON Lines and CSV -----------------------------------------------------------------------

def test_jsonl_records_with_common_field_names_and_bad_lines_named() -> None:
    documents, skipped, warnings = read("export.jsonl")
    assert [d.doc_id for d in documents] == ["rec-001", "rec-002", "6"]
    rail = documents[0]
    assert rail.meta.title == "Rail strike called off" and rail.meta.source == "Example News"
    assert rail.meta.date_published == date(2024, 3, 8)
    assert rail.meta.author == "Lars Holm, Sara Nyberg"
    assert rail.path.endswith("export.jsonl:1")
    assert documents[1].meta.date_published == date(2024, 3, 8)  # RFC 2822
    assert [s.split(":", 2)[1] for s in skipped] == ["3", "4", "5", "6"]
    assert "broken JSON" in skipped[0] and "no text" in skipped[1]
    assert "field 'body' is an object, not a string" in skipped[2]
    assert "not a JSON object" in skipped[3]
    assert any("export.jsonl:7" in w and "not an http(s) URL" in w for w in warnings)


def test_csv_records_and_a_broken_quote() -> None:
    documents, skipped, _ = read("export.csv")
    assert [d.doc_id for d in documents] == ["csv-1", "csv-4"]
    assert documents[0].meta.source == "Fish Daily"
    assert documents[0].meta.date_published == date(2024, 3, 11)
    assert skipped[0] == "export.csv:3: field 'maintext' is empty"
    assert skipped[1] == "export.csv:4: 3 cells where the header has 6"
    assert skipped[2].startswith("export.csv:6: broken CSV")
    assert "the rest of the file is not read" in skipped[2]


def test_named_fields_win_over_common_names() -> None:
    data = b'{"text": "Teaser.", "story": {"body": "The full story."}, "when": "2024-01-02"}\n'
    fields = parse_field_options(["text=story.body", "date=when"])
    [found] = record_articles(data, "x.jsonl", fields)
    assert found.text == "The full story."  # type: ignore[union-attr]
    assert found.fields["date_published"] == date(2024, 1, 2)  # type: ignore[union-attr]


@pytest.mark.parametrize("option", ["text", "colour=paint", "text="])
def test_bad_field_options_are_refused(option: str) -> None:
    with pytest.raises(ValueError, match="FIELD=NAME|unknown field"):
        parse_field_options([option])


# --- WARC ----------------------------------------------------------------------------------

def test_warc_html_responses_become_articles() -> None:
    documents, skipped, _ = read("crawl.warc.gz")
    assert skipped == []  # the image, the 404 and the warcinfo record pass without a word
    bridge, school = documents
    assert bridge.meta.url == "https://times.example.com/news/bridge-reopens"  # canonical
    assert bridge.meta.fetched_from == "https://times.example.com/news/bridge-reopens?ref=rss"
    assert bridge.meta.retrieved == datetime(2024, 3, 9, 6, 30, tzinfo=UTC)
    assert "Nils Aune" in bridge.text and "Home" not in bridge.text
    assert school.path.endswith("crawl.warc.gz#record 3")


def test_warc_record_cut_short_is_skipped_the_rest_kept() -> None:
    documents, skipped, _ = read("crawl-cut.warc")
    assert [d.meta.title for d in documents] == ["Bridge reopens after repairs"]
    assert skipped == ["crawl-cut.warc#record 3: record cut short (367 of 515 bytes of the page)"]


def test_input_kind_by_suffix() -> None:
    kinds = [input_kind(n, in_folder=True) for n in
             ("a.txt", "b.HTML", "c.atom", "d.xml", "e.ndjson", "f.warc.gz", "g.pdf")]
    assert kinds == ["text", "page", "feed", "xml", "records", "warc", None]


# --- offsets against the stored text -----------------------------------------------------------

def test_offsets_index_the_extracted_text(nlp: object) -> None:
    from kg.extract import extract_documents

    documents, _, _ = read("page.html", "wire.rss", "crawl.warc.gz")
    for extraction in extract_documents(nlp, documents):
        text = extraction.document.text
        assert extraction.mentions
        for mention in extraction.mentions:
            assert text[mention.begin:mention.end] == mention.text


# --- syndicated copies ---------------------------------------------------------------------

STORY = [f"Paragraph {i}: the harbour authority said on day {i} that {i * 7} ships were waiting "
         f"outside the port of Valmora while talks with the union went on." for i in range(12)]


def test_near_copies_are_marked_and_the_first_published_is_the_original() -> None:
    original = document_from_text("\n\n".join(STORY), doc_id="wire")
    original = mark_copies([original])[0]
    copy_text = "\n\n".join(["Our reporter adds: the mood was tense.", *STORY[1:-1],
                             "Subscribe to our newsletter for more."])
    copy = document_from_text(copy_text, doc_id="outlet")
    other = document_from_text(" ".join(f"Unrelated sentence {i} about football scores in "
                                         f"the northern league this weekend." for i in range(40)),
                               doc_id="sport")
    from dataclasses import replace

    early = replace(copy, meta=replace(copy.meta, date_published=date(2024, 1, 1)))
    marked = mark_copies([original, early, other])
    assert [d.meta.copy_of for d in marked] == ["outlet", None, None]


def test_copy_pairs_need_real_overlap() -> None:
    assert find_copy_pairs(["\n".join(STORY), "\n".join(STORY[:4])]) != []  # a shortened copy
    assert find_copy_pairs(["\n".join(STORY[:6]), "\n".join(STORY[6:])]) == []
    assert len(shingles("one two three four five six")) == 2


# --- the command line ----------------------------------------------------------------------

@pytest.mark.parametrize(("arguments", "message"), [
    ([], "give article files, folders, URLs or --urls FILE"),
    (["--field", "bogus", "x.csv"], "expected FIELD=NAME"),
    (["--field", "colour=paint", "x.csv"], "unknown field 'colour'"),
])
def test_build_refuses_unusable_options(arguments: list[str], message: str,
                                        tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kg.cli import app

    result = CliRunner().invoke(app, ["build", "-o", str(tmp_path), *arguments])
    assert result.exit_code == 2 and message in " ".join(result.output.split())


@pytest.mark.slow
def test_build_of_every_format_goes_on_names_each_problem_and_conforms(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kg.api import query
    from kg.cli import app
    from kg.views.validate import validate_graph

    out = tmp_path / "out"
    result = CliRunner().invoke(app, ["build", str(SAMPLES), "-o", str(out)])
    assert result.exit_code == 3, result.output
    for line in ("binary.html: binary file, not an HTML page", "empty.rss: feed without entries",
                 "export.jsonl:3: broken JSON", "export.csv:6: broken CSV",
                 "crawl-cut.warc#record 3: record cut short", "no-article.html: HTML page "
                 "without article text", "wire.rss#entry 3: entry without content"):
        assert f"skipped {SAMPLES}/{line}" in result.output
    graph = out / "graph.trig"
    rows = query(graph, """SELECT ?path ?kind ?byline ?at ?from WHERE {
        ?a kg:sourcePath ?path . OPTIONAL { ?a kg:contentKind ?kind }
        OPTIONAL { ?a kg:byline ?byline } OPTIONAL { ?a kg:retrievedAt ?at }
        OPTIONAL { ?a kg:retrievedFrom ?from } }""")
    by_path = {r["path"].removeprefix(f"{SAMPLES}/"): r for r in rows}
    assert by_path["wire.rss#entry 1"]["kind"] == "full"
    assert by_path["wire.rss#entry 2"]["kind"] == "summary"
    assert by_path["page.html"]["byline"] == "Mara Lindqvist"
    warc = next(r for p, r in by_path.items() if p.startswith("crawl") and r["from"])
    assert str(warc["from"]).endswith("bridge-reopens?ref=rss") and warc["at"] is not None
    texts = query(graph, "SELECT ?a ?text WHERE { ?a nif:isString ?text }")
    for row in query(graph, "SELECT ?a ?b ?e ?anchor WHERE { ?m nif:referenceContext ?a ; "
                     "nif:beginIndex ?b ; nif:endIndex ?e ; nif:anchorOf ?anchor }"):
        text = next(t["text"] for t in texts if t["a"] == row["a"])
        assert text[int(row["b"]):int(row["e"])] == row["anchor"]
    assert validate_graph(out / "graph.ttl").conforms


@pytest.mark.parametrize("name", ["kg.ingest.html", "kg.ingest.feeds", "kg.ingest.records",
                                  "kg.ingest.warc", "kg.ingest.found", "kg.ingest.links",
                                  "kg.ingest.copies", "kg.ingest.slugs", "kg.ingest.fetch",
                                  "kg.views.ftm"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and (result.attempted > 0 or name == "kg.views.ftm")
