"""Articles found inside an input, before they are checked: a page, a feed entry, a record.

A container format (a feed, a JSON Lines or CSV export, a WARC archive) holds many articles;
its reader yields one ``Found`` for each article it could read and one ``Unusable`` for each
it could not, naming where (``export.csv:12``, ``feed.rss#entry 3``, ``crawl.warc#record 7``)
and why. ``kg.ingest.files`` turns each ``Found`` into a ``Document`` (normalised text,
duplicates skipped, ids made unique) and reports each ``Unusable`` as skipped: one bad record
never stops the rest of its file.

>>> Found("a.jsonl:3", "Text.", {"title": "T"}, "a-3").where
'a.jsonl:3'
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TypeAlias


@dataclass(frozen=True, slots=True)
class Found:
    """One article read from an input: where, its text, its ``ArticleMeta`` fields, and the id
    it gets when its metadata names none."""

    where: str
    text: str
    fields: dict[str, Any] = field(default_factory=dict)
    default_id: str | None = None
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Unusable:
    """A part of an input that cannot become an article, and why.

    >>> str(Unusable("a.csv:4", "no text"))
    'a.csv:4: no text'
    """

    where: str
    reason: str
    option: str | None = None  # the setting that would let it through (``max_article_bytes``)

    def __str__(self) -> str:
        return f"{self.where}: {self.reason}"


Item: TypeAlias = Found | Unusable
Items: TypeAlias = Iterator[Item]
