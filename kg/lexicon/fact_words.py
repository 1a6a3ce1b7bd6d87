"""Word lists for the fact rules: speech cues, event triggers, ranks, counted things.

General English news vocabulary, compared by lemma (lower-cased); nothing here is about any
particular story. The words live in ``kg/lexicon/data/``; this module names them.

>>> trigger_type("besiege", "VERB")
<EventType.SIEGE: 'Siege'>
"""

from __future__ import annotations

from kg.lexicon import table, word_list
from kg.lexicon.words import (
    CITY_NOUNS,
    FACILITY_NOUNS,
    HONORIFICS,
    PLACE_NOUNS,
    RELATIVE_FACTORS,
    ROLE_SPELLINGS,
)
from kg.model import EventType

__all__ = [
    "ACCUSE_VERBS", "AMOUNT_VERBS", "ANAPHORIC_AMOUNTS", "CITY_NOUNS", "CLAIM_NOUNS",
    "COUNTED_CLASSES", "EPISTEMIC_VERBS", "FACILITY_NOUNS", "FORMER_WORDS", "HONORIFICS",
    "IRREALIS_VERBS", "LOCATIVE_PREPS", "MILITARY_MODIFIERS", "NEEDS_ENTITY", "OCCUPATIONS",
    "PLACE_NOUNS", "RANKS", "RELATIVE_FACTORS", "REMAIN_VERBS", "ROLE_SPELLINGS", "SPEECH_VERBS",
    "SUPPORT_VERBS", "TRIGGERS", "counted_class", "trigger_type",
]

#: Verbs that report speech or a stated position; their subject is the speaker.
SPEECH_VERBS = word_list("speech-verbs")
#: Nouns that introduce a claim with a "that" clause ("Russia's claims that …").
CLAIM_NOUNS = word_list("claim-nouns")
#: Verbs that accuse someone "of" doing something; the "of" clause is the claim.
ACCUSE_VERBS = word_list("accuse-verbs")

#: Event type → (verb lemmas, noun lemmas). Phrasal verbs are "lemma particle".
TRIGGERS: dict[EventType, tuple[frozenset[str], frozenset[str]]] = {
    EventType[name]: (frozenset(words["verbs"]), frozenset(words["nouns"]))
    for name, words in table("event-triggers").items()
}

#: Modifiers that make a "strike" military; otherwise a strike is a walkout (protest).
MILITARY_MODIFIERS = word_list("military-modifiers")
#: Events that need a named participant to be kept ("meet the same fate" is no meeting).
NEEDS_ENTITY = frozenset(
    {EventType.MEETING, EventType.STATEMENT, EventType.LAUNCH, EventType.ACQUISITION}
)
#: Verbs whose object names an event their subject carries out ("launched an offensive").
SUPPORT_VERBS = word_list("support-verbs")
#: Verbs under which an event has not (yet) happened ("failed to capture", "plans to invade").
IRREALIS_VERBS = word_list("irrealis-verbs")
#: Prepositions that introduce where something happens.
LOCATIVE_PREPS = word_list("locative-prepositions")

#: Ranks: kept apart from posts ("spokesman Maj. Gen." holds post spokesman).
RANKS: dict[str, str] = table("ranks")
#: Occupations, not offices: a demonym before them is a nationality ("British director"),
#: not the country whose post it is ("Russian President").
OCCUPATIONS = word_list("occupations")
#: Words in front of a post that say it is no longer held.
FORMER_WORDS = word_list("former-words")

#: Counted nouns grouped into classes, so "959 troops" and "1,000 fighters" measure one thing.
COUNTED_CLASSES: dict[str, frozenset[str]] = {
    name: frozenset(lemmas) for name, lemmas in table("counted-classes").items()
}
#: Verbs of staying put, grouped: "remained", "were holed up", "held out" measure one thing.
REMAIN_VERBS = word_list("remain-verbs")
#: Verbs of believing or reporting that a figure's own verb hangs from ("were believed to").
EPISTEMIC_VERBS = SPEECH_VERBS | word_list("belief-verbs")
#: Nouns whose "that number" a fraction refers to ("half that number").
ANAPHORIC_AMOUNTS = word_list("anaphoric-amounts")
#: Verbs that give an amount its value ("the number … surged past N", "the toll rose to N").
AMOUNT_VERBS = word_list("amount-verbs")

_VERB_TRIGGERS = {lemma: kind for kind, (verbs, _) in TRIGGERS.items() for lemma in verbs}
_NOUN_TRIGGERS = {lemma: kind for kind, (_, nouns) in TRIGGERS.items() for lemma in nouns}


def trigger_type(lemma: str, pos: str) -> EventType | None:
    """The event type a word triggers as a ``pos`` ("VERB" or "NOUN"), if any.

    >>> trigger_type("talks", "NOUN")
    <EventType.NEGOTIATION: 'Negotiation'>
    """
    table_ = _VERB_TRIGGERS if pos == "VERB" else _NOUN_TRIGGERS
    return table_.get(lemma.lower())


def counted_class(lemma: str | None) -> str | None:
    """The class of a counted noun ("troop" → "fighters"), or the lemma itself.

    >>> counted_class("civilian"), counted_class("tank")
    ('people', 'tank')
    """
    if lemma is None:
        return None
    for name, lemmas in COUNTED_CLASSES.items():
        if lemma.lower() in lemmas:
            return name
    return lemma.lower()
