"""Events: a trigger word (verb or noun, by lemma) with participants, place, time, figures.

    verb    subject → agent ("Russia captured Kreminna"), object and passive subject →
            patient, "by" phrase → agent; a conjunct or infinitive without a subject takes its
            governor's ("forced to withdraw"); "die" makes its subject the patient
    noun    owner → agent ("Russia's siege"), demonym → agent ("a Russian attack"), "of"/"on"/
            "against" → patient ("the invasion of Ukraine"), "by" → agent; as object of a
            support verb the verb's subject is the agent ("Putin ordered the invasion")
    place   named places under a locative preposition in the clause ("in Mariupol")
    time    the first date expression attached to the trigger or the clauses above it
            ("ordered the invasion … on Feb. 24"; "X surrendered, Russia said Wednesday")

Events under negation, a modal, or a verb like "fail to" / "threaten to" have not happened and
are skipped, as are triggers with no participant, place or time at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from kg.extract.rules.context import FactContext
from kg.extract.rules.figures import clause_tokens, phrasal_lemma
from kg.extract.rules.places import country_of_demonym, is_city
from kg.extract.rules.registry import rule
from kg.extract.rules.times import time_of
from kg.extract.values import is_duration
from kg.lexicon import table, word_list
from kg.lexicon.fact_words import (
    IRREALIS_VERBS,
    LOCATIVE_PREPS,
    MILITARY_MODIFIERS,
    NEEDS_ENTITY,
    SUPPORT_VERBS,
    trigger_type,
)
from kg.model import EntityKind, Event, EventType, Figure, Party, PartyKind

if TYPE_CHECKING:
    from spacy.tokens import Token

_GRAMMAR = table("grammar-words")
MODALS = word_list("modal-verbs")
PATIENT_SUBJECT_VERBS = frozenset(_GRAMMAR["patient_subject_verbs"])
INHERITING_DEPS = frozenset({"conj", "xcomp", "advcl"})
CHAIN_DEPS = frozenset(
    {"xcomp", "ccomp", "dobj", "pobj", "prep", "pcomp", "acl", "acomp", "conj", "advmod"}
)
PATIENT_OWNER_EVENTS = frozenset(
    {EventType.CAPTURE, EventType.SIEGE, EventType.ATTACK, EventType.EVACUATION}
)
NOUN_PATIENT_PREPS = frozenset(_GRAMMAR["event_patient_prepositions"])
NOUN_AGENT_PREPS = frozenset(_GRAMMAR["event_agent_prepositions"])
QUANTIFIERS = word_list("quantifiers")
DEMONYM_DEPS = frozenset({"amod", "compound", "npadvmod"})
#: Confidence lost when the place is taken from earlier in the sentence.
PLACE_BEFORE = 0.1
VERB_TRIGGER = rule(
    "event.verb-trigger", "Event", 0.75,
    "A trigger verb with its subject, object and \"by\" phrase, place and time.",
    "Police arrested Tom Baker in Leeds on Monday.",
)
NOUN_TRIGGER = rule(
    "event.noun-trigger", "Event", 0.65,
    "A trigger noun with its owner, demonym, \"of\"/\"by\" phrases and support verb.",
    "Turkey's invasion of Cyprus began in July 1974.",
)
TRIGGER_RULES = {"VERB": VERB_TRIGGER, "NOUN": NOUN_TRIGGER}


def event_type(token: Token) -> EventType | None:
    """The type of event ``token`` triggers, if it is a trigger here."""
    if token.pos_ == "VERB" and token.dep_ not in {"amod", "compound"}:
        if token.text[:1].isupper() and token.i != token.sent.start:
            return None  # part of a title or name: "Meet the Fockers"
        kind = trigger_type(phrasal_lemma(token), "VERB") or trigger_type(token.lemma_, "VERB")
        if token.lemma_ == "charge" and any(c.lower_ == "with" for c in token.children):
            kind = EventType.TRIAL  # "charged with 34 counts"
        if kind is EventType.ACQUISITION and any(c.lower_ == "as" for c in token.children):
            kind = EventType.APPOINTMENT  # "took over as chief executive"
        if kind is EventType.LAUNCH and any(_is_noun_trigger(c) for c in _objects(token)):
            return None  # "launched an offensive": the offensive is the event
        if token.dep_ == "acl" and event_type(token.head) is kind:
            return None  # "talks mediated by Qatar": one event, the noun's
        return kind
    if token.pos_ == "NOUN" and token.dep_ != "compound":
        if token.lemma_.lower() == "strike":
            military = any(c.lower_ in MILITARY_MODIFIERS for c in token.lefts)
            return EventType.ATTACK if military else EventType.PROTEST
        kind = trigger_type(token.lower_, "NOUN") or trigger_type(token.lemma_, "NOUN")
        if kind is None:
            return None
        modifiers = [_noun_type(c) for c in token.lefts if c.dep_ == "compound"]
        return next((m for m in modifiers if m is not None), kind)  # "a takeover battle"
    return None


def _names_whom(ctx: FactContext, verb: Token) -> bool:
    """Whether the verb's object names someone or somewhere ("visited Kenya's capital")."""
    objects = [t for c in verb.children if c.dep_ == "dobj" for t in c.subtree]
    return bool(ctx.mentions_in(objects))


def _noun_type(token: Token) -> EventType | None:
    if token.pos_ != "NOUN":
        return None
    return trigger_type(token.lower_, "NOUN") or trigger_type(token.lemma_, "NOUN")


def _is_noun_trigger(token: Token) -> bool:
    return token.pos_ == "NOUN" and event_type(token) is not None


def _objects(verb: Token) -> list[Token]:
    return [c for c in verb.children if c.dep_ in {"dobj", "nsubjpass"}]


def is_irrealis(token: Token) -> bool:
    """Whether the event is negated, hypothetical or only intended."""
    current = token
    for _ in range(5):
        if any(_cancels(c) for c in current.children):
            return True
        governor = current.head
        if current.dep_ not in CHAIN_DEPS or governor.i == current.i:
            return False
        if governor.lemma_.lower() in IRREALIS_VERBS:
            return True
        current = governor
    return False


def _cancels(child: Token) -> bool:
    """A negation, a modal, or "proposed"/"planned" in front of a noun."""
    return (
        child.dep_ == "neg"
        or child.dep_ == "aux" and child.lower_ in MODALS
        or child.dep_ == "amod" and child.lemma_ in {"propose", "plan"}
    )


def events_of(ctx: FactContext, figures: Iterable[Figure]) -> list[Event]:
    """Every event of the chunk whose trigger has at least one argument."""
    figure_at = {}
    for figure in figures:
        bounds = ctx.token_bounds(figure.span.begin, figure.span.end)
        if bounds is not None:
            figure_at[ctx.doc[bounds[0] : bounds[1]].root.i] = figure
    found = []
    for token in ctx.doc:
        kind = event_type(token)
        if kind is None or is_irrealis(token):
            continue
        event = _event(ctx, token, kind, figure_at)
        if event is not None:
            found.append(event)
    return found


def _event(
    ctx: FactContext, trigger: Token, kind: EventType, figure_at: dict[int, Figure]
) -> Event | None:
    if trigger.pos_ == "VERB":
        if kind is EventType.PROTEST and _objects(trigger):
            return None  # "demonstrate success" is no demonstration
        agents, patients = verb_participants(ctx, trigger)
        scope = clause_tokens(trigger)
    else:
        agents, patients = noun_participants(ctx, trigger, kind)
        scope = list(trigger.subtree) + (_support_scope(trigger) or [])
    declared = TRIGGER_RULES[trigger.pos_]
    confidence = declared.confidence
    places = _unique(_places(ctx, scope, trigger) + [p for p in patients if _is_place(ctx, p)])
    if not places and trigger.dep_ in {"xcomp", "advcl"}:  # "marched through X to protest"
        places = _places(ctx, clause_tokens(trigger.head), trigger.head)
    if not places and (places := _place_before(ctx, trigger)):
        confidence -= PLACE_BEFORE
    time = time_of(ctx, trigger, scope)
    in_scope = {t.i for t in scope}
    figures = tuple(f.span for i, f in sorted(figure_at.items()) if i in in_scope)
    named = any(p.kind is not PartyKind.GROUP or p.country for p in agents + patients)
    dated = time is not None and (time.value is not None or not is_duration(time.text))
    if not (named or places or figures or dated):
        return None  # "householders attacking intruders": nothing says which event
    if kind in NEEDS_ENTITY and not any(p.kind is PartyKind.ENTITY for p in agents + patients):
        return None
    if kind is EventType.MEETING and trigger.pos_ == "VERB" and not _names_whom(ctx, trigger):
        return None  # "met the target": a meeting needs someone or somewhere named to meet
    evidence = ctx.evidence([trigger], declared, confidence)
    city = ctx.recent_city(trigger)
    setting = ctx.entity_party(city) if city is not None else None
    return Event(kind, ctx.span([trigger]), phrasal_lemma(trigger), tuple(agents),
                 tuple(patients), tuple(places), time, figures, evidence, setting)


def subjects(verb: Token) -> list[Token]:
    """The verb's subjects, or its governor's when it has none ("forced to withdraw")."""
    own = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
    if own or verb.dep_ not in INHERITING_DEPS or verb.head.i == verb.i:
        return own
    objects = [c for c in verb.head.children if c.dep_ == "dobj"]
    if verb.dep_ == "xcomp" and objects:
        return objects  # "forced the minister to flee": the minister flees
    return [s for s in subjects(verb.head) if s.dep_ == "nsubj"]


def verb_participants(ctx: FactContext, verb: Token) -> tuple[list[Party], list[Party]]:
    """Agents and patients of a verb trigger."""
    agents: list[Party] = []
    patients: list[Party] = []
    for subject in subjects(verb):
        passive = subject.dep_ == "nsubjpass" or verb.lemma_ in PATIENT_SUBJECT_VERBS
        (patients if passive else agents).extend(parties(ctx, subject))
    if verb.dep_ == "relcl" and not _objects(verb) and agents:
        patients += parties(ctx, verb.head)  # "the peninsula it seized"
    for child in verb.children:
        if child.dep_ == "dobj":
            patients += parties(ctx, child)
        elif child.dep_ == "agent":
            agents += [p for o in child.children if o.dep_ == "pobj" for p in parties(ctx, o)]
    return _unique(agents), _unique(patients)


def noun_participants(
    ctx: FactContext, noun: Token, kind: EventType
) -> tuple[list[Party], list[Party]]:
    """Agents and patients of a noun trigger; a city owning a capture or siege is its
    patient ("the city's capture"), any other owner the agent ("Russia's siege")."""
    agents: list[Party] = []
    patients: list[Party] = []
    for child in noun.children:
        if child.dep_ == "poss":
            owners = parties(ctx, child)
            city_owned = kind in PATIENT_OWNER_EVENTS and any(_is_city(ctx, p) for p in owners)
            (patients if city_owned else agents).extend(owners)
        elif child.dep_ in DEMONYM_DEPS and (c := country_of_demonym(child.text)):
            agents.append(ctx.country_party(child, c))
        elif child.dep_ == "prep" and child.lower_ in NOUN_PATIENT_PREPS | NOUN_AGENT_PREPS:
            found = [p for o in child.children if o.dep_ == "pobj" for p in parties(ctx, o)]
            (agents if child.lower_ in NOUN_AGENT_PREPS else patients).extend(found)
        elif child.dep_ == "acl":
            agents += [p for a in child.children if a.dep_ == "agent"
                       for o in a.children if o.dep_ == "pobj" for p in parties(ctx, o)]
    governor = noun.head
    if noun.dep_ == "dobj" and governor.lemma_ in SUPPORT_VERBS:
        agents += [p for s in subjects(governor) if s.dep_ == "nsubj" for p in parties(ctx, s)]
    return _unique(agents), _unique(patients)


def _support_scope(noun: Token) -> list[Token] | None:
    if noun.dep_ == "dobj" and noun.head.lemma_ in SUPPORT_VERBS:
        return [t for c in noun.head.children if c.dep_ == "prep" for t in c.subtree]
    return None


def parties(ctx: FactContext, head: Token) -> list[Party]:
    """The parties a noun phrase names: itself, or the named things inside a described
    group ("fighters from the Azov Regiment"), and its conjuncts ("Russia and Belarus")."""
    found: list[Party] = []
    if head.lower_ in QUANTIFIERS or head.pos_ == "NUM":  # "one of Japan's businessmen"
        of = [o for p in head.children if p.lower_ == "of" for o in p.children if o.dep_ == "pobj"]
        if of:
            return parties(ctx, of[0])
    party = ctx.party(head)
    if party is not None:
        found.append(party)
    if party is None or party.kind is PartyKind.GROUP:
        inner = [t for t in head.subtree if not _in_clause(t, head)]
        found += [ctx.entity_party(m) for m in ctx.mentions_in(inner)
                  if m.kind is not EntityKind.PLACE and not is_city(m.name)]
    for child in head.children:
        if child.dep_ == "conj":
            found += parties(ctx, child)
    return found


def _in_clause(token: Token, head: Token) -> bool:
    """Whether ``token`` sits in a relative or participial clause below ``head``."""
    current = token
    while current.i != head.i and current.head.i != current.i:
        if current.dep_ in {"relcl", "acl", "appos"}:
            return True
        current = current.head
    return False


def _places(ctx: FactContext, scope: list[Token], trigger: Token) -> list[Party]:
    """Named places under a locative preposition within ``scope``."""
    found = []
    for token in scope:
        mention = ctx.mention(token)
        if mention is None or mention.kind is EntityKind.PERSON:
            continue
        preposition = _locative_above(token, trigger)
        if preposition is None:
            continue
        is_place = mention.kind is EntityKind.PLACE or is_city(mention.name)
        if preposition == "from" and not is_place:
            continue
        found.append(ctx.entity_party(mention))
    return found


def _place_before(ctx: FactContext, trigger: Token) -> list[Party]:
    """The nearest place named under a locative preposition earlier in the sentence, for a
    trigger whose own clause names none ("… holed up in X, and 1,700 who surrendered")."""
    before = [t for t in trigger.sent if t.i < trigger.i]
    found = _places(ctx, before, trigger.sent.root)
    return found[-1:]


def _locative_above(token: Token, stop: Token) -> str | None:
    current = token
    while current.i != stop.i and current.head.i != current.i:
        if current.dep_ == "prep" and current.lower_ in LOCATIVE_PREPS:
            return current.lower_
        if current.dep_ in {"relcl", "ccomp"} and current.head.i != stop.i:
            return None
        current = current.head
    return None


def _is_place(ctx: FactContext, party: Party) -> bool:
    if party.kind is PartyKind.COUNTRY:
        return False
    mention = ctx.mention_by_offsets(party.mention) if party.mention else None
    return mention is not None and (mention.kind is EntityKind.PLACE or is_city(mention.name))


def _is_city(ctx: FactContext, party: Party) -> bool:
    mention = ctx.mention_by_offsets(party.mention) if party.mention else None
    return mention is not None and is_city(mention.name)


def _unique(found: list[Party]) -> list[Party]:
    seen: dict[tuple[int, int] | str, Party] = {}
    for party in found:
        seen.setdefault(party.mention or party.text, party)
    return list(seen.values())
