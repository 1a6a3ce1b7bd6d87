"""Words for what a figure measures: the attribute a count is of, and the cause of a toll.

One count is worded many ways — "killed", "deaths", "the dead", "lives claimed", "the death
toll" — and the conflicts ledger compares figures only when they count one thing, so the
words are normalised to one attribute each (``data/measure-attributes.toml``).

>>> attribute_of("Killing"), attribute_of("claim life"), attribute_of("wound")
('deaths', 'deaths', 'injured')
>>> attribute_of("sell"), toll_noun("fatality"), cause_of("quake")
('sell', 'deaths', 'earthquake')

An amount is keyed by the quantity it is of (``data/quantity-words.toml``): a change moves it
up or down, a level gives its value, and some subjects name a quantity with their verb.

>>> change_of("soar"), change_of("slip"), change_of("say"), subject_quantity("economy", "grow")
('rise', 'fall', None, 'growth')
"""

from __future__ import annotations

from kg.lexicon import table

__all__ = ["AMOUNT_PREPS", "BATCH_NOUNS", "CAUSES", "CAUSE_PREPS", "EVENT_PRONOUNS",
           "FORECAST_MODALS", "FORECAST_WORDS", "INCREMENTS", "LEVEL_VERBS", "MADE_ATTRIBUTES",
           "NEUTRAL_WORDS",
           "RACE_EVENTS", "RATE_NOUNS", "REPLACED_MARKERS", "REVISING_VERBS", "REVISION_MARKERS",
           "REVISION_NOUNS", "SPAN_PREPS", "STATE_ADJECTIVES",
           "STATE_VERBS", "TOLL_ATTRIBUTES", "attribute_of", "cause_of", "change_of",
           "subject_quantity", "toll_noun"]

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
#: Attributes of what people do to others ("arrested"), never keyed by a disaster's name.
MADE_ATTRIBUTES = frozenset(_DATA["words"]["made-attributes"])
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


_QUANTITIES = table("quantity-words")
_CHANGES: dict[str, str] = {
    word: direction for direction, words in _QUANTITIES["changes"].items() for word in words}
#: Verbs that give a quantity its level ("stood at 5%", "reached $1bn").
LEVEL_VERBS = frozenset(_QUANTITIES["levels"]["verbs"])
#: Words that make a figure a prediction ("forecast growth of 1.8%", "expected to rise 3%").
FORECAST_WORDS = frozenset(_QUANTITIES["words"]["forecast-words"])
#: Auxiliaries that put a figure in the future ("would grow by 2.5%").
FORECAST_MODALS = frozenset(_QUANTITIES["words"]["forecast-modals"])
#: Modifiers that make a count a part or an addition ("two more victims", "another 300").
INCREMENTS = frozenset(_QUANTITIES["words"]["increments"])
#: Prepositions an amount hangs from its verb by ("grew by 2.5%", "rose to $5bn").
AMOUNT_PREPS = frozenset(_QUANTITIES["words"]["amount-prepositions"])
#: Words of a quantity's noun phrase that never tell two quantities apart ("economic").
NEUTRAL_WORDS = frozenset(_QUANTITIES["words"]["neutral-words"])
#: Pronouns that stand for an event told before ("It killed 612 people").
EVENT_PRONOUNS = frozenset(_QUANTITIES["words"]["event-pronouns"])
#: Prepositions that bound a running count to a day's event ("over Saturday's protests").
SPAN_PREPS = frozenset(_QUANTITIES["words"]["span-prepositions"])
#: A stated value superseded by the one beside it: "a previous estimate of 3.7%".
REVISION_NOUNS = frozenset(_QUANTITIES["words"]["revision-nouns"])
REVISION_MARKERS = frozenset(_QUANTITIES["words"]["revision-markers"])
#: Verbs that replace a stated value with another ("revised down from 157,000 to 133,000").
REVISING_VERBS = frozenset(_QUANTITIES["words"]["revising-verbs"])
#: Words that introduce the value a figure replaced ("to 139,000 instead of 96,000").
REPLACED_MARKERS = frozenset(_QUANTITIES["words"]["replaced-markers"])
#: Nouns that name a quantity by the one after "of" ("the rate of growth").
RATE_NOUNS = frozenset(_QUANTITIES["words"]["rate-nouns"])
#: Nouns of a share taken at a time ("in batches of 10"): the number is a size.
BATCH_NOUNS = frozenset(_QUANTITIES["words"]["batch-nouns"])
#: What a distance written "100m" names as a race, its prize or round ("100m gold").
RACE_EVENTS = frozenset(_QUANTITIES["words"]["race-events"])
#: Adjectives of a counted noun its attribute says already ("two wounded men").
STATE_ADJECTIVES = frozenset(_QUANTITIES["words"]["state-adjectives"])


def change_of(lemma: str) -> str | None:
    """ "rise" or "fall" when a verb or noun moves a quantity up or down, else ``None``."""
    return _CHANGES.get(lemma.lower())


def subject_quantity(subject: str, verb: str) -> str | None:
    """The quantity a subject names with its verb ("the economy grew" → growth), if any."""
    found = _QUANTITIES["subject-quantities"].get(f"{subject.lower()} {verb.lower()}")
    return str(found) if found is not None else None
