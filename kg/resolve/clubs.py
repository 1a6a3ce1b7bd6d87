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
articles read so is left whole: ``kg.resolve.types`` then makes the entity itself an
organisation.

>>> split_clubs(Resolution((), {}), []).entities
()
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace

from kg.ingest.files import slugify
from kg.lexicon.countries import name_key
from kg.model import Entity, EntityKind, Extraction, Resolution
from kg.resolve.geo import us_state_names
from kg.resolve.types import PLACE, role_cue

#: The key prefix of the organisation a city's articles move to.
ORGANIZATION_PREFIX = "organization/"
#: The role cue that moves an article's mentions to the club.
CLUB = "SportsTeam"


def _readings(resolution: Resolution, extractions: Sequence[Extraction]
              ) -> dict[str, dict[str, Counter[str]]]:
    """Place key → article → how its mentions there read (role cues and place cues)."""
    found: defaultdict[str, dict[str, Counter[str]]] = defaultdict(dict)
    for extraction in extractions:
        doc_id, text = extraction.document.doc_id, extraction.document.text
        for mention in extraction.mentions:
            key = resolution.assignments.get((doc_id, mention.begin, mention.end))
            if key is None or mention.is_description or not _is_city(resolution.entity(key)):
                continue
            cues = found[key].setdefault(doc_id, Counter())
            cues["mentions"] += 1
            if (role := role_cue(text, mention.begin, mention.end)) is not None:
                cues[role] += 1
    return found


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
    """The articles whose mentions read as the organisation, if some (not all) do."""
    moved = {doc for doc, cues in articles.items() if cues[CLUB] > cues[PLACE]}
    return moved if moved and moved != set(articles) else set()


def split_clubs(resolution: Resolution, extractions: Sequence[Extraction]) -> Resolution:
    """``resolution`` with each city's club articles given to an organisation of the same
    name (see the module docstring)."""
    by_key = {entity.key: entity for entity in resolution.entities}
    assignments = dict(resolution.assignments)
    added: list[Entity] = []
    aliases = {alias: entity.key for entity in resolution.entities for alias in entity.aliases}
    for key, articles in sorted(_readings(resolution, extractions).items()):
        moved = _club_articles(articles)
        place = by_key[key]
        club_key = ORGANIZATION_PREFIX + slugify(place.label)
        if club_key == key:
            club_key += "-2"
        club = by_key.get(club_key)
        if not moved or aliases.get(club_key, key) != key or (
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
            if assigned == key and ref[0] in moved:
                assignments[ref] = club_key
    if assignments == resolution.assignments:
        return resolution
    entities = tuple(by_key[entity.key] for entity in resolution.entities)
    return Resolution((*entities, *added), assignments, resolution.decisions)
