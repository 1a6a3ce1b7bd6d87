"""Finding entities by name: labels and aliases in memory, ranked, forgiving of typos.

The index is read once from the graph (a few hundred thousand names at most) and ranks a
query against every name of every entity:

    exact name or alias  ─▶ 100     a word of the name starts with it ─▶ 90
    the name contains it ─▶ 80      close spelling of the whole name  ─▶ up to 75
                                    close spelling of one of its words ─▶ up to 70

Ties are broken by how often the entity is mentioned, so "Johnson" lists the Johnson the
articles talk about first. Accents and case do not matter ("Zelenskyy" ~ "zelenskyy",
"Jose" ~ "José").

>>> index = NameIndex([Entry("e1", "Volodymyr Zelenskiy", ("Zelensky",), "Person", 40)])
>>> [hit.entry.label for hit in index.search("zelenksy")]
['Volodymyr Zelenskiy']
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

from rapidfuzz import fuzz, process

FUZZY_CUTOFF = 78  # rapidfuzz ratio; below this, names are unrelated more often than not
MIN_FUZZY_WORD = 4  # shorter words match too many others by one letter
MAX_HITS = 50


def fold(text: str) -> str:
    """``text`` lower-cased, without accents and with single spaces, for matching.

    >>> fold("  José  ZELENSKYY ")
    'jose zelenskyy'
    """
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


@dataclass(frozen=True)
class Entry:
    """An entity as search knows it."""

    iri: str
    label: str
    aliases: tuple[str, ...]
    kind: str
    mentions: int


@dataclass(frozen=True)
class Hit:
    """An entity found, how well it matched (0-100) and by which of its names."""

    entry: Entry
    score: float
    matched: str


class NameIndex:
    """Every name of every entity, folded once, searched in memory."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = list(entries)
        self.by_iri = {entry.iri: entry for entry in self.entries}
        self._names: list[str] = []
        self._owners: list[int] = []
        self._forms: list[str] = []
        words: dict[str, list[int]] = {}
        for i, entry in enumerate(self.entries):
            for name in dict.fromkeys((entry.label, *entry.aliases)):
                for word in set(fold(name).split()):
                    words.setdefault(word, []).append(len(self._names))
                self._names.append(fold(name))
                self._forms.append(name)
                self._owners.append(i)
        self._words = list(words)
        self._word_names = list(words.values())
        # all names in one string, one per line: a literal match is a str.find away
        self._joined = "".join(f"{name}\n" for name in self._names)
        self._starts = list(accumulate((len(name) + 1 for name in self._names), initial=0))

    def __len__(self) -> int:
        return len(self.entries)

    def search(self, query: str, kind: str | None = None, limit: int = MAX_HITS) -> list[Hit]:
        """The entities whose names match ``query``, best first; ``kind`` keeps one class."""
        wanted = fold(query)
        if not wanted:
            return []
        best: dict[int, Hit] = {}
        for position in self._containing(wanted):
            self._keep(best, position, _literal_score(wanted, self._names[position]), kind)
        # rapidfuzz's plain ratio is ~50x faster than WRatio: whole names, then single words
        for _name, score, position in process.extract(
                wanted, self._names, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF,
                limit=limit * 4):
            self._keep(best, position, score * 0.75, kind)
        for word in wanted.split():
            if len(word) < MIN_FUZZY_WORD:
                continue
            for _word, score, at in process.extract(
                    word, self._words, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF,
                    limit=limit):
                for position in self._word_names[at][:limit * 4]:
                    self._keep(best, position, score * 0.7, kind)
        hits = sorted(best.values(), key=lambda h: (-h.score, -h.entry.mentions, h.entry.label))
        return hits[:limit]

    def _containing(self, wanted: str) -> dict[int, None]:
        """The positions of the names that contain ``wanted`` (folded, without newlines)."""
        found: dict[int, None] = {}
        at = self._joined.find(wanted)
        while at >= 0:
            position = bisect_right(self._starts, at) - 1
            found[position] = None
            at = self._joined.find(wanted, self._starts[position + 1])  # the next name on
        return found

    def _keep(self, best: dict[int, Hit], position: int, score: float, kind: str | None) -> None:
        owner = self._owners[position]
        entry = self.entries[owner]
        if kind and entry.kind != kind:
            return
        if owner not in best or best[owner].score < score:
            best[owner] = Hit(entry, score, self._forms[position])


def _literal_score(wanted: str, name: str) -> float:
    if name == wanted:
        return 100.0
    if name.startswith(wanted) or f" {wanted}" in f" {name}":
        return 90.0
    if wanted in name:
        return 80.0
    return 0.0
