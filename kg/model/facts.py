"""Facts extracted from one article: roles, relations, events, figures and claims.

Every fact carries its ``Evidence`` (sentence numbers, the rule that produced it, a
confidence). Facts name things through ``Party``: an entity mention (by its offsets, so the
resolver decides the entity), a country named by a demonym ("Russian" → Russia), or a group
described by a noun phrase ("Ukrainian officials"). Offsets are document offsets, as in
``kg.model.document``.

    Membership  person – role – organisation or country   ("Russian President Vladimir Putin")
    Relation    organisation part of organisation, place in place
    Event       typed event with agents, patients, places, time and figures
    Figure      a number with qualifier, counted noun and the measured thing it gives a value to
    Claim       reported speech: speaker, cue verb, the claim's text span

>>> Evidence((3,), "claim.indirect", 0.8).rule
'claim.indirect'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TypeAlias

from kg.model.text import Span, TimeExpression


class EventType(StrEnum):
    """The event taxonomy (values are local names of SKOS concepts in ``ontology/kg.ttl``)."""

    ATTACK = "Attack"
    SIEGE = "Siege"
    INVASION = "Invasion"
    CAPTURE = "Capture"
    SURRENDER = "Surrender"
    WITHDRAWAL = "Withdrawal"
    KILLING = "Killing"
    DEATH = "Death"  # a death nobody is said to have caused ("died of a heart attack")
    LAUNCH = "Launch"
    EVACUATION = "Evacuation"
    DISPLACEMENT = "Displacement"
    NEGOTIATION = "Negotiation"
    AGREEMENT = "Agreement"
    MEETING = "Meeting"
    STATEMENT = "Statement"
    ELECTION = "Election"
    APPOINTMENT = "Appointment"
    RESIGNATION = "Resignation"
    PROTEST = "Protest"
    ARREST = "Arrest"
    TRIAL = "Trial"
    ACQUISITION = "Acquisition"


class RelationKind(StrEnum):
    """Relations between two named things; values name the RDF property written."""

    SUB_ORGANIZATION = "subOrganizationOf"  # org:subOrganizationOf
    MEMBER_OF = "memberOf"  # org:memberOf
    CONTAINED_IN = "containedInPlace"  # schema:containedInPlace


class ClaimKind(StrEnum):
    """How a claim is reported."""

    INDIRECT = "indirect"  # "X said (that) …"
    DIRECT = "direct"  # a quotation attributed to X
    ACCORDING_TO = "according-to"  # "…, according to X"
    NOMINAL = "nominal"  # "X's claim that …"


class PartyKind(StrEnum):
    """What a ``Party`` stands for."""

    ENTITY = "entity"
    COUNTRY = "country"
    GROUP = "group"


@dataclass(frozen=True, slots=True)
class Country:
    """A country by ISO 3166 code and English short name."""

    code: str
    name: str


@dataclass(frozen=True, slots=True)
class Party:
    """Who or what takes part in a fact, as written at ``begin:end``.

    ``mention`` holds the offsets of the entity mention it denotes: the same span, or an
    earlier one for a pronoun or a bare surname. ``country`` is set for a demonym ("Russian")
    and for a group affiliated with a country ("Ukrainian officials").
    """

    kind: PartyKind
    text: str
    begin: int
    end: int
    mention: tuple[int, int] | None = None
    country: Country | None = None


@dataclass(frozen=True, slots=True)
class Evidence:
    """Why a fact is believed: its sentences, the rule that fired and a confidence in [0, 1]."""

    sentences: tuple[int, ...]
    rule: str
    confidence: float
    #: What the sentence shows around the fact, for the verifier (``kg.extract.rules.signals``).
    signals: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Membership:
    """A person holding a post ("Defence Minister") in an organisation or country, if named."""

    person: Party
    role: str
    organization: Party | None
    evidence: Evidence
    former: bool = False


@dataclass(frozen=True, slots=True)
class Relation:
    """``subject`` stands in ``kind`` to ``object`` (regiment part of guard, town in region)."""

    kind: RelationKind
    subject: Party
    object: Party
    evidence: Evidence


@dataclass(frozen=True, slots=True)
class Measure:
    """The thing a figure measures: what is counted or measured, of what, when ("fighters
    surrender, X"; "export rise, United States, january"; "growth, this year, forecast")."""

    predicate: str  # what happened to what is counted ("Surrender", "deaths", "remain"), or
    # the quantity an amount is of, with its change ("export rise", "revenue", "loan")
    counted: str  # class of what is counted: "people", "fighters", the noun's lemma, or the
    # unit of an amount ("percent", "usd")
    anchor: Party | None  # the place or entity it is measured for
    cause: str | None = None  # a toll with no anchor: what it is of ("earthquake", "flood")
    period: str | None = None  # the period it refers to, normalised ("2004", "this year")
    forecast: bool = False  # a prediction ("would grow by 2.5%"), never compared with outturns


@dataclass(frozen=True, slots=True)
class Figure:
    """A number as reported: value, qualifier ("approximately"), counted noun, measure."""

    span: Span
    value: float | None
    qualifier: str | None
    unit: str | None
    measure: Measure | None
    evidence: Evidence
    upper: float | None = None  # a range's upper bound ("8-9%": value 8, upper 9)
    wording: str | None = None  # the measure as the sentence words it ("US exports")
    source: Party | None = None  # whose figure the sentence says it is ("the Bank forecast …")
    previous: bool = False  # the value given before, superseded by one beside it ("from a
    # previous estimate of 3.7%")


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened: type, trigger word, participants, place, time, figures."""

    kind: EventType
    trigger: Span
    lemma: str
    agents: tuple[Party, ...]
    patients: tuple[Party, ...]
    places: tuple[Party, ...]
    time: TimeExpression | None
    figures: tuple[Span, ...]
    evidence: Evidence
    setting: Party | None = None  # the city the article is about at this point (for linking)
    planned: bool = False  # announced or scheduled ("will visit"), not yet happened
    generic: bool = False  # what generally or habitually happens ("rebels usually attack")


@dataclass(frozen=True, slots=True)
class Claim:
    """Reported speech: who said it, with which cue, and the text of what was said."""

    speaker: Party
    cue: str  # the cue verb's lemma, or "according to"
    kind: ClaimKind
    content: Span
    uttered: TimeExpression | None  # when it was said, if the sentence says ("said Wednesday")
    evidence: Evidence


Fact: TypeAlias = Membership | Relation | Event | Figure | Claim


def within(span: Span, begin: int, end: int) -> bool:
    """Whether ``begin:end`` lies inside ``span``.

    >>> within(Span(0, 10, "x" * 10), 2, 5)
    True
    """
    return span.begin <= begin and end <= span.end
