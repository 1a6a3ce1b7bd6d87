"""WARC web archives (``.warc``, ``.warc.gz``; e.g. Common Crawl News) → articles, with FastWARC.

Every HTTP response record with status 200 and an HTML content type goes through the same
HTML path as a saved page (``kg.ingest.html``); its ``WARC-Target-URI`` becomes the article's
URL (the page's canonical URL wins when it declares one; the target URI is then kept as
``kg:retrievedFrom``) and its ``WARC-Date`` becomes ``ArticleMeta.retrieved``
(``kg:retrievedAt``). Requests, metadata records, redirects, errors, images and style sheets
are passed over without a word: an archive is mostly those.

Records are named by their number in the file, counting every record (``crawl.warc.gz#record
7``). A record cut short, or a page in it without article text, is skipped with that name;
the records after it are still read when the file goes on. An archive that cannot be read
further (a damaged gzip member) ends with one line saying where.

>>> is_warc("CC-NEWS-2024.warc.gz"), is_warc("page.html")
(True, False)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kg.ingest.found import Found, Item, Items, Unusable
from kg.ingest.html import NoArticle, declared_charset, read_page
from kg.ingest.links import checked_url, id_from_url

HTML_TYPES = ("text/html", "application/xhtml+xml")


def is_warc(name: str) -> bool:
    """Whether a file name is a WARC archive's."""
    return name.lower().endswith((".warc", ".warc.gz"))


def warc_articles(path: str) -> Items:
    """One ``Found`` per HTML page archived in ``path``, one ``Unusable`` per bad record."""
    from fastwarc.warc import ArchiveIterator  # imported here: only archives need it

    try:
        stream = open(path, "rb")  # noqa: SIM115 (closed below, also when iteration stops)
    except OSError as e:
        yield Unusable(path, f"unreadable: {e.strerror or e}")
        return
    number = pages = 0
    with stream:
        records = iter(ArchiveIterator(stream, parse_http=True))
        while True:
            try:
                record = next(records)
            except StopIteration:
                break
            except Exception as e:  # FastWARC says little more than "stream error"
                yield Unusable(f"{path}#record {number + 1}", f"unreadable WARC record ({e})")
                return
            number += 1
            item = _record_article(record, f"{path}#record {number}")
            if item is not None:
                pages += 1
                yield item
    if number == 0:
        yield Unusable(path, "not a WARC archive, or an empty one")
    elif pages == 0:
        yield Unusable(path, f"no HTML page among its {number} record(s)")


def _record_article(record: Any, where: str) -> Item | None:
    """The article of one record; ``None`` for records that are not archived HTML pages."""
    if record.headers.get("WARC-Type") != "response" or not record.is_http:
        return None
    status = record.http_headers.status_code
    content_type = (record.http_content_type or "").lower()
    if status != 200 or not content_type.startswith(HTML_TYPES):
        return None
    body = record.reader.read()
    if len(body) < record.content_length:
        return Unusable(where, f"record cut short ({len(body)} of {record.content_length} "
                        "bytes of the page)")
    try:
        page = read_page(_decoded(body, record.http_charset), url=_target(record))
    except NoArticle as e:
        return Unusable(where, f"HTML page without article text ({e})")
    warnings: list[str] = []
    target = checked_url(_target(record) or "", warnings.append) if _target(record) else None
    fields = page.fields()
    fields.setdefault("url", target)
    fields["fetched_from"] = target
    if record.record_date is not None:
        fields["retrieved"] = record.record_date
    url = fields.get("url")
    default_id = id_from_url(url) if url else Path(where).name
    return Found(where, page.text, {k: v for k, v in fields.items() if v}, default_id,
                 tuple(warnings))


def _target(record: Any) -> str | None:
    value = record.headers.get("WARC-Target-URI")
    return value.strip("<> ") if value else None


def _decoded(body: bytes, charset: str | None) -> str:
    """The page as text: the HTTP charset, else the ``<meta>`` one, else UTF-8; bytes that do
    not fit become U+FFFD (an archive cannot be asked again)."""
    for candidate in (charset, declared_charset(body), "utf-8"):
        if not candidate:
            continue
        try:
            return body.decode(candidate)
        except (LookupError, UnicodeDecodeError):
            continue
    return body.decode("cp1252", errors="replace")
