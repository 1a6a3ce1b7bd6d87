"""Within one article: which class of thing each name group is.

Each name group gets one class by vote — the tagger's label once per mention, a head word
after the name ("Azov regiment", "Azovstal steel works") three times, a locative apposition
("Rubizhne, a Donbas town") three times — then the class cues below correct what the small
model gets wrong, read from GeoNames, the article's people and the words around the mentions
(``kg.resolve.cues``):

* a full name tagged a place whose surname the article writes alone as a person twice is a
  person;
* a nation of the UK tagged an organisation is a place ("Northern Ireland");
* a one-word name that is a person's surname in the article is that person ("Palamar" after
  "Svyatoslav Palamar"), unless GeoNames knows it as a place or it is tagged a place and the
  article writes it where a place stands ("in Chechnya");
* a one-word name tagged PERSON that GeoNames knows as a city or country, and that is no
  token of a person's name in the article nor carries a title, is a place ("Kyiv") — unless
  it speaks ("Lyons said") and is no country or capital and never stands in a locative; tagged
  ORG, it must also stand in a locative ("in Mariupol"), be a country, or be followed by a
  place word — "Chelsea" the club stays an organisation;
* "a researcher at Futurelab": a body.

The cues are the heuristics of the stage ``resolve.article`` that ``CLASS_CUES`` names, a table
read by ``decide_kinds``: it runs them pass by pass in the registry's order (a pass is one cue,
or cues of which each group takes the first that applies) and records a cue's fire where it
changed a group's class.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import groupby

from kg.heuristics import Heuristic, declare, fired, steps
from kg.lexicon.countries import name_key
from kg.lexicon.words import ORG_HEAD_WORDS, PLACE_HEAD_WORDS, REGION_NAMES
from kg.model import EntityKind
from kg.resolve.cues import Cues
from kg.resolve.geo import GeoPlace, candidates, is_capital, is_place_name
from kg.resolve.groups import Group
from kg.resolve.names import edit_distance, without_suffix

__all__ = ["CLASS_CUES", "NameGroup", "decide_kinds", "place_candidates"]

PERSON, ORG, PLACE = EntityKind.PERSON, EntityKind.ORGANIZATION, EntityKind.PLACE
#: What a head word or a locative apposition counts in a group's class vote.
HEAD_VOTE = 3


@dataclass
class NameGroup:
    """The mentions of one name in one article, with what their context says."""

    group: Group
    tokens: tuple[str, ...]
    qualifier: str | None = None
    cues: list[Cues] = field(default_factory=list)
    titled: bool = False
    honorific: bool = False  # some mention read "Mr X", "Dr X"

    @property
    def kind(self) -> EntityKind:
        return self.group.kind

    @property
    def name(self) -> str:
        return self.group.name


class ArticleNames:
    """What a class cue reads of the article's other groups, as they stood when its pass
    began."""

    def __init__(self, named: Sequence[NameGroup]) -> None:
        #: One-word names written alone as a person twice or more ("Farrakhan").
        self.alone = {n.tokens[0] for n in named
                      if n.kind is PERSON and len(n.tokens) == 1 and len(n.group.refs) >= 2
                      and set(n.group.votes) == {PERSON}}
        people = [n for n in named if n.kind is PERSON and len(n.tokens) > 1]
        #: The surnames, and every word, of the article's people of two words or more.
        self.surnames = {n.tokens[-1] for n in people}
        self.person_tokens = {t for n in people for t in n.tokens}


#: A class cue's answer: the class and whether it is evidence (weighs thrice in the votes of
#: groups joined across articles); ``None`` where the cue says nothing.
Decision = tuple[EntityKind, bool] | None


def _vote(votes: Counter[EntityKind]) -> EntityKind:
    order = list(EntityKind)
    return min(votes, key=lambda k: (-votes[k], order.index(k)))


def decide_kinds(named: Sequence[NameGroup]) -> None:
    """Set each group's class: the vote, then the class cues that are on (see the module
    docstring)."""
    for n in named:
        n.group.kind = _vote(n.group.votes)
        if n.kind is PERSON:  # "Comeaux Jr." is compared as "Comeaux"
            n.tokens = without_suffix(n.tokens)
    cues = [h for h in steps("resolve.article") if h.id in CLASS_CUES]
    for _pass, together in groupby(cues, key=lambda h: CLASS_CUES[h.id]):
        in_pass = list(together)
        article = ArticleNames(named)
        for n in named:
            for cue in in_pass:
                if (decision := cue(n, article)) is not None:
                    _decide(n, decision, cue)
                    break


def _decide(n: NameGroup, decision: tuple[EntityKind, bool], cue: Heuristic) -> None:
    kind, evidence = decision
    if (kind, evidence or n.group.evidence) != (n.kind, n.group.evidence):
        fired(cue.id)
    n.group.kind = kind
    n.group.evidence = evidence or n.group.evidence


def _full_name(n: NameGroup) -> bool:
    return len(n.tokens) in (2, 3) and not is_place_name(n.name)


def _surname_alone(n: NameGroup, article: ArticleNames) -> Decision:
    # "Louis Farrakhan" tagged a place, then "Farrakhan" twice (not a name tagged an
    # organisation: a firm or club may bear a person's name, "Casa Luiz Caloi" beside "Caloi",
    # "Boston Bruins" beside "Bruins")
    last = n.tokens[-1] if n.tokens else ""
    if (_full_name(n) and n.kind is PLACE and last in article.alone
            and last not in ORG_HEAD_WORDS | PLACE_HEAD_WORDS):
        return PERSON, True
    return None


def _region_name(n: NameGroup, article: ArticleNames) -> Decision:
    # a nation of the UK, as its team too ("Ukraine beat Northern Ireland"), as a country's
    # team is the country; "the Rockies" may be the club
    if (n.kind is ORG and not any(c.head_kind is ORG for c in n.cues)
            and name_key(n.name) in REGION_NAMES and not n.name.endswith("s")):
        return PLACE, True
    return None


def _one_word_or_country(n: NameGroup) -> tuple[tuple[GeoPlace, ...], bool]:
    """The places the name may be, and whether a cue of GeoNames may read it: one word, or
    a country ("Russian Federation" tagged ORG)."""
    found = place_candidates(n.name)
    country = bool(found) and found[0].feature != "city"
    return found, len(n.tokens) == 1 or country


def _surname_of_person(n: NameGroup, article: ArticleNames) -> Decision:
    # not "war in Chechnya" after a headline's "Lebed Chechnya peace plan"
    found, readable = _one_word_or_country(n)
    locative = any(c.locative for c in n.cues)
    if (readable and not found and n.tokens[0] in article.surnames and n.kind is not PERSON
            and not (n.kind is PLACE and locative)):
        return PERSON, True
    return None


def _known_place(n: NameGroup, article: ArticleNames) -> Decision:
    found, readable = _one_word_or_country(n)
    if (not readable or not found or article.person_tokens & set(n.tokens) or n.titled
            or any(c.head_kind is ORG for c in n.cues)):
        return None
    locative = any(c.locative for c in n.cues)
    country = found[0].feature != "city"
    capital = len(n.tokens) == 1 and is_capital(found[0])  # "capture Kyiv", "Kyiv says"
    speaker = not (locative or country or capital) and any(c.speaks for c in n.cues)
    if (n.kind is PERSON and not speaker) or (n.kind is ORG and (locative or country
                                                                or capital)):
        return PLACE, True
    return None


def _employer(n: NameGroup, article: ArticleNames) -> Decision:
    # "a researcher at Futurelab": a place GeoNames does not know that employs someone, and
    # stands in no other place's position, is a body
    if (n.kind is PLACE and not is_place_name(n.name) and any(c.employs for c in n.cues)
            and not any(c.locative and not c.employs for c in n.cues)):
        return ORG, True
    return None


@lru_cache(maxsize=1 << 14)
def place_candidates(name: str) -> tuple[GeoPlace, ...]:
    """GeoNames records a name tagged as something else may denote: by main name, or by an
    alternate spelled almost like the main name ("Zaporizhzhia" for "Zaporizhzhya"). Loose
    alternates do not count here: "Bono" is an alternate name of Bonn.

    >>> [p.name for p in place_candidates("Zaporizhzhia")], place_candidates("Bono")
    (['Zaporizhzhya'], ())
    """
    found = candidates(name, alternates=False)
    if found or len(name) < 5:
        return found
    key = name.casefold()
    return tuple(p for p in candidates(name) if edit_distance(key, p.name.casefold()) <= 2)


# -- the registry's entries: the votes' cues and the class cues, in the order they run --

_VOTE = "a vote for the group's class"
HEAD_WORD_VOTE = declare(
    "resolve.article.head-word", "resolve.article",
    reads="a unit, place or works word right after the name (``kg.resolve.cues``)",
    writes=f"{_VOTE}, and the name with its head as a form", model="votes 3",
    description="A head word after a name votes thrice for its class: \"Azov regiment\" an "
                "organisation, \"Donbas region\" or \"Azovstal steel works\" a place.",
    example="Rockets were fired by the Hezbollah militia on Monday.")
APPOSITION_VOTE = declare(
    "resolve.article.apposition", "resolve.article",
    reads="an apposition naming a place right after the name",
    writes=_VOTE, model="votes 3",
    description="\"X, a Donbas town\": the apposition's place noun votes thrice for a place.",
    example="Shelling hit Rubizhne, a Donbas town, on Monday.")

_CLASS = "the group's class (and whether it is evidence)"
#: The class cues: id → the pass it runs in (a pass of several: the first cue that applies).
CLASS_CUES: dict[str, str] = {}
for _id, _fn, _pass, _reads, _description, _example in (
    ("surname-alone", _surname_alone, "surname-alone",
     "a full name tagged a place, one-word names of people",
     "A full name tagged a place whose surname the article writes alone as a person twice or "
     "more is a person.",
     "Ten points from Ronan O'Gara kept Munster top. O'Gara kicked well and O'Gara was named "
     "man of the match."),
    ("region-name", _region_name, "geo-and-people",
     "an organisation's name and ``region-names.txt``",
     "A nation of the UK tagged an organisation, as its team too, is a place (\"Ukraine beat "
     "Northern Ireland\").", "Ukraine beat Northern Ireland 2-0 in Kyiv."),
    ("surname-of-person", _surname_of_person, "geo-and-people",
     "a one-word name, the article's people, GeoNames",
     "A one-word name that is a person's surname in the article is that person, unless "
     "GeoNames knows it or, tagged a place, it stands where a place does.",
     "Audrey Tautou stars as a nurse. Tautou was praised. Critics loved Tautou."),
    ("known-place", _known_place, "geo-and-people",
     "a one-word name or a country, GeoNames, the article's people",
     "A name GeoNames knows as a city or country is a place: tagged a person unless it speaks, "
     "tagged an organisation where it stands in a locative, is a country or a capital.",
     "Troops advanced towards Kyiv. Kyiv said the attack had failed."),
    ("employer", _employer, "employer",
     "a \"place\" GeoNames does not know after an occupation's \"at\"",
     "A \"place\" GeoNames does not know where someone works (\"a researcher at Futurelab\") "
     "is a body.", "Ben Lee, a researcher at Futurelab, said games help children learn."),
):
    declare(f"resolve.article.{_id}", "resolve.article", fn=_fn, reads=_reads, writes=_CLASS,
            description=_description, example=_example)
    CLASS_CUES[f"resolve.article.{_id}"] = _pass

#: How a class cue is called.
ClassCue = Callable[[NameGroup, ArticleNames], Decision]
