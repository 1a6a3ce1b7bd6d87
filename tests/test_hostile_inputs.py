"""Issue 38: inputs of a hostile or unlucky user that hung, crashed or lost data.

Every ingest path is fed the same attacks (markup repeated 10,000 times, dates from year 0
to 10,000, JSON nested 100,000 deep, files that never end), through the one module that
bounds reads (``kg.limits``) and the one that checks dates (``kg.dates``).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kg.dates import BadDate, checked_date, checked_datetime
from kg.errors import InputError
from kg.ingest.fetch import Fetcher, read_url_list, robots_lines
from kg.ingest.files import Skipped, read_documents
from kg.limits import Budget, TooLarge, decoded, load_json, read_file
from kg.model import Document

STORY = "Emmanuel Macron said on Friday that France would send aid to Kyiv."


class Run:
    """``read_documents`` over some paths, with what it skipped and warned about."""

    def __init__(self, paths: list[Any], **options: Any) -> None:
        self.skipped: list[Skipped] = []
        self.warnings: list[tuple[str, str]] = []
        self.documents: list[Document] = list(read_documents(
            [str(p) for p in paths], on_skip=self.skipped.append,
            on_warning=lambda where, message: self.warnings.append((where, message)),
            **options))

    def warned(self, text: str) -> list[str]:
        return [f"{where}: {message}" for where, message in self.warnings if text in message]


# -- one writer per ingest path: (file name, bytes) for an article with this text and date ----


def _txt(text: str, date: str) -> tuple[str, bytes]:
    return "a.txt", text.encode()


def _front_matter(text: str, date: str) -> tuple[str, bytes]:
    return "a.md", f"---\ndate: {date}\ntitle: T\n---\n{text}\n".encode()


def _html(text: str, date: str) -> tuple[str, bytes]:
    return "a.html", (f"<html><head><meta property='article:published_time' content='{date}'>"
                      f"</head><body><article><p>{text}</p></article></body></html>").encode()


def _jsonl(text: str, date: str) -> tuple[str, bytes]:
    return "a.jsonl", json.dumps({"text": text, "date": date}).encode() + b"\n"


def _csv(text: str, date: str) -> tuple[str, bytes]:
    import csv

    out = io.StringIO()
    csv.writer(out).writerows([["text", "date"], [text, date]])
    return "a.csv", out.getvalue().encode()


def _rss(text: str, date: str) -> tuple[str, bytes]:
    from xml.sax.saxutils import escape

    return "a.rss", (f"<rss version='2.0'><channel><title>W</title><item><title>T</title>"
                     f"<pubDate>{escape(date)}</pubDate><description>{escape(text)}"
                     "</description></item></channel></rss>").encode()


def _atom(text: str, date: str) -> tuple[str, bytes]:
    from xml.sax.saxutils import escape

    return "a.atom", ("<feed xmlns='http://www.w3.org/2005/Atom'><title>W</title><entry>"
                      f"<title>T</title><updated>{escape(date)}</updated><content>"
                      f"{escape(text)}</content></entry></feed>").encode()


def _warc(text: str, date: str) -> tuple[str, bytes]:
    from xml.sax.saxutils import escape

    page = f"<html><body><article><p>{escape(text)}</p></article></body></html>".encode()
    return "a.warc", _warc_record(page, date)


def _warc_record(page: bytes, date: str, headers: str = "") -> bytes:
    http = (f"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n{headers}"
            f"Content-Length: {len(page)}\r\n\r\n").encode() + page
    head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\n"
            f"WARC-Date: {date}\r\nWARC-Target-URI: https://example.org/a\r\n"
            f"Content-Type: application/http; msgtype=response\r\n"
            f"Content-Length: {len(http)}\r\n\r\n").encode()
    return head + http + b"\r\n\r\n"


def _sidecar(text: str, date: str) -> tuple[str, bytes]:
    return "a.txt", text.encode()


Writer = Callable[[str, str], tuple[str, bytes]]
PATHS: dict[str, Writer] = {"txt": _txt, "front matter": _front_matter, "html": _html,
                            "jsonl": _jsonl, "csv": _csv, "rss": _rss, "atom": _atom,
                            "warc": _warc, "sidecar": _sidecar}


def write(folder: Path, kind: str, text: str, date: str = "2022-05-18") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    name, data = PATHS[kind](text, date)
    (folder / name).write_bytes(data)
    if kind == "sidecar":
        (folder / "a.meta.json").write_text(json.dumps({"date": date}))
    return folder / name


# -- 12, 13 and the property: markup tokens 10,000 times, time linear on every path ----------

TOKENS = ["<!---->", "<!--", "-->", "<", ">", "<a ", "</p>", "<p>", "&amp;", "<![CDATA[",
          "---", "\"", "'", "\\", "{", "[", "*", "_", "#", "|", "`", "\n", "word ", "http://",
          "<html>", "<!doctype html>", "%", "\u00a0", "\u202e"]


def _seconds(folder: Path, kind: str, text: str) -> float:
    path = write(folder, kind, text)
    started = time.perf_counter()
    Run([path])
    return time.perf_counter() - started


@pytest.mark.slow
@pytest.mark.parametrize("kind", [k for k in PATHS if k != "sidecar"])
def test_markup_repeated_ten_thousand_times_is_read_in_linear_time(tmp_path: Path,
                                                                   kind: str) -> None:
    slow = []
    for token in TOKENS:
        text = token * 2_500 + " " + STORY
        small = min(_seconds(tmp_path / f"s{i}", kind, text) for i in range(2))
        text = token * 10_000 + " " + STORY
        large = min(_seconds(tmp_path / f"l{i}", kind, text) for i in range(2))
        # linear: 4x the input, about 4x the time; quadratic would be 16x
        if large > 0.3 and large > 9 * max(small, 0.02):
            slow.append(f"{token!r}: {small:.2f} s -> {large:.2f} s")
    assert slow == []


def test_forty_empty_comments_before_a_sentence_are_text(tmp_path: Path) -> None:
    # issue 38 #12: 341 bytes held kg build for hours (backtracking in the HTML sniffing)
    path = tmp_path / "a.txt"
    path.write_text("<!---->" * 40 + STORY)
    started = time.perf_counter()
    [document] = Run([path]).documents
    assert time.perf_counter() - started < 2 and document.text.endswith(STORY)


def test_a_megabyte_paragraph_without_a_full_stop_is_checked_in_linear_time() -> None:
    # issue 38 #13: the running-text check searched from every word (1 MB: ~75 min)
    from kg.ingest.html import is_running_text

    started = time.perf_counter()
    assert not is_running_text("word " * 200_000)
    assert is_running_text("word " * 200_000 + "end.")
    assert time.perf_counter() - started < 1


# -- 22, 24: dates from year 0 to 10,000 on every path ---------------------------------------

DATES = [("0000-00-00", None), ("0000-01-01T00:00:00Z", None), ("0001-01-01", None),
         ("0999-12-31", None), ("1000-01-01", 1000), ("2022-05-18", 2022),
         ("8999-12-31", 8999), ("9000-01-01", None), ("9999-12-31", None),
         ("9999-12-31T23:59:59-23:59", None), ("10000-01-01", None),
         ("Wed, 18 May 2022 10:00:00 GMT", 2022), ("Sat, 01 Jan 0000 00:00:00 GMT", None)]
DATED = ["front matter", "jsonl", "csv", "rss", "atom", "sidecar"]


@pytest.mark.parametrize("kind", DATED)
@pytest.mark.parametrize(("date", "year"), DATES)
def test_dates_from_year_0_to_10000_never_crash_and_only_plausible_ones_are_kept(
        tmp_path: Path, kind: str, date: str, year: int | None) -> None:
    run = Run([write(tmp_path, kind, STORY, date)])
    [document] = run.documents
    found = document.meta.date_published
    if kind in ("front matter", "sidecar") and not date[:10].count("-") == 2:
        year = None  # metadata files take YYYY-MM-DD only
    if kind in ("front matter", "sidecar") and len(date) != 10:
        year = None
    assert (found.year if found else None) == year
    if year is None and kind not in ("rss", "atom"):
        assert run.warnings, "a dropped date is said"


@pytest.mark.parametrize(("date", "kept"), [("2022-05-18T10:00:00Z", True),
                                            ("0000-01-01T00:00:00Z", False),
                                            ("9999-12-31T23:59:59-23:59", False)])
def test_an_archive_date_out_of_range_is_dropped_with_a_warning(tmp_path: Path, date: str,
                                                                kept: bool) -> None:
    run = Run([write(tmp_path, "warc", STORY, date)])
    [document] = run.documents
    assert (document.meta.retrieved is not None) == kept
    assert bool(run.warned("WARC-Date")) != kept


def test_the_one_date_check_says_why() -> None:
    with pytest.raises(BadDate, match="year 9999"):
        checked_date("9999-12-31")
    with pytest.raises(BadDate, match="year 0"):
        checked_date("0000-01-01")
    with pytest.raises(BadDate):
        checked_datetime("9999-12-31T23:59:59-23:59")  # past year 9999 in UTC
    assert checked_date(time.gmtime(1652868000)).isoformat() == "2022-05-18"


# -- 23: nested JSON on every JSON path -------------------------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


def test_a_json_line_nested_100000_deep_is_one_skipped_record(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text(DEEP + "\n" + json.dumps({"text": STORY}) + "\n")
    run = Run([path])
    assert [d.text for d in run.documents] == [STORY]
    assert [(s.path, s.reason) for s in run.skipped] == [
        (f"{path}:1", "broken JSON (JSON nested 100000 deep (more than 200))")]


def test_a_sidecar_nested_100000_deep_is_ignored_with_a_warning(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(STORY)
    (tmp_path / "a.meta.json").write_text('{"title": ' + DEEP + "}")
    run = Run([tmp_path])
    assert len(run.documents) == 1 and run.warned("deep (more than 200)")


def test_state_files_nested_deep_are_treated_as_missing(tmp_path: Path) -> None:
    from kg.build.manifest import MANIFEST_PATH, read_manifest

    (tmp_path / MANIFEST_PATH).parent.mkdir(parents=True)
    (tmp_path / MANIFEST_PATH).write_text(DEEP)
    assert read_manifest(tmp_path) is None
    fetcher = Fetcher(tmp_path / "fetch")
    entry = fetcher._entry_path("https://example.org/a")
    assert entry is not None
    entry.parent.mkdir(parents=True)
    entry.with_suffix(".json").write_text(DEEP)
    entry.with_suffix(".body").write_bytes(b"x")
    assert fetcher._cached("https://example.org/a") is None


def test_a_store_answering_json_nested_deep_is_a_store_error() -> None:
    import httpx

    from kg.errors import StoreError
    from kg.remote.client import Connection
    from kg.remote.endpoint import run_remote

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=DEEP.encode(),
                              headers={"Content-Type": "application/sparql-results+json"})

    with pytest.raises(StoreError, match="SPARQL JSON|nested"):
        run_remote("http://store.test/sparql", "SELECT * { ?s ?p ?o }", {}, "q",
                   connection=Connection(retries=0), transport=httpx.MockTransport(answer),
                   union=False)


def test_load_json_refuses_depth_without_recursion() -> None:
    with pytest.raises(ValueError, match="nested 100000 deep"):
        load_json(DEEP)
    assert load_json('{"a": "[[[[[["}') == {"a": "[[[[[["}


# -- 14, 26: inputs that never end ------------------------------------------------------------


def test_a_fifo_sidecar_does_not_block_the_build(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(STORY)
    os.mkfifo(tmp_path / "a.meta.json")
    started = time.perf_counter()
    run = Run([tmp_path])
    assert time.perf_counter() - started < 5 and len(run.documents) == 1
    assert run.warned("not a regular file (a FIFO)")


def test_a_sidecar_linked_to_dev_zero_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(STORY)
    (tmp_path / "a.meta.json").symlink_to("/dev/zero")
    run = Run([tmp_path / "a.txt"])  # named explicitly: no folder, so the link is followed
    assert len(run.documents) == 1 and run.warned("a character device")


@pytest.mark.parametrize("name", ["a.warc", "a.jsonl", "a.html", "a.txt"])
def test_a_fifo_in_a_corpus_is_skipped_at_once(tmp_path: Path, name: str) -> None:
    os.mkfifo(tmp_path / name)
    run = Run([tmp_path])
    assert [s.reason for s in run.skipped] == ["not a regular file (a FIFO)"]


def test_unbounded_files_named_on_the_command_line_are_refused() -> None:
    from kg.errors import QueryError
    from kg.remote.client import read_password_file
    from kg.store.sparql import read_query

    with pytest.raises(InputError, match="larger than the limit"):
        read_url_list(Path("/dev/zero"))
    with pytest.raises(InputError, match="larger than the limit"):
        read_password_file("/dev/zero")
    with pytest.raises(QueryError, match="larger than the limit"):
        read_query("/dev/zero")
    with open("/dev/zero") as zero, pytest.raises(QueryError, match="larger than the limit"):
        read_query("-", stdin=zero)


def test_standard_input_is_bounded_too(tmp_path: Path) -> None:
    run = Run(["-"], stdin=io.BytesIO(b"x" * 2000), max_bytes=1000)
    assert [s.option for s in run.skipped] == ["max_article_bytes"]


def test_read_file_reads_a_pipe_within_its_time(tmp_path: Path) -> None:
    read, write_end = os.pipe()
    os.write(write_end, b"pw\n")
    try:
        started = time.perf_counter()
        with pytest.raises(InputError, match="not finished within"):
            read_file(f"/proc/self/fd/{read}", 100, regular_only=False, seconds=0.3)
        assert time.perf_counter() - started < 2
    finally:
        os.close(read)
        os.close(write_end)


# -- 15, 16: the article limit on every container ----------------------------------------------


@pytest.mark.parametrize("kind", ["jsonl", "csv", "rss", "html", "warc"])
def test_the_article_limit_applies_inside_containers(tmp_path: Path, kind: str) -> None:
    big = (STORY + " ") * 2_000  # ~130 KB
    run = Run([write(tmp_path, kind, big)], max_bytes=64 * 1024)
    assert run.documents == []
    assert [s.option for s in run.skipped] == ["max_article_bytes"]


def test_a_small_archive_of_a_huge_page_is_skipped_unread(tmp_path: Path) -> None:
    # issue 38 #16: 178 KB of .warc.gz held 50 MB of page, read whole: 1.6 GB, > 300 s
    page = b"<html><body><article><p>" + b"a" * 50_000_000 + b"</p></article></body></html>"
    path = tmp_path / "a.warc.gz"
    path.write_bytes(gzip.compress(_warc_record(page, "2022-05-18T10:00:00Z"), 1))
    assert path.stat().st_size < 500_000
    started = time.perf_counter()
    run = Run([path], max_bytes=5 * 2**20)
    assert time.perf_counter() - started < 20
    assert [s.option for s in run.skipped] == ["max_article_bytes"]


def test_a_gzip_bomb_never_inflates_past_the_limit() -> None:
    body = gzip.compress(gzip.compress(b"\0" * 200_000_000, 9), 9)
    assert len(body) < 20_000  # a 13 KB body with Content-Encoding: gzip, gzip
    with pytest.raises(TooLarge):
        decoded([body], ["gzip", "gzip"], Budget(20 * 2**20, what="https://x.org/a"))


def test_an_archived_gzip_page_is_inflated_within_the_limit(tmp_path: Path) -> None:
    page = f"<html><body><article><p>{STORY}</p></article></body></html>".encode()
    path = tmp_path / "a.warc"
    path.write_bytes(_warc_record(gzip.compress(page), "2022-05-18T10:00:00Z",
                                  "Content-Encoding: gzip\r\n"))
    [document] = Run([path]).documents
    assert document.text == STORY


# -- 10: exports not in UTF-8 -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["jsonl", "csv"])
def test_cp1252_records_are_read_with_a_warning_naming_the_record(tmp_path: Path,
                                                                  kind: str) -> None:
    good = STORY
    bad = "Kyiv\u2019s mayor said talks \u2013 at last \u2013 resumed."
    lines = {"jsonl": [json.dumps({"text": good}, ensure_ascii=False),
                       json.dumps({"text": bad}, ensure_ascii=False)],
             "csv": ["text", good, bad]}[kind]
    data = "\n".join(lines[:-1]).encode() + b"\n" + lines[-1].encode("cp1252") + b"\n"
    path = tmp_path / f"a.{kind}"
    path.write_bytes(data)
    run = Run([path])
    assert [d.text for d in run.documents] == [good, bad]
    line = len(lines)
    assert run.warned("not valid UTF-8") == [f"{path}:{line}: line {line} is not valid UTF-8; "
                                             "read as cp1252"]


# -- 6: symlinks out of the corpus ------------------------------------------------------------


def test_symlinks_out_of_the_folder_are_not_followed_unless_asked(tmp_path: Path) -> None:
    secret = tmp_path / "home"
    secret.mkdir()
    (secret / "diary.txt").write_text("My own notes, not news.")
    (secret / "notes").mkdir()
    (secret / "notes" / "n.txt").write_text("Other private notes.")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "story.txt").write_text(STORY)
    (corpus / "diary.txt").symlink_to(secret / "diary.txt")
    (corpus / "notes").symlink_to(secret / "notes")
    (corpus / "zz_inside.txt").symlink_to(corpus / "story.txt")  # within: an exact copy
    (corpus / "story.meta.json").symlink_to(secret / "diary.txt")
    run = Run([corpus])
    assert [d.text for d in run.documents] == [STORY]
    assert sorted((Path(s.path).name, s.option) for s in run.skipped if not s.is_copy) == [
        ("diary.txt", "follow_links"), ("notes", "follow_links")]
    assert run.warned("outside the folder being read")  # the sidecar
    followed = Run([corpus], follow_links=True)
    assert len(followed.documents) == 3


# -- 11: an id stays with the article that had it ---------------------------------------------


def test_an_id_stays_with_the_article_that_had_it_in_the_last_build(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text(STORY)
    (tmp_path / "a.txt").write_text("---\nid: b\n---\nA newcomer claims the id of b.")
    first = Run([tmp_path])  # no last build: the first read (a.txt) has it
    assert [d.path for d in first.documents] == [str(tmp_path / "a.txt")]
    again = Run([tmp_path], previous_ids={"b": str(tmp_path / "b.txt")})
    assert [(d.doc_id, d.path) for d in again.documents] == [("b", str(tmp_path / "b.txt"))]
    [skip] = again.skipped
    assert skip.path == str(tmp_path / "a.txt") and "since the last build" in skip.reason
    gone = Run([tmp_path / "a.txt"], previous_ids={"b": str(tmp_path / "b.txt")})
    assert [d.doc_id for d in gone.documents] == ["b"]  # its last holder is not read: it may


def test_the_manifest_records_which_article_has_which_id(tmp_path: Path, nlp: Any) -> None:
    from kg.build.corpus import build_corpus
    from kg.build.manifest import read_manifest
    from kg.config import Settings

    corpus = tmp_path / "in"
    corpus.mkdir()
    (corpus / "b.txt").write_text(STORY)
    out = tmp_path / "out"
    build_corpus([corpus], Settings(out_dir=out), nlp=nlp)
    (corpus / "a.txt").write_text("---\nid: b\n---\nA newcomer claims the id of b.")
    report = build_corpus([corpus], Settings(out_dir=out), nlp=nlp)
    manifest = read_manifest(out)
    assert manifest is not None and manifest.ids == {"b": str(corpus / "b.txt")}
    assert [Path(s.path).name for s in report.skipped] == ["a.txt"]


# -- deliverable 4: exact copies are counted once, not failures -------------------------------


def test_a_corpus_whose_only_skips_are_exact_copies_exits_0(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from kg.cli import app

    corpus = tmp_path / "in"
    corpus.mkdir()
    (corpus / "a.txt").write_text(STORY)
    (corpus / "b.txt").write_text(STORY)
    result = CliRunner().invoke(app, ["build", str(corpus), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert f"note: {corpus / 'b.txt'}: exact copy of {corpus / 'a.txt'}, counted once" \
        in result.stderr
    assert "1 documents (0 skipped, 1 exact copies counted once)" in result.stdout


# -- 25: robots.txt numbers -------------------------------------------------------------------


def test_robots_txt_numbers_that_are_not_ascii_digits_are_dropped() -> None:
    import urllib.robotparser

    lines = robots_lines("User-agent: *\nCrawl-delay: \u00b2\nRequest-rate: \u00b2/5\n"
                         "Disallow: /private/\n")
    robots = urllib.robotparser.RobotFileParser()
    robots.parse(lines)  # raised ValueError, aborting a build of many URLs
    assert robots.crawl_delay("kg") is None and not robots.can_fetch("kg", "/private/x")


@pytest.mark.parametrize("name", ["kg.limits", "kg.dates"])
def test_docstring_examples(name: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0


def test_two_newcomers_claiming_an_id_never_take_it_from_its_last_holder(tmp_path: Path) -> None:
    (tmp_path / "b.txt").write_text(STORY)
    (tmp_path / "a.txt").write_text("---\nid: b\n---\nA first newcomer claims the id of b.")
    (tmp_path / "a2.txt").write_text("---\nid: b\n---\nA second newcomer claims it too.")
    run = Run([tmp_path], previous_ids={"b": str(tmp_path / "b.txt")})
    assert [(d.doc_id, Path(d.path).name) for d in run.documents] == [("b", "b.txt")]
    assert sorted(Path(s.path).name for s in run.skipped) == ["a.txt", "a2.txt"]
