"""Words for what a figure measures: the attribute a count is of, and the cause of a toll.

One count is worded many ways — "killed", "deaths", "the dead", "lives claimed", "the death
toll" — and the conflicts ledger compares figures only when they count one thing, so the
words are normalised to one attribute each (``data/measure-attributes.toml``).

>>> attribute_of("Killing"), attribute_of("claim life"), attribute_of("wound")
('deaths', 'deaths', 'injured')
>>> attribute_of("sell"), toll_noun("fatality"), cause_of("quake")
('sell', 'deaths', 'earthquake')
"""

from __future__ import annotations

from kg.lexicon import table

__all__ = ["CAUSES", "CAUSE_PREPS", "STATE_VERBS", "TOLL_ATTRIBUTES", "attribute_of", "cause_of",
           "toll_noun"]

_DATA = table("measure-attributes")
#: attribute → its words (event types, verb lemmas and phrases).
_VERBS: dict[str, str] = {
    word: name for name, words in _DATA["attributes"].items()
    for word in (*words["events"], *words["verbs"])
}
#: Noun lemmas (or "compound noun") that name a count of people itself.
_NOUNS: dict[str, str] = {
    word: name for name, words in _DATA["attributes"].items() for word in words["nouns"]
}
#: The attributes counted in people (a toll: deaths, injured, displaced …).
TOLL_ATTRIBUTES = frozenset(_DATA["attributes"])
#: Cause noun lemma → the word a toll is keyed by ("quake" → "earthquake").
CAUSES: dict[str, str] = dict(_DATA["causes"])
#: Prepositions (and "following") that introduce what a toll is of.
CAUSE_PREPS = frozenset(_DATA["words"]["cause-prepositions"])
#: Verbs that say no more than how many people there are ("the camp holds 3,000 refugees").
STATE_VERBS = frozenset(_DATA["words"]["state-verbs"])


def attribute_of(predicate: str) -> str:
    """The normalised attribute of a figure's predicate (an event type or a verb phrase);
    any other predicate is its own attribute."""
    return _VERBS.get(predicate, predicate)


def toll_noun(lemma: str) -> str | None:
    """The attribute a noun names when it is the count itself ("deaths", "death toll")."""
    return _NOUNS.get(lemma.lower())


def cause_of(lemma: str) -> str | None:
    """The cause a noun names ("flooding" → "flood"), if it is one."""
    return CAUSES.get(lemma.lower())
