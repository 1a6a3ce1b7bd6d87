"""An article's text cut into pieces for the page: mentions linked, evidence highlighted.

Offsets are the graph's (``nif:beginIndex``/``nif:endIndex``: code points, end exclusive),
so Python slicing finds exactly the text each mention and sentence names. Pieces carry
plain text only; the template escapes them, so article text can never become markup.

>>> [(p.text, p.mention is not None, p.evidence) for p in pieces(
...     "Putin met Macron.", [Span(0, 5, "/entity/p")], evidence=[Span(0, 17)])]
[('Putin', True, True), (' met Macron.', False, True)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from markupsafe import Markup, escape


@dataclass(frozen=True)
class Span:
    """A stretch of text ``[begin, end)``; for a mention, where it links and what it is."""

    begin: int
    end: int
    href: str = ""
    label: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Piece:
    """A run of text with one mention (or none), inside evidence or not, in focus or not."""

    text: str
    mention: Span | None = None
    evidence: bool = False
    focus: bool = False
    anchor: bool = False  # the first piece of the evidence: the page scrolls here


def pieces(text: str, mentions: Iterable[Span], evidence: Iterable[Span] = (),
           focus: Iterable[Span] = ()) -> list[Piece]:
    """``text`` cut at every boundary of a mention, evidence sentence or focus span.

    Overlapping mentions keep the first (then the longest); spans outside the text are
    dropped rather than trusted.
    """
    size = len(text)
    kept = _without_overlaps(m for m in mentions if 0 <= m.begin < m.end <= size)
    marked = [s for s in evidence if 0 <= s.begin < s.end <= size]
    focused = [s for s in focus if 0 <= s.begin < s.end <= size]
    cuts = {0, size}
    for span in (*kept, *marked, *focused):
        cuts.update((span.begin, span.end))
    bounds = sorted(cuts)
    result, anchored, mention_at = [], False, iter(kept)
    current = next(mention_at, None)
    for begin, end in zip(bounds, bounds[1:], strict=False):
        while current is not None and current.end <= begin:
            current = next(mention_at, None)
        mention = current if current is not None and current.begin <= begin else None
        in_evidence = any(s.begin <= begin and end <= s.end for s in marked)
        in_focus = any(s.begin <= begin and end <= s.end for s in focused)
        anchor = (in_evidence or in_focus) and not anchored
        anchored = anchored or anchor
        result.append(Piece(text[begin:end], mention, in_evidence, in_focus, anchor))
    return result


def render(parts: Iterable[Piece], href: Callable[[str], str]) -> Markup:
    """The pieces as HTML: mentions as links to ``href(entity)``, evidence in ``<mark>``.

    Every text and attribute goes through ``markupsafe.escape`` (a page of an article holds
    hundreds of pieces: one join here is ten times faster than a template loop).

    >>> render([Piece("<b>", Span(0, 3, "e", "x", "Person"))], lambda iri: "/entity/" + iri)
    Markup('<a class="mention k-Person" href="/entity/e" title="x (Person)">&lt;b&gt;</a>')
    """
    out: list[str] = []
    for part in parts:
        if part.anchor:
            out.append('<span id="evidence"></span>')
        classes = " ".join(c for c, on in (("evidence", part.evidence), ("focus", part.focus))
                           if on)
        if classes:
            out.append(f'<mark class="{classes}">')
        if part.mention is not None:
            m = part.mention
            out.append(f'<a class="mention k-{escape(m.kind)}" href="{escape(href(m.href))}" '
                       f'title="{escape(m.label)} ({escape(m.kind)})">{escape(part.text)}</a>')
        else:
            out.append(str(escape(part.text)))
        if classes:
            out.append("</mark>")
    return Markup("".join(out))


def _without_overlaps(spans: Iterable[Span]) -> list[Span]:
    kept: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.begin, -s.end)):
        if not kept or span.begin >= kept[-1].end:
            kept.append(span)
    return kept


def sentence_pieces(sentence: str, spans: Iterable[tuple[int, int]]) -> list[tuple[str, bool]]:
    """A sentence cut into (text, highlighted) runs, for the mentions shown on entity pages.

    >>> sentence_pieces("Putin met Macron.", [(10, 16)])
    [('Putin met ', False), ('Macron', True), ('.', False)]
    """
    runs, at = [], 0
    for begin, end in sorted(s for s in spans if 0 <= s[0] < s[1] <= len(sentence)):
        if begin < at:
            continue
        if begin > at:
            runs.append((sentence[at:begin], False))
        runs.append((sentence[begin:end], True))
        at = end
    if at < len(sentence):
        runs.append((sentence[at:], False))
    return runs
