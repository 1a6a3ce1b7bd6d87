"""Stretches of an article's text that every later contract refers to.

Offsets are Python ``str`` indices into ``Document.text``, end exclusive.

>>> Span(0, 5, "Paris").text
'Paris'
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date


@dataclass(frozen=True, slots=True)
class Span:
    """A stretch of a document's text; ``text`` is exactly ``document.text[begin:end]``."""

    begin: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class TimeExpression:
    """A date expression; ``value`` is set when it could be normalised to a day."""

    begin: int
    end: int
    text: str
    sentence: int
    value: date | None
    granularity: str | None = None  # "day", "month" or "year" when value is set
