"""Within one article: which mentions are one thing, and what class of thing it is.

Mentions are first grouped by name (case and a leading "the" ignored; generic institution
names like "defence ministry" also by the country that qualifies them). Each name group gets
one class by vote — the tagger's label once per mention, a head word after the name ("Azov
regiment", "Azovstal steel works") three times, a locative ("in Mariupol") once — then
GeoNames and the article's people correct what the small model gets wrong:

* a one-word name that is a person's surname in the article is that person ("Palamar" after
  "Svyatoslav Palamar"), unless GeoNames knows it as a place or it is tagged a place and the
  article writes it where a place stands ("in Chechnya");
* a one-word name tagged PERSON that GeoNames knows as a city or country, and that is no
  token of a person's name in the article nor carries a title, is a place ("Kyiv") — unless
  it speaks ("Lyons said") and is no country or capital and never stands in a locative; tagged
  ORG, it must also stand in a locative ("in Mariupol"), be a country, or be followed by a
  place word — "Chelsea" the club stays an organisation.

Short forms are then joined to the one fuller name they fit, and left alone when two fit:
a surname (or, failing that, a given name) to the one full name ending (starting) with it;
an acronym to the one name it spells; part of an organisation's name to the one longer name
containing it ("Amnesty" → "Amnesty International"); an unqualified "defence ministry" to the
one qualified one; a one-word description ("the army", "France's army") to the one named
organisation with that head word ("the Free Syrian Army").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from kg.extract.spans import POLICE, is_force_acronym, is_force_description, spells
from kg.lexicon.countries import demonym_code, name_key
from kg.lexicon.words import (
    FEMALE_TITLES,
    GIVEN_NAME_TITLES,
    GIVEN_NAMES,
    INSTITUTION_HEAD_WORDS,
    MALE_TITLES,
    NATION_DEMONYMS,
    ORG_HEAD_WORDS,
    PLACE_HEAD_WORDS,
    REGION_NAMES,
    TITLE_NOUNS,
)
from kg.lexicon.words import HONORIFICS as LEXICON_HONORIFICS
from kg.model import EntityKind, Extraction, Mention
from kg.resolve.cues import NOT_NAME_HEADS, PLACE_HEADS, UNIT_HEADS, Cues, mention_cues
from kg.resolve.geo import (
    GeoPlace,
    candidates,
    country_code_of,
    is_capital,
    is_country_name,
    is_place_name,
    us_state_names,
)
from kg.resolve.groups import Group, Key, Merger
from kg.resolve.names import (
    ACRONYM_SKIP,
    ORG_SUFFIX_WORDS,
    acronym_letters,
    comparison_tokens,
    edit_distance,
    facility_core,
    fixing_titles,
    initials,
    is_generic,
    is_partial_name,
    normalise_name,
    title_class,
    titles_agree,
    without_suffix,
)

#: A bracket opening after a name: "Asimo (".
BRACKET_OPEN = re.compile(r"\s*\(")
PERSON, ORG, PLACE = EntityKind.PERSON, EntityKind.ORGANIZATION, EntityKind.PLACE
HEAD_VOTE = 3
#: Titles that only ever stand before a person's name.
HONORIFICS = LEXICON_HONORIFICS


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


def document_groups(extraction: Extraction) -> list[Group]:
    """The groups of one article, each with its class, surface forms and identity keys.

    >>> from kg.model import ArticleMeta, Document
    >>> document_groups(Extraction(Document("a", "a.txt", "", ArticleMeta(), ""), (), ()))
    []
    """
    named = name_groups(extraction)
    decide_kinds(named)
    merger = Merger(len(named))
    for attach in (attach_people, attach_institution_short_forms, attach_acronyms,
                   attach_org_parts, attach_unqualified, attach_descriptions):
        attach(named, merger)
    attach_expansions(named, merger, extraction.document.text)
    return fold(named, merger)


def name_groups(extraction: Extraction) -> list[NameGroup]:
    """One group per name (generic names: per name and qualifying country; a name under a
    woman's title or a rank apart: "Mrs Howard" is not the "Howard" of the same article)."""
    text, doc_id = extraction.document.text, extraction.document.doc_id
    found: dict[tuple[str, str | None, str | None], NameGroup] = {}
    for mention in extraction.mentions:
        if mention.is_description:
            continue
        cues = mention_cues(text, mention.begin, mention.end)
        name, honorific = without_honorific(mention.name)
        tokens, qualifier = qualified_tokens(comparison_tokens(name))
        if qualifier is None and is_generic(tokens):
            qualifier = cues.qualifier
        prefix = (mention.name.split()[0],) if honorific else ()
        titles = fixing_titles((*mention.titles, *prefix))
        named = found.setdefault((normalise_name(name), qualifier, title_class(titles)),
                                 NameGroup(Group(doc_id), tokens, qualifier))
        _add_mention(named, mention, cues, doc_id)
        named.group.titles |= titles
        if honorific:  # "Mr Cable" tagged ORG is a person, whatever the tagger said
            named.group.votes[PERSON] += HEAD_VOTE
            named.group.evidence = named.titled = named.honorific = True
    groups = list(found.values())
    for mention in extraction.mentions:
        if mention.is_description:  # "the 40-year-old American": a mention of the person,
            # no name form and no class vote
            key = normalise_name(without_honorific(mention.name)[0])
            owners = [n for (name, _q, _t), n in found.items() if name == key]
            if owners:
                max(owners, key=lambda n: len(n.group.refs)).group.refs.append(
                    (doc_id, mention.begin, mention.end))
    return groups


def without_honorific(name: str) -> tuple[str, bool]:
    """A name without a leading "Mr", "Mrs", "Dr" …, and whether it had one.

    >>> without_honorific("Mr Cable"), without_honorific("Mr")
    (('Cable', True), ('Mr', False))
    """
    words = name.split()
    if len(words) > 1 and words[0].lower().rstrip(".") in HONORIFICS:
        return " ".join(words[1:]), True
    return name, False


def qualified_tokens(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], str | None]:
    """A generic institution name without the country it opens with, and that country:
    "Ukrainian Defense Ministry" → ("defence", "ministry"), "UA".

    >>> qualified_tokens(("russia", "defense", "ministry"))
    (('defense', 'ministry'), 'RU')
    """
    if len(tokens) > 1 and is_generic(tokens[1:]):
        code = demonym_code(tokens[0]) or country_code_of(tokens[0])
        if code:
            return tokens[1:], code
    return tokens, None


def _add_mention(named: NameGroup, mention: Mention, cues: Cues, doc_id: str) -> None:
    group = named.group
    group.refs.append((doc_id, mention.begin, mention.end))
    group.forms[mention.name] += 1
    group.votes[mention.kind] += 1
    named.cues.append(cues)
    named.titled = named.titled or bool(mention.titles)
    if named.qualifier and cues.qualifier == named.qualifier:
        group.forms[f"{cues.qualifier_text} {mention.name}"] += 1
    if cues.head_kind is not None and _head_applies(mention.name, cues):
        group.votes[cues.head_kind] += HEAD_VOTE
        group.evidence = True
        if (cues.head or "").lower() not in PLACE_HEADS | NOT_NAME_HEADS:
            group.forms[f"{mention.name} {cues.head}"] += 1  # "Azov regiment", not "… region"
    elif cues.apposition:
        group.votes[PLACE] += HEAD_VOTE
        group.evidence = True


def _head_applies(name: str, cues: Cues) -> bool:
    # "Zaporizhzhia plant" names a plant, not the city; "Moscow plant" likewise. A works word
    # only makes a site of a name GeoNames does not know as a place.
    head = (cues.head or "").lower()
    if head in UNIT_HEADS:
        return not is_country_name(name)  # "the US party", not a party named "US"
    return head in PLACE_HEADS or not is_place_name(name)


def _vote(votes: Counter[EntityKind]) -> EntityKind:
    order = list(EntityKind)
    return min(votes, key=lambda k: (-votes[k], order.index(k)))


def decide_kinds(named: Sequence[NameGroup]) -> None:
    """Set each group's class: the vote, then corrections from GeoNames and the article's
    people (see the module docstring)."""
    for n in named:
        n.group.kind = _vote(n.group.votes)
        if n.kind is PERSON:  # "Comeaux Jr." is compared as "Comeaux"
            n.tokens = without_suffix(n.tokens)
    addressed = {n.tokens[-1] for n in named if n.honorific and n.tokens}
    alone = {n.tokens[0] for n in named  # "Farrakhan" five times, a person each time
             if n.kind is PERSON and len(n.tokens) == 1 and len(n.group.refs) >= 2
             and set(n.group.votes) == {PERSON}}
    for n in named:  # "Vincent Cable" tagged ORG, then "Mr Cable": Vincent Cable is a person;
        # "Louis Farrakhan" tagged a place, then "Farrakhan" twice (not a name tagged an
        # organisation: a firm or club may bear a person's name, "Casa Luiz Caloi" beside
        # "Caloi", "Boston Bruins" beside "Bruins")
        if len(n.tokens) in (2, 3) and not is_place_name(n.name) and (
                n.tokens[-1] in addressed or n.kind is PLACE and n.tokens[-1] in alone
                and n.tokens[-1] not in ORG_HEAD_WORDS | PLACE_HEAD_WORDS):
            n.group.kind, n.group.evidence = PERSON, True
    people = [n for n in named if n.kind is PERSON and len(n.tokens) > 1]
    surnames = {n.tokens[-1] for n in people}
    person_tokens = {t for n in people for t in n.tokens}
    for n in named:
        _correct_kind(n, surnames, person_tokens)
    for n in named:  # "the Bedford star": a place or club, not a person called Bedford
        if (n.kind is PERSON and len(n.tokens) == 1 and not n.titled and n.cues
                and all(c.describes for c in n.cues)):
            n.group.kind = PLACE if is_place_name(n.name) else ORG
    for n in named:  # "Orrell 13 Bath 56": a side of a result is a team, not a person
        if (n.kind in (PERSON, ORG) and len(n.tokens) == 1 and not n.titled and not n.honorific
                and n.tokens[0] not in GIVEN_NAMES and n.cues and any(c.scored for c in n.cues)
                and not any(c.speaks for c in n.cues)):
            n.group.kind, n.group.evidence = ORG, True
    for n in named:  # "the Magpies", "Wasps are": a team or band, not a place
        if n.kind is PLACE and is_group_name(n):
            n.group.kind = ORG
    for n in named:  # "a researcher at Futurelab": a place GeoNames does not know that
        # employs someone, and stands in no other place's position, is a body
        if (n.kind is PLACE and not is_place_name(n.name) and any(c.employs for c in n.cues)
                and not any(c.locative and not c.employs for c in n.cues)):
            n.group.kind, n.group.evidence = ORG, True


def is_group_name(n: NameGroup) -> bool:
    """Whether a group typed Place is rather a team, band or other body with a plural name:
    one word ending in "s" that no place table knows (GeoNames, US states, ``REGION_NAMES``),
    never written in a place's position ("in X", "X region"), and at least once read as a
    group ("the X", "X are", "X fans", a score beside it)."""
    name = n.name
    if len(n.tokens) != 1 or not name.endswith("s") or name.endswith("ss"):
        return False
    key = name_key(name)
    if is_place_name(name) or key in REGION_NAMES or key in us_state_names():
        return False
    return not any(c.locative for c in n.cues) and any(c.group for c in n.cues)


def _correct_kind(n: NameGroup, surnames: set[str], person_tokens: set[str]) -> None:
    found = place_candidates(n.name)
    country = bool(found) and found[0].feature != "city"  # "Russian Federation" tagged ORG
    unit = any(c.head_kind is ORG for c in n.cues)
    if n.kind is ORG and not unit and name_key(n.name) in REGION_NAMES \
            and not n.name.endswith("s"):  # "the Rockies" may be the club
        n.group.kind, n.group.evidence = PLACE, True  # a nation of the UK, as its team too
        return  # ("Ukraine beat Northern Ireland"), as a country's team is the country
    if len(n.tokens) != 1 and not country:
        return
    locative = any(c.locative for c in n.cues)
    if not found and n.tokens[0] in surnames and n.kind is not PERSON and not (
            n.kind is PLACE and locative):
        n.group.kind, n.group.evidence = PERSON, True  # not "war in Chechnya" after a
        # headline's "Lebed Chechnya peace plan"
    elif found and not person_tokens & set(n.tokens) and not n.titled and not unit:
        capital = len(n.tokens) == 1 and is_capital(found[0])  # "capture Kyiv", "Kyiv says"
        speaker = not (locative or country or capital) and any(c.speaks for c in n.cues)
        if (n.kind is PERSON and not speaker) or (n.kind is ORG and (locative or country
                                                                    or capital)):
            n.group.kind, n.group.evidence = PLACE, True


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


def attach_people(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join full names written two ways ("Comeaux Jr" / "Comeaux Jr."), a shorter full name
    to the one longer name it is part of (``is_partial_name``), then a surname (else a given
    name) to the one person of the article it fits."""
    full = [i for i, n in enumerate(named) if n.kind is PERSON and len(n.tokens) > 1]
    first: dict[tuple[str, ...], int] = {}
    for i in full:
        j = first.setdefault(named[i].tokens, i)
        if j != i:
            merger.join(j, i, named[j].name, named[i].name, "same-name-in-article", 1.0)
    for i in full:
        owners = [j for j in full if is_partial_name(named[i].tokens, named[j].tokens)]
        _attach(named, merger, i, _distinct(merger, owners), "middle-name-in-article", 0.9)
    for i in full:  # "Mo Cheeks" and "Maurice Cheeks" in one article
        owners = [j for j in full if is_short_given_name(named[i].tokens, named[j].tokens)]
        _attach(named, merger, i, _distinct(merger, owners), "short-given-name-in-article", 0.8)
    # "Mr Howard" and "Mrs Howard" in one article are two people: neither title joins the other
    addressed_as_men = {n.tokens[0] for n in named if len(n.tokens) == 1
                        and n.group.titles & MALE_TITLES and not n.group.titles & FEMALE_TITLES}
    for i, n in enumerate(named):
        if n.kind is PERSON and len(n.tokens) == 1:
            token = n.tokens[0]
            lenient = not (n.group.titles & FEMALE_TITLES and token in addressed_as_men)
            # "Sir John" is a given name: the article's John Bourn, "Sir" written or not
            place = 0 if n.group.titles & GIVEN_NAME_TITLES else -1
            titles = n.group.titles - GIVEN_NAME_TITLES if place == 0 else n.group.titles
            owners = [j for j in full if named[j].tokens[place] == token
                      and titles_agree(titles, named[j].group.titles, lenient)]
            rule = "titled-given-name-in-article" if place == 0 else "surname-in-article"
            if not owners and not n.titled:  # "Prince Charles" is no "Charles Kennedy"
                owners, rule = [j for j in full if named[j].tokens[0] == token], "given-name"
            owners = _distinct(merger, owners)
            earliest = _introduced_first(named, merger, i, owners) if len(owners) > 1 else None
            if earliest is not None:
                owners, rule = [earliest], "surname-of-first-named"
            _attach(named, merger, i, owners, rule, 0.9)


def is_short_given_name(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    """Whether two full names differ only in a given name written short ("mo"/"maurice",
    "jon"/"john", "ed"/"edward"): the same other words, the short one of two or three letters
    and the same first letter as the longer one. Only within one article, where the two
    forms stand for one person unless the article names two ("Ed"/"David Miliband" differ
    in the first letter).

    >>> is_short_given_name(("mo", "cheeks"), ("maurice", "cheeks"))
    True
    >>> is_short_given_name(("ed", "miliband"), ("david", "miliband"))
    False
    """
    return (len(short) == len(long) and short[1:] == long[1:] and 2 <= len(short[0]) <= 3
            and len(long[0]) > len(short[0]) and short[0][0] == long[0][0])


def _introduced_first(named: Sequence[NameGroup], merger: Merger, i: int,
                      owners: list[int]) -> int | None:
    """Of several people of an article who share a surname, the one a bare surname can only
    mean when it is first written: the only one introduced by then ("Anthony LaCalamita" at
    the top, his wife "Michele LaCalamita" near the end; the "LaCalamita" in between is
    him). ``None`` when two were introduced before it ("Ed Miliband and David Miliband
    spoke. Miliband said no.")."""
    first_bare = min(begin for _doc, begin, _end in named[i].group.refs)
    sets = merger.sets()
    before = [j for j in owners
              if min(begin for k in sets[merger.find(j)]
                     for _doc, begin, _end in named[k].group.refs) < first_bare]
    return before[0] if len(before) == 1 else None


def _distinct(merger: Merger, owners: list[int]) -> list[int]:
    """One owner per set already joined (two spellings of one full name are one owner)."""
    seen: dict[int, int] = {}
    for j in owners:
        seen.setdefault(merger.find(j), j)
    return list(seen.values())


def _attach(named: Sequence[NameGroup], merger: Merger, i: int, owners: list[int], rule: str,
            score: float) -> None:
    if len(owners) == 1:
        merger.join(owners[0], i, named[owners[0]].name, named[i].name, rule, score)
    elif len(owners) > 1:
        named[i].group.ambiguous = True
        forms = " | ".join(sorted(named[j].name for j in owners))
        merger.refuse(i, named[i].name, forms, f"ambiguous-{rule}")


def attach_institution_short_forms(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join a "person" to the one institution of the article named after them, when the
    person is nobody else there: "checked into Betty Ford" after "the Betty Ford Center",
    "taken to John Radcliffe" after "John Radcliffe Hospital". A name the article also gives
    with a title or an honorific ("Mrs Betty Ford") is the person's everywhere in it; the
    joined group takes the institution's class.
    """
    institutions = _index(named, lambda n: (n.tokens[:-1],) if len(n.tokens) > 2
                          and n.tokens[-1] in INSTITUTION_HEAD_WORDS else ())
    addressed = {n.tokens for n in named if n.titled or n.honorific}  # "Mrs Dora Velk" is here
    for i, n in enumerate(named):
        owners = institutions.get(n.tokens, []) if n.kind is PERSON and len(n.tokens) > 1 else []
        if owners and n.tokens not in addressed:
            if len(owners) == 1:
                kind = named[owners[0]].kind
                n.group.kind, n.group.votes = kind, Counter({kind: sum(n.group.votes.values())})
            _attach(named, merger, i, owners, "institution-short-form", 0.8)


def attach_acronyms(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join an acronym to the one name of the article it spells ("ICRC", "U.S.")."""
    expansions = _index(named, lambda n: (initials(n.tokens),) if len(n.tokens) > 1 else ())
    for i, n in enumerate(named):
        letters = acronym_letters(n.name)
        if n.kind is not PERSON and letters and letters not in TITLE_NOUNS:
            _attach(named, merger, i, expansions.get(letters, []), "acronym-in-article", 0.9)


def attach_expansions(named: Sequence[NameGroup], merger: Merger, text: str) -> None:
    """Join a one-word name to the expansion beside it in brackets that it spells, whatever the
    class ("Asimo (Advanced Step in Innovative Mobility)", "Widget Standards in Broadcasting
    (WSB)"): the article says they are one thing."""
    at = {begin: (i, end) for i, n in enumerate(named) for _, begin, end in n.group.refs}
    for i, n in enumerate(named):
        for _, _, end in n.group.refs:
            opened = BRACKET_OPEN.match(text, end)
            j, close = at.get(opened.end(), (None, 0)) if opened else (None, 0)
            if j is None or j == i or not text.startswith(")", close):
                continue
            short, long = (n, named[j]) if len(n.tokens) == 1 else (named[j], n)
            if len(short.tokens) == 1 and spells(short.name, long.name.split()):
                merger.join(i, j, n.name, named[j].name, "acronym-in-brackets", 0.9)


def _index(named: Sequence[NameGroup],
           keys: Callable[[NameGroup], tuple[object, ...]]) -> dict[object, list[int]]:
    found: dict[object, list[int]] = {}
    for i, n in enumerate(named):
        if n.kind is not PERSON:
            for key in keys(n):
                found.setdefault(key, []).append(i)
    return found


def attach_org_parts(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join part of an organisation's name ("Amnesty", "Red Cross") to the one longer
    organisation name of the article containing it (one word only as its start)."""
    parts = _index(named, lambda n: org_parts(n.tokens) if n.kind is ORG else ())
    legal = _index(named, lambda n: (_without_legal_words(n.tokens),) if n.kind is ORG else ())
    # each word of a firm's name before its legal words ("ericsson" of "LM Ericsson AB")
    words = _index(named, lambda n: tuple((w,) for w in _without_legal_words(n.tokens)
                                          if len(w) > 3) if n.kind is ORG else ())
    surnames = {n.tokens[-1] for n in named if n.kind is PERSON and len(n.tokens) > 1}
    for i, n in enumerate(named):
        if n.kind is ORG and n.tokens and not acronym_letters(n.name):
            if not is_place_name(n.name):
                _attach(named, merger, i, parts.get(n.tokens, []), "org-short-form-in-article",
                        0.8)
        elif n.kind is PERSON and (len(n.tokens) > 1 or not (
                n.titled or n.honorific or n.tokens[0] in surnames)) \
                and len(owners := legal.get(n.tokens, []) or (
                    words.get(n.tokens, []) if len(n.tokens) == 1 else [])) == 1:
            # "Johnson Controls" tagged a person, beside "Johnson Controls Inc": the firm; so are
            # "Ruch" beside "Ruch SA" and "Ericsson" beside "LM Ericsson AB" where no one of
            # the article has that surname or title
            n.group.kind, n.group.evidence = ORG, True
            _attach(named, merger, i, owners, "org-short-form-in-article", 0.8)


def org_parts(tokens: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Contiguous parts of an organisation name that may stand for it: several words ("Red
    Cross" of "International Committee of the Red Cross"), or one word when the rest is only
    a legal or company word ("Amnesty" of "Amnesty International"; "Microsoft" is not
    "Microsoft Office", nor "Kodak" "Kodak Theatre"). Never only small words, and never what
    is left when a country is cut off: the "Associated Press" is not the "Australian
    Associated Press", nor the "Red Cross" the "Ukrainian Red Cross".

    >>> org_parts(("amnesty", "international")), org_parts(("microsoft", "office"))
    ((('amnesty',),), ())
    >>> org_parts(("australian", "associated", "press"))
    (('australian', 'associated'),)
    """
    found = []
    for size in range(1, len(tokens)):
        for start in range(len(tokens) - size + 1):
            part, rest = tokens[start : start + size], tokens[:start] + tokens[start + size :]
            if size == 1 and not (start == 0 and set(rest) <= ORG_SUFFIX_WORDS):
                continue
            if not all(t in ACRONYM_SKIP for t in part) and not any(map(_names_country, rest)):
                found.append(part)
    return tuple(found)


def _without_legal_words(tokens: tuple[str, ...]) -> tuple[str, ...]:
    """An organisation's name without the legal and company words ending it ("johnson",
    "controls" of "Johnson Controls Inc"); ``()`` when none end it or nothing else is left."""
    end = len(tokens)
    while end > 1 and tokens[end - 1] in ORG_SUFFIX_WORDS:
        end -= 1
    return tokens[:end] if 0 < end < len(tokens) else ()


def _names_country(token: str) -> bool:
    return bool(demonym_code(token) or country_code_of(token)) or token in NATION_DEMONYMS


def attach_unqualified(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join an unqualified generic name ("the defence ministry") to the one group of the same
    name that a country qualifies ("Russia's defence ministry")."""
    qualified = _index(named, lambda n: (n.tokens,) if n.qualifier else ())
    for i, n in enumerate(named):
        if n.kind is not PERSON and n.qualifier is None and is_generic(n.tokens):
            _attach(named, merger, i, qualified.get(n.tokens, []), "qualified-in-article", 0.8)


def attach_descriptions(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join a one-word generic description ("the army", "France's army", "police") still on its
    own to the one organisation the article names with that word at its head or end ("the Free
    Syrian Army", "Ministry of Defence", "Tarnow Police Department"); a country's description
    only to a name that names that country too. Two such names: kept apart and recorded."""
    sizes = Counter(merger.find(i) for i in range(len(named)))
    names = [j for j, m in enumerate(named)  # written as a name: "Labour Party", "Army of X"
             if m.kind is ORG and (len(m.tokens) > 1 and all(
                 w[:1].isupper() or w.lower() in ACRONYM_SKIP for w in m.name.split())
                                   or is_force_acronym(m.name))]
    specific = {merger.find(j) for j, m in enumerate(named) if not is_generic(m.tokens)}
    for i, n in enumerate(named):
        if (n.kind is PERSON or not is_generic(n.tokens) or not _one_description(n.tokens)
                or sizes[merger.find(i)] > 1 and merger.find(i) in specific):
            continue
        word = n.tokens[0]
        owners = [j for j in names if word in _head_words(named[j])
                  and (n.qualifier is None or n.qualifier in map(_country_of, named[j].tokens))]
        # a force named beside its own description ("NYPD", "the Police Department")
        owners = [j for j in owners if not is_force_description(named[j].tokens)] or owners
        _attach(named, merger, i, _distinct(merger, owners), "description-in-article", 0.7)


def _one_description(tokens: tuple[str, ...]) -> bool:
    """Whether a generic name is one word ("the army"), or a force's description ("the Police
    Department", read as "police")."""
    return len(tokens) == 1 or is_force_description(tokens)


def _head_words(n: NameGroup) -> tuple[str, ...]:
    """The words a name's description can be: its first and last word, a head word before
    the last ("police" of "Tarnow Police Department"; not "labour" of "… Labour Party"), and
    "police" of a police department's acronym ("NYPD")."""
    tokens = n.tokens
    before = (tokens[-2],) if (len(tokens) > 2 and tokens[-1] in ORG_HEAD_WORDS
                               and tokens[-2] in ORG_HEAD_WORDS) else ()
    force = (POLICE,) if is_force_acronym(n.name) else ()
    return (tokens[0], tokens[-1], *before, *force)


def _country_of(token: str) -> str | None:
    return demonym_code(token) or country_code_of(token)


def fold(named: Sequence[NameGroup], merger: Merger) -> list[Group]:
    """One group per set of joined name groups; keys come from its fullest name that is not
    a description ("NYPD", not "police" or "the Police Department")."""
    groups = []
    for members in merger.sets().values():
        anchor = max(members, key=lambda i: (not is_generic(named[i].tokens), len(named[i].tokens),
                                             named[i].qualifier is not None,
                                             len(named[i].group.refs), -i))
        group = named[anchor].group
        group.keys = identity_keys(named[anchor])  # before short forms join: no chains
        group.anchor = named[anchor].name
        for i in members:
            if i != anchor:
                other = named[i].group
                group.refs += other.refs
                group.forms.update(other.forms)
                group.votes.update(other.votes)
                group.titles |= other.titles
                if group.kind is PERSON and named[i].kind is PERSON and len(named[i].tokens) > 1:
                    # "Esther Williams" stays findable when the article also wrote
                    # "Esther Williams Dies" in a headline
                    group.keys.setdefault(("person", *named[i].tokens), named[i].name)
        group.joins = [j for j in merger.joins if merger.find(j.left) == merger.find(anchor)]
        groups.append(group)
    return groups


def identity_keys(n: NameGroup) -> dict[Key, str]:
    """The keys by which other articles' groups can be found equal to this one."""
    group = n.group
    if n.kind is PERSON:
        if len(n.tokens) > 1:
            return {("person", *n.tokens): n.name}
        if group.ambiguous:
            return {}
        titled = title_class(group.titles)  # "Mrs Howard" is not any "Howard"
        if titled is not None and titled in GIVEN_NAME_TITLES:  # "Sir John": no "Elton John"
            return {("titled-given-name", titled, *n.tokens): n.name}
        return {("titled-surname", titled, *n.tokens) if titled else ("surname", *n.tokens): n.name}
    if is_generic(n.tokens):
        if n.qualifier:
            return {("org", n.qualifier, *n.tokens): n.name}
        if n.tokens == (POLICE,):
            return {}  # every town has its police: a bare "police" is no force of another article
        return {("generic", *n.tokens): n.name}
    unit = any(c.head_kind is ORG for c in n.cues)
    keys: dict[Key, str] = {}
    for form in sorted(group.forms, key=lambda f: (-group.forms[f], f)):
        tokens = comparison_tokens(form)
        core = facility_core(tokens)
        if core and not is_place_name(" ".join(core)):
            tokens = core
        # The bare town name of "Azov regiment" must not link the regiment to the town.
        if tokens and not (unit and tokens == n.tokens and is_place_name(form)):
            keys.setdefault(("name", *tokens), form)
    return keys
