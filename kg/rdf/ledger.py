"""The conflicting-figures ledger: figures of one measured thing that cannot all be right.

A figure's measure says what is counted or measured, of what, when (``kg.rdf.facts``:
``<base>measure/…``). After resolution the ledger gathers the figures of each measure — and,
across articles, the figures of reports of one event (``kg:sameEventAs``, ``kg.rdf.events``)
that count the same thing — compares them two by two, and writes one
``kg:FigureDisagreement`` per measured thing and kind into ``<base>graph/events``:

- ``conflict``: values that cannot both hold, from different sources in reports of one date,
  both undated, or one article (two speakers);
- ``update``: a later-dated report moves the value; or, undated, a running count (a toll)
  that two articles give differently — which came first is unknown;
- ``differing forecasts``: predictions of one quantity for one period by different sources;
- ``revision``: one source (a speaker or a forecaster) giving another value in another report,
  or a sentence saying a value superseded the one given before ("fall to 3.3% from a previous
  estimate of 3.7%").

Values are compared as intervals: "nearly N" allows N ± 10%, "more than N" and "at least N"
anything above, a range its bounds; a bound that a count moved past by more than 10% ("at
least 300" → "more than 2,000") is an update of a running count. A figure is never compared
with another of its sentence unless two speakers give them (a list, "fell to 94.2 from
95.5"), nor the article's own figures with each other, nor a dated report with an undated one.
Across articles a measure must be tied to something (a place, an organisation, a toll's
cause, or one event reported twice), and an amount (money, a percentage) or a count of things
other than people needs both reports dated or a period that names its year: an undated "sales
rose 5%" is about a quarter the report does not give. The ``kg:reportOrder`` says whether the
reports are ordered by date, all in one report, or of unknown order (undated articles).

Each test below is a small named function, registered as a heuristic of the ``ledger``
stage at the end of this module (``ledger.*``: each kind, each test that keeps two figures
apart, each reading of a report) and switched off on its own (``kg build --rules
-ledger.near-days``).

>>> overlap(Interval(300, 300, 1e18, True), Interval(320, 288, 352, False))
True
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from rdflib import Literal, URIRef

from kg.extract.values import normalise_date
from kg.heuristics import applies, declare, fired, found, is_on
from kg.lexicon.fact_words import COUNTED_CLASSES
from kg.lexicon.measure_words import TOLL_ATTRIBUTES
from kg.lexicon.words import CALENDAR_WORDS
from kg.model import (
    Claim,
    EntityKind,
    Event,
    Extraction,
    Figure,
    Resolution,
    TimeExpression,
    within,
)
from kg.rdf.events import clusters, reports_of
from kg.rdf.facts import FactScope, event_iri, figure_iri, measure_node, party_node
from kg.rdf.namespaces import DCTERMS, KG, PROV, RDF, SDO, XSD
from kg.rdf.terms import Triple, article_iri, sentence_iri
from kg.resolve.geo import article_countries

#: Bounds a qualifier gives a value: (low factor, high factor); None is unbounded.
HEDGE = 0.1
OPEN = 1e18
RULES = {"conflict": "ledger.conflict", "update": "ledger.update",
         "differing forecasts": "ledger.differing-forecasts", "revision": "ledger.revision"}
CONFIDENCE = Decimal("0.7")
#: How far into an article a dateline is looked for (lines), and how many words may open it.
DATELINE_LINES, DATELINE_WORDS = 6, 3
#: Days apart two dated reports of a toll known only by its cause, or of people who did
#: something, may be to count one thing.
NEAR_DAYS = 31
#: Days apart two incidents' days may be for their tolls to count one incident, when a toll
#: gives no day of its own (its incident is then on its report's day or one its article names).
FEW_DAYS = 3
#: How many sentences from a toll a place may be named to be where the toll's story is.
NEAR_SENTENCES = 3
_YEAR = re.compile(r"\b(1[6-9]|20)\d\d\b")
#: A date with its year as datelines write it: "28 November 2005", "Nov 28, 2005",
#: "November 27 - 2005", "11/27/2005", "11/27/05", "2005-11-27" (the month's name is checked
#: by parsing).
_DATELINE = re.compile(
    r"\b\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9}\.?\s*,?\s*\d{4}\b"
    r"|\b[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?\s*,?\s*[-–]?\s*\d{4}\b"
    r"|\b\d{1,2}\s*/\s*\d{1,2}\s*/\s*(?:\d{4}|\d\d)\b|\b\d{4}\s*-\s*\d\d\s*-\s*\d\d\b")


@dataclass(frozen=True)
class Interval:
    """The values a figure allows: ``value`` as written, ``low``–``high`` with its hedge."""

    value: float
    low: float
    high: float
    bound: bool  # "at least", "more than": a lower bound of a count


def interval(figure: Figure) -> Interval:
    """ "nearly 1,000" → 900–1,100; "at least 300" → 300–∞; "8-9%" → 8–9.

    >>> interval(Figure(None, 300.0, "at least", "people", None, None)).high == OPEN
    True
    """
    value = figure.value or 0.0
    qualifier = figure.qualifier or ""
    if qualifier == "approximately":
        return Interval(value, value * (1 - HEDGE), value * (1 + HEDGE), False)
    if qualifier in {"more than", "at least"}:
        return Interval(value, value, OPEN, True)
    if qualifier in {"less than", "at most"}:
        return Interval(value, 0.0, value, False)
    return Interval(value, value, figure.upper if figure.upper is not None else value, False)


def overlap(a: Interval, b: Interval) -> bool:
    """Whether two figures can both hold."""
    return not (a.high < b.low or b.high < a.low)


@dataclass(frozen=True)
class Entry:
    """One figure as the ledger compares it."""

    node: URIRef
    measure: URIRef
    predicate: str
    counted: str
    period: str | None
    forecast: bool
    tied: bool  # the measure is tied to a place, an organisation or a cause
    by_cause: bool  # … to a toll's cause only ("killed in the earthquake")
    interval: Interval
    article: str
    reported: date | None
    dateline: bool  # the date is the article's dateline's, not its publication date
    sentence: int
    sentence_node: URIRef | None
    source: URIRef  # the forecaster or speaker the sentence credits, else the article
    attributed: bool  # a speaker or forecaster gave it, not the article itself
    event: URIRef | None  # the event report holding it
    previous: bool = False  # a value the sentence says was superseded ("a previous estimate")
    words: str = ""  # its sentence's words, to know a sentence repeated in another article
    places: frozenset[str] = frozenset()  # the places its article names (entity keys)
    near_places: frozenset[str] = frozenset()  # … within NEAR_SENTENCES of its sentence
    day: date | None = None  # the day its event happened, as the sentence dates it
    countries: frozenset[str] = frozenset()  # the countries its sentence names (ISO codes)
    named_days: frozenset[date] = frozenset()  # the days its article names

    @property
    def toll(self) -> bool:
        return self.predicate in TOLL_ATTRIBUTES

    @property
    def people(self) -> bool:
        """A count of people, troops, refugees …: about one event, not a period."""
        return self.counted.split()[-1] in COUNTED_CLASSES


# -- the entries -------------------------------------------------------------------------------


def entries_of(extraction: Extraction, resolution: Resolution, base: str) -> list[Entry]:
    """The figures of one article with a measure and a value (a syndicated copy's figures are
    its original's, and are left out)."""
    document = extraction.document
    if document.meta.copy_of is not None:
        return []
    scope = FactScope(extraction, resolution, base)
    reported = document.meta.date_published or found(DATELINE,
                                                      lambda: dateline_date(extraction))
    places = _places(extraction, resolution)
    named_days = _named_days(extraction, reported)
    located = _located_places(extraction, resolution)
    claims = sorted((f for f in extraction.facts if isinstance(f, Claim)),
                    key=lambda c: c.content.end - c.content.begin)
    events = {span: event_iri(scope, e) for e in extraction.facts if isinstance(e, Event)
              for span in e.figures}
    days = {span: day for e in extraction.facts if isinstance(e, Event)
            if (day := _event_day(e, reported)) is not None for span in e.figures}
    entries = []
    for figure in (f for f in extraction.facts if isinstance(f, Figure)):
        measure = figure.measure
        if measure is None or figure.value is None:
            continue
        node, _ = measure_node(scope, measure)
        source, attributed = _source(scope, figure, claims)
        sentence = figure.evidence.sentences[-1] if figure.evidence.sentences else -1
        near = frozenset(k for i, k in located if abs(i - sentence) <= NEAR_SENTENCES)
        entries.append(Entry(
            figure_iri(scope, figure.span), node, measure.predicate, measure.counted,
            measure.period, measure.forecast, measure.anchor is not None or bool(measure.cause),
            measure.anchor is None and bool(measure.cause),
            interval(figure), document.doc_id, reported,
            document.meta.date_published is None and reported is not None, sentence,
            _sentence_node(scope, sentence), source, attributed,
            next((e for s, e in events.items() if within(s, figure.span.begin,
                                                           figure.span.end)), None),
            figure.previous, _sentence_words(scope, sentence), places, near,
            next((d for s, d in days.items() if within(s, figure.span.begin,
                                                         figure.span.end)), None),
            _countries(scope, sentence), named_days))
    return entries


def _named_days(extraction: Extraction, reported: date | None) -> frozenset[date]:
    """The days an article names ("on Friday", "August 23": a weekday counted back from the
    report's date), up to its report's day: one of them may be an incident's."""
    days = (_day_of(t, reported) for t in extraction.times)
    return frozenset(d for d in days if d is not None and (reported is None or d <= reported))


def _countries(scope: FactScope, sentence: int) -> frozenset[str]:
    """The countries a figure's sentence names or qualifies (ISO codes)."""
    return article_countries(_sentence_words(scope, sentence)) if sentence >= 0 \
        else frozenset()


def _event_day(event: Event, reported: date | None) -> date | None:
    """The day an event happened, as its own time says: a date, or a weekday counted back
    from the report's date ("killed on Friday" in a Saturday report); ``None`` otherwise."""
    return _day_of(event.time, reported) if event.time is not None else None


def _day_of(time: TimeExpression, reported: date | None) -> date | None:
    """The day a time expression names, else ``None``."""
    if time.value is not None and time.granularity == "day":
        return time.value
    words = time.text.split()
    for text in (time.text, words[0] if words and words[0].lower() in CALENDAR_WORDS else ""):
        value, granularity = normalise_date(text, reported) if text else (None, None)
        if value is not None and granularity == "day":
            return value
    return None


def dateline_date(extraction: Extraction) -> date | None:
    """``ledger.dateline-date``: an article without a publication date is dated by its own
    first lines when one of them is a dateline — a full date with its year, at most a few
    words after the line's start ("Nov 28, 2005", "Published: April 10, 2007", "Last Updated:
    Monday, 28 November 2005, 02:24 GMT", "11/27/2005 7:21 AM"), as pages copied to text keep
    them.

    >>> from kg.ingest.files import document_from_text
    >>> from kg.model import Extraction
    >>> doc = document_from_text("Quake hits island\\nPublished: Nov 28, 2005\\nTen died.")
    >>> dateline_date(Extraction(doc, (), (), (), (), ()))
    datetime.date(2005, 11, 28)
    """
    text = extraction.document.text
    for line in [line for line in text.splitlines() if line.strip()][:DATELINE_LINES]:
        for match in _DATELINE.finditer(line):
            if sum(w.isalpha() for w in line[: match.start()].split()) > DATELINE_WORDS:
                break
            if (value := _dateline_day(" ".join(match.group().split()))) is not None:
                return value
    return None


def _dateline_day(text: str) -> date | None:
    """A dateline's day; "11 / 28 / 05" is read as 2005-11-28 (month first, as such lines
    are written in the United States), a year of two digits being this century's up to 69."""
    short = re.fullmatch(r"(\d{1,2}) ?/ ?(\d{1,2}) ?/ ?(\d\d)", text)
    if short is not None:
        month, day, year = (int(g) for g in short.groups())
        try:
            return date(2000 + year if year < 70 else 1900 + year, month, day)
        except ValueError:
            return None
    value, granularity = normalise_date(text, None)
    return value if granularity == "day" else None


def _source(scope: FactScope, figure: Figure, claims: Sequence[Claim]) -> tuple[URIRef, bool]:
    """Whom the sentence credits with the figure ("the Bank forecast …"),
    else (``ledger.claim-speaker``) the speaker of the narrowest claim holding it, else the
    article."""
    if figure.source is not None:
        return party_node(scope, figure.source, agent=True)[0], True
    for claim in claims if is_on(CLAIM_SPEAKER) else ():
        if within(claim.content, figure.span.begin, figure.span.end):
            fired(CLAIM_SPEAKER)
            return party_node(scope, claim.speaker, agent=True)[0], True
    return scope.article, False


def _places(extraction: Extraction, resolution: Resolution) -> frozenset[str]:
    """The entity keys of the places an article names."""
    doc_id = extraction.document.doc_id
    keys = (resolution.assignments.get((doc_id, m.begin, m.end)) for m in extraction.mentions
            if m.kind is EntityKind.PLACE)
    return frozenset(k for k in keys if k is not None)


def _located_places(extraction: Extraction, resolution: Resolution
                    ) -> list[tuple[int, str]]:
    """The sentence and entity key of each place an article names."""
    doc_id = extraction.document.doc_id
    found_ = ((m.sentence, resolution.assignments.get((doc_id, m.begin, m.end)))
              for m in extraction.mentions if m.kind is EntityKind.PLACE)
    return [(i, k) for i, k in found_ if k is not None]


def _sentence_words(scope: FactScope, index: int) -> str:
    sentence = scope.sentences.get(index)
    text = scope.extraction.document.text[sentence.begin : sentence.end] if sentence else ""
    return " ".join(text.split())


def _sentence_node(scope: FactScope, index: int) -> URIRef | None:
    sentence = scope.sentences.get(index)
    return sentence_iri(scope.base, scope.doc_id, sentence) if sentence is not None else None


# -- which figures are one measured thing ----------------------------------------------------


def measured_things(entries: Sequence[Entry], linked: dict[URIRef, int]) -> list[list[Entry]]:
    """Figures of one measure, joined (``ledger.same-event``) with the figures of reports of
    one event (``linked``: event report → its cluster) that count the same thing in the same
    period, whatever place each report names."""
    parent = list(range(len(entries)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    keys: dict[tuple, int] = {}
    for i, entry in enumerate(entries):
        own = ("measure", entry.measure)
        event = (("event", linked[entry.event], entry.predicate, entry.counted, entry.period,
                  entry.forecast) if entry.event in linked and is_on(SAME_EVENT) else None)
        for key in (own, event):
            if key is None:
                continue
            if key in keys:
                if key is event and root(i) != root(keys[key]):
                    fired(SAME_EVENT)
                parent[root(i)] = root(keys[key])
            else:
                keys[key] = i
    groups: dict[int, list[Entry]] = defaultdict(list)
    for i, entry in enumerate(entries):
        groups[root(i)].append(entry)
    return [g for g in groups.values() if len(g) > 1]


# -- how two figures of one measured thing differ ------------------------------------------------


def comparable(a: Entry, b: Entry, linked: dict[URIRef, int]) -> bool:
    """Whether two figures of one measured thing are compared: never two of one sentence
    unless two speakers give them, nor of one sentence repeated word for word in two
    articles (``ledger.repeated-sentence``: one report, syndicated); in one article only two
    attributed figures (``ledger.two-speakers``); across articles, both dated or both undated
    (``ledger.dated-with-undated``), a measure tied to something or one event reported twice
    (``ledger.tied``); two dated tolls not when their events happened on different days
    (``ledger.event-day``), nor when one gives no day and their incidents' possible days —
    a report's day, the days its article names — are all more than a few days apart
    (``ledger.incident-days``); a toll known only by its cause, dated, not when places are named
    near each figure and none is the same (``ledger.dated-common-place``); a toll known only by its
    cause, or a count of people who did something, only in reports of about a month
    (``ledger.near-days``); in undated reports
    only a toll (a running count of one event) — one known only by its cause when the two
    articles name a place in common (``ledger.common-place``) — or an amount whose period
    names its year (``ledger.undated-kinds``)."""
    if a.node == b.node:
        return False
    if a.article == b.article:
        if a.previous != b.previous:
            return a.sentence == b.sentence  # "to 3.3% from a previous estimate of 3.7%"
        return applies(TWO_SPEAKERS,  # two speakers of one article
                       lambda: a.attributed and b.attributed and a.source != b.source)
    if applies(REPEATED_SENTENCE, lambda: bool(a.words) and a.words == b.words):
        return False  # a sentence repeated word for word in another article: one report
    if applies(DATED_UNDATED, lambda: (a.reported is None) != (b.reported is None)):
        return False  # which is the later report the graph cannot tell
    one_event = a.event is not None and b.event is not None and a.event in linked \
        and linked[a.event] == linked.get(b.event)
    if applies(TIED, lambda: not (a.tied and b.tied or one_event)):
        return False
    if applies(PART_COUNTRY, lambda: a.toll and b.toll and _one_country_part(a, b)):
        return False  # Sri Lanka's toll of the tsunami against the whole, or India's
    if a.reported is not None and b.reported is not None:
        if applies(EVENT_DAY, lambda: a.toll and b.toll and not one_event
                   and a.day is not None and b.day is not None and a.day != b.day):
            return False  # a bomb "on Friday" a week apart: two incidents, two tolls
        if applies(INCIDENT_DAYS, lambda: a.toll and b.toll and not one_event
                   and (a.day is None or b.day is None) and _days_apart(a, b) > FEW_DAYS):
            return False  # no day given: each incident on its report's day or a day named
        if applies(DATED_COMMON_PLACE, lambda: a.by_cause and b.by_cause and not one_event
                   and bool(a.near_places) and bool(b.near_places)
                   and not a.near_places & b.near_places):
            return False  # "killed in the explosion" near places the other's story never names
        # a toll known only by its cause, or a count of people who did something (marched,
        # surrendered), is one thing in reports of about one month
        near = abs((a.reported - b.reported).days) <= NEAR_DAYS
        return not applies(NEAR, lambda: not one_event and not near
                           and (a.by_cause or a.people and not a.toll))
    if applies(COMMON_PLACE, lambda: a.by_cause and b.by_cause and not one_event
               and not a.places & b.places):
        return False  # "killed in the explosion" in two undated stories of no common place
    # undated: a toll, one event reported twice, or an amount of a year the period names
    return not applies(UNDATED_KINDS, lambda: not (
        one_event or a.toll or not a.people and bool(a.period and _YEAR.search(a.period))))


def incident_days(entry: Entry) -> frozenset[date]:
    """The days a toll's incident may have happened on: its event's day, else its report's
    day and the days its article names."""
    if entry.day is not None:
        return frozenset({entry.day})
    return entry.named_days | ({entry.reported} if entry.reported is not None else set())


def _days_apart(a: Entry, b: Entry) -> int:
    """How near two tolls' incidents may be, in days (the nearest of their possible days)."""
    return min((abs((x - y).days) for x in incident_days(a) for y in incident_days(b)),
               default=0)


def _one_country_part(a: Entry, b: Entry) -> bool:
    """Whether two tolls are two countries' parts: each sentence names exactly one country,
    and not the same one (a part against a toll naming none or several was tried and lost
    real groups: bench/RESULTS-extraction.md, ledger7)."""
    return len(a.countries) == 1 and len(b.countries) == 1 and a.countries != b.countries


def kind(a: Entry, b: Entry) -> str | None:
    """How two comparable figures differ, if they do (see the module docstring; each kind is
    a heuristic, ``ledger.conflict`` …, and so is ``ledger.moved-bound``); ``None`` when they
    can both hold or the kind is switched off."""
    apart = not overlap(a.interval, b.interval)
    high, low = max(a.interval.value, b.interval.value), min(a.interval.value, b.interval.value)
    moved = applies(MOVED_BOUND, lambda: (a.interval.bound or b.interval.bound)
                    and high - low > HEDGE * high)
    if not (apart or moved):
        return None
    named = _kind(a, b, apart, moved)
    return named if named is not None and is_on(RULES[named]) else None


def _kind(a: Entry, b: Entry, apart: bool, moved: bool) -> str | None:
    """The kind of two figures that are ``apart`` (cannot both hold) or of which a bound
    ``moved``."""
    if a.previous or b.previous:
        return "revision" if apart else None  # the sentence says one superseded the other
    same_source = a.attributed and b.attributed and a.source == b.source
    if same_source:
        return "revision" if apart and a.article != b.article else None
    if a.forecast:
        return "differing forecasts" if apart else None
    if a.reported is not None and a.reported != b.reported:
        return "update"
    if a.reported is None and a.article != b.article and (a.toll or a.people and moved):
        return "update"  # a running count, two undated reports: which came first is unknown
    return "conflict" if apart else None


def disagreements(entries: Sequence[Entry], linked: dict[URIRef, int]
                  ) -> Iterator[tuple[str, list[Entry]]]:
    """Each measured thing's figures that disagree, by kind."""
    for group in measured_things(entries, linked):
        by_kind: dict[str, dict[URIRef, Entry]] = defaultdict(dict)
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                if comparable(a, b, linked) and (named := kind(a, b)) is not None:
                    by_kind[named].update({a.node: a, b.node: b})
        for name, members in sorted(by_kind.items()):
            fired(RULES[name])
            yield name, sorted(members.values(), key=lambda e: (e.article, e.node))


def report_order(members: Sequence[Entry]) -> str:
    """ "one report", "by date" or "unknown" (undated articles)."""
    if len({e.article for e in members}) == 1:
        return "one report"
    return "by date" if all(e.reported is not None for e in members) else "unknown"


# -- the graph -------------------------------------------------------------------------------


def disagreement_triples(name: str, members: Sequence[Entry], base: str) -> Iterator[Triple]:
    """One kg:FigureDisagreement: its kind, order, measured thing(s), figures and evidence."""
    digest = hashlib.sha256("|".join([name, *sorted(e.node for e in members)]).encode())
    node = URIRef(f"{base}fact/disagreement/{digest.hexdigest()[:16]}")
    yield node, RDF.type, KG.FigureDisagreement
    yield node, KG.disagreementKind, Literal(name)
    yield node, KG.reportOrder, Literal(report_order(members))
    yield node, KG.extractedBy, Literal(RULES[name])
    yield node, KG.confidence, Literal(CONFIDENCE, datatype=XSD.decimal)
    for entry in members:
        yield node, KG.disagreeingFigure, entry.node
        yield node, SDO.variableMeasured, entry.measure
        yield node, DCTERMS.source, article_iri(base, entry.article)
        yield entry.node, KG.figureSource, entry.source
        if entry.dateline and entry.reported is not None:
            yield entry.node, KG.reportedOn, Literal(entry.reported, datatype=XSD.date)
        if entry.sentence_node is not None:
            yield node, PROV.wasDerivedFrom, entry.sentence_node


def ledger_triples(extractions: Iterable[Extraction], resolution: Resolution,
                   base: str) -> list[Triple]:
    """Every kg:FigureDisagreement of a corpus (they go into ``<base>graph/events``)."""
    done = list(extractions)
    linked = {r.node: n for n, group in enumerate(clusters(reports_of(done, resolution, base)))
              for r in group}
    entries = [e for x in done for e in entries_of(x, resolution, base)]
    triples: list[Triple] = []
    for name, members in disagreements(entries, linked):
        triples += disagreement_triples(name, members, base)
    return triples


# -- the registry's entries: which figures the ledger compares, and how they disagree --

#: How sure a listed disagreement is: one confidence for every kind, written with it.
KIND_MODEL = f"fixed {CONFIDENCE} (kg:confidence of the disagreement)"
#: How sure a test that keeps two figures apart is: it states nothing.
APART = "— (keeps two figures apart)"
#: How sure a reading of a figure's report is: a part of the disagreements it makes.
PART = "— (a part of the disagreements it makes)"

declare("ledger.conflict", "ledger", reads="two comparable figures of one measured thing",
        writes="kg:FigureDisagreement, kind conflict", confidence=float(CONFIDENCE),
        model=KIND_MODEL,
        description="Values that cannot both hold, from different sources in reports of one "
                    "date, both undated, or one article (two speakers).",
        example="Organisers said 100,000 people marched in London, although police said it "
                "was only half that number.")
declare("ledger.update", "ledger", reads="two comparable figures of one measured thing",
        writes="kg:FigureDisagreement, kind update", confidence=float(CONFIDENCE),
        model=KIND_MODEL,
        description="A later-dated report moves the value; or, undated, a running count (a "
                    "toll) two articles give differently: which came first is unknown.",
        example="Published: Nov 28, 2005\nAn earthquake killed 300 people in Zarand.\n|||\n"
                "Published: Nov 30, 2005\nAn earthquake killed 612 people in Zarand.")
declare("ledger.differing-forecasts", "ledger", reads="two comparable forecasts of one "
        "quantity", writes="kg:FigureDisagreement, kind differing forecasts",
        confidence=float(CONFIDENCE), model=KIND_MODEL,
        description="Predictions of one quantity for one period by different sources.",
        example="Her deputy, Tom Reid, said the economy would grow by an estimated 2.5% this "
                "year, while the Bank of England forecast growth of 1.8% this year.")
declare("ledger.revision", "ledger", reads="two comparable figures of one source, or a value "
        "the sentence says was superseded", writes="kg:FigureDisagreement, kind revision",
        confidence=float(CONFIDENCE), model=KIND_MODEL,
        description="One source giving another value in another report, or a sentence saying "
                    "a value superseded the one given before.",
        example="The OECD said growth would fall to 3.3% from a previous estimate of 3.7%.")
DATELINE = declare(
    "ledger.dateline-date", "ledger", reads="an undated article's first lines",
    writes="the report's date (kg:reportedOn)", model=PART,
    description="An article without a publication date is dated by a dateline among its "
                "first lines (\"Published: Nov 28, 2005\"): its figures are ordered by it.",
    example="Published: Nov 28, 2005\nAn earthquake killed 300 people in Zarand.\n|||\n"
            "Published: Nov 30, 2005\nAn earthquake killed 612 people in Zarand.").id
CLAIM_SPEAKER = declare(
    "ledger.claim-speaker", "ledger", reads="the claims of a figure's article",
    writes="kg:figureSource", model=PART,
    description="A figure no forecaster is credited with is the speaker's of the narrowest "
                "claim holding it, else the article's.",
    example="Organisers said 100,000 people marched in London, although police said it was "
            "only half that number.").id
SAME_EVENT = declare(
    "ledger.same-event", "ledger", reads="the figures of reports of one event (kg:sameEventAs)",
    writes="one measured thing", model=PART,
    description="Reports of one event that count the same thing in the same period give "
                "figures of one measured thing, whatever place each report names.",
    example="An earthquake killed 420 people in Zarand, Iran, on 22 February 2005.\n|||\n"
            "An earthquake killed 500 people in Iran on 22 February 2005.").id
TWO_SPEAKERS = declare(
    "ledger.two-speakers", "ledger", reads="two figures of one article",
    writes="compares them", model=PART,
    description="An article's own figures are compared only when two different speakers "
                "or forecasters give them.",
    example="Organisers said 100,000 people marched in London, although police said it was "
            "only half that number.").id
REPEATED_SENTENCE = declare(
    "ledger.repeated-sentence", "ledger", reads="the sentences of two figures in two articles",
    writes="keeps them apart", model=APART,
    description="A sentence repeated word for word in another article is one report "
                "(syndicated), not two sources.",
    example="Published: Nov 28, 2005\nSome 2,000 people marched in Leeds on Monday and "
            "5,000 people marched in Leeds on Tuesday.\n|||\nPublished: Nov 28, 2005\nSome "
            "2,000 people marched in Leeds on Monday and 5,000 people marched in Leeds on "
            "Tuesday.").id
DATED_UNDATED = declare(
    "ledger.dated-with-undated", "ledger", reads="the dates of two reports",
    writes="keeps their figures apart", model=APART,
    description="A dated report is never compared with an undated one: which is the later "
                "the graph cannot tell.",
    example="Published: Nov 28, 2005\nAn earthquake killed 300 people in Zarand.\n|||\n"
            "An earthquake killed 612 people in Zarand.").id
TIED = declare(
    "ledger.tied", "ledger", reads="the measures of two figures in two articles",
    writes="keeps them apart", model=APART,
    description="Across articles a measure must be tied to a place, an organisation or a "
                "cause, or the figures be of one event reported twice: \"prices rose 3%\" is "
                "nobody's in particular.",
    example="Prices rose 3% in 2004.\n|||\nPrices rose 5% in 2004.").id
NEAR = declare(
    "ledger.near-days", "ledger", reads="the dates of two reports of a toll known only by its "
    "cause, or of a count of people who did something", writes="keeps their figures apart",
    model=APART,
    description=f"Such counts are one thing only in reports at most {NEAR_DAYS} days apart: "
                "\"killed in the explosion\" in January and in May are two explosions.",
    example="Published: Jan 5, 2005\nThe explosion killed 15 people.\n|||\n"
            "Published: May 5, 2005\nThe explosion killed 40 people. Aid talks had begun on "
            "January 5.").id
COMMON_PLACE = declare(
    "ledger.common-place", "ledger", reads="two undated tolls known only by their cause, and "
    "the places their articles name", writes="keeps them apart", model=APART,
    description="\"killed in the explosion\" in two undated stories is one toll only when "
                "the two articles name a place in common.",
    example="The explosion killed 15 people.\n|||\nThe explosion killed 40 people.").id
DATED_COMMON_PLACE = declare(
    "ledger.dated-common-place", "ledger", reads="two dated tolls known only by their cause, "
    "and the places named near each", writes="keeps them apart", model=APART,
    description=f"\"killed in the explosion\" in two dated reports is two tolls when the "
                f"places named within {NEAR_SENTENCES} sentences of each figure have none in "
                "common (two stories; a news digest tells several).",
    example="Published: Aug 23, 1996\nAn explosion leveled a motel in Rochester on Friday.\n"
            "The explosion killed two people.\n|||\nPublished: Aug 25, 1996\nA bomb exploded "
            "at a market in Algiers on Sunday.\nThe explosion killed 14 people.").id
EVENT_DAY = declare(
    "ledger.event-day", "ledger", reads="the days two dated tolls' events happened",
    writes="keeps them apart", model=APART,
    description="Two tolls in dated reports whose events happened on different days (a date, "
                "or a weekday counted back from the report's date) are of two incidents, "
                "though both name one city.",
    example="Published: Aug 24, 1996\nA bomb killed seven people at a market near Algiers "
            "on Friday.\n|||\nPublished: Aug 31, 1996\nA bomb killed two people at a "
            "restaurant near Algiers on Friday.").id
INCIDENT_DAYS = declare(
    "ledger.incident-days", "ledger", reads="the days two dated tolls' incidents may have "
    "happened on", writes="keeps them apart", model=APART,
    description="A toll whose event gives no day of its own is of an incident on its report's "
                "day or on a day its article names (\"said on Friday\", \"August 23\"); "
                f"two dated tolls whose possible days are all more than {FEW_DAYS} days apart "
                "are two incidents, unless reports of one event hold them.",
    example="Published: Aug 24, 1996\nPolice said on Friday that seven people were killed in "
            "a bomb explosion at a market.\n|||\nPublished: Aug 31, 1996\nTwo people were "
            "killed in a bomb explosion at a restaurant.").id
PART_COUNTRY = declare(
    "ledger.part-country", "ledger", reads="the countries named in two tolls' sentences",
    writes="keeps them apart", model=APART,
    description="Two tolls whose sentences each name exactly one country, not the same one, "
                "are two countries' parts of a disaster and are not compared.",
    example="Aid reached Indonesia. The Sri Lanka relief agency said the tsunami killed more "
            "than 30,000 people.\n|||\nAid reached Indonesia. Britain held a silence for the "
            "victims of the tsunami, which killed 150,000 people.").id
UNDATED_KINDS = declare(
    "ledger.undated-kinds", "ledger", reads="two figures of undated reports",
    writes="keeps them apart", model=APART,
    description="Undated reports compare only a toll (a running count of one event) or an "
                "amount whose period names its year: an undated \"sales rose 5%\" is about "
                "a quarter the report does not give.",
    example="Police said 2,000 people marched in Leeds.\n|||\n"
            "Organisers said 5,000 people marched in Leeds.").id
MOVED_BOUND = declare(
    "ledger.moved-bound", "ledger", reads="two figures of which one is a lower bound",
    writes="an update of a running count", model=APART,
    description="A bound a count moved past by more than 10% (\"at least 300\" → 2,000) "
                "is a running count updated, though both can hold.",
    example="At least 300 people were killed by the earthquake in Zarand.\n|||\n"
            "The earthquake killed 2,000 people in Zarand.").id
