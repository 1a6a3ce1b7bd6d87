"""Short names of people: which longer name a one-word or shorter name may stand for.

News writes a person in full once and then shorter: "Harry Ellis … Ellis", "Sarah Palin …
Sarah". Three rules keep a short name from joining someone it does not name:

* ``resolve.article.name-ends`` — within an article a short name joins a longer person name
  only at that name's end (its surname) or as its whole given name ("Juan Carlos" of "Juan
  Carlos Ferrero"); a shorter name that stops at another middle word of a longer one
  ("Malcolm X" of his grandson "Malcolm X Attallah Shabazz") is not it — within an article
  and across — and where two full names of the article end with the same word a bare surname is left
  alone, whoever was introduced first (a squad list's "Robinson" beside the coach Andy
  Robinson and the player Jason Robinson).
* ``resolve.corpus.shared-short-name`` — across articles a bare surname (or given name)
  joins the one full name the corpus offers only where the articles of that person share
  another name with its own article (co-occurring people, places, organisations); else it
  stays apart: a "Foster" of a line-up is not the one Foster named in full elsewhere.
* ``resolve.article.regnal-given-name`` — a royal or papal title and a given name ("Prince
  Harry", "King Abdullah", "Pope John Paul") name that one person: the name group carries a
  ``regnal`` flag (``kg.resolve.kinds.NameGroup``), its identity key is a regnal key, and it
  is never joined to a person merely sharing the given name (Harry Ellis, Charles Kennedy).

The rules are conditions inside the join rules of ``kg.resolve.document`` and
``kg.resolve.corpus``; switched off (``kg build --rules -ID``) those rules join as before.
"""

from __future__ import annotations

from collections.abc import Sequence

from kg.heuristics import declare, is_on
from kg.lexicon import word_list

#: Titles that go with a monarch's or a pope's given name ("Prince Harry", "Pope John Paul").
REGNAL_TITLES = word_list("regnal-titles")
#: The identity key kind of a regnal name: "Prince Harry" is found again only as itself.
REGNAL_KEY = "regnal"

_JOINED = "a MergeDecision"

NAME_ENDS = declare(
    "resolve.article.name-ends", "resolve.article",
    reads="one-word and shorter people's names, the article's full names",
    writes=f'no {_JOINED} (a join refused: "ambiguous-surname-in-article")',
    model="a condition of the surname and middle-name joins",
    description="A short name joins a longer person name of the article only at its end (the "
                "surname) or as its whole given name, never by a middle word; a bare surname "
                "two full names of the article end with is left alone.",
    example="England coach Andy Robinson named his side on Monday. Robinson, Cueto and "
            "Lewsey start on the wings. Jason Robinson returns at full-back.")
SHARED_SHORT_NAME = declare(
    "resolve.corpus.shared-short-name", "resolve.corpus",
    reads="bare surnames, their one candidate full name and the other names of both "
          "articles",
    writes=f'no {_JOINED} (refused: "short-name-without-context")',
    model="a condition of the surname join",
    description="A bare short name joins the one full name of the corpus only where that "
                "person's articles share another name with its own article; else it stays "
                "apart.",
    example="Wasps beat London Irish. Hodgson kicked two penalties for Wasps.\n|||\n"
            "Charlie Hodgson kicked for England against Wales in Cardiff.")
REGNAL = declare(
    "resolve.article.regnal-given-name", "resolve.article",
    reads="the titles before a person's name (regnal-titles.txt)",
    writes='the name group\'s "regnal" flag and its identity key',
    model="a condition of the given-name joins",
    description="A royal or papal title and a given name (\"Prince Harry\", \"King "
                "Abdullah\") is that one person: never joined to another person merely "
                "sharing the given name.",
    example="Prince Harry apologised on Thursday. Harry wore the uniform to a party.\n|||\n"
            "Harry Ellis scored a try for England.")


def is_regnal(titles: Sequence[str]) -> bool:
    """Whether a mention's title phrases end in a royal or papal title ("Prince", "Britain's
    Queen"), where ``resolve.article.regnal-given-name`` is on.

    >>> is_regnal(("Prince",)), is_regnal(("Tory leader",))
    (True, False)
    """
    return is_on(REGNAL.id) and any(
        phrase.split()[-1].lower().rstrip(".") in REGNAL_TITLES for phrase in titles if phrase)


def ends_inside(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """Whether a shorter name is part of a longer one only by stopping at a middle word of it,
    and is not its whole given name ("malcolm x" of "malcolm x attallah shabazz", his
    grandson; "juan carlos" of "juan carlos ferrero" is the given name) — where
    ``resolve.article.name-ends`` is on, no join.

    >>> ends_inside(("malcolm", "x"), ("malcolm", "x", "attallah", "shabazz"))
    True
    >>> ends_inside(("juan", "carlos"), ("juan", "carlos", "ferrero"))
    False
    >>> ends_inside(("mark", "heller"), ("mark", "jay", "heller"))
    False
    """
    return is_on(NAME_ENDS.id) and short[-1] != long[-1] and short != long[:-1]
