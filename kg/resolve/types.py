"""Finer classes from the article's own words: what kind of organisation, or what kind of thing,
a name is, when the text says so.

The small model's labels give four coarse classes; news says more. Four cues, read from the
text around every mention of an entity (all its articles vote; the most frequent class wins,
ties by name):

* the last word (or two) of an organisation's name, or the word before its "of": "Defence
  **Ministry**", "Labour **Party**", "Acme **Corp**", "Turkish **Central Bank**", "**Ministry**
  of Defence";
* a party, newspaper or product noun among the lowercase words right after the name: "X
  **party** leaders", "the X intercontinental ballistic **missile**" — unless the next word
  shows it is only a modifier ("the X tank **factory**", ``types-compound-blockers.txt``);
* an apposition: "X, the country's largest **bank**, …";
* a descriptor right before the name: "the **carmaker** X", "**rights group** X".

Organisation classes (government body, armed forces, court, party, company, news media,
sports team, NGO, school) refine only entities the model called organisations, with one
exception: what an article says a name *does* ("Chelsea **striker** Didier Drogba", "**beat**
Leicester 2-1", "**shares in** Yukos", "Fiat's **chief executive**"; ``types-sports-*``,
``types-company-*``) shows a sports team or a company even where the tagger saw a city (not a
country: national teams stay places) or a person (one never written with a title or a given
name). A one-word "person" is also one where it is written as no person is ("the Telegraph
said", "Euronext, which …", "Paris-based Activision", "commercial director at Rightmove";
``not_person_cue``). Such an entity becomes an organisation when two of its mentions say so
(its only one, if it has one), more than say it is the place ("in Leicester",
``place-cue-words``) and one in twenty of all. Product classes (weapon, vehicle, product)
also correct a "place" or "organisation" that GeoNames does not know as a place: such a thing
then keeps only its proper class (``kg.rdf.terms.classes_of``). People get no other finer
class. The word lists are general English news vocabulary in ``kg/lexicon/data/types-*.txt``.

A thing that is no person, organisation or place of its own — a film, programme, game,
recording, book, law, award, competition, festival or ground — or a band, takes its class from
the words around its mentions (``kg.resolve.things``), whatever the tagger called it: when
one mention in twenty says so (its only one, if it has one) and no fewer than name an
organisation class; of a "person" of two words or more, one in two. A person written with a
title or a given name stays a person.

Every cue, and the decisions ``with_fine_types`` takes itself (a speaker is no product, a name
of party words is a party, a "place" whose own words name an organisation is one), is a
heuristic of the stage ``resolve.class`` (``kg.heuristics``): the thing cues first (declared in
``kg.resolve.things``), then the cues of ``cues_in`` and the rest, each switchable and its fire
recorded in the article whose mention it read (the entity-wide decisions: corpus-wide).

>>> cues_in("They tested the Kestrel intercontinental ballistic missile.", 16, 23)
['Weapon']
>>> cues_in("Fidesz, the ruling party, won.", 0, 6)
['PoliticalParty']
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache

from kg.extract.recovery import ROW_NOTE, line_around
from kg.heuristics import applies, declare, fired, in_document, is_on, steps
from kg.lexicon import first_holders, table, word_list
from kg.lexicon.fact_words import OCCUPATIONS
from kg.lexicon.words import NUMBER_UNITS, REGION_NAMES, TITLE_NOUNS
from kg.model import Entity, EntityKind, Extraction, Mention, Resolution
from kg.resolve.sheets import is_players_club
from kg.resolve.things import KIND_OF_THING, WORD, speaks, thing_cues

#: Class (schema.org local name, or kg's) → the word list that names it.
ORGANIZATION_LISTS = {
    "ArmedForces": "types-armed-forces",
    "Court": "types-court",
    "GovernmentOrganization": "types-government",
    "PoliticalParty": "types-party",
    "NewsMediaOrganization": "types-media",
    "Corporation": "types-company",
    "SportsTeam": "types-sports",
    "NGO": "types-ngo",
    "EducationalOrganization": "types-education",
}
PRODUCT_LISTS = {"Weapon": "types-weapon", "Vehicle": "types-vehicle", "Product": "types-product"}
#: The classes a noun right after a name may give: "the X party", "the X newspaper", "the X
#: missile". Other organisation nouns there name a part of X ("the X commission", "X forces").
AFTER_NAME = frozenset({"PoliticalParty", "NewsMediaOrganization", *PRODUCT_LISTS})
#: How many lowercase words after a name (or in an apposition) are read.
MAX_RUN = 4
APPOSITION_WORDS = 7

#: Classes shown by what a name does: (words right after it, words right before it, and
#: the class's own nouns, which count right before it too: "oil giant Yukos", "side Leeds").
ROLE_LISTS = {
    "SportsTeam": ("types-sports-after", "types-sports-before", "types-sports"),
    "Corporation": ("types-company-after", "types-company-before", "types-company"),
}
#: An organisation of some kind (counted against a city's place reading only).
SOME_ORGANIZATION = "Organization"
PLACE = "Place"
#: A one-word "person" written as no person is ("the Telegraph said", "Euronext, which …",
#: "Paris-based Euronext"): counted for the tagger's one-word people only.
NOT_PERSON = "NotPerson"
_THE = re.compile(r"\b[Tt]he $")
#: "the" inside a longer name: "Day of the Jackal", "the Deaf and the Blind", "Guide To The
#: Galaxy".
_NAME_THE = re.compile(r"[A-Z][\w'’-]*\s+(?:[Oo]f|[Aa]nd|[Ff]or|[Ii]n|[Oo]n|[Tt]o)\s+[Tt]he $")
_CLOSED = re.compile(r"(?!,\s+who\b)(?:\s*[.,;:!?)]|\s*$|\s+(?:is|was|are|were|has|have|had|"
                     r"said|says|will|would)\b)")
_WHICH = re.compile(r",\s+which\b")
_BASED = re.compile(r"-based\s+$")
#: A post or occupation "at" a name: "commercial director at Rightmove", "analyst at Fitch".
_POST_AT = re.compile(r"\b([a-z]+) at $")
POST_WORDS = TITLE_NOUNS | OCCUPATIONS
#: Mentions that must say what an entity does before its class changes, and their share.
MIN_ROLE_CUES, MIN_ROLE_SHARE = 2, 0.05
#: The share of a full name's mentions the tagger called a person that must say it plays as a
#: team before it is one ("Lindsay Davenport", beaten twice in eleven mentions, is a player).
FULL_NAME_TEAM_SHARE = 0.5
#: The share of an entity's mentions that must say it is a thing (``kg.resolve.things``).
THING_SHARE = 0.05
#: ... and of a "person" of two words or more ("Howard Hughes", not "Oscar"): the tagger's
#: person is then a thing only when mostly described as one.
PERSON_THING_SHARE = 0.5
#: A price right before a name: "the $499 Macintosh" is a product (not "$5bn", a deal's size).
_PRICE = re.compile(r"[$£€]\d[\d,]*(?:\.\d\d)? $")
_NEXT_WORD = re.compile(r" ([a-z][a-z-]*)")
#: A possessive and a name it owns, past at most one lowercase word that is no stop word:
#: "Apple's iPod", "Sony's new PlayStation Portable" (a name opening with a lowercase "i" or
#: "e" and a capital too); not "the PSP's release in Europe".
_OWNED_NAME = re.compile(r"['’]s?\s+(?:(?!(?:the|a|an|in|on|at|of|for|to|and|or|by|from|with)\s)"
                         r"[a-z][a-z-]*\s+)?[ie]?[A-Z]")
_INITIAL = re.compile(r"[A-Z]\.")  # "T." of "T. Moody"
_SCORE = re.compile(r" \d{1,2} ?[-–] ?\d{1,2}\b")  # "Chelsea 2-1"
#: A side's record after its name: "Baltimore has won 16 of its last 22", "Chicago , which won
#: for only the fourth time in 15 games", "have lost six straight" — a team's results, not a
#: town's (``resolve.class.record-cue``).
_NUMBER = "(?:\\d+|" + "|".join(w for w in NUMBER_UNITS if w not in ("a", "an")) + ")"
_RECORD = re.compile(
    r"(?: , (?:which|who))? (?:has |have |had )?(?:won|lost|dropped) (?:[\w-]+ ){0,7}?"
    rf"(?:of (?:its|their) (?:last|past)\b|straight\b|in a row\b|consecutive\b"
    rf"|in {_NUMBER} (?:games|matches|starts|meetings)\b|{_NUMBER} of {_NUMBER}\b)")
_AFTER_WORDS = re.compile(r"(?:['’]s?)? ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?")
_BEFORE_WORDS = re.compile(r"(?:\b([a-z][a-z-]*) )?\b([a-z][a-z-]*) (?:the )?$")


def _class_of(phrase: str, lists: dict[str, str], cue: str = "name") -> str | None:
    """The class whose list holds ``phrase``; only the name's own last word may be a word of
    ``types-name-only`` ("Post"), and a word of ``types-not-after-name`` ("team") is no cue
    right after a name."""
    if cue != "name" and phrase in word_list("types-name-only"):
        return None
    if cue == "name" and phrase in word_list("types-not-name-word"):
        return None
    if cue == "after" and phrase in word_list("types-not-after-name"):
        return None
    return _first_class(tuple(lists.items())).get(phrase)


@cache
def _first_class(lists: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Each word of ``lists``' word lists → the first class whose list holds it (in order:
    armed forces before government, …), made once per set of lists."""
    return first_holders((cls, word_list(name)) for cls, name in lists)


def _head_class(words: Sequence[str], lists: dict[str, str], cue: str) -> str | None:
    """The class named by the last one or two of ``words`` ("rights group", "bank")."""
    for size in (2, 1):
        if len(words) >= size and (cls := _class_of(" ".join(words[-size:]), lists, cue)):
            return cls
    return None


def _following_run(text: str, end: int) -> list[str]:
    """The lowercase words right after a name, up to punctuation, a capital or a stop word."""
    run = []
    stops = word_list("types-stop-words")
    for match in WORD.finditer(text, end, min(len(text), end + 80)):
        gap = text[end:match.start()]
        word = match.group().rstrip(".").lower()
        if gap.strip() or not match.group()[0].islower() or word in stops:
            break
        run.append(word)
        end = match.end()
        if len(run) == MAX_RUN:
            break
    return run


def _after(text: str, end: int, lists: dict[str, str]) -> str | None:
    """The first class noun in the words after a name, unless the next word shows it is only
    a modifier ("the X tank factory")."""
    run = _following_run(text, end)
    lists = {cls: name for cls, name in lists.items() if cls in AFTER_NAME}
    for i in range(len(run)):
        for size in (2, 1):
            cls = _class_of(" ".join(run[i:i + size]), lists, "after") if i + size <= len(run) \
                else None
            if cls is None:
                continue
            following = run[i + size] if i + size < len(run) else None
            if following in word_list("types-compound-blockers"):
                return None
            return cls if all(_is_modifier(word) for word in run[:i]) else None
    return None


def _is_modifier(word: str) -> bool:
    """Whether ``word`` looks like a modifier of the noun after it (``types-modifiers``)."""
    entries = word_list("types-modifiers")
    return "-" in word or word in entries or any(
        word.endswith(e[1:]) for e in entries if e.startswith("-"))


def _apposition(text: str, end: int, lists: dict[str, str]) -> str | None:
    """The head of ", a/an/the … NOUN," right after the name."""
    match = _APPOSITION.match(text[end:end + 100])
    if match is None:
        return None
    words = [w.lower() for w in WORD.findall(match.group(1))][-APPOSITION_WORDS:]
    return _head_class(words, lists, "apposition")


_APPOSITION = re.compile(r",\s+(?:a|an|the)\s+([^,;:.()]{1,80}?)\s*(?=[,;:.()]|\s(?:of|in|"
                         r"that|which|who|based|with|for|and)\s)")


def _before(text: str, begin: int, lists: dict[str, str]) -> str | None:
    """A descriptor right before the name: "the carmaker X", "rights group X"."""
    words = text[max(0, begin - 60):begin].split()
    if not words or not all(WORD.fullmatch(w) and w[0].islower() for w in words[-1:]):
        return None
    tail = [w.lower() for w in words[-2:] if WORD.fullmatch(w) and w[0].islower()]
    return _head_class(tail, lists, "before")


def cues_in(text: str, begin: int, end: int, organisation: bool = True,
            product: bool = True) -> list[str]:
    """The classes the words around ``text[begin:end]`` give it (see the module docstring)."""
    lists = _LISTS[organisation, product]
    if not lists:
        return []
    found = []
    for step in steps("resolve.class"):
        if step.id in MENTION_CUES and (cls := step(text, begin, end, lists)) is not None:
            fired(step.id)
            found.append(cls)
    return found


#: The lists ``cues_in`` reads, by (organisation classes, product classes): made once.
_LISTS = {(organisation, product): {**(ORGANIZATION_LISTS if organisation else {}),
                                    **(PRODUCT_LISTS if product else {})}
          for organisation in (False, True) for product in (False, True)}


def _name_words(text: str, begin: int, end: int, lists: dict[str, str]) -> str | None:
    """The organisation class the name's own last words give ("Defence Ministry")."""
    if not lists.keys() & ORGANIZATION_LISTS.keys():
        return None
    written = WORD.findall(text[begin:end])
    if "of" in written:  # "Ministry of Defence", "Association of European Airlines": the head
        written = written[:written.index("of")]  # comes before "of"
    name = [w.rstrip(".").lower() for w in written]
    # "Premier League commission": a lowercase noun after a capitalised name is no name word
    tail_is_name = not written or written[-1][0].isupper() or not any(
        w[0].isupper() for w in written)
    return _head_class(name, ORGANIZATION_LISTS, "name") if tail_is_name and name else None


_CUE = "a class of the mention (``types-*.txt``)"
#: The cues of ``cues_in``, in the order it reads them.
MENTION_CUES = frozenset(h.id for h in (
    declare("resolve.class.name-words", "resolve.class", fn=_name_words,
            reads="the name's last word or two, or the word before its \"of\"", writes=_CUE,
            description="An organisation's own last words name its kind: \"Defence "
                        "Ministry\", \"Labour Party\", \"Acme Corp\", \"Ministry of "
                        "Defence\".",
            example="The Defence Ministry said the strikes hit depots."),
    declare("resolve.class.price", "resolve.class",
            fn=lambda text, begin, end, lists: "Product" if "Product" in lists
            and _priced(text, begin, end) else None,
            reads="a price right before the name", writes=_CUE,
            description="A price right before a name and no noun after it: \"the $499 "
                        "Macintosh\" is a product.",
            example="Apple cut the price of the $499 Macintosh, sold in shops since May."),
    declare("resolve.class.noun-after", "resolve.class",
            fn=lambda text, begin, end, lists: _after(text, end, lists),
            reads="the lowercase words right after the name", writes=_CUE,
            description="A party, newspaper or product noun after the name (\"X party "
                        "leaders\", \"the X missile\"), unless the next word makes it a "
                        "modifier (\"the X tank factory\").",
            example="They tested the Kestrel intercontinental ballistic missile."),
    declare("resolve.class.apposition", "resolve.class",
            fn=lambda text, begin, end, lists: _apposition(text, end, lists),
            reads="an apposition right after the name", writes=_CUE,
            description="The head of \", a/an/the … NOUN,\" after the name: \"X, the "
                        "country's largest bank, …\".",
            example="Toyota, the world's second-largest carmaker, said profits rose."),
    declare("resolve.class.descriptor-before", "resolve.class",
            fn=lambda text, begin, end, lists: _before(text, begin, lists),
            reads="the lowercase words right before the name", writes=_CUE,
            description="A descriptor right before the name: \"the carmaker X\", \"rights "
                        "group X\".",
            example="The carmaker Tatra said sales fell."),
))


def _priced(text: str, begin: int, end: int) -> bool:
    """Whether a price comes right before the name and no noun after it ("the $499
    Macintosh, sold …"; not "a $300 Acme phone", where the phone is the product)."""
    if not _PRICE.search(text, max(0, begin - 16), begin):
        return False
    following = _NEXT_WORD.match(text, end)
    return following is None or following.group(1) in word_list("types-stop-words")


def role_cue(text: str, begin: int, end: int) -> str | None:
    """What the words right around ``text[begin:end]`` say the name is by what it does: a
    sports team or a company (``ROLE_LISTS``, a score after it), an organisation of some kind,
    or the place itself ("in Leicester"); ``None`` when they say nothing.

    >>> role_cue("Chelsea striker Didier Drogba scored.", 0, 7)
    'SportsTeam'
    >>> role_cue("He bought shares in Yukos last year.", 20, 25)
    'Corporation'
    """
    after = _AFTER_WORDS.match(text, end)
    following = [w for w in after.groups() if w] if after else []
    before = _BEFORE_WORDS.search(text, max(0, begin - 40), begin) if _may_follow_words(
        text, begin) else None
    preceding = [w for w in before.groups() if w] if before else []
    if _SCORE.match(text, end) or _is_table_row_team(text, begin, end):
        return "SportsTeam"
    if applies(PLAYERS_CLUB.id, lambda: is_players_club(text, begin, end)):
        return "SportsTeam"  # "Pierre Mignoni (Clermont)" in a team sheet
    if applies(RECORD_CUE, lambda: _RECORD.match(text, end)):
        return "SportsTeam"  # "Baltimore has won 16 of its last 22 games"
    for cls, (after_list, before_list, nouns) in ROLE_LISTS.items():
        if (_starts(following, after_list) or _ends(preceding, before_list)
                or _ends(preceding, nouns)):
            return cls
    if _starts(following, "types-organisation-after"):
        return SOME_ORGANIZATION
    if _ends(preceding, "place-cue-words"):
        return PLACE
    return None


#: What may end a word of ``_BEFORE_WORDS``.
_WORD_END = frozenset("abcdefghijklmnopqrstuvwxyz-")


def _may_follow_words(text: str, begin: int) -> bool:
    """Whether ``_BEFORE_WORDS`` may end at ``begin``: a lowercase word and a space before it
    (or before a line break there, where ``$`` matches too). Tested first, as the pattern is
    tried at each of the 40 places before the name."""
    if text[begin - 1:begin] == "\n" and begin >= 1:
        begin -= 1
    return begin >= 2 and text[begin - 1] == " " and text[begin - 2] in _WORD_END


def not_person_cue(text: str, begin: int, end: int, unplaced: bool = True) -> bool:
    """Whether the words around a one-word name write it as no person is written: after
    "the" where a stop or a verb follows ("the Telegraph said", "signed for the Gunners.";
    not inside a longer name, "Day of the Jackal.", nor before ", who": "the Oatleys, who"
    are a family), before ", which", after "-based" ("Paris-based Euronext"), or after a
    post's "at" ("director at Rightmove") — only the last where a place's word comes before
    the name (``unplaced`` false: "in Thurso, which …" is a town). "Smith said it was over" is
    no such cue: "it" there is seldom the speaker.

    >>> not_person_cue("Varig, which flies to Lisbon, cut jobs.", 0, 5)
    True
    >>> not_person_cue("Smith said it was over.", 0, 5), not_person_cue("the Smith family", 4, 9)
    (False, False)
    """
    post = _POST_AT.search(text, max(0, begin - 30), begin)
    return bool(post and post.group(1) in POST_WORDS) or unplaced and bool(
        _THE.search(text, max(0, begin - 4), begin) and _CLOSED.match(text, end)
        and not _NAME_THE.search(text, max(0, begin - 40), begin)
        or _WHICH.match(text, end) or _BASED.search(text, max(0, begin - 8), begin))


def _is_table_row_team(text: str, begin: int, end: int) -> bool:
    """Whether the name is a side in a row of results or standings: "Bradford 1 Tranmere 0"
    (either name), "CHICAGO 71 64 .526 10" (the name opening the row).

    >>> _is_table_row_team("Bradford 1 Tranmere 0", 11, 19), _is_table_row_team(
    ...     "CHICAGO 71 64 .526 10", 0, 7), _is_table_row_team("Moscow 1996-08-30", 0, 6)
    (True, True, False)
    >>> _is_table_row_team("MILWAUKEE 5 Minnesota 4 (in 12)", 12, 21)
    True
    """
    line_begin, line_end = line_around(text, begin)
    result = _RESULT_ROW.fullmatch(text, line_begin, line_end)
    if result is not None:
        return begin in (result.start(1), result.start(2))
    return begin == line_begin and bool(_STANDINGS_ROW.fullmatch(text, end, line_end))


#: A side's name in a row of results or a fixture: up to four capitalised words.
SIDE = r"[A-Z][\w.'&-]*(?: [A-Z][\w.'&-]*){0,3}"
#: A result in a row of its own: "Bradford 1 Tranmere 0", "Crewe 0 Watford 2", "MILWAUKEE 5
#: Minnesota 4 ( in 12 )".
_RESULT_ROW = re.compile(rf"({SIDE}) \d{{1,3}} ({SIDE}) \d{{1,3}}{ROW_NOTE}")
#: What follows a side's name in a row of standings: won, lost and more figures.
_STANDINGS_ROW = re.compile(r"(?: \d{1,3}){2,}(?: [-.\d/ ]+)?")


def _starts(words: Sequence[str], name: str) -> bool:
    entries = word_list(name)
    return (len(words) >= 2 and f"{words[0]} {words[1]}" in entries
            or len(words) >= 1 and words[0] in entries)


def _ends(words: Sequence[str], name: str) -> bool:
    entries = word_list(name)
    return (len(words) >= 2 and f"{words[-2]} {words[-1]}" in entries
            or len(words) >= 1 and words[-1] in entries)


def _organisation_by_role(entity: Entity, roles: Counter[str], mentions: int,
                          titled: bool) -> str | None:
    """The class an entity the tagger took for a city or a person takes from what its
    mentions say it does (see the module docstring), else ``None``."""
    said = roles["SportsTeam"] + roles["Corporation"]
    if entity.kind is EntityKind.PLACE:
        if (entity.geo is not None and entity.geo.feature != "city") or (
                entity.label.lower() in REGION_NAMES):
            return None  # a country's, nation's or continent's team is written as it ("England")
        said += roles[SOME_ORGANIZATION]
        if said <= roles[PLACE]:
            return None
    elif entity.kind is EntityKind.PERSON:
        words = entity.label.split()
        first = words[0].lower() if words else ""
        if titled or first in _given_names() or any(_INITIAL.fullmatch(w) for w in words):
            return None  # "T. Moody 6-82": an initial is a person's
        if len(words) == 1:
            said += roles[NOT_PERSON]
        if len(words) > 1 and roles["SportsTeam"] >= roles["Corporation"]:
            # "beat Helena Sukova": people beat people; a full name needs two mentions saying
            # it is a team (one saying it is a firm, "consultants Strategy Analytics", will do)
            if applies(FULL_NAME_TEAM, lambda: roles["SportsTeam"] < FULL_NAME_TEAM_SHARE
                       * mentions):
                return None  # "beat Lindsay Davenport" twice in eleven mentions: a player
            mentions = max(mentions, MIN_ROLE_CUES)
    else:
        return None
    if said < max(min(MIN_ROLE_CUES, mentions), MIN_ROLE_SHARE * mentions):
        return None
    sports, companies = roles["SportsTeam"], roles["Corporation"]
    if sports == companies:
        return SOME_ORGANIZATION
    return "SportsTeam" if sports > companies else "Corporation"


@cache
def _given_names() -> frozenset[str]:
    names = table("given-names")
    return frozenset(n.lower() for n in [*names["male"], *names["female"]])


def _is_titled(text: str, mention: Mention) -> bool:
    """Whether a title or an honorific comes with the mention ("Mr Forsyth")."""
    if mention.titles:
        return True
    before = text[max(0, mention.begin - 12):mention.begin].split()
    return bool(before) and before[-1].lower().rstrip(".") in word_list("honorifics")


def _may_be(entity: Entity) -> tuple[bool, bool]:
    """(organisation classes, product classes) that may refine ``entity``."""
    if entity.kind is EntityKind.PERSON:
        return False, False
    known_place = entity.geo is not None
    return entity.kind is EntityKind.ORGANIZATION, not known_place


@dataclass
class _Readings:
    """What the articles' words say of each entity (by key), counted over its mentions."""

    votes: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    roles: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    things: defaultdict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    speakers: set[str] = field(default_factory=set)
    owners: set[str] = field(default_factory=set)
    mentions: Counter[str] = field(default_factory=Counter)
    titled: set[str] = field(default_factory=set)
    listed: defaultdict[str, Counter[EntityKind]] = field(
        default_factory=lambda: defaultdict(Counter))
    occupied: Counter[str] = field(default_factory=Counter)

    def read(self, extraction: Extraction, resolution: Resolution, surnames: set[str]) -> None:
        """Count the cues of one article's mentions (its cues' fires recorded in it)."""
        doc_id, text = extraction.document.doc_id, extraction.document.text
        if is_on(LIST_PEERS):
            for listed, kind in list_peer_kinds(doc_id, text, extraction.mentions,
                                                resolution):
                self.listed[listed][kind] += 1
        for mention in extraction.mentions:
            key = resolution.assignments.get((doc_id, mention.begin, mention.end))
            if key is None or mention.is_description:
                continue  # a description's words describe the person, not the name's class
            entity = resolution.entity(key)
            organisation, product = _may_be(entity)
            self.things[key].update(thing_cues(text, mention.begin, mention.end))
            self.votes[key].update(cues_in(text, mention.begin, mention.end, organisation,
                                           product))
            _count_roles(text, mention, entity, surnames, self.roles[key])
            if entity.kind is not EntityKind.PERSON and is_on(OCCUPATION_BEFORE) \
                    and _after_occupation(text, mention.begin):
                self.occupied[key] += 1
            if key not in self.speakers and speaks(text, mention.end):
                self.speakers.add(key)
            if key not in self.owners and owns(text, mention.end):
                self.owners.add(key)
            self.mentions[key] += 1
            if entity.kind is EntityKind.PERSON and _is_titled(text, mention):
                self.titled.add(key)

    def without_speakers_products(self) -> None:
        """"Apple said": a maker, not the "Apple laptop"; no work speaks."""
        self._without_products(self.speakers, SPEAKER, lambda c: c in KIND_OF_THING)

    def without_owners_products(self) -> None:
        """"Apple's iPod", "Sony's PlayStation Portable": the owner of a named thing is its
        maker, no product (a work may own its cast or its sequel: it keeps its cues)."""
        self._without_products(self.owners, OWNER, lambda c: c not in PRODUCT_LISTS)

    def _without_products(self, keys: set[str], rule: str,
                          thing_kept: Callable[[str], bool]) -> None:
        """The entities ``keys`` without their product votes, and with only the thing cues
        ``thing_kept`` keeps; heuristic ``rule`` fires where that changes anything."""
        for key in keys:
            votes = Counter({c: n for c, n in self.votes[key].items() if c not in PRODUCT_LISTS})
            things = Counter({c: n for c, n in self.things[key].items() if thing_kept(c)})
            if votes != self.votes[key] or things != self.things[key]:
                fired(rule)
            self.votes[key], self.things[key] = votes, things


def owns(text: str, end: int) -> bool:
    """Whether a possessive right after a name owns a named thing ("Apple's iPod", "Sony's
    new PlayStation Portable"; not "Apple's profits").

    >>> owns("Apple's iPod sold well", 5), owns("Sony's new PlayStation", 4)
    (True, True)
    >>> owns("Apple's profits rose", 5), owns("the PSP's release in Europe", 7)
    (False, False)
    """
    return _OWNED_NAME.match(text, end) is not None


def with_fine_types(resolution: Resolution, extractions: Sequence[Extraction]) -> Resolution:
    """``resolution`` with ``Entity.fine_type`` set where the articles' words give one (and a
    city or a "person" that the words show to be a team or a company made an organisation).

    >>> with_fine_types(Resolution((), {}), []).entities
    ()
    """
    surnames = {e.label.split()[-1] for e in resolution.entities
                if e.kind is EntityKind.PERSON and " " in e.label}
    read = _Readings()
    for extraction in extractions:
        with in_document(extraction.document.doc_id):
            read.read(extraction, resolution, surnames)
    if is_on(SPEAKER):
        read.without_speakers_products()
    if is_on(OWNER):
        read.without_owners_products()
    entities = tuple(
        _as_thing(e, read.things[e.key], read.votes[e.key], read.mentions[e.key],
                  e.key in read.titled)
        or _as_occupied(e, read.occupied[e.key], read.votes[e.key], read.roles[e.key],
                        read.mentions[e.key])
        or _retyped(_as_listed(e, read.listed[e.key], read.mentions[e.key],
                               e.key in read.titled, bool(read.things[e.key])),
                    read.votes[e.key], read.roles[e.key], read.mentions[e.key],
                    e.key in read.titled)
        for e in resolution.entities)
    return Resolution(entities, resolution.assignments, resolution.decisions)


def _count_roles(text: str, mention: Mention, entity: Entity, surnames: set[str],
                 roles: Counter[str]) -> None:
    """Count what the words around ``mention`` say its entity does (``role_cue``), or, for a
    one-word "person", that they write it as no person is (``not_person_cue``)."""
    role = role_cue(text, mention.begin, mention.end) if is_on(ROLE) else None
    if role == "SportsTeam" and entity.kind is EntityKind.PERSON and applies(
            SHARED_FOLLOWERS, lambda: _shared_follower(text, mention.end)):
        role = None  # "Elvis fans": a singer has fans too
    if role is not None and (role != PLACE or entity.kind is not EntityKind.PERSON):
        roles[role] += 1  # a person's "in X" only keeps ", which" from counting
        fired(ROLE)
    elif entity.kind is EntityKind.PERSON and " " not in entity.label \
            and entity.label.removesuffix("s") not in surnames and is_on(NOT_PERSON_CUE) \
            and not_person_cue(text, mention.begin, mention.end, role is None):
        # not "the Clintons"; "in Thurso, which …" is no organisation either
        roles[NOT_PERSON] += 1
        fired(NOT_PERSON_CUE)


#: What joins two names of a list: ", ", " and ", ", and ", " or " (a "the" may follow).
_LIST_GAP = re.compile(r"(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)(?:the\s+)?")
#: How many other names of a list must share one class before it speaks for a name's.
MIN_LIST_PEERS = 2
#: The share of an entity's mentions that must stand in such lists.
LIST_SHARE = 0.5


def list_peer_kinds(doc_id: str, text: str, mentions: Sequence[Mention],
                    resolution: Resolution) -> list[tuple[str, EntityKind]]:
    """(entity key, class) for every name of a list of three or more names ("PBS, the NBA,
    Fox News and C-SPAN") whose other names are all of one class, and another than its own
    entity's.

    >>> from kg.model import Entity, EntityKind, Mention, Resolution
    >>> text = "captioning for Bloomberg, BBC and BSkyB broadcasts"
    >>> def m(w, k):
    ...     b = text.index(w)
    ...     return Mention(b, b + len(w), w, w, k, "X", 0)
    >>> ms = [m("Bloomberg", EntityKind.PERSON), m("BBC", EntityKind.ORGANIZATION),
    ...       m("BSkyB", EntityKind.ORGANIZATION)]
    >>> ents = tuple(Entity(x.name, x.kind, x.name) for x in ms)
    >>> res = Resolution(ents, {("d", x.begin, x.end): x.name for x in ms})
    >>> [(key, kind.value) for key, kind in list_peer_kinds("d", text, ms, res)]
    [('Bloomberg', 'Organization')]
    """
    placed = sorted((m for m in mentions if not m.is_description), key=lambda m: m.begin)
    chains: list[list[Mention]] = []
    for mention in placed:
        last = chains[-1][-1] if chains else None
        if last is not None and last.sentence == mention.sentence and last.end <= mention.begin \
                and _LIST_GAP.fullmatch(text, last.end, mention.begin):
            chains[-1].append(mention)
        else:
            chains.append([mention])
    found = []
    for chain in (c for c in chains if len(c) > MIN_LIST_PEERS):
        keys = [resolution.assignments.get((doc_id, m.begin, m.end)) for m in chain]
        for i, key in enumerate(keys):
            if key is None:
                continue
            others = [k for j, k in enumerate(keys) if j != i and k is not None and k != key]
            peers = {resolution.entity(k).kind for k in others}
            own = resolution.entity(key).kind
            if len(others) >= MIN_LIST_PEERS and len(peers) == 1 and own not in peers:
                found.append((key, next(iter(peers))))
    return found


def _as_listed(entity: Entity, listed: Counter[EntityKind], mentions: int, titled: bool,
               thing: bool) -> Entity:
    """``entity`` made an organisation where most of its mentions stand in lists of
    organisations ("Bloomberg, BBC and BSkyB broadcasts"): a "person" written with no title
    nor given name, or a "place" GeoNames does not know; else ``entity`` as it was."""
    said = listed.get(EntityKind.ORGANIZATION, 0)
    if not said or said < LIST_SHARE * mentions or thing or sum(listed.values()) > said:
        return entity
    if entity.kind is EntityKind.PERSON:
        words = entity.label.split()
        if titled or _has_given_name(entity) or any(_INITIAL.fullmatch(w) for w in words):
            return entity
    elif entity.kind is not EntityKind.PLACE or entity.geo is not None:
        return entity
    fired(LIST_PEERS)
    return replace(entity, kind=EntityKind.ORGANIZATION, geo=None, geo_note=None)


#: An occupation right before a name, after at most a hyphenated modifier: "hip-hop artist
#: Xzibit", "singer Dido" (not "the artists' union": the noun must be singular and bare).
_OCCUPATION_BEFORE = re.compile(r"(?:^|[\s(])([a-z]+) $")
#: Occupations a firm holds too ("owner", "publisher"): no sign of a person before a name.
FIRM_OCCUPATIONS = word_list("firm-occupations")
#: The share of an entity's mentions that must follow an occupation before it is a person.
OCCUPIED_SHARE = 0.5


def _after_occupation(text: str, begin: int) -> bool:
    """Whether an occupation (``occupations*.txt``) stands right before the name.

    >>> _after_occupation("hosted by hip-hop artist Xzibit", 25)
    True
    >>> _after_occupation("the artists Xzibit", 12), _after_occupation("in Leeds", 3)
    (False, False)
    >>> _after_occupation("new owner Acme Ventures", 10)
    False
    """
    match = _OCCUPATION_BEFORE.search(text, max(0, begin - 30), begin)
    return match is not None and match.group(1) in OCCUPATIONS \
        and match.group(1) not in FIRM_OCCUPATIONS  # "new owner Acme Ventures"


def _as_occupied(entity: Entity, occupied: int, votes: Counter[str], roles: Counter[str],
                 mentions: int) -> Entity | None:
    """``entity`` made a person where half its mentions or more come right after an
    occupation ("hip-hop artist Xzibit", tagged an organisation) and no mention names an
    organisation's kind or what one does; ``None`` otherwise. Not a place GeoNames knows."""
    if not occupied or occupied < OCCUPIED_SHARE * mentions or entity.geo is not None or any(
            c in ORGANIZATION_LISTS for c in votes) or any(c in ROLE_LISTS for c in roles):
        return None
    fired(OCCUPATION_BEFORE)
    return replace(entity, kind=EntityKind.PERSON, fine_type=None, geo_note=None)


def _shared_follower(text: str, end: int) -> bool:
    """Whether the word right after a name is a team's followers' that a person's name takes
    as often ("Elvis fans", ``types-sports-shared.txt``).

    >>> _shared_follower("Elvis fans marked his birthday.", 5)
    True
    """
    after = _AFTER_WORDS.match(text, end)
    return after is not None and after.group(1) in word_list("types-sports-shared")


def _as_thing(entity: Entity, things: Counter[str], votes: Counter[str], mentions: int,
              titled: bool) -> Entity | None:
    """``entity`` as the thing most of its thing cues name (see the module docstring), with
    that thing's coarse class (``KIND_OF_THING``; none for works, laws and awards) and no
    GeoNames link; ``None`` when it is no thing."""
    said = sum(things.values())
    if not said or said < THING_SHARE * mentions or said < sum(votes.values()):
        return None
    if entity.kind is EntityKind.PERSON and (
            titled or _has_given_name(entity)
            or len(entity.label.split()) > 1 and said < PERSON_THING_SHARE * mentions):
        return None
    thing = min(things, key=lambda c: (-things[c], c))
    return replace(entity, kind=KIND_OF_THING.get(thing, entity.kind), fine_type=thing,
                   geo=None, geo_note=None)


def _has_given_name(entity: Entity) -> bool:
    """Whether a name of two words or more opens with a given name ("Keith Connor"; a single
    "Oscar" may be the award)."""
    words = entity.label.split()
    return len(words) > 1 and words[0].lower() in _given_names()


def _is_party_name(label: str) -> bool:
    """Whether a name is made of party words only, and is no one person's: two words or a
    plural ("Lib Dems", "Liberal Democrats", "Tories"; not "Green", a surname too)."""
    words = label.lower().split()
    return bool(words) and all(w in word_list("party-words") for w in words) and (
        len(words) > 1 or words[0].endswith("s"))


def _retyped(entity: Entity, votes: Counter[str], roles: Counter[str], mentions: int,
             titled: bool) -> Entity:
    """``entity`` with its fine class, made an organisation first where its mentions say what
    it does; an organisation's role cues count as votes for its fine class. A name of party
    words is a party, whatever the tagger said ("the Lib Dems say")."""
    if applies(PARTY_NAME, lambda: _is_party_name(entity.label)):
        return replace(entity, kind=EntityKind.ORGANIZATION, fine_type="PoliticalParty",
                       geo=None, geo_note=None)
    # "East Anglian Daily Times" tagged a place
    named = _named_organisation(entity) if is_on(NAMED_ORGANISATION) else None
    if named is not None:
        fired(NAMED_ORGANISATION)
    found = named or _organisation_by_role(entity, roles, mentions, titled)
    if found is not None:
        entity = replace(entity, kind=EntityKind.ORGANIZATION, geo=None, geo_note=None)
        votes = Counter({c: n for c, n in votes.items() if c in ORGANIZATION_LISTS})
        if found != SOME_ORGANIZATION:  # a name's own word is one cue, a role several
            votes[found] += 1 if named else MIN_ROLE_CUES
    said = sum(n for c, n in roles.items() if c in ROLE_LISTS)
    if entity.kind is EntityKind.ORGANIZATION and said >= max(
            min(MIN_ROLE_CUES, mentions), MIN_ROLE_SHARE * mentions):
        # as many as make a city or a "person" a team: one "old Labour supporters" among
        # seventeen mentions of a party makes no team of it
        votes = votes + Counter({c: n for c, n in roles.items() if c in ROLE_LISTS})
    return _typed(entity, votes) if votes else entity


def _named_organisation(entity: Entity) -> str | None:
    """The organisation class a place that GeoNames does not know names by its own last
    words ("East Anglian Daily Times", "Halifax Building Society"); ``None`` for a known
    place or a one-word name."""
    words = entity.label.lower().split()
    if entity.kind is not EntityKind.PLACE or entity.geo is not None or len(words) < 2:
        return None
    return _head_class(words, ORGANIZATION_LISTS, "name")


def _typed(entity: Entity, votes: Counter[str]) -> Entity:
    """``entity`` with the class most cues name; a product is no place, so it loses the note
    about why GeoNames has no place of that name."""
    fine = min(votes, key=lambda c: (-votes[c], c))
    if fine in PRODUCT_LISTS:
        return replace(entity, fine_type=fine, geo_note=None)
    return replace(entity, fine_type=fine)


# -- the registry's entries that ``with_fine_types`` reads itself (the mention cues of
# ``cues_in`` are declared above, the thing cues in ``kg.resolve.things``) --

PLAYERS_CLUB = declare(
    "resolve.class.players-club", "resolve.class",
    reads="a name alone in brackets in a team sheet (``kg.resolve.sheets``)",
    writes="a SportsTeam role cue (``role_cue``)",
    description="A name all a team sheet's brackets hold, after a player, is his club: a "
                "sports team, though GeoNames knows a town of that name (\"Pierre Mignoni "
                "(Clermont)\").",
    example="France replacements: William Servat (Toulouse), Olivier Milloud (Bourgoin), "
            "Pierre Mignoni (Clermont), Imanol Harinordoquy (Biarritz), Frederic Michalak "
            "(Toulouse), Jean-Philippe Grandclaude (Perpignan).")
RECORD_CUE = declare(
    "resolve.class.record-cue", "resolve.class",
    reads="the words right after a mention (``role_cue``)",
    writes="a SportsTeam role cue",
    description="A name followed by a side's record — \"has won 16 of its last 22\", \", "
                "which won for only the fourth time in 15 games\", \"have lost six "
                "straight\" — is a team, though GeoNames knows a city of that name.",
    example="Baltimore has won 16 of its last 22 games. Chris Hoiles homered for the "
            "Orioles.").id
ROLE = declare(
    "resolve.class.role", "resolve.class", reads="the words right around a mention (``role_cue``)",
    writes="a role of the entity: team, company, some organisation, the place",
    description="What a name does shows a team or a company: a score, \"X striker\", \"beat "
                "X\", \"shares in X\"; a city or a \"person\" so written twice (one in "
                "twenty of its mentions, more than \"in X\") is an organisation.",
    example="Chelsea striker Didier Drogba scored. Chelsea beat Leicester 2-1 and Leicester "
            "fans booed. Leicester manager Nigel Pearson spoke.").id
OCCUPATION_BEFORE = declare(
    "resolve.class.occupation-before", "resolve.class",
    reads="the word right before each mention of an organisation or a place (``occupations*.txt``)",
    writes="Entity.kind person",
    description="A name the tagger called an organisation or a place that half its mentions "
                "or more write right after an occupation (\"hip-hop artist Xzibit\", "
                "\"singer Dido\"), and none as an organisation's kind or deeds, is a "
                "person; not a place GeoNames knows.",
    example="The awards were hosted by hip-hop artist Xzibit.").id
FULL_NAME_TEAM = declare(
    "resolve.class.full-name-team", "resolve.class",
    reads="the team cues (``role_cue``) of a \"person\" of two words or more",
    writes="no team class for the entity",
    description="A full name the tagger called a person is a team only when half its "
                "mentions or more say it plays as one: people beat people and have scores "
                "too (\"Serena Williams beat Lindsay Davenport 2-6 6-3 6-0\").",
    example="Serena Williams beat Lindsay Davenport in the final. Lindsay Davenport 2-6 "
            "Serena Williams. Davenport said she was proud. Davenport had led. Lindsay "
            "Davenport will play in Paris.").id
SHARED_FOLLOWERS = declare(
    "resolve.class.shared-followers", "resolve.class",
    reads="the word right after a mention of a \"person\" (``types-sports-shared.txt``)",
    writes="no team role for the entity",
    description="A team's followers' word that follows a singer's or a party's name as often "
                "(\"Elvis fans\", \"supporters\") makes no name the tagger calls a person a "
                "sports team.",
    example="Robbie Williams fans queued all night. Robbie Williams fans sang along. Robbie "
            "Williams released a new album.").id
NOT_PERSON_CUE = declare(
    "resolve.class.not-person", "resolve.class",
    reads="the words around a one-word \"person\" (``not_person_cue``)",
    writes="a role of the entity: no person",
    description="A one-word \"person\" written as no person is (\"the Telegraph said\", "
                "\"Euronext, which …\", \"Paris-based Euronext\", \"director at "
                "Rightmove\") counts towards an organisation.",
    example="Varig, which flies to Lisbon, cut jobs. Varig said more cuts would come.").id
LIST_PEERS = declare(
    "resolve.class.list-peers", "resolve.class",
    reads="the names of a list of three or more (\", \", \"and\", \"or\") and their entities' "
          "classes",
    writes="Entity.kind organisation",
    description="A \"person\" with no title or given name, or a \"place\" GeoNames does not "
                "know, written mostly in lists whose other names (two or more) are all "
                "organisations is an organisation (\"PBS, the NBA, Fox News and C-SPAN\").",
    example="Yahoo added captions for Bloomberg, BBC and BSkyB broadcasts.").id
SPEAKER = declare(
    "resolve.class.speaker", "resolve.class", reads="a speech verb after a mention",
    writes="drops the entity's product and work cues",
    description="A name that speaks (\"Apple said\") is a maker, no product; no work "
                "speaks.",
    example="She won a Bafta for the role. Bafta said the awards would move to London.").id
OWNER = declare(
    "resolve.class.owner", "resolve.class",
    reads="a possessive and a name after a mention (``owns``)",
    writes="drops the entity's product cues",
    description="A name that owns a named thing (\"Apple's iPod\", \"Sony's new "
                "PlayStation Portable\") is its maker, no product.",
    example="Apple's iPod sold well. The Apple laptop costs less.").id
PARTY_NAME = declare(
    "resolve.class.party-name", "resolve.class", reads="the entity's label (``party-words.txt``)",
    writes="Entity.kind, Entity.fine_type PoliticalParty",
    description="A name made of party words only, two words or a plural (\"Lib Dems\", "
                "\"Tories\"), is a party whatever the tagger said.",
    example="The Lib Dems said they would vote against the bill.").id
NAMED_ORGANISATION = declare(
    "resolve.class.named-organisation", "resolve.class",
    reads="the last words of a place GeoNames does not know",
    writes="Entity.kind organisation, its fine type",
    description="A \"place\" GeoNames does not know whose own last words name an "
                "organisation's kind (\"East Anglian Daily Times\", \"Halifax Building "
                "Society\") is that organisation.",
    example="The story ran in the East Anglian Daily Times on Monday.").id
