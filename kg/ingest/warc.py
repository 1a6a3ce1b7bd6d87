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

import os
import stat
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from kg.dates import BadDate, checked_datetime
from kg.ingest.found import Found, Item, Items, Unusable
from kg.ingest.html import NoArticle, declared_charset, page_text, read_page
from kg.ingest.links import checked_url, id_from_url
from kg.limits import (
    Budget,
    ReadRefused,
    content_codings,
    decoded,
    kind_of,
    size_text,
    too_large,
)

HTML_TYPES = ("text/html", "application/xhtml+xml")


def is_warc(name: str) -> bool:
    """Whether a file name is a WARC archive's."""
    return name.lower().endswith((".warc", ".warc.gz"))


def warc_articles(path: str, max_bytes: int = 50 * 2**20) -> Items:
    """One ``Found`` per HTML page archived in ``path``, one ``Unusable`` per bad record;
    a page larger than ``max_bytes`` (as archived, or once its ``Content-Encoding`` is
    undone) is skipped without being read whole."""
    from fastwarc.warc import ArchiveIterator  # imported here: only archives need it

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            yield Unusable(path, f"not a regular file ({kind_of(info.st_mode)})")
            return
        os.set_blocking(fd, True)
        stream = os.fdopen(fd, "rb")
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
            item = _record_article(record, f"{path}#record {number}", max_bytes)
            if item is not None:
                pages += 1
                yield item
    if number == 0:
        yield Unusable(path, "not a WARC archive, or an empty one")
    elif pages == 0:
        yield Unusable(path, f"no HTML page among its {number} record(s)")


def _record_article(record: Any, where: str, max_bytes: int) -> Item | None:
    """The article of one record; ``None`` for records that are not archived HTML pages."""
    if record.headers.get("WARC-Type") != "response" or not record.is_http:
        return None
    status = record.http_headers.status_code
    content_type = (record.http_content_type or "").lower()
    if status != 200 or not content_type.startswith(HTML_TYPES):
        return None
    if record.content_length > max_bytes + 64 * 1024:  # the HTTP head is in the record too
        return Unusable(where, f"page larger than the limit of {size_text(max_bytes)} (the "
                        "max_article_bytes setting)", "max_article_bytes")
    body = record.reader.read(max_bytes + 1)
    if len(body) < min(record.content_length, max_bytes + 1):
        return Unusable(where, f"record cut short ({len(body)} of {record.content_length} "
                        "bytes of the page)")
    try:
        body = _undone(body, record, where, max_bytes)
        page = read_page(_decoded(body, record.http_charset), url=_target(record))
    except ReadRefused as e:
        return Unusable(where, str(e).removeprefix(f"{where}: "), e.option)
    except NoArticle as e:
        return Unusable(where, f"HTML page without article text ({e})")
    warnings: list[str] = []
    target = checked_url(_target(record) or "", warnings.append) if _target(record) else None
    fields = page.fields()
    fields.setdefault("url", target)
    fields["fetched_from"] = target
    retrieved = _record_date(record, warnings.append)
    if retrieved is not None:
        fields["retrieved"] = retrieved
    url = fields.get("url")
    default_id = id_from_url(url) if url else Path(where).name
    return Found(where, page.text, {k: v for k, v in fields.items() if v}, default_id,
                 tuple(warnings))


def _undone(body: bytes, record: Any, where: str, max_bytes: int) -> bytes:
    """The page with the HTTP ``Content-Encoding`` an archive may keep undone, bounded
    (``kg.limits``: a small gzip member never inflates past the limit)."""
    if len(body) > max_bytes:
        raise too_large(where, max_bytes, "max_article_bytes")
    codings = content_codings(record.http_headers.get("Content-Encoding"))
    if not codings:
        return body
    return decoded([body], codings, Budget(max_bytes, what=where, option="max_article_bytes"))


def _record_date(record: Any, warn: Callable[[str], None]) -> datetime | None:
    """The record's ``WARC-Date`` (when it was archived), checked (``kg.dates``)."""
    value = record.headers.get("WARC-Date")
    if not value:
        return None
    try:
        return checked_datetime(value)
    except BadDate as e:
        warn(f"WARC-Date {e}; retrieval date ignored")
        return None


def _target(record: Any) -> str | None:
    value = record.headers.get("WARC-Target-URI")
    return value.strip("<> ") if value else None


def _decoded(body: bytes, charset: str | None) -> str:
    """The page as text: the HTTP charset, else the ``<meta>`` one, when the bytes bear it
    out (``kg.ingest.html.page_text``), else UTF-8; bytes that do not fit become U+FFFD (an
    archive cannot be asked again)."""
    text = page_text(body, [charset, declared_charset(body)], lambda _message: None)
    return text if text is not None else body.decode("cp1252", errors="replace")
