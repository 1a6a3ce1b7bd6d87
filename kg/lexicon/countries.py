"""Countries as English news names them: short names, acronyms and demonyms → ISO 3166 code.

GeoNames (``kg.resolve.geo``) holds each country's official short name ("United Kingdom",
"Russia"); news also writes "Britain", "the U.S.", "Russian" and "Russia's". The table
(``kg/lexicon/data/countries.toml``) maps those general English forms to the ISO code, which
both the extractor (a demonym is not a place) and the resolver (a "Russian" ministry is
Russia's) need.

>>> country_code("Russian"), country_code("the U.S."), country_code("Mariupol")
('RU', 'US', None)
"""

from __future__ import annotations

import re
from functools import lru_cache

from kg.lexicon import table

_COUNTRIES = table("countries")


@lru_cache(maxsize=1 << 16)
def name_key(text: str) -> str:
    """How country names and demonyms are compared: case-folded, dots, a leading "the" and a
    possessive dropped.

    >>> name_key("the U.S.'s")
    'us'
    """
    folded = " ".join(text.replace("’", "'").replace(".", "").casefold().split())
    folded = re.sub(r"^the\s+", "", folded)
    return re.sub(r"'s?$", "", folded)


def _entries(section: str) -> list[tuple[str, str]]:
    """(name as written, ISO code) pairs of a section of ``data/countries.toml``."""
    return [(name, code) for code, names in _COUNTRIES[section].items() for name in names]


def _table(section: str) -> dict[str, str]:
    return {name_key(name): code for name, code in _entries(section)}


def alias_names() -> list[str]:
    """Every other name of a country as written, beyond GeoNames' own ("Britain", "UK").

    >>> "Britain" in alias_names()
    True
    """
    return [name for name, _code in _entries("aliases")]


def written_forms() -> list[str]:
    """Every alias and demonym as written ("U.S.", "Britain", "Russian").

    >>> "Russian" in written_forms()
    True
    """
    pairs = _entries("aliases") + _entries("demonyms")
    return [name for name, _code in pairs]


@lru_cache(maxsize=1)
def demonyms() -> dict[str, str]:
    """Demonym (compared form) → ISO code.

    >>> demonyms()["ukrainian"]
    'UA'
    """
    return _table("demonyms")


@lru_cache(maxsize=1)
def country_aliases() -> dict[str, str]:
    """Country name or acronym (compared form) → ISO code, beyond GeoNames' own names."""
    return _table("aliases")


def demonym_code(word: str) -> str | None:
    """The ISO code a demonym denotes ("Russian" → "RU"), else ``None``.

    >>> demonym_code("Swiss"), demonym_code("Swiss-based")
    ('CH', None)
    """
    return demonyms().get(name_key(word))


def country_code(text: str) -> str | None:
    """The ISO code of a country named, abbreviated or qualified by ``text``, else ``None``.

    Only this module's table is consulted; ``kg.resolve.geo.country_by_name`` adds GeoNames' names.

    >>> country_code("Britain"), country_code("Russia's")
    ('GB', 'RU')
    """
    key = name_key(text)
    return country_aliases().get(key) or demonyms().get(key)
