"""Short names of people: which longer name a one-word or shorter name may stand for.

News writes a person in full once and then shorter: "Harry Ellis … Ellis", "Sarah Palin …
Sarah". Two rules keep a short name from joining someone it does not name:

* ``resolve.article.name-ends`` — a shorter name joins a longer person name only at that
  name's end (its surname) or as its whole given name ("Juan Carlos" of "Juan Carlos
  Ferrero"); one that stops at another middle word ("Malcolm X" of his grandson "Malcolm X
  Attallah Shabazz") is not it, within an article and across;
* ``resolve.article.two-surname-owners`` — where the full names of two people of the article
  end with the same word (their given names differ in the first letter: "Olly Barkley" and a
  team sheet's "O Barkley" are one owner) a bare surname is left alone, whoever was
  introduced first (``resolve.article.first-named`` no longer picks one).

Two rules written with it were measured and removed (issue 36, 4 December;
``bench/RESULTS-extraction.md``): a bare surname joining the corpus's one full-name candidate
only where their articles share another name (harms on the check half), and a royal or papal
title and a given name ("Prince Harry") keyed as that person alone (mixed: three judged wrong
rows gone, ECB+ B³ −0.001).

Both are conditions inside the join rules of ``kg.resolve.document`` and
``kg.resolve.corpus``; switched off (``kg build --rules -resolve.article.name-ends``) those
rules join as before.
"""

from __future__ import annotations

from kg.heuristics import declare, is_on

NAME_ENDS = declare(
    "resolve.article.name-ends", "resolve.article",
    reads="shorter people's names and the longer names they are part of",
    writes='no MergeDecision (a join refused: "ambiguous-surname-in-article")',
    model="a condition of the middle-name and partial-name joins",
    description="A shorter name joins a longer person name only at its end (the surname) "
                "or as its whole given name, never by stopping at a middle word.",
    example="Police in New York arrested Malcolm X Attallah Shabazz on Monday, a lawyer "
            "said. Shabazz denied the charge. His grandfather Malcolm X was killed in 1965.")
TWO_OWNERS = declare(
    "resolve.article.two-surname-owners", "resolve.article",
    reads="a bare surname and the article's full names ending with it",
    writes='no MergeDecision (a join refused: "ambiguous-surname-in-article")',
    model="a condition of the surname join",
    description="A bare surname two people's full names of the article end with (their given "
                "names differ in the first letter) is left alone, whoever was introduced "
                "first.",
    example="England coach Andy Robinson named his side on Monday. Robinson, Cueto and "
            "Lewsey start on the wings. Jason Robinson returns at full-back.")


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
