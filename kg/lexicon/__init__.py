"""The lexicon: every word list of kg, once, as data files under ``kg/lexicon/data/``.

General English news vocabulary, never anything about a particular story. A list is a plain
text file (one entry a line) or, for mappings, a TOML file; each starts with ``#`` comments
saying what the list is for. This module is the one loader (cached, through
``importlib.resources`` so a plain wheel works); ``words.py``, ``fact_words.py`` and
``countries.py`` give the lists their Python names.

    words.py       titles, institution and company words, honorifics, number qualifiers …
    fact_words.py  speech cues, event triggers, ranks, counted things
    countries.py   countries as news names them: short names, acronyms, demonyms → ISO code

>>> "minister" in word_list("titles")
True
>>> table("spellings")["general"]["defense"]
'defence'
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any

__all__ = ["data_files", "first_holders", "table", "word_list", "word_sequence"]

_DATA = files("kg.lexicon") / "data"


def _file(name: str, suffix: str) -> Traversable:
    found = _DATA / f"{name}{suffix}"
    if not found.is_file():
        raise LookupError(f"kg/lexicon/data/{name}{suffix}: no such word list")
    return found


@cache
def word_sequence(name: str) -> tuple[str, ...]:
    """The entries of ``data/NAME.txt`` in file order: one a line, blank lines and ``#``
    comments skipped, inner white space folded to one space.

    >>> word_sequence("facility-tails")[0]
    'steel works'
    """
    lines = _file(name, ".txt").read_text(encoding="utf-8").splitlines()
    entries = (" ".join(line.split("#", 1)[0].split()) for line in lines)
    return tuple(entry for entry in entries if entry)


@cache
def word_list(name: str) -> frozenset[str]:
    """The entries of ``data/NAME.txt`` as a set (made once: rules ask per token).

    >>> "mrs" in word_list("honorifics")
    True
    """
    return frozenset(word_sequence(name))


@cache
def table(name: str) -> dict[str, Any]:
    """The mapping in ``data/NAME.toml`` (do not modify it: it is shared).

    >>> table("ranks")["gen"]
    'General'
    """
    with _file(name, ".toml").open("rb") as stream:
        return tomllib.load(stream)


def first_holders(lists: Iterable[tuple[str, Iterable[str]]]) -> dict[str, str]:
    """Each word of ``lists`` (pairs of a key and its words, in order) → the key of the first
    list holding it: which class an ordered set of word lists gives a word, looked up once
    instead of list by list.

    >>> first_holders([("army", ["troops", "forces"]), ("police", ["forces", "officers"])])
    {'troops': 'army', 'forces': 'army', 'officers': 'police'}
    """
    first: dict[str, str] = {}
    for key, words in lists:
        for word in words:
            first.setdefault(word, key)
    return first


def data_files() -> list[Traversable]:
    """Every data file of the lexicon, sorted by name (the extraction cache hashes them).

    >>> any(f.name == "titles.txt" for f in data_files())
    True
    """
    return sorted((f for f in _DATA.iterdir() if f.name.endswith((".txt", ".toml"))),
                  key=lambda f: f.name)
