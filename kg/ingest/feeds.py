"""RSS and Atom feeds → one article per entry, with feedparser.

Each entry gives its link (``url``), title, date (published, else updated), byline and text:
the entry's full content (``<content:encoded>``, Atom ``<content>``) when the feed carries it,
else its summary (``<description>``, ``<summary>``); ``ArticleMeta.content`` says which
("full" or "summary"), and the graph keeps it as ``kg:contentKind``. The feed's title is the
entry's ``source``. HTML inside entries is reduced to its text, one paragraph per block.

An entry without content or summary is skipped with its number (``feed.rss#entry 3``); a
feed without entries, or a file that is no feed at all, is skipped whole.

>>> rss = b'''<rss version="2.0"><channel><title>Wire</title><item><title>Talks</title>
... <link>https://example.org/a</link><description>Talks resumed on Monday.</description>
... </item></channel></rss>'''
>>> [(f.text, f.fields["content"]) for f in feed_articles(rss, "wire.rss")]
[('Talks resumed on Monday.', 'summary')]
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from kg.dates import BadDate, checked_date
from kg.ingest.found import Found, Items, Unusable
from kg.ingest.html import fragment_text
from kg.ingest.links import checked_url, id_from_url

FEED_SUFFIXES = frozenset({".rss", ".atom", ".xml"})


def looks_like_feed(data: bytes) -> bool:
    """Whether ``data`` starts like an RSS, RDF or Atom document (for URLs and ``.xml``).

    >>> looks_like_feed(b'<?xml version="1.0"?><rss version="2.0">'), looks_like_feed(b"<html>")
    (True, False)
    """
    head = data[:2048].lower()
    return any(tag in head for tag in (b"<rss", b"<feed", b"<rdf:rdf"))


def parse_feed(data: bytes) -> Any:
    """feedparser's reading of ``data`` (never fetches anything itself)."""
    import feedparser  # imported here: only feeds need it

    return feedparser.parse(data, sanitize_html=False, resolve_relative_uris=False)


def feed_articles(data: bytes, path: str, feed_url: str | None = None) -> Items:
    """One ``Found`` per usable entry of the feed in ``data``, one ``Unusable`` per other."""
    feed = parse_feed(data)
    if not feed.version and not feed.entries:
        problem = getattr(feed, "bozo_exception", None)
        yield Unusable(path, "not an RSS or Atom feed" + (f" ({problem})" if problem else ""))
        return
    if not feed.entries:
        yield Unusable(path, "feed without entries")
        return
    source = (feed.feed.get("title") or "").strip() or None
    stem = Path(path).stem
    for number, entry in enumerate(feed.entries, 1):
        yield entry_article(entry, f"{path}#entry {number}", source, f"{stem}-{number}")


def entry_article(entry: Any, where: str, source: str | None, fallback_id: str) -> Found | Unusable:
    """The article of one feed entry, or why there is none."""
    text, kind = entry_text(entry)
    if not text:
        return Unusable(where, "entry without content or summary")
    warnings: list[str] = []
    link = entry.get("link")
    url = checked_url(link, warnings.append) if link else None
    fields: dict[str, Any] = {
        "title": (entry.get("title") or "").strip() or None,
        "url": url,
        "date_published": _entry_date(entry, warnings.append),
        "author": (entry.get("author") or "").strip() or None,
        "source": source,
        "content": kind,
    }
    default_id = id_from_url(url) if url else fallback_id
    return Found(where, text, {k: v for k, v in fields.items() if v}, default_id,
                 tuple(warnings))


def entry_text(entry: Any) -> tuple[str, str]:
    """The entry's text and whether it is the ``full`` content or the ``summary``."""
    contents = [fragment_text(c.get("value", "")) for c in entry.get("content", [])]
    full = max(contents, key=len, default="")
    summary = fragment_text(entry.get("summary", ""))
    if full and len(full) >= len(summary):
        return full, "full"
    return summary, "summary"


def _entry_date(entry: Any, warn: Callable[[str], None]) -> date | None:
    """The entry's date (published, else updated), checked by ``kg.dates``: feeds carry
    ``0000-00-00`` and ``9999-12-31T23:59:59-23:59`` too."""
    for key in ("published", "updated"):
        # dict.get: feedparser's own get maps a missing key to the other, with a warning
        parsed = dict.get(entry, f"{key}_parsed")
        raw = dict.get(entry, key)
        if not raw and not isinstance(parsed, time.struct_time):
            continue
        try:  # the date as written first: feedparser reads "0000-00-00" as year 2000
            return checked_date(raw if raw else parsed)
        except BadDate as e:
            if not e.placeholder and isinstance(parsed, time.struct_time):
                try:  # a spelling kg.dates does not read, which feedparser did
                    return checked_date(parsed)
                except BadDate as again:
                    e = again
            warn(f"{key} date {e}; date ignored")
    return None
