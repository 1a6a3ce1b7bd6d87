"""A dateline's region is a region: "COMMACK , New York 1996-08-24" is filed from the state of
New York, "LONDON , Ontario" from the province, never from the city of the same name.

Resolution joins every "New York" of a corpus and links the place to the city GeoNames knows
by that name (its tables hold countries and cities, no states or provinces); the regions of
datelines then make New York City one entity with the state. A mention that stands as the
region after a dateline's place and its comma (``kg.extract.recovery.dateline_places``) and
was resolved to a place linked to a *city* goes to a place of its own name
(``place/<slug>``, the one resolution has if it is no city; ``-region`` added where the city
itself has that key), left unlinked with a note saying why. A region linked to a country
("TAVILDARA , Tajikistan") is the country already and stays where it is.

>>> regions_apart(Resolution((), {}), []).entities
()
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from kg.extract.recovery import dateline_places, line_around
from kg.ingest.files import slugify
from kg.model import Entity, EntityKind, Extraction, MentionRef, Resolution

#: The key prefix of the region a dateline's mentions move to.
PLACE_PREFIX = "place/"
#: Why the region stays unlinked.
REGION_NOTE = ("a dateline's region (a state, province or country after the place's comma); "
               "GeoNames' tables here hold no states or provinces")


def is_dateline_region(text: str, begin: int, end: int) -> bool:
    """Whether ``text[begin:end]`` is the region after a dateline's place and its comma.

    >>> text = "COMMACK , New York 1996-08-24\\nNew York rose."
    >>> is_dateline_region(text, 10, 18), is_dateline_region(text, 30, 38)
    (True, False)
    >>> is_dateline_region("NEW YORK 1996-08-24", 0, 8)
    False
    """
    line_begin, line_end = line_around(text, begin)
    places = dateline_places(text, line_begin, line_end)
    return len(places) == 2 and places[1] == (begin, end)


def regions_apart(resolution: Resolution, extractions: Sequence[Extraction]) -> Resolution:
    """``resolution`` with each dateline region resolved to a place linked to a city given to
    a place of its own name (see the module docstring)."""
    by_key = {entity.key: entity for entity in resolution.entities}
    texts = {e.document.doc_id: e.document.text for e in extractions}
    by_name: defaultdict[str, list[MentionRef]] = defaultdict(list)
    for ref, key in resolution.assignments.items():
        entity, text = by_key[key], texts.get(ref[0])
        if (text is not None and entity.kind is EntityKind.PLACE and entity.geo is not None
                and entity.geo.feature == "city" and is_dateline_region(text, ref[1], ref[2])):
            by_name[text[ref[1] : ref[2]]].append(ref)
    assignments = dict(resolution.assignments)
    added: dict[str, Entity] = {}
    for name, refs in sorted(by_name.items()):
        region_key = PLACE_PREFIX + slugify(name)
        found = by_key.get(region_key) or added.get(region_key)
        if found is not None and (found.kind is not EntityKind.PLACE or (
                found.geo is not None and found.geo.feature == "city")):
            region_key += "-region"
            found = by_key.get(region_key) or added.get(region_key)
        if found is None:
            found = added[region_key] = Entity(region_key, EntityKind.PLACE, name,
                                               geo_note=REGION_NOTE)
        elif found.kind is not EntityKind.PLACE:
            continue
        for ref in refs:
            assignments[ref] = found.key
    if assignments == resolution.assignments:
        return resolution
    return Resolution((*resolution.entities, *added.values()), assignments, resolution.decisions)
