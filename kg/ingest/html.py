"""HTML pages given as articles: recognising them and keeping only their visible text.

A text is HTML when it starts like a page (``<!DOCTYPE html>`` or ``<html>``, after comments)
or when tags make up more than a third of it; Markdown with a little inline HTML is not.
The text of a page is its visible text, one paragraph per block element, white space inside a
paragraph folded to one space; scripts, styles and the ``<title>`` are dropped.

>>> html_to_text("<p>Kyiv &amp;\\n Lviv</p><script>x()</script><p>Odesa</p>")
'Kyiv & Lviv\\n\\nOdesa'
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_HTML_START = re.compile(r"\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>])", re.I | re.S)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>")


def looks_like_html(text: str) -> bool:
    """Whether ``text`` is an HTML page rather than text with a few tags.

    >>> looks_like_html("<!doctype html><p>Hi</p>"), looks_like_html("H<sub>2</sub>O")
    (True, False)
    """
    if _HTML_START.match(text, 0, 4096):
        return True
    sample = text[:100_000]
    tags = [m.end() - m.start() for m in _TAG.finditer(sample)]
    return len(tags) >= 10 and sum(tags) * 3 > len(sample.strip())


def html_to_text(html: str) -> str:
    """The visible text of ``html``, paragraphs separated by a blank line ("" if none).

    >>> html_to_text("<h1>Talks</h1><div>Kyiv<br>Lviv</div>")
    'Talks\\n\\nKyiv\\n\\nLviv'
    """
    parser = _VisibleText()
    parser.feed(html)
    parser.close()
    paragraphs = (line.strip() for line in "".join(parser.parts).split("\n"))
    return "\n\n".join(p for p in paragraphs if p)


class _VisibleText(HTMLParser):
    """Collects the visible text of an HTML page, one paragraph per block element."""

    HIDDEN = frozenset({"script", "style", "noscript", "template", "title", "svg"})
    BLOCKS = frozenset({"address", "article", "aside", "blockquote", "br", "dd", "div", "dt",
                        "figcaption", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header",
                        "hr", "li", "main", "p", "pre", "section", "td", "th", "tr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.HIDDEN:
            self.hidden += 1
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in self.HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(re.sub(r"\s+", " ", data))
