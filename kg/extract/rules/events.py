"""Events: a trigger word (verb or noun, by lemma) with participants, place, time, figures.

    verb    subject → agent ("Russia captured Kreminna"), object and passive subject →
            patient, "by" phrase → agent; a conjunct or infinitive without a subject takes its
            governor's ("forced to withdraw"); "die" makes its subject the patient
    noun    owner → agent ("Russia's siege"), demonym → agent ("a Russian attack"), "of"/"on"/
            "against" → patient ("the invasion of Ukraine"), "by" → agent; as object of a
            support verb the verb's subject is the agent ("Putin ordered the invasion")
    place   named places under a locative preposition in the clause ("in Mariupol")
    time    the first date expression attached to the trigger or the words above it within
            its own clause ("ordered the invasion … on Feb. 24"; not "X surrendered, Russia
            said Wednesday", nor "Y, who took the post on Thursday after X quit"); a length
            ("a five-month deal") is no date;
            a noun's date hung on its verb just after it ("protests in 2003"); never a bare
            unit ("that month") nor a date of another thing ("a 1960s photograph")

Events under negation ("no treaty"), a modal, or a verb like "fail to" / "threaten to" have not
happened and are skipped, as are triggers with no participant, place or time at all; events
under "will" are kept and marked planned. A trigger word used in another sense is no event:
"struck a deal", "a heart attack", "a 25-yard strike", "attacked the government over Iraq";
"died" is a Death unless the death came "in"/"from" an attack. Dates are never participants.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date
from functools import partial
from typing import TYPE_CHECKING

from kg.extract.rules.context import RELATIVE_PRONOUNS, FactContext
from kg.extract.rules.event_factuality import not_happened
from kg.extract.rules.event_senses import (
    JOINT_EVENTS,
    NOUN_PATIENT_PREPS,
    QUANTIFIERS,
    SUBJECT_DEPS,
    carrier_of,
    event_type,
    is_awaited,
    is_frequency,
    is_generic,
    is_hypothetical,
    is_irrealis,
    is_planned,
    met,
    names_whom,
    objects,
    participle_conj,
    phrasal_lemma,
    posts,
    subjects,
)
from kg.extract.rules.figures import clause_tokens
from kg.extract.rules.places import country_of_demonym, is_city
from kg.extract.rules.registry import rule
from kg.extract.rules.times import attached_times, pinned, time_of, when_clause_time
from kg.extract.rules.trigger_sense import in_other_sense
from kg.extract.values import is_duration, is_length, is_time_point
from kg.heuristics import applies, declare, found
from kg.heuristics import found as found_by
from kg.lexicon import table
from kg.lexicon.fact_words import (
    LOCATIVE_PREPS,
    NEEDS_ENTITY,
)
from kg.lexicon.words import (
    CALENDAR_WORDS,
    COMPANY_HEAD_WORDS,
    ORG_HEAD_WORDS,
    PLACE_HEAD_WORDS,
    RELATIVE_TIME_WORDS,
    TIME_UNITS,
    TITLE_NOUNS,
)
from kg.model import (
    EntityKind,
    Event,
    EventType,
    Figure,
    Mention,
    Party,
    PartyKind,
    TimeExpression,
)

if TYPE_CHECKING:
    from spacy.tokens import Token

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

_WORDS = table("event-words")
_GRAMMAR = table("grammar-words")
BUYER_NOUNS = frozenset(_WORDS["business_nouns"]) | ORG_HEAD_WORDS | COMPANY_HEAD_WORDS
DEMONYM_DEPS = frozenset({"amod", "compound", "npadvmod"})
DOER_VERBS = frozenset(_WORDS["doer_verbs"])
HOLDER_VERBS = frozenset(_WORDS["holder_verbs"])
DEFENDANT_VERBS = frozenset(_WORDS["defendant_verbs"])
DATING_VERBS = frozenset(_WORDS["dating_verbs"])
#: Dependencies of a verb that heads a clause of its own under another word: a date above it
#: is another clause's ("Clarke, who took the post on Thursday after Blunkett quit").
FINITE_TAGS = frozenset({"VBD", "VBP", "VBZ"})
CLAUSE_EDGE_DEPS = frozenset({"ccomp", "advcl", "relcl", "acl", "parataxis", "csubj", "conj"})
FUTURE_TIME_WORDS = frozenset(_WORDS["future_time_words"])
COUNTED_EVENTS = frozenset(EventType(k) for k in _WORDS["counted_party_events"])
HEADLINE_PASSIVES = frozenset(EventType(k) for k in _WORDS["headline_passive_events"])
HOLDING_NOUNS = frozenset(_WORDS["holding_nouns"])
JOINT_VERBS = frozenset(_WORDS["joint_verbs"])
NOUN_AGENT_PREPS = frozenset(_GRAMMAR["event_agent_prepositions"])
PATIENT_OWNERS = frozenset(EventType(k) for k in _WORDS["patient_owner_events"])
AGENT_OF_EVENTS = frozenset(EventType(k) for k in _WORDS["agent_of_events"])
PATIENT_OWNER_EVENTS = frozenset(
    {EventType.CAPTURE, EventType.SIEGE, EventType.ATTACK, EventType.EVACUATION}
)
PATIENT_SUBJECT_VERBS = frozenset(_GRAMMAR["patient_subject_verbs"])
SIMULTANEOUS_MARKS = frozenset(_WORDS["simultaneous_marks"])
TOPIC_PREPS = frozenset(_GRAMMAR["topic_prepositions"])
VENUE_HEADS = frozenset(_WORDS["venue_heads"])
RELATIVE_WORDS = frozenset(RELATIVE_TIME_WORDS)
UNIT_WORDS = frozenset(TIME_UNITS)
UNIT_DETERMINERS = frozenset(_WORDS["unit_determiners"])
STANDING_NOUNS = frozenset(_WORDS["standing_nouns"])
VISIT_WORDS = frozenset(_WORDS["visit_words"])
PEOPLE_DEMONYM_EVENTS = frozenset(EventType(k) for k in _WORDS["protest_demonym_events"])

STANDING_NOUN = declare(
    "event.party.standing-noun", "facts.event",
    reads="a participant that is \"the\" + a company noun, and the names around it",
    writes="Event.agents, Event.patients",
    description="A participant that is only \"the\" and a noun standing for an organisation "
                "(\"the developer\", \"the unit\", \"the firm\") is the one organisation "
                "named in its sentence (else in the sentence before) besides the event's other "
                "participants; with several it stays as written.",
    example="Bungie made Halo, and the developer was bought by Microsoft in 2000.",
)

PLACE_ABOVE = declare(
    "event.place.clause-above", "facts.event", reads="the places of the clause a trigger hangs on",
    writes="Event.places",
    description="A trigger that is the subject, purpose or adverbial clause of a verb takes "
                "that verb's place when its own phrase names none (\"marched through Leeds to "
                "protest\", \"talks begin in London\").",
    example="Thousands marched through Leeds to protest against the cuts.",
)
PLACE_WHILE = declare(
    "event.place.while", "facts.event", reads="the places of a \"while\" clause under a verb",
    writes="Event.places",
    description="A verb with no place of its own takes the place of a clause under it that "
                "happens at the same time (\"died while playing in Durban\").",
    example="The climber died while walking in the hills near Bergen.",
)
DATE_AFTER = declare(
    "event.time.right-after", "facts.event",
    reads="a date phrase of the verb a noun trigger is the object of",
    writes="Event.time",
    description="A date phrase that follows a noun trigger's phrase at once but hangs on the "
                "verb it is the object of (\"orchestrated the bank merger, between X and Y, "
                "in 1999\") dates the noun's event, unless that verb is an event itself.",
    example="Anger spilled over into mass protests in 2003.",
)
RELATIVE_YEAR = declare(
    "event.time.relative-year", "facts.event", reads="an event's date expression",
    writes="Event.time",
    description="A month or day of a year or week named relative to the report (\"March last "
                "year\", \"Monday last week\") is a date, not a length of time.",
    example="Tom Baker stepped down as chairman in March last year.",
)
BARE_UNIT = declare(
    "event.time.bare-unit", "facts.event", reads="an event's date expression",
    writes="Event.time",
    description="A unit of time with at most an article or demonstrative (\"that month's "
                "elections\", \"a year before he was appointed\") names no date: left out.",
    example="The votes were counted towards that month's local elections.",
)
DATE_OF_NOUN = declare(
    "event.time.other-noun", "facts.event", reads="an event's date expression and its head",
    writes="Event.time",
    description="A date that modifies a common noun other than the trigger (\"her purchase "
                "of an original 1960s photograph\") dates that thing, not the event: left "
                "out.",
    example="She bought an original 1960s photograph of the band.",
)

OWN_CLAUSE = declare(
    "event.time.own-clause", "facts.event",
    reads="the dates of the clauses above a trigger",
    writes="Event.time",
    description="An event takes a date only from its own clause: the climb from a trigger "
                "verb to the dates of the words above it stops where a finite clause of its "
                "own hangs on another verb or noun (a complement, adverbial or relative "
                "clause, a joined clause with its own subject and no shared \"when\" "
                "clause; not a \"when\"/\"while\" clause, which happens at its verb's time: "
                "\"Clarke, who took the post on Thursday after Blunkett quit\", \"was "
                "charged, police said on Saturday\"; not \"marched on Saturday to protest\"); "
                "and an agreement noun that is a verb's subject takes that verb's date only "
                "when the verb makes or holds it (\"the deal was signed on Monday\"; not "
                "\"the deal expired last month\"). The event is kept or dropped as before.",
    example="Mr Hale, who took the post on Thursday after Tom Baker quit, said little.",
)
LENGTH_NO_DATE = declare(
    "event.time.length", "facts.event", reads="an event's date expression",
    writes="Event.time",
    description="A length written as a modifier (\"a five-month deal\", \"a two-year "
                "ban\", \"a 10-year contract\") says how long, not when: no date.",
    example="Leeds signed Tom Baker on a five-month deal.",
)
JOINT_HOLDER = declare(
    "event.party.joint-holder", "facts.event",
    reads="the subject of a verb that holds a joint event noun (\"have\")",
    writes="Event.agents",
    description="Whoever has a deal, talks or a meeting (\"RSA has a deal with AOL\", "
                "\"A and B had talks\") is a party to it, with everyone joined to them.",
    example="Norvex and Baltica have a deal with Airbus.",
)
COUNTED = declare(
    "event.party.counted", "facts.event",
    reads="a verb trigger's subject or object that is a bare number",
    writes="Event.agents, Event.patients",
    description="A number standing alone as the subject or object of a verb that happens to "
                "people (kill, arrest, capture, charge, die) counts the people it happens to: "
                "a participant (\"Storm kills 11\", \"police arrest five\", \"four of the six "
                "were charged\").",
    example="Police in Leeds arrest five over the bank raid.",
)
VISITED_PLACE = declare(
    "event.place.visited", "facts.event",
    reads="a visit's object (verb) or \"to\" phrase (noun)",
    writes="Event.places, Event.patients",
    description="Where a visit goes is its place, not someone met: a country, city or other "
                "place that is the object of \"visit\" (\"visited Japan , South Korea and "
                "China\") or the \"to\" phrase of \"a visit\" (\"the president's visit to "
                "London\") is the event's place and no patient; a person visited stays one.",
    example="The senator had earlier visited Japan and South Korea.",
)
DEMONYM_PEOPLE = declare(
    "event.party.demonym-people", "facts.event",
    reads="a demonym before a protest noun",
    writes="Event.agents",
    description="A demonym before a protest or strike noun (\"Albanian protests\", \"a "
                "Palestinian general strike\") says who the people protesting are, not that "
                "their state acts: the country is no participant.",
    example="Police cracked down on Albanian protests in Pristina.",
)
DEFENDANT = declare(
    "event.party.defendant", "facts.event",
    reads="the subject of a verb that takes a trial or lawsuit noun (stand, face, settle)",
    writes="Event.patients",
    description="The one who stands or faces trial, or settles a lawsuit, is the one it is "
                "against: the trial's participant (\"Tom Baker is standing trial\").",
    example="Former banker Tom Baker is standing trial in Leeds, accused of fraud.",
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
        if kind is None or is_irrealis(token) or is_hypothetical(token) or in_other_sense(
                token, kind):
            continue
        event = _event(ctx, token, kind, figure_at)
        if event is not None and (event.planned or event.generic or not not_happened(token)):
            found.append(event)  # planned or generic, it is not stated as happened already
    return found


def _event(
    ctx: FactContext, trigger: Token, kind: EventType, figure_at: dict[int, Figure]
) -> Event | None:
    if trigger.pos_ == "VERB":
        if kind is EventType.PROTEST and objects(trigger):
            return None  # "demonstrate success" is no demonstration
        naming = trigger.lemma_ == "name" and kind is EventType.APPOINTMENT
        agents, patients = (naming_participants if naming else verb_participants)(ctx, trigger)
        scope = clause_tokens(trigger)
    else:
        agents, patients = noun_participants(ctx, trigger, kind)
        scope = list(trigger.subtree) + (_support_scope(trigger) or [])
    declared = TRIGGER_RULES[trigger.pos_]
    confidence = declared.prior
    places = _unique(_places(ctx, scope, trigger) + [p for p in patients if _is_place(ctx, p)])
    visited: list[Party] = []
    if kind is EventType.MEETING and trigger.lemma_.lower() in VISIT_WORDS:
        visited = [p for p in patients if _is_destination(ctx, p)]
        if trigger.pos_ == "NOUN":  # "the president's visit to London"
            visited += [p for c in trigger.children if c.dep_ == "prep" and c.lower_ == "to"
                        for o in c.children if o.dep_ == "pobj" for p in parties(ctx, o)
                        if _is_destination(ctx, p)]
        if applies(VISITED_PLACE.id, lambda: bool(visited)):
            patients = [p for p in patients if p not in visited]
            places = _unique(places + visited)
    if not places and trigger.dep_ in {"xcomp", "advcl", *SUBJECT_DEPS}:
        # "marched through X to protest", "talks begin in London"
        places = found(PLACE_ABOVE.id, lambda: _places(
            ctx, clause_tokens(trigger.head), trigger.head) or None) or []
    if not places and trigger.pos_ == "VERB":  # "died while playing … in Durban"
        places = found(PLACE_WHILE.id, lambda: [
            p for c in _simultaneous(trigger) for p in _places(ctx, clause_tokens(c), c)
        ] or None) or []
    below = {t.i for t in trigger.subtree}  # not "…, who sold it in 2001"
    own_scope = [t for t in scope if t.i not in below or not _in_clause(t, trigger)]
    around = time_of(ctx, trigger, own_scope)  # dates the report, if not the event
    own_clause = time_of(ctx, trigger, own_scope, lambda t: _clause_edge(ctx, t))
    if trigger.pos_ == "VERB":
        time = own_clause
    else:  # a noun's date is its own ("Monday's meeting", "talks on 12 January"), not the
        # date of the clause it sits in ("said on Thursday that the detention …")
        elsewhere = _dates_of_other_nouns(ctx, trigger)  # "… in relation to X's collapse
        own = next((ctx.time_at[t.i] for t in own_scope  # in 2002": the collapse's year
                    if t.i in ctx.time_at and t.i not in elsewhere), None)
        if own is None and trigger.dep_ in SUBJECT_DEPS:  # "talks begin on Wednesday"
            own = attached_times(ctx, ctx.sentence(trigger)).get(trigger.head.i)
            if own is not None and kind is EventType.AGREEMENT and applies(
                    OWN_CLAUSE.id, lambda: trigger.head.lemma_.lower() not in DATING_VERBS):
                own = None  # "the deal expired last month": when it expired, not when made
        if own is None:
            own = found(DATE_AFTER.id, lambda: _date_right_after(ctx, trigger))
        time = pinned(own, ctx.frame.document.meta.date_published) if own else None
    time = _own_date(ctx, time, trigger) if time is not None else None
    if time is not None and is_frequency(time.text) \
            and applies("event.generic.frequency-phrase", lambda: True):
        time = None  # "visit Cuba every year": how often, no date (and the event is generic)
    in_scope = {t.i for t in scope}
    figures = tuple(f.span for i, f in sorted(figure_at.items()) if i in in_scope)
    patients = [p for p in patients if p not in agents]  # one party, one part
    agents, patients = _standing_for(ctx, agents, patients)
    named = any(_names_something(ctx, p) for p in agents + patients)
    dated = around is not None and (around.value is not None or is_time_point(around.text))
    if not (named or places or figures or dated):
        return None  # "householders attacking intruders": nothing says which event
    if not (named or places or dated) and around is not None and is_duration(around.text):
        return None  # "3,000 died over 30 years": a statistic, not one event
    if kind in NEEDS_ENTITY and not any(
            p.kind is PartyKind.ENTITY or kind is EventType.MEETING and p.country is not None
            for p in agents + patients + (visited if agents else [])):  # "French and German
        # ministers met", "an officer visited Bratislava"; not "an Australian gamer bought the
        # island", "two of Japan's biggest firms will merge", nor a visit with no visitor ("a
        # visit to Ukraine" whose "by X" the parse hangs elsewhere)
        return None
    if kind is EventType.ACQUISITION and agents and all(
            p.kind is PartyKind.GROUP and not p.country
            and p.text.split()[-1].lower() not in BUYER_NOUNS for p in agents):
        return None  # "consumers who had purchased an iPod": shopping; "the firm" buys
    if kind is EventType.MEETING and trigger.pos_ == "VERB" and met(trigger) \
            and not names_whom(ctx, trigger):
        return None  # "met the target": a meeting needs someone or somewhere named to meet;
        # "the ministers met in Geneva" meet one another
    evidence = ctx.evidence([trigger], declared, confidence)
    city = ctx.recent_city(trigger)
    setting = ctx.entity_party(city) if city is not None else None
    published = ctx.frame.document.meta.date_published
    planned = is_planned(trigger) or _ahead(time, published) \
        or not _dated_before(time, published) and is_awaited(trigger)
    generic = time is None and applies("event.generic", lambda: is_generic(trigger))
    return Event(kind, ctx.span([trigger]), phrasal_lemma(trigger), tuple(agents),
                 tuple(patients), tuple(places), time, figures, evidence, setting, planned,
                 generic)


def _standing_for(ctx: FactContext, agents: list[Party], patients: list[Party]
                  ) -> tuple[list[Party], list[Party]]:
    """The participants with "the developer", "the unit" replaced by the one organisation
    named around it (the other participants aside)."""
    named = [m for p in agents + patients if p.mention is not None
             and (m := ctx.mention_by_offsets(p.mention)) is not None]

    def standing(party: Party) -> Party:
        return found(STANDING_NOUN.id, lambda: _named_for(ctx, party, named)) or party

    return _unique([standing(p) for p in agents]), _unique([standing(p) for p in patients])


def _named_for(ctx: FactContext, party: Party, named: list[Mention]) -> Party | None:
    """The party the bare "the <noun>" ``party`` stands for, if one thing fits."""
    if party.kind is not PartyKind.GROUP or " " in party.text:
        return None
    bounds = ctx.token_bounds(party.begin, party.end)
    if bounds is None or bounds[1] - bounds[0] != 1:
        return None
    noun = ctx.doc[bounds[0]]
    word = noun.lower_
    if noun.pos_ != "NOUN" or noun.tag_ == "NNS" or word not in STANDING_NOUNS or not any(
            c.dep_ == "det" and c.lower_ == "the" for c in noun.children):
        return None
    mention = ctx.sole_named(noun, frozenset({EntityKind.ORGANIZATION}), named)
    return ctx.entity_party(mention, noun) if mention is not None else None


def _clause_edge(ctx: FactContext, token: Token) -> bool:
    """Whether ``token`` heads a clause of its own under another word, with a date above it
    that the climb would take (``event.time.own-clause``)."""
    if token.pos_ not in {"VERB", "AUX"} or token.dep_ not in CLAUSE_EDGE_DEPS:
        return False
    if not _finite(token):
        return False  # "marched on Saturday to protest", "pushing to encircle": no clause
        # of its own
    if token.dep_ in {"advcl", "relcl"} and any(
            c.dep_ in {"mark", "advmod"} and c.lower_ in SIMULTANEOUS_MARKS
            for c in token.children):
        return False  # "was formed in August 2004 when Interbrew bought Ambev": one time
    if token.dep_ == "conj" and (
            not any(c.dep_ in {"nsubj", "nsubjpass"} for c in token.children)
            or when_clause_time(token.head, attached_times(ctx, ctx.sentence(token)))):
        return False  # "was arrested and charged on Monday": one clause, one subject; "When
        # the coalition collapsed in 1998, the party lost and X resigned": both clauses' date
    return applies(OWN_CLAUSE.id, lambda: time_of(ctx, token.head) is not None)


def _finite(verb: Token) -> bool:
    """Whether ``verb`` heads a finite clause: a subject of its own, or a tensed form."""
    return verb.tag_ in FINITE_TAGS or any(
        c.dep_ in {"nsubj", "nsubjpass", "expl"}
        or c.dep_ in {"aux", "auxpass"} and c.tag_ in FINITE_TAGS | {"MD"}
        for c in verb.children)


def _ahead(time: TimeExpression | None, published: date | None) -> bool:
    """Whether the event's date lies after the report ("agreed to hold talks next week",
    "the summit on 20 March" in an article of 13 March): announced, not yet happened."""
    if time is None:
        return False
    if time.value is not None and published is not None and time.value > published:
        return True
    return time.text.lower().split()[0] in FUTURE_TIME_WORDS


def _dated_before(time: TimeExpression | None, published: date | None) -> bool:
    """Whether the event's own date, written with its year, lies before the report ("ahead of
    the 1992 election"). A day or month without a year is read as past by the date reader
    ("news reports the past"), which cannot tell "ahead of the November 5 election"."""
    return time is not None and time.value is not None and published is not None \
        and time.value < published and re.search(r"\b\d{4}\b", time.text) is not None


def _date_right_after(ctx: FactContext, noun: Token) -> TimeExpression | None:
    """The date phrase the parser hangs on the verb a noun trigger is the object of, when it
    follows the noun's phrase at once ("orchestrated the merger, between X and Y, in 1999",
    "spilled over into mass protests in 2003"): the noun's date. Not when the verb is an event
    of its own, which the date then dates ("was jailed over the killing on Monday")."""
    governor = noun.head.head if noun.dep_ == "pobj" and noun.head.dep_ == "prep" \
        else noun.head if noun.dep_ == "dobj" else None
    if governor is None or governor.pos_ not in {"VERB", "AUX"} or event_type(governor):
        return None
    end = noun.right_edge.i
    for point, time in attached_times(ctx, ctx.sentence(noun)).items():
        if point != governor.i:
            continue
        bounds = ctx.token_bounds(time.begin, time.end)
        if bounds is None:
            continue
        start = bounds[0] - 1 if ctx.doc[bounds[0]].head.dep_ == "prep" else bounds[0]
        if 0 < start - end <= 2 and all(t.is_punct for t in ctx.doc[end + 1 : start]):
            return time
    return None


def _own_date(ctx: FactContext, time: TimeExpression, trigger: Token) -> TimeExpression | None:
    """``time`` if it is a date and the event's own, else ``None``."""
    if applies(LENGTH_NO_DATE.id, lambda: is_length(time.text)):
        return None  # "a five-month deal": how long it lasts
    if time.value is None and not is_time_point(time.text) \
            and not applies(RELATIVE_YEAR.id, lambda: _relative_year(time.text)):
        return None  # "jailed for two years", "the age of 85", "18-month": no date
    if applies(BARE_UNIT.id, lambda: _bare_unit(time.text)):
        return None  # "that month's elections", "a year before he was appointed": no date
    if applies(DATE_OF_NOUN.id, lambda: _dates_other_noun(ctx, time, trigger)):
        return None  # "her purchase of an original 1960s photograph": the photograph's
    return time


def _relative_year(text: str) -> bool:
    """ "March last year", "Monday last week": a month or day of a year or week named
    relative to the report, a point a reader can place."""
    words = text.lower().split()
    return len(words) >= 3 and words[-2] in RELATIVE_WORDS and words[-1] in UNIT_WORDS \
        and all(w in CALENDAR_WORDS for w in words[:-2])


def _bare_unit(text: str) -> bool:
    """A unit of time with at most an article or demonstrative ("month", "that month", "a
    year"): it names no day, month or year."""
    words = text.lower().split()
    return bool(words) and words[-1] in UNIT_WORDS and all(w in UNIT_DETERMINERS
                                                           for w in words[:-1])


def _dates_other_noun(ctx: FactContext, time: TimeExpression, trigger: Token) -> bool:
    """Whether a date is a word of a common noun's own phrase other than the trigger ("an
    original 1960s photograph", "a 2003 report"): it dates that thing, not the event."""
    bounds = ctx.token_bounds(time.begin, time.end)
    if bounds is None:
        return False
    root = ctx.doc[bounds[0] : bounds[1]].root
    noun = root.head
    return root.dep_ in {"compound", "amod", "nmod", "nummod"} and noun.i != trigger.i \
        and noun.pos_ == "NOUN" and noun.i not in ctx.time_at \
        and noun.ent_type_ not in {"DATE", "TIME"} and event_type(noun) is None


def _dates_of_other_nouns(ctx: FactContext, trigger: Token) -> set[int]:
    """The words of the dates that hang on a common noun two or more phrases below a noun
    trigger or the verb that carries it: they date that noun ("on trial for fraud in relation
    to the firm's collapse in 2002"), not the trigger ("a meeting at the embassy on Monday")."""
    anchors = {trigger.i} | ({c.i} if (c := carrier_of(trigger)) is not None else set())
    found: set[int] = set()
    for point, time in attached_times(ctx, ctx.sentence(trigger)).items():
        noun = ctx.doc[point]
        if noun.pos_ == "NOUN" and noun.i not in anchors \
                and noun.ent_type_ not in {"DATE", "TIME"} \
                and _phrases_between(noun, anchors) >= 2:  # not "Monday night's vote"
            found |= {i for i, t in ctx.time_at.items() if t is time}
    return found


def _phrases_between(noun: Token, anchors: set[int]) -> int:
    """How many prepositional phrases lead from one of ``anchors`` down to ``noun`` (0 when
    none of them is above it)."""
    phrases = 0
    for above in noun.ancestors:
        if above.i in anchors:
            return phrases
        phrases += above.dep_ == "prep"
    return 0


def _names_something(ctx: FactContext, party: Party) -> bool:
    """Whether a party says who: a named thing, or a group qualified by a country or by a name
    ("West Yorkshire police"; not "a 45-year-old man")."""
    return party.kind is not PartyKind.GROUP or party.country is not None or any(
        party.begin <= m.begin and m.end <= party.end for m in ctx.mentions)


def _simultaneous(verb: Token) -> list[Token]:
    """The clauses under ``verb`` that happen at the same time and place ("while playing")."""
    return [c for c in verb.children if c.dep_ == "advcl"
            and any(m.dep_ in {"mark", "advmod"} and m.lower_ in SIMULTANEOUS_MARKS
                    for m in c.children)]


def _undergoes(verb: Token, subject: Token) -> bool:
    """Whether ``subject`` undergoes the verb: its own passive subject, or a subject taken
    from the verb it is joined to when this verb is passive ("Sizzla jailed …, has been
    jailed in Jamaica"; "was arrested and charged"), but not the doer of an infinitive under
    a passive ("she was forced to pull out")."""
    if subject.head.i == verb.i:
        return subject.dep_ == "nsubjpass"
    if verb.dep_ == "xcomp":
        return False
    return any(c.dep_ == "auxpass" for c in verb.children) \
        or subject.dep_ == "nsubjpass" and participle_conj(verb)


def verb_participants(ctx: FactContext, verb: Token) -> tuple[list[Party], list[Party]]:
    """Agents and patients of a verb trigger."""
    agents: list[Party] = []
    patients: list[Party] = []
    headline = _headline_passive(verb)
    doer = phrasal_lemma(verb) in DOER_VERBS  # what they leave undergoes nothing
    for subject in subjects(verb):
        passive = _undergoes(verb, subject) or verb.lemma_ in PATIENT_SUBJECT_VERBS or headline
        (patients if passive else agents).extend(
            parties(ctx, _relative_antecedent(subject)) or _counted(ctx, verb, subject))
    if verb.dep_ == "relcl" and not objects(verb) and agents and not any(
            s.lower_ in RELATIVE_PRONOUNS for s in subjects(verb)):
        patients += parties(ctx, verb.head)  # "the peninsula it seized"; not "X, who met …"
    if verb.dep_ == "acl" and verb.tag_ == "VBN" and not objects(verb):
        # "MP attacked by muggers": the MP is attacked; but "Thousands of students protested
        # in X", parsed the same way, are students who protest
        (agents if doer else patients).extend(parties(ctx, verb.head))
    for child in verb.children:
        if child.dep_ == "dobj":
            patients += [p for p in parties(ctx, child)  # "buy aircraft from Airbus"
                         if not _written_in(ctx, p, _sellers(verb, child))
                         and not (doer and p.kind is PartyKind.GROUP)  # "fled their homes"
                         ] or _counted(ctx, verb, child)
        elif child.dep_ == "agent":
            agents += [p for o in child.children if o.dep_ == "pobj" for p in parties(ctx, o)]
    if event_type(verb) in JOINT_EVENTS or verb.lemma_.lower() in JOINT_VERBS:
        agents += _with_parties(ctx, verb)  # "met with X", "agreed to merge with Y"
    return _unique(agents), _unique(patients)


def _counted(ctx: FactContext, verb: Token, head: Token) -> list[Party]:
    """A bare number as who a people's event happens to ("kills 11", "arrest five"; "four
    of the six": the number with its "of" phrase)."""
    if head.pos_ != "NUM" or head.ent_type_ not in {"", "CARDINAL"} \
            or event_type(verb) not in COUNTED_EVENTS:
        return []
    of = [c for c in head.rights if c.dep_ == "prep" and c.lower_ == "of"][:1]
    span = ctx.span([head, *(t for c in of for t in c.subtree)])  # not "five over the raid"
    return found_by(COUNTED.id, lambda: [
        Party(PartyKind.GROUP, span.text, span.begin, span.end, None, None)]) or []


def naming_participants(ctx: FactContext, verb: Token) -> tuple[list[Party], list[Party]]:
    """Who names whom to a post: the one named is the object or passive subject that is no
    post; the parser often hangs "X named Y as Z" on X as a participle, and then X names."""
    named = [c for c in verb.children if c.dep_ in {"dobj", "oprd", "nsubjpass"}
             and c.lemma_.lower() not in TITLE_NOUNS]
    named += [c for p in posts(verb) for c in p.children  # "named Sara Holm chief executive"
              if c.dep_ in {"nmod", "compound"} and c.ent_type_ == "PERSON"]
    doers = [c for c in verb.children if c.dep_ == "nsubj"]
    doers += [o for a in verb.children if a.dep_ == "agent" for o in a.children
              if o.dep_ == "pobj"]
    if verb.dep_ == "acl":  # "Norvex named Tom Brandt as chairman"; "X, named captain, said"
        (doers if named else named).append(verb.head)
    agents = [p for d in doers for p in parties(ctx, d)]
    patients = [p for n in named for p in parties(ctx, n)]
    return _unique(agents), _unique(patients)


def _relative_antecedent(subject: Token) -> Token:
    """The first of the names a relative pronoun stands for, so that its conjuncts come too
    ("X, Y and Z, who met in Lyon": all three met)."""
    verb = subject.head
    if subject.lower_ not in RELATIVE_PRONOUNS or verb.dep_ != "relcl":
        return subject
    head = verb.head
    if head.dep_ != "conj" and not any(c.dep_ == "conj" for c in head.children):
        return subject  # one antecedent: the pronoun's own party ("the firm's chief, who")
    while head.dep_ == "conj" and head.head.i != head.i:
        head = head.head
    return head


def _sellers(verb: Token, thing: Token) -> set[int]:
    """The words of what is bought that name its seller: "buy aircraft from Airbus", "buy
    Alfa-Eco's stake" (the owner sells)."""
    if event_type(verb) is not EventType.ACQUISITION:
        return set()
    return {t.i for c in thing.children
            if c.dep_ == "poss" or c.dep_ == "prep" and c.lower_ == "from" for t in c.subtree}


def _written_in(ctx: FactContext, party: Party, tokens: set[int]) -> bool:
    bounds = ctx.token_bounds(party.begin, party.end)
    return bounds is not None and all(i in tokens for i in range(*bounds))


def _headline_passive(verb: Token) -> bool:
    """ "Singer jailed for swearing", "Three soldiers killed in Kabul": a past form of a verb
    that needs an object, with a subject but no object and no auxiliary, is a headline's
    passive (the tagger often reads it as a past tense)."""
    return (
        verb.tag_ in {"VBD", "VBN"} and event_type(verb) in HEADLINE_PASSIVES
        and not any(c.dep_ in {"aux", "auxpass"} for c in verb.children)
        and not any(c.dep_ == "dobj" for c in verb.children)
    )


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
            undergoes = kind in PATIENT_OWNERS  # "his arrest", "Wilson's death"
            (patients if city_owned or undergoes else agents).extend(owners)
        elif child.dep_ in DEMONYM_DEPS and (c := country_of_demonym(child.text)):
            if kind in PEOPLE_DEMONYM_EVENTS and applies(
                    DEMONYM_PEOPLE.id, partial(_is_demonym, child.text, c.name)):
                continue  # "Albanian protests": Albanians protest, not Albania
            agents.append(ctx.country_party(child, c))
        elif child.dep_ == "prep" and child.lower_ in NOUN_PATIENT_PREPS | NOUN_AGENT_PREPS:
            if child.lower_ in {"with", "between"} and kind not in JOINT_EVENTS:
                continue  # "the appointment of X, with his experience"
            found = [p for o in child.children if o.dep_ == "pobj" for p in parties(ctx, o)]
            if child.lower_ in TOPIC_PREPS and kind in JOINT_EVENTS:
                # "a treaty on defence", "talks on trade": a topic, no party; a named one
                # says what they are about ("talks on the future of Gibraltar")
                found = [p for p in found if _names_something(ctx, p)]
            joint = kind in JOINT_EVENTS and child.lower_ == "of"  # "a meeting of members"
            doer = kind in AGENT_OF_EVENTS and child.lower_ == "of"  # "resignation of X"
            (agents if child.lower_ in NOUN_AGENT_PREPS or joint or doer
             else patients).extend(found)
        elif child.dep_ == "prep" and child.lower_ == "from":  # "a resignation from Mr X"
            agents += [p for o in child.children if o.dep_ == "pobj"
                       for p in parties(ctx, o) if _is_person(ctx, p)]
        elif child.dep_ == "acl":
            agents += [p for a in child.children if a.dep_ == "agent"
                       for o in a.children if o.dep_ == "pobj" for p in parties(ctx, o)]
            if kind in JOINT_EVENTS:  # "a deal totalling $375m with X"
                agents += _with_parties(ctx, child)
    governor = noun.head
    if noun.dep_ == "pobj" and governor.lower_ == "of":  # "a letter of resignation from X"
        agents += [p for c in governor.head.children if c.dep_ == "prep" and c.lower_ == "from"
                   for o in c.children if o.dep_ == "pobj"
                   for p in parties(ctx, o) if _is_person(ctx, p)]
    if (carrier := carrier_of(noun)) is not None:
        doers = [p for s in subjects(carrier) if s.dep_ == "nsubj" for p in parties(ctx, s)]
        on = noun.dep_ == "pobj"  # "X went on trial": X is tried; "went on strike": X strikes
        (patients if on and kind in PATIENT_OWNERS else agents).extend(doers)
        if kind in JOINT_EVENTS:  # "agreed a deal with X", "held talks with Y"
            agents += _with_parties(ctx, carrier)
        if kind is EventType.SIEGE:  # "laid siege to the city of X"
            patients += [p for c in carrier.children if c.dep_ == "prep" and c.lower_ == "to"
                         for o in c.children if o.dep_ == "pobj" for p in parties(ctx, o)]
    elif kind in JOINT_EVENTS and noun.dep_ == "dobj" \
            and governor.lemma_.lower() in HOLDER_VERBS:  # "RSA has a deal with AOL"
        agents += found_by(JOINT_HOLDER.id, lambda: [
            p for s in subjects(governor) if s.dep_ == "nsubj" for p in parties(ctx, s)
        ] + _with_parties(ctx, governor) or None) or []
    elif kind is EventType.TRIAL and noun.dep_ == "dobj" \
            and governor.lemma_.lower() in DEFENDANT_VERBS:  # "Ebbers is standing trial"
        patients += found_by(DEFENDANT.id, lambda: [
            p for s in subjects(governor) if s.dep_ in {"nsubj", "nsubjpass"}
            for p in parties(ctx, s)] or None) or []
    elif kind in JOINT_EVENTS and noun.dep_ == "pobj" and governor.lower_ == "in" \
            and governor.head.pos_ in {"VERB", "AUX"}:  # "X has been locked in talks with Y"
        agents += [p for s in subjects(governor.head) for p in parties(ctx, s)]
    return _unique(agents), _unique(patients)


def _with_parties(ctx: FactContext, word: Token) -> list[Party]:
    return [p for c in word.children if c.dep_ == "prep" and c.lower_ == "with"
            for o in c.children if o.dep_ == "pobj" for p in parties(ctx, o)]


def _support_scope(noun: Token) -> list[Token] | None:
    """The carrier verb's phrases and bare dates, which place and date the noun's event
    ("held talks in Doha last week")."""
    if (carrier := carrier_of(noun)) is None:
        return None
    return [t for c in carrier.children if c.i != noun.head.i and (
        c.dep_ == "prep" or c.dep_ == "npadvmod" and c.ent_type_ in {"DATE", "TIME"})
        for t in c.subtree]


def parties(ctx: FactContext, head: Token) -> list[Party]:
    """The parties a noun phrase names: itself, or the named things inside a described
    group ("fighters from the Azov Regiment"), and its conjuncts ("Russia and Belarus")."""
    found: list[Party] = []
    if head.i in ctx.time_at or head.ent_type_ in {"DATE", "TIME"}:
        return []  # "Monday's deciding vote": a date is never a participant
    if head.lower_ in QUANTIFIERS or head.pos_ == "NUM" or head.lower_ in {"%", "percent"}:
        # "one of Japan's businessmen", "18.8% of Southcorp"
        of = [o for p in head.children if p.lower_ == "of" for o in p.children if o.dep_ == "pobj"]
        if of:
            return parties(ctx, of[0])
    if head.pos_ == "NOUN" and event_type(head) is not None:
        # an event is no party: "a deal with Bertelsmann's purchase of a stake" is Bertelsmann's
        return [p for c in head.children if c.dep_ == "poss" for p in parties(ctx, c)]
    party = ctx.party(head)
    if party is not None:
        found.append(party)
    if party is None or party.kind is PartyKind.GROUP:
        inner = [t for t in _described_by(head) if not _in_clause(t, head)]
        found += [ctx.entity_party(m) for m in ctx.mentions_in(inner)
                  if m.kind is not EntityKind.PLACE and not is_city(m.name)]
    for child in head.children:
        if child.dep_ == "conj" and child.pos_ in {"NOUN", "PROPN", "PRON"}:
            found += parties(ctx, child)  # not a clause glued on by the parser
    return found


def _described_by(head: Token) -> list[Token]:
    """The words of a described group that can name who it is: its modifiers ("Azov
    fighters") and its "from"/"of" phrase ("fighters from the Azov Regiment", "ministers of
    the G8") — not a workplace ("executives at Fannie Mae") or a deeper phrase ("a distributor
    of DVDs of Bollywood films")."""
    words = [head]
    for child in head.children:
        if child.dep_ in {"compound", "amod", "nmod", "poss", "appos"}:
            words += list(child.subtree)
        elif child.dep_ == "prep" and child.lower_ in {"from", "of"}:
            for obj in (o for o in child.children if o.dep_ == "pobj"):
                words += [obj, *(t for c in obj.children if c.dep_ in {"compound", "conj", "cc"}
                                 for t in c.subtree)]
    return words


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
        venue = _is_venue(mention.name) or _is_venue(_phrase_head(token).lower_)
        if not is_place and (preposition == "from" or not venue):
            continue  # "in the Budget", "at the Hansard Society": no place
        found.append(ctx.entity_party(mention))
    return found


def _is_venue(name: str) -> bool:
    """An organisation's name that is also a place to be at ("the Mercury Theatre", "the
    Azovstal steel works")."""
    words = name.lower().split()
    return bool(words) and (words[-1] in VENUE_HEADS or words[-1] in PLACE_HEAD_WORDS)


def _phrase_head(token: Token) -> Token:
    """The noun a name modifies ("Azovstal" in "the Azovstal steel works" → "works")."""
    current = token
    while current.dep_ == "compound" and current.head.i != current.i:
        current = current.head
    return current


def _locative_above(token: Token, stop: Token) -> str | None:
    """The locative preposition a place hangs from on the way up to ``stop``. An owner is no
    place ("talks on Gibraltar's future"), nor the object of a noun under "on"/"over"/"about"
    ("talks on the future of Gibraltar": the topic); "in the town of Goma", "in the catacombs
    of the Azovstal steel works" are places."""
    if token.dep_ == "poss":
        return None
    current = token
    nouns = 0
    facility = _is_venue(_phrase_head(token).lower_)
    while current.i != stop.i and current.head.i != current.i:
        if current.dep_ == "prep" and current.lower_ == "of" and not facility \
                and current.head.lemma_.lower() not in PLACE_HEAD_WORDS:
            return None  # "the sale of Yugansk", "the future of Gibraltar"; not "the town of X"
        if current.dep_ == "prep" and current.lower_ in LOCATIVE_PREPS:
            if nouns > 1 and current.lower_ in TOPIC_PREPS:
                return None
            if current.head.dep_ == "pcomp" and current.head.i != stop.i:
                return None  # "charged with avoiding tests in X": where the tests were
            if current.head.lemma_.lower() in HOLDING_NOUNS:
                return None  # "a stake in Sun Interbrew": a company, not a place
            return current.lower_
        if current.dep_ in {"relcl", "ccomp"} and current.head.i != stop.i:
            return None
        if current.pos_ in {"NOUN", "PROPN"} and current.dep_ == "pobj":
            nouns += 1
        if current.pos_ == "VERB" and current.i != token.i:
            return None  # "charged with avoiding tests in X": X is where the tests were
        current = current.head
    return None


def _is_place(ctx: FactContext, party: Party) -> bool:
    if party.kind is PartyKind.COUNTRY:
        return False
    mention = ctx.mention_by_offsets(party.mention) if party.mention else None
    return mention is not None and (mention.kind is EntityKind.PLACE or is_city(mention.name))


def _is_demonym(word: str, country: str) -> bool:
    """Whether ``word`` names a country's people ("Albanian"), not the country ("Albania")."""
    return word.lower() != country.lower()


def _is_destination(ctx: FactContext, party: Party) -> bool:
    """Whether a party is somewhere one goes: a country, or a place named as one (not a person
    whose name is also a place's, "Ms Essex")."""
    if party.kind is PartyKind.COUNTRY:
        return True
    mention = ctx.mention_by_offsets(party.mention) if party.mention else None
    return mention is not None and (mention.kind is EntityKind.PLACE or (
        mention.kind is not EntityKind.PERSON and is_city(mention.name)))


def _is_person(ctx: FactContext, party: Party) -> bool:
    mention = ctx.mention_by_offsets(party.mention) if party.mention else None
    return mention is not None and mention.kind is EntityKind.PERSON


def _is_city(ctx: FactContext, party: Party) -> bool:
    mention = ctx.mention_by_offsets(party.mention) if party.mention else None
    return mention is not None and is_city(mention.name)


def _unique(found: list[Party]) -> list[Party]:
    seen: dict[tuple[int, int] | str, Party] = {}
    for party in found:
        seen.setdefault(party.mention or party.text, party)
    return list(seen.values())


declare("event.generic", "facts.event", reads="frequency words on a trigger or its clause",
        writes="Event.generic (kg:factuality kg:Generic)",
        description="An event with no date under \"usually\", \"often\", \"every\" … is what "
                    "generally happens, no one occasion: written as kg:Generic, not as happened.",
        example="Rebels usually attack army posts in Kivu at night.")
