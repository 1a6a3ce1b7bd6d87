"""Tolls: counts of people killed, injured, displaced … however they are worded.

"More than 900 people were killed", "900 deaths", "the dead numbered 900", "claimed 900
lives" and "the death toll rose to 900" count one thing (the attribute ``deaths``, people);
the words live in ``kg/lexicon/data/measure-attributes.toml``. A toll that names no place or
organisation is keyed by its cause when the sentence gives one ("killed in the earthquake",
"deaths from the flood", "the storm which killed …").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kg.lexicon.fact_words import AMOUNT_VERBS, trigger_type
from kg.lexicon.measure_words import CAUSE_PREPS, STATE_VERBS, attribute_of, cause_of, toll_noun

if TYPE_CHECKING:
    from spacy.tokens import Token

#: Words that make a count a running one: the total is at least this much.
RUNNING = (("so", "far"), ("to", "date"))
SUBJECTS = frozenset({"nsubj", "nsubjpass"})
#: Attributes that are a state people are in (a refugee is displaced), not an event: a noun
#: of them counts that attribute only when the verb says no more than how many there are.
STATES = frozenset({"displaced", "missing"})


def toll_attribute(head: Token, verb: Token | None, number: Token) -> str | None:
    """The attribute a number counts when its noun names the count ("5,000 deaths",
    "claimed 5,000 lives") or the verb's subject does ("the death toll rose to 45")."""
    if head.i != number.i and (attribute := _noun_attribute(head)) is not None:
        if attribute in STATES and verb is not None and _says_else(verb, attribute):
            return None  # "3,000 refugees returned home": what the refugees did is counted
        return attribute
    if head.i != number.i and head.dep_ == "dobj":  # "claimed 150,000 lives"
        phrase = f"{head.head.lemma_.lower()} {head.lemma_.lower()}"
        return attribute_of(phrase) if attribute_of(phrase) != phrase else None
    if verb is None or head.i != number.i:
        return None
    if verb.lemma_.lower() not in AMOUNT_VERBS:
        return None
    subjects = [c for c in verb.children if c.dep_ in SUBJECTS]
    return next((a for s in subjects if (a := _noun_attribute(s)) is not None), None)


def _says_else(verb: Token, attribute: str) -> bool:
    """Whether a verb says the people did or underwent something other than ``attribute``
    ("3,000 refugees returned"), not only how many there are ("the camp holds 3,000
    refugees", "there are 3,000 refugees", "the number rose to")."""
    lemma = verb.lemma_.lower()
    if lemma in STATE_VERBS or lemma in AMOUNT_VERBS:
        return False
    kind = trigger_type(lemma, "VERB")
    return attribute_of(kind.value if kind else lemma) != attribute


def _noun_attribute(noun: Token) -> str | None:
    compounds = [c.lemma_.lower() for c in noun.children if c.dep_ == "compound"]
    for words in ([*compounds[-1:], noun.lemma_.lower()], [noun.lemma_.lower()]):
        if (attribute := toll_noun(" ".join(words))) is not None:
            return attribute
    return None


def verb_attribute(verb: Token, predicate: str) -> str:
    """The attribute of a verb's predicate, with its adjective ("left homeless")."""
    for child in verb.children:
        if child.dep_ in {"acomp", "oprd", "xcomp", "ccomp"} and child.pos_ == "ADJ":
            phrase = f"{verb.lemma_.lower()} {child.lemma_.lower()}"
            if attribute_of(phrase) != phrase:
                return attribute_of(phrase)
    return attribute_of(predicate)


def toll_cause(head: Token, verb: Token | None, number: Token) -> str | None:
    """What a toll is of, as one cause word: the killing verb's subject ("the storm killed"),
    the noun a relative clause hangs on ("the flood which killed"), or the object of "in",
    "from", "after", "following" … on the verb or the toll's noun."""
    candidates: list[Token] = []
    if verb is not None:
        candidates += [c for c in verb.children
                       if c.dep_ in SUBJECTS and number not in list(c.subtree)]
        if verb.dep_ == "relcl":
            candidates.append(verb.head)
        for clause in (c for v in (verb, *verb.conjuncts) for c in v.children
                       if c.dep_ == "advcl"):  # "… were killed after a storm hit the coast"
            if any(m.lower_ in CAUSE_PREPS for m in clause.children if m.dep_ == "mark"):
                candidates += [c for c in clause.children if c.dep_ in SUBJECTS]
    owners = [verb, head]
    if verb is not None:  # "the death toll from the flood rose to 45"
        owners += [c for c in verb.children if c.dep_ in SUBJECTS and _noun_attribute(c)]
    for owner in owners:
        if owner is None:
            continue
        for prep in (c for c in owner.children if c.lower_ in CAUSE_PREPS):
            candidates += [o for o in prep.children if o.dep_ in {"pobj", "dobj"}]
    for noun in candidates:
        for token in (noun, *noun.conjuncts):
            if (cause := _cause_word(token)) is not None:
                return cause
    return None


def _cause_word(noun: Token) -> str | None:
    if (cause := cause_of(noun.lemma_)) is not None:
        return cause
    compounds = [c for c in noun.children if c.dep_ == "compound"]  # "the tsunami disaster"
    return next((c for t in compounds if (c := cause_of(t.lemma_)) is not None), None)


def is_running_count(number: Token) -> bool:
    """Whether the number's sentence calls its count a running one ("so far", "to date")."""
    words = [t.lower_ for t in number.sent]
    return any(pair in zip(words, words[1:], strict=False) for pair in RUNNING)
