"""HTML pages → the article's text and metadata, with trafilatura (and htmldate for the date).

trafilatura finds the main text of a page and leaves out what is not the article: menus,
cookie banners, share buttons, "related stories", comments and footers. Its paragraphs become
``Document.text``, one blank line between them, so every offset kg writes is an index into
that extracted text (``nif:isString``), never into the HTML. Metadata come from the page's
own markup (JSON-LD, Open Graph, ``<meta>``, ``<link rel="canonical">``): headline, byline,
site name and canonical URL; the publication date is htmldate's reading of the page (the
original date, not the last modification).

A text is HTML when it starts like a page (``<!DOCTYPE html>`` or ``<html>``, after comments)
or when tags make up more than a third of it; Markdown with a little inline HTML is not.

>>> page = read_page("<html><body><article><p>Kyiv &amp; Lviv were shelled on Monday, "
...                  "officials said.</p></article></body></html>")
>>> page.text
'Kyiv & Lviv were shelled on Monday, officials said.'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

_HTML_START = re.compile(r"<(?:!doctype\s+html|html[\s>])", re.I)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")
# A paragraph of running text ends like a sentence. Menus, link lists and captions, which
# trafilatura's fallbacks keep on pages without an article, do not.
_SENTENCE_END = ".!?\"'\u201d\u2019)"
_WORD = re.compile(r"\w")
_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)


class NoArticle(ValueError):
    """The page holds no article text (the message says why)."""


@dataclass(frozen=True, slots=True)
class Page:
    """What kg keeps of an HTML page: the article's text and the page's metadata."""

    text: str
    title: str | None = None
    author: str | None = None
    date_published: date | None = None
    site_name: str | None = None
    url: str | None = None  # the canonical URL the page declares

    def fields(self) -> dict[str, Any]:
        """``ArticleMeta`` keyword arguments of the page's metadata (only those it has).

        >>> Page("x", title="Siege", site_name="AP").fields()
        {'title': 'Siege', 'source': 'AP'}
        """
        found = {"date_published": self.date_published, "title": self.title,
                 "source": self.site_name, "url": self.url, "author": self.author}
        return {key: value for key, value in found.items() if value}


def looks_like_html(text: str) -> bool:
    """Whether ``text`` is an HTML page rather than text with a few tags.

    >>> looks_like_html("<!doctype html><p>Hi</p>"), looks_like_html("H<sub>2</sub>O")
    (True, False)
    """
    if starts_like_page(text):
        return True
    sample = text[:100_000]
    tags = [m.end() - m.start() for m in _TAG.finditer(sample)]
    return len(tags) >= 10 and sum(tags) * 3 > len(sample.strip())


def starts_like_page(text: str) -> bool:
    """Whether ``text`` opens like an HTML page (``<!DOCTYPE html>`` or ``<html>``, after
    white space and comments).

    >>> starts_like_page("<!-- x --><!DOCTYPE html><p>"), starts_like_page("<rss>")
    (True, False)
    """
    return _HTML_START.match(text, _after_comments(text)) is not None


def _after_comments(text: str, limit: int = 4096) -> int:
    """Where a text starts once white space and ``<!-- … -->`` comments are passed over,
    scanning forward only: a regular expression with a repeated lazy group took hours to
    give up on forty ``<!---->`` before a sentence."""
    position = 0
    while position < limit:
        while position < len(text) and text[position].isspace():
            position += 1
        if not text.startswith("<!--", position):
            return position
        end = text.find("-->", position + 4, limit + 3)
        if end < 0:
            return position
        position = end + 3
    return position


def is_running_text(paragraph: str) -> bool:
    """Whether a paragraph ends like a sentence after some word, in time linear in its
    length (a search for ``\\w.*[.!?]$`` retried from every word: 46 s for 100 KB).

    >>> is_running_text("Talks resumed on Monday."), is_running_text("Home | World")
    (True, False)
    """
    line = paragraph.rstrip().rsplit("\n", 1)[-1]
    return bool(line) and line[-1] in _SENTENCE_END and _WORD.search(line[:-1]) is not None


def declared_charset(data: bytes) -> str | None:
    """The charset a page declares in a ``<meta>`` tag of its first 4 KB, if any.

    >>> declared_charset(b'<meta charset="windows-1252"><p>x')
    'windows-1252'
    """
    match = _META_CHARSET.search(data, 0, 4096)
    return match.group(1).decode("ascii").lower() if match else None


_WIDE = ("utf-16", "utf16", "utf-32", "utf32", "ucs-2", "ucs2", "ucs-4")
_UTF8 = ("utf-8", "utf8")


def page_text(body: bytes, declared: list[str | None], warn: Callable[[str], None]) -> str | None:
    """A web page's text in the first declared charset (the HTTP header's, then the
    ``<meta>`` one) that the bytes bear out; ``None`` when none does (the caller then reads
    the bytes as any file). The body decides over a wrong label, with a warning: a page that
    is valid UTF-8 with non-ASCII characters is UTF-8 whatever it declares, and a page
    declared UTF-16 or UTF-32 without a byte-order mark or NUL bytes is not.

    >>> page_text("Kyiv – Lviv".encode(), ["utf-16"], print)
    the page declares charset 'utf-16' but is not in it (valid UTF-8); read as UTF-8
    'Kyiv – Lviv'
    """
    utf8 = _as_utf8(body)
    for charset in dict.fromkeys(c.lower() for c in declared if c):
        if charset in _UTF8 and utf8 is not None:
            return utf8
        if utf8 is not None and not body.isascii():
            warn(f"the page declares charset {charset!r} but is not in it (valid UTF-8); "
                 "read as UTF-8")
            return utf8
        if charset.startswith(_WIDE) and not _looks_wide(body):
            warn(f"the page declares charset {charset!r} but has none of its NUL bytes; "
                 "its own bytes decide")
            continue
        try:
            return body.decode(charset)
        except (LookupError, UnicodeDecodeError):
            warn(f"the page declares charset {charset!r} but is not in it")
    return utf8


def _as_utf8(body: bytes) -> str | None:
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None


def _looks_wide(body: bytes) -> bool:
    """UTF-16 and UTF-32 text has a byte-order mark or NUL bytes (its ASCII characters)."""
    head = body[:4096]
    return head[:2] in (b"\xff\xfe", b"\xfe\xff") or b"\x00" in head


def read_page(html: str, url: str | None = None) -> Page:
    """The article text and metadata of ``html``; ``NoArticle`` when it has no article text.

    ``url`` is where the page was found (used for relative canonical links and dates in URLs).

    >>> read_page("<html><body><nav>Home</nav></body></html>")
    Traceback (most recent call last):
    kg.ingest.html.NoArticle: no running text in the page, only menus, links or captions
    """
    import trafilatura  # imported here: kg --help must not load lxml and its friends

    try:
        result = trafilatura.bare_extraction(
            html, url=url, with_metadata=True, include_comments=False, include_tables=False,
            include_images=False, deduplicate=False, fast=False,
        )
    except (ValueError, TypeError) as e:  # lxml refuses some documents outright
        raise NoArticle(f"unreadable HTML: {e}") from e
    found: Any = result
    text = _paragraphs(getattr(found, "text", None) or "")
    if not text:
        raise NoArticle("no article text found in the page")
    if not any(is_running_text(paragraph) for paragraph in text.split("\n\n")):
        raise NoArticle("no running text in the page, only menus, links or captions")
    return Page(text, _clean(found.title), _clean(found.author),
                _publication_date(html, url), _clean(found.sitename), _canonical(found.url))


_BLOCKS = frozenset({"address", "article", "aside", "blockquote", "br", "dd", "div", "dl", "dt",
                     "figcaption", "figure", "footer", "h1", "h2", "h3", "h4", "h5", "h6",
                     "header", "hr", "li", "main", "ol", "p", "pre", "section", "table", "td",
                     "th", "tr", "ul"})


def fragment_text(html: str) -> str:
    """The text of an HTML fragment (a feed entry's content or summary), one paragraph per
    block element. Fragments are not pages: there is no boilerplate to find, so lxml's text
    of the fragment is kept whole, without scripts and styles.

    >>> fragment_text("<p>Talks <b>resumed</b>.</p><p>Kyiv &amp; Lviv</p><script>x()</script>")
    'Talks resumed.\\n\\nKyiv & Lviv'
    """
    if not html or not html.strip():
        return ""
    import lxml.etree
    import lxml.html

    try:
        root = lxml.html.fragment_fromstring(html, create_parent="div")
    except (lxml.etree.ParserError, ValueError):
        return _paragraphs(html)
    for element in list(root.iter(lxml.etree.Element)):
        tag = element.tag if isinstance(element.tag, str) else ""
        if tag in ("script", "style", "noscript", "template"):
            element.drop_tree()
        elif tag in _BLOCKS:
            element.tail = "\n" + (element.tail or "")
            element.text = "\n" + (element.text or "")
    return _paragraphs(root.text_content())


def _paragraphs(text: str) -> str:
    """trafilatura's lines as paragraphs with a blank line between them (so a heading without
    a full stop is never read as part of the next sentence)."""
    lines = (re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in text.split("\n"))
    return "\n\n".join(line for line in lines if line)


def _publication_date(html: str, url: str | None) -> date | None:
    from htmldate import find_date

    found = find_date(html, url=url, original_date=True, extensive_search=False,
                      outputformat="%Y-%m-%d")
    return date.fromisoformat(found) if found else None


def _clean(value: str | None) -> str | None:
    return re.sub(r"\s+", " ", value).strip() or None if value else None


def _canonical(url: str | None) -> str | None:
    return url if url and url.startswith(("http://", "https://")) else None
