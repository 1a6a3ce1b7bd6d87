"""A city and its club apart: "Liverpool" in a match report is the club, in a
story about the docks the city, and one entity for both is wrong in every article of one of
them.

Resolution joins every "Liverpool" of a corpus into one place. Where the mentions of such a
place in one article say it plays — a score, "Liverpool striker X", "beat Liverpool"
(``kg.resolve.types.role_cue``) — more often than they say it is the place ("in Liverpool"),
that article's mentions go to an organisation of the same name
(``organization/<slug>``, the one resolution already has if there is one; ``-2`` when the
place itself has that key); the city keeps the other articles. The next build's registry finds
the organisation's key among the place's names and gives it to the place as an alias: the place
gives it back, so both IRIs stay what they were. Company cues split no city: "shares in
Tokyo" is trading on Tokyo's market, not a company called Tokyo. A place all of whose
articles read so is left whole — unless some mention in them is the place all the same (a
dateline's "MOSCOW 1996-08-30", the venue of "CHICAGO AT TORONTO"), which stays with it
there: ``kg.resolve.types`` then makes the entity itself an organisation.

>>> split_clubs(Resolution((), {}), []).entities
()
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace

from kg.extract.recovery import (
    VENUE_HEADING,
    is_dateline,
    is_known_place_written,
    line_around,
)
from kg.heuristics import applies, declare
from kg.ingest.files import slugify
from kg.lexicon import word_list
from kg.lexicon.countries import name_key
from kg.model import Entity, EntityKind, Extraction, MentionRef, Resolution
from kg.resolve.geo import is_country_name, link_place, us_state_names
from kg.resolve.types import PLACE, SIDE, role_cue

#: The key prefix of the organisation a city's articles move to.
ORGANIZATION_PREFIX = "organization/"
#: The key prefix of the place a city's own mentions move to.
PLACE_PREFIX = "place/"
#: The role cue that moves an article's mentions to the club.
CLUB = "SportsTeam"
#: The count of an article's mentions that are the place whatever it is about.
ITSELF = "itself"

CLUB_CUED_MENTION = declare(
    "resolve.entities.club-cued-mention", "resolve.entities",
    reads="the role cues of a city's mentions in the articles ``split-clubs`` leaves it",
    writes="the mention's entity: the organisation of the city's name",
    description="A city's mention whose own words say it plays (a score, \"beat X\", \"X has "
                "won 16 of its last 22\") is the club, though the rest of its article reads "
                "as the city (\"played eight seasons in X\").",
    example="Johnson played eight seasons in Baltimore. Baltimore has won 16 of its last 22 "
            "games.").id


def _readings(resolution: Resolution, extractions: Sequence[Extraction]
              ) -> tuple[dict[str, dict[str, Counter[str]]], set[MentionRef], set[MentionRef]]:
    """Place key → article → how its mentions there read (role cues and place cues); the
    mentions that are the place itself (``_the_place_itself``), which no split moves; and the
    others whose own words say they play (a score, "beat X", a record)."""
    found: defaultdict[str, dict[str, Counter[str]]] = defaultdict(dict)
    itself: set[MentionRef] = set()
    cued: set[MentionRef] = set()
    for extraction in extractions:
        doc_id, text = extraction.document.doc_id, extraction.document.text
        for mention in extraction.mentions:
            key = resolution.assignments.get((doc_id, mention.begin, mention.end))
            if key is None or mention.is_description or not _is_city(resolution.entity(key)):
                continue
            cues = found[key].setdefault(doc_id, Counter())
            cues["mentions"] += 1
            if _the_place_itself(text, mention.begin, mention.end):
                cues[ITSELF] += 1
                itself.add((doc_id, mention.begin, mention.end))
            if (role := role_cue(text, mention.begin, mention.end)) is not None:
                cues[role] += 1
            if role == CLUB and (doc_id, mention.begin, mention.end) not in itself:
                cued.add((doc_id, mention.begin, mention.end))
    return found, itself, cued


def _is_city(entity: Entity) -> bool:
    """A place that may share its name with a club: a city or town GeoNames knows, or a US
    state ("Texas" of the Texas Rangers in a table of standings). A country's team is written
    as the country, and stays with it; so does a nation GeoNames does not link, such as
    "Scotland"."""
    if entity.kind is not EntityKind.PLACE:
        return False
    if entity.geo is None:
        return name_key(entity.label) in us_state_names()
    return entity.geo.feature == "city"


def _club_articles(articles: dict[str, Counter[str]]) -> set[str]:
    """The articles whose mentions read as the organisation, if some (not all) do, or if
    some mention in them is still the place (a dateline, a fixture's venue)."""
    moved = {doc for doc, cues in articles.items() if cues[CLUB] > cues[PLACE]}
    if moved == set(articles) and not any(articles[doc][ITSELF] for doc in moved):
        return set()
    return moved


#: A fixture in a line of its own: "CHICAGO AT TORONTO", "Leeds at Everton" — the second
#: name is where it is played.
_FIXTURE = re.compile(rf"{SIDE} (?:at|AT) ({SIDE})")


#: After a venue heading a line of results: "At Portsmouth : Middlesex beat …".
_VENUE_COLON = re.compile(r"\s*:")
#: "in" right before a name: where something is, or happens ("In Seattle , Pete Incaviglia's
#: grand slam …", "a hero in Turin").
_IN_BEFORE = re.compile(r"(?<![\w-])[Ii]n $")
#: "In" opening a line or a sentence, and the comma after the place it introduces.
_OPENING_IN = re.compile(r"(?:^|(?<=[.!?] ))In $", re.MULTILINE)
_COMMA_AFTER = re.compile(r"\s?,")
#: A possessive after a name: its owner, the club ("in Toronto's rotation").
_OWNER_AFTER = re.compile(r"\s?['’]s?\b")


def _the_place_itself(text: str, begin: int, end: int, strict: bool = False) -> bool:
    """Whether a city's mention in a club's article is still the city: a dateline's place
    ("MOSCOW 1996-08-30", "KYIV, May 18 -") or where a fixture is played ("CHICAGO AT
    TORONTO", "At Portsmouth : Middlesex beat Hampshire"), or where something happens ("In
    Seattle , Pete Incaviglia's grand slam …"; not "in Seattle's rotation"; ``strict``: only
    "In X ," opening a sentence).

    >>> _the_place_itself("CHICAGO AT TORONTO", 11, 18), _the_place_itself("CHICAGO AT TORONTO",
    ...                                                                     0, 7)
    (True, False)
    >>> _the_place_itself("MOSCOW 1996-08-30", 0, 6)
    True
    >>> text = "In Seattle , he won in Seattle's side"
    >>> _the_place_itself(text, 3, 10), _the_place_itself(text, 22, 29)
    (True, False)
    """
    line_begin = text.rfind("\n", 0, begin) + 1
    if is_dateline(text[line_begin:begin], text[end : end + 60]):
        return True
    if text[line_begin:begin] == "At " and _VENUE_COLON.match(text, end):
        return True  # "At Chesterfield : Derbyshire beat Worcestershire …"
    venue = VENUE_HEADING.match(text, line_begin)
    if venue is not None and venue.span(1) == (begin, end):
        return True  # "Bristol : Gloucestershire 183 and 185-6 …"
    if strict:  # "invested in Nokia", "a stake in Orange": a firm may stand after "in"
        if _OPENING_IN.search(text, max(0, begin - 4), begin) and _COMMA_AFTER.match(text, end):
            return True  # "In Toronto , Kevin Tapani allowed …", opening its sentence
    elif _IN_BEFORE.search(text, max(0, begin - 4), begin) and not _OWNER_AFTER.match(text, end):
        return True  # "a conference in Brighton"; not "in Toronto's rotation"
    line_end = text.find("\n", end)
    fixture = _FIXTURE.fullmatch(text, line_begin, line_end if line_end >= 0 else len(text))
    return fixture is not None and fixture.span(1) == (begin, end)


def places_apart(resolution: Resolution, extractions: Sequence[Extraction]) -> Resolution:
    """``resolution`` with each mention that is a city itself (a dateline's place, a fixture's
    venue, "In X ," opening a sentence; for a club — an organisation some mention of which
    plays: a score, "X striker" — also a mid-sentence "in X", where a firm named like a town
    may stand: ``_the_place_itself``) taken from the organisation of the city's name it was
    resolved to ("TORONTO 1996-08-30" in a corpus whose "Toronto" is the baseball club) and
    given to the place of that name (``place/<slug>``, the one resolution has, else a new one
    linked to GeoNames). An organisation all of whose mentions are so is left as it is."""
    by_key = {entity.key: entity for entity in resolution.entities}
    aliases = {alias for entity in resolution.entities for alias in entity.aliases}
    texts = {e.document.doc_id: e.document.text for e in extractions}
    moves: defaultdict[str, list[MentionRef]] = defaultdict(list)
    refs: Counter[str] = Counter()
    clubs = {key for ref, key in resolution.assignments.items()
             if by_key[key].kind is EntityKind.ORGANIZATION and ref[0] in texts
             and role_cue(texts[ref[0]], ref[1], ref[2]) == CLUB}
    for ref, key in resolution.assignments.items():
        refs[key] += 1
        text = texts.get(ref[0])
        if (text is not None and by_key[key].kind is EntityKind.ORGANIZATION
                and _the_place_itself(text, ref[1], ref[2], strict=key not in clubs)
                and is_known_place_written(text[ref[1] : ref[2]])):
            moves[key].append(ref)
    assignments = dict(resolution.assignments)
    added: dict[str, Entity] = {}
    for key, moved in sorted(moves.items()):
        label = by_key[key].label
        place_key = PLACE_PREFIX + slugify(label)
        place = by_key.get(place_key) or added.get(place_key)
        if len(moved) == refs[key] or place_key in aliases or (
                place is not None and place.kind is not EntityKind.PLACE):
            continue
        if place is None:
            geo, note = link_place(_city_form(label), frozenset())
            place = added[place_key] = Entity(place_key, EntityKind.PLACE, _city_form(label),
                                              geo=geo, geo_note=note)
        for ref in moved:
            assignments[ref] = place.key
    if assignments == resolution.assignments:
        return resolution
    return Resolution((*resolution.entities, *added.values()), assignments, resolution.decisions)


def _city_form(name: str) -> str:
    """A name set in capitals in the case GeoNames writes it ("TORONTO" → "Toronto")."""
    return name.title() if name.isupper() else name


def split_clubs(resolution: Resolution, extractions: Sequence[Extraction]) -> Resolution:
    """``resolution`` with each city's club articles given to an organisation of the same
    name (see the module docstring)."""
    by_key = {entity.key: entity for entity in resolution.entities}
    assignments = dict(resolution.assignments)
    added: list[Entity] = []
    aliases = {alias: entity.key for entity in resolution.entities for alias in entity.aliases}
    readings, itself, cued = _readings(resolution, extractions)
    for key, articles in sorted(readings.items()):
        moved = _club_articles(articles)
        own = _cued_alone(key, articles, cued, resolution)
        place = by_key[key]
        club_key = ORGANIZATION_PREFIX + slugify(place.label)
        if club_key == key:
            club_key += "-2"
        club = by_key.get(club_key)
        if not (moved or own) or aliases.get(club_key, key) != key or (
                club is not None and club.kind is not EntityKind.ORGANIZATION):
            continue
        if club_key in place.aliases:  # this split, made by an earlier build
            by_key[key] = replace(place, aliases=tuple(a for a in place.aliases
                                                       if a != club_key))
        if club is None:
            club = Entity(club_key, EntityKind.ORGANIZATION, place.label)
            by_key[club_key] = club
            added.append(club)
        for ref, assigned in resolution.assignments.items():
            if assigned == key and (ref[0] in moved and ref not in itself or ref in own):
                assignments[ref] = club_key
    if assignments == resolution.assignments:
        return resolution
    entities = tuple(by_key[entity.key] for entity in resolution.entities)
    return Resolution((*entities, *added), assignments, resolution.decisions)


def _cued_alone(key: str, articles: dict[str, Counter[str]], cued: set[MentionRef],
                resolution: Resolution) -> set[MentionRef]:
    """The mentions of place ``key`` whose own words say they play ("Baltimore has won 16 of
    its last 22", "beat X") in the articles whose mentions read as the place as often as the
    club ("played eight seasons in Baltimore"), which keep the place
    (``resolve.entities.club-cued-mention``): the club all the same. Such an article has a
    mention that reads as the place, which stays."""
    mixed = {doc for doc, cues in articles.items() if 0 < cues[CLUB] <= cues[PLACE]}
    own = {ref for ref in cued if ref[0] in mixed and resolution.assignments.get(ref) == key}
    return own if own and applies(CLUB_CUED_MENTION, lambda: True) else set()


#: An article that writes this many different words of a match or a club is about sport
#: (``sports-context-words.txt``): a town's name in it is its club unless it says otherwise.
SPORTS_ARTICLE = 3
_WORDS = re.compile(r"[a-z][a-z-]*")
#: How a mention of a town's name reads: the town, its club, an organisation of some kind.
TOWN, CLUB_READ, BODY = "town", "club", "body"


def _sports_words(text: str) -> set[str]:
    """The words of a match or a club ``text`` writes.

    >>> sorted(_sports_words("Bangor, beaten 5-1 by Newry in the Cup, will take on Portadown."))
    ['cup']
    """
    return set(_WORDS.findall(text.lower())) & word_list("sports-context-words")


#: A side of a fixture: "Leeds v Saracens".
_VERSUS_AFTER = re.compile(r"\s+(?:v|vs|V|VS)\.?\s+[A-Z]")
_VERSUS_BEFORE = re.compile(r"[A-Za-z]\s+(?:v|vs|V|VS)\.?\s+$")
#: A team sheet: "Leeds: Balshaw; Rees, Christophers, …", a player's club in brackets
#: ("M Davies (Gloucester), A Jones (Neath-Swansea); …").
_SHEET_AFTER = re.compile(r"\s*:\s+[A-Z][\w'’-]+(?: [A-Z][\w'’-]+)?\s*[;,]")
_BRACKETED = re.compile(r"\([\w'’ -]*$")
#: Brackets on a line that make it a team sheet.
SHEET_BRACKETS = 3


def _reading(text: str, begin: int, end: int, sentence: str) -> str | None:
    """How one mention of a town's name reads: the town ("in Leeds", a dateline, a venue),
    its club (a score, "beat X", "X striker", a fixture, a team sheet, or a sentence about a
    match or a club), an organisation of some kind ("X chairman"), or nothing.

    >>> _reading("Leeds v Saracens (Fri)", 0, 5, "Leeds v Saracens (Fri)")
    'club'
    >>> line = "G Jenkins (Cardiff), M Davies (Gloucester), A Jones (Neath-Swansea)"
    >>> _reading(line, 31, 41, line)
    'club'
    >>> _reading("a doctor from Bolton, said", 14, 20, "a doctor from Bolton, said")
    """
    role = role_cue(text, begin, end)
    if role == PLACE or _the_place_itself(text, begin, end):
        return TOWN
    line_begin, line_end = line_around(text, begin)
    if (role == CLUB or _sports_words(sentence) or _VERSUS_AFTER.match(text, end)
            or _VERSUS_BEFORE.search(text, max(0, begin - 30), begin)
            or _SHEET_AFTER.match(text, end)
            or _BRACKETED.search(text, max(line_begin, begin - 30), begin)
            and text.count("(", line_begin, line_end) >= SHEET_BRACKETS):
        return CLUB_READ
    return BODY if role is not None else None


def towns_from_clubs(resolution: Resolution, extractions: Sequence[Extraction]) -> Resolution:
    """``resolution`` with the mentions of a club named as its town that read as the town
    given to the town: an organisation whose name GeoNames knows as a city, and that some
    mention reads as a club (a score, "beat X", a sentence about a match), keeps the mentions
    that read as the club or stand in an article about sport; "in Leeds", "a doctor from
    Bolton", "Leeds band Kaiser Chiefs" in an article about music go to the place of that
    name (the one resolution has, else a new one linked to GeoNames). An organisation no
    mention of which reads as a club (a firm named like a town) is left as it is."""
    by_key = {entity.key: entity for entity in resolution.entities}
    towns = {e.key for e in resolution.entities if e.kind is EntityKind.ORGANIZATION
             and is_known_place_written(e.label) and not is_country_name(e.label)}
    if not towns:
        return resolution
    texts = {e.document.doc_id: e.document.text for e in extractions}
    sentences: dict[MentionRef, tuple[int, int]] = {}
    for extraction in extractions:
        bounds = {s.index: (s.begin, s.end) for s in extraction.sentences}
        for m in extraction.mentions:
            sentences[(extraction.document.doc_id, m.begin, m.end)] = bounds.get(
                m.sentence, (m.begin, m.end))
    readings: defaultdict[str, dict[MentionRef, str | None]] = defaultdict(dict)
    for ref, key in resolution.assignments.items():
        text = texts.get(ref[0])
        if key in towns and text is not None:
            begin, end = sentences.get(ref, (ref[1], ref[2]))
            readings[key][ref] = _reading(text, ref[1], ref[2], text[begin:end])
    sports: dict[str, int] = {}
    assignments = dict(resolution.assignments)
    added: dict[str, Entity] = {}
    for key, read in sorted(readings.items()):
        docs = {ref[0] for ref in read}
        for doc in docs - set(sports):
            sports[doc] = len(_sports_words(texts[doc]))
        if 2 * sum(sports[doc] >= SPORTS_ARTICLE for doc in docs) < len(docs):
            continue  # mostly written where no sport is: a firm named like a town
        clubs = {ref[0] for ref, how in read.items() if how == CLUB_READ}
        moved = [ref for ref, how in read.items() if how == TOWN or how is None and (
            ref[0] not in clubs and not sports[ref[0]])]
        if not moved or len(moved) == len(read):
            continue
        label = _city_form(by_key[key].label)
        place_key = PLACE_PREFIX + slugify(label)
        place = by_key.get(place_key) or added.get(place_key)
        if place is not None and place.kind is not EntityKind.PLACE:
            continue
        if place is None:
            geo, note = link_place(label, frozenset())
            place = added[place_key] = Entity(place_key, EntityKind.PLACE, label, geo=geo,
                                              geo_note=note)
        for ref in moved:
            assignments[ref] = place.key
    if assignments == resolution.assignments:
        return resolution
    return Resolution((*resolution.entities, *added.values()), assignments, resolution.decisions)
