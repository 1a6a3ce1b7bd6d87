"""Team sheets: a line that lists players by name ("Replacements: Cairns, Lloyd, Broster,
Chesney, Johnston.", "J Robinson (capt); M Cueto, J Noon, O Barkley; …", "Coyne (Burnley),
Jones (Wolves), Roberts (Wrexham), …").

A bare surname listed there names one player of one side: the corpus's one full name with
that surname, from another article, is rarely he (``kg.resolve.corpus``). A club in
brackets after a player ("(Burnley)") and a label before a colon ("Leeds:", "Subs Not Used:")
are no items of the list; a club alone in brackets is a sports team (``is_players_club``),
though GeoNames knows a town of that name.

>>> line = "Replacements: Cairns, Lloyd, Broster, Chesney, Johnston (Leeds), Little."
>>> [in_team_sheet(line, line.index(w), line.index(w) + len(w))
...  for w in ("Cairns", "Johnston", "Leeds", "Replacements")]
[True, True, False, False]
>>> prose = "The transmission area will include Paris, Lille, Lyon and Toulouse."
>>> in_team_sheet(prose, prose.index("Lyon"), prose.index("Lyon") + 4)
False
"""

from __future__ import annotations

import re
from functools import lru_cache

from kg.extract.recovery import line_around

__all__ = ["LISTED_SURNAME", "SHEET_ITEMS", "TEAM_SHEET_SURNAMES", "in_team_sheet",
           "is_players_club"]

#: The corpus join rule of a team sheet's bare surnames (``kg.resolve.corpus``).
TEAM_SHEET_SURNAMES = "resolve.corpus.team-sheet-surnames"
#: The identity key of a bare surname every mention of which a team sheet lists.
LISTED_SURNAME = "listed-surname"

#: A line is a team sheet when this many of its items are names …
SHEET_ITEMS = 5
#: … and they make at least this share of its items (labels before a colon aside).
SHEET_SHARE = 0.6
#: Brackets (a player's club, a minute, "(capt)"), blanked so offsets stay where they were.
_BRACKETS = re.compile(r"\([^()\n]*\)")
#: Where items end: a comma, a semicolon, a colon, a full stop before a space or the end.
_SEPARATOR = re.compile(r"[,;:]|\.(?=\s|$)")
#: One item: one to three capitalised words (an initial first: "J Robinson", "M Cueto"), or a
#: substitution, "Hodgson for Edwards".
_ITEM = re.compile(r"(?:and\s+)?(?:[A-Z]{1,2}\.?\s+)?[A-Z][\w'’-]+(?:\s+[A-Z][\w'’-]+){0,2}"
                   r"(?:\s+for\s+\S.*)?")


def in_team_sheet(text: str, begin: int, end: int) -> bool:
    """Whether ``text[begin:end]`` is an item of a team sheet (see the module docstring)."""
    line_begin, line_end = line_around(text, begin)
    items = _items(text[line_begin:line_end])
    return items is not None and any(
        b <= begin - line_begin and end - line_begin <= e for b, e in items)


def is_players_club(text: str, begin: int, end: int) -> bool:
    """Whether ``text[begin:end]`` is all a team sheet's brackets hold: the club of the player
    before it ("Pierre Mignoni (Clermont)", "Gabbidon (Cardiff)"; not "(Ryan 79)").

    >>> line = "Coyne (Burnley), Jones (Wolves), Page (Cardiff), Weston (Cardiff), Davies (Spurs)"
    >>> is_players_club(line, 7, 14), is_players_club("He was born in Leeds (Yorkshire).", 22, 31)
    (True, False)
    """
    if text[max(0, begin - 1) : begin] != "(" or text[end : end + 1] != ")":
        return False
    line_begin, line_end = line_around(text, begin)
    return _items(text[line_begin:line_end]) is not None


@lru_cache(maxsize=1 << 12)
def _items(line: str) -> tuple[tuple[int, int], ...] | None:
    """The spans of a team sheet's name items, or ``None`` if ``line`` is no team sheet."""
    blanked = _BRACKETS.sub(lambda m: " " * len(m.group()), line)
    names: list[tuple[int, int]] = []
    others = 0
    start = 0
    for separator in (*_SEPARATOR.finditer(blanked), None):
        stop = separator.start() if separator else len(blanked)
        chunk = blanked[start:stop]
        label = separator is not None and separator.group() == ":"
        if chunk.strip() and not label:
            if _ITEM.fullmatch(chunk.strip()):
                left = start + len(chunk) - len(chunk.lstrip())
                names.append((left, start + len(chunk.rstrip())))
            else:
                others += 1
        start = separator.end() if separator else stop
    if len(names) >= SHEET_ITEMS and len(names) >= SHEET_SHARE * (len(names) + others):
        return tuple(names)
    return None
