"""Within one article: which mentions are one thing.

Mentions are first grouped by name (case and a leading "the" ignored; generic institution
names like "defence ministry" also by the country that qualifies them); each name group gets
its class by vote and the class cues of ``kg.resolve.kinds``. Short forms are then joined to
the one fuller name they fit, and left alone when two fit: a surname (or, failing that, a
given name) to the one full name ending (starting) with it; an acronym to the one name it
spells; part of an organisation's name to the one longer name containing it ("Amnesty" →
"Amnesty International"); an unqualified "defence ministry" to the one qualified one; a
one-word description ("the army", "France's army") to the one named organisation with that
head word ("the Free Syrian Army").

The join rules are heuristics of the stage ``resolve.article`` (``kg.heuristics``), declared at
the end of this module: ``document_groups`` runs them in their declared order, leaves out those
switched off and records a rule's fire, in the article, where it joined two groups.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from kg.extract.spans import POLICE, is_force_acronym, is_force_description, spells
from kg.heuristics import Heuristic, applies, declare, fired, in_document, is_on, steps
from kg.lexicon.countries import demonym_code
from kg.lexicon.words import (
    FEMALE_TITLES,
    GIVEN_NAME_TITLES,
    MALE_TITLES,
    NATION_DEMONYMS,
    ORG_HEAD_WORDS,
    TITLE_NOUNS,
)
from kg.lexicon.words import HONORIFICS as LEXICON_HONORIFICS
from kg.model import EntityKind, Extraction, Mention
from kg.resolve.cues import NOT_NAME_HEADS, PLACE_HEADS, UNIT_HEADS, Cues, mention_cues
from kg.resolve.geo import (
    country_code_of,
    is_country_name,
    is_place_name,
)
from kg.resolve.groups import Group, Key, Merger
from kg.resolve.kinds import (
    APPOSITION_VOTE,
    CLASS_CUES,
    HEAD_VOTE,
    HEAD_WORD_VOTE,
    NameGroup,
    decide_kinds,
)
from kg.resolve.names import (
    ACRONYM_SKIP,
    ORG_SUFFIX_WORDS,
    acronym_letters,
    comparison_tokens,
    facility_core,
    fixing_titles,
    initials,
    is_generic,
    is_partial_name,
    normalise_name,
    title_class,
    titles_agree,
)
from kg.resolve.sheets import LISTED_SURNAME, TEAM_SHEET_SURNAMES
from kg.resolve.short_names import NAME_ENDS, TWO_OWNERS, ends_inside

#: A bracket opening after a name: "Asimo (".
BRACKET_OPEN = re.compile(r"\s*\(")
PERSON, ORG, PLACE = EntityKind.PERSON, EntityKind.ORGANIZATION, EntityKind.PLACE
#: Titles that only ever stand before a person's name.
HONORIFICS = LEXICON_HONORIFICS


def document_groups(extraction: Extraction) -> list[Group]:
    """The groups of one article, each with its class, surface forms and identity keys.

    >>> from kg.model import ArticleMeta, Document
    >>> document_groups(Extraction(Document("a", "a.txt", "", ArticleMeta(), ""), (), ()))
    []
    """
    with in_document(extraction.document.doc_id):
        named = name_groups(extraction)
        decide_kinds(named)
        merger = Merger(len(named))
        for step in steps("resolve.article"):
            if step.fn is not None and step.id not in CLASS_CUES:  # a join rule
                made = merged(merger)
                step(named, merger, extraction.document.text)
                if merged(merger) > made:
                    fired(step.id)
        return fold(named, merger)


def merged(merger: Merger) -> int:
    """How many joins ``merger`` made (refusals aside)."""
    return sum(join.merged for join in merger.joins)


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
            named.titled = named.honorific = True
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
        if applies(HEAD_WORD_VOTE.id, lambda: True):
            group.votes[cues.head_kind] += HEAD_VOTE
            group.evidence = True
            if (cues.head or "").lower() not in PLACE_HEADS | NOT_NAME_HEADS:
                group.forms[f"{mention.name} {cues.head}"] += 1  # "Azov regiment", not "… region"
    elif cues.apposition and applies(APPOSITION_VOTE.id, lambda: True):
        group.votes[PLACE] += HEAD_VOTE
        group.evidence = True


def _head_applies(name: str, cues: Cues) -> bool:
    # "Zaporizhzhia plant" names a plant, not the city; "Moscow plant" likewise. A works word
    # only makes a site of a name GeoNames does not know as a place.
    head = (cues.head or "").lower()
    if head in UNIT_HEADS:
        return not is_country_name(name)  # "the US party", not a party named "US"
    return head in PLACE_HEADS or not is_place_name(name)


def _full_names(named: Sequence[NameGroup]) -> list[int]:
    return [i for i, n in enumerate(named) if n.kind is PERSON and len(n.tokens) > 1]


def attach_middle_names(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join a shorter full name to the one longer name it is part of (``is_partial_name``)."""
    full = _full_names(named)
    for i in full:
        owners = [j for j in full if is_partial_name(named[i].tokens, named[j].tokens)]
        kept = [j for j in owners if not ends_inside(named[i].tokens, named[j].tokens)]
        if _attach(named, merger, i, _distinct(merger, kept), "middle-name-in-article", 0.9) \
                and len(kept) < len(owners):
            fired(NAME_ENDS.id)  # joined at the name's end, not at a middle word
        elif owners and not kept:
            fired(NAME_ENDS.id)  # "Malcolm X" of his grandson "Malcolm X Attallah Shabazz"


def attach_short_given_names(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join "Mo Cheeks" to the article's "Maurice Cheeks" (``is_short_given_name``)."""
    full = _full_names(named)
    for i in full:
        owners = [j for j in full if is_short_given_name(named[i].tokens, named[j].tokens)]
        _attach(named, merger, i, _distinct(merger, owners), "short-given-name-in-article", 0.8)


def attach_surnames(named: Sequence[NameGroup], merger: Merger) -> None:
    """Join a surname (else, where ``resolve.article.given-name`` is on, a given name) to the
    one person of the article it fits; of several, to the one introduced before it was first
    written (``resolve.article.first-named``)."""
    full = _full_names(named)
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
            if not owners and not n.titled and is_on(GIVEN_NAME.id):
                # "Prince Charles" is no "Charles Kennedy"
                owners, rule = [j for j in full if named[j].tokens[0] == token], "given-name"
            owners = _distinct(merger, owners)
            if (len(owners) > 1 and rule == "surname-in-article" and is_on(TWO_OWNERS.id)
                    and len({named[j].tokens[0][0] for j in owners}) > 1):
                # two people's full names end so ("Andy Robinson", "J Robinson"; not "Olly
                # Barkley" and his "O Barkley"): a bare surname is left alone, whoever came first
                if is_on(FIRST_NAMED.id) and _introduced_first(named, merger, i, owners) \
                        is not None:
                    fired(TWO_OWNERS.id)
                _attach(named, merger, i, owners, rule, 0.9)
                continue
            earliest = _introduced_first(named, merger, i, owners) \
                if len(owners) > 1 and is_on(FIRST_NAMED.id) else None
            if earliest is not None:
                owners, rule = [earliest], "surname-of-first-named"
            if _attach(named, merger, i, owners, rule, 0.9) and rule in _CONDITIONS:
                fired(_CONDITIONS[rule])


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
            score: float) -> bool:
    """Join group ``i`` to its one owner (``True`` when a join was made); two or more owners:
    ``i`` is ambiguous, kept apart and the refusal recorded."""
    if len(owners) == 1:
        return merger.join(owners[0], i, named[owners[0]].name, named[i].name, rule, score)
    if len(owners) > 1:
        named[i].group.ambiguous = True
        forms = " | ".join(sorted(named[j].name for j in owners))
        merger.refuse(i, named[i].name, forms, f"ambiguous-{rule}")
    return False


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
                    words.get(n.tokens, []) if len(n.tokens) == 1 else [])) == 1 \
                and is_on(FIRM_OF_PERSON.id):
            # "Johnson Controls" tagged a person, beside "Johnson Controls Inc": the firm; so are
            # "Ruch" beside "Ruch SA" and "Ericsson" beside "LM Ericsson AB" where no one of
            # the article has that surname or title
            n.group.kind, n.group.evidence = ORG, True
            fired(FIRM_OF_PERSON.id)
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
        if titled:
            return {("titled-surname", titled, *n.tokens): n.name}
        if applies(TEAM_SHEET_SURNAMES, lambda: n.cues and all(c.listed for c in n.cues)):
            return {(LISTED_SURNAME, *n.tokens): n.name}  # one side's player, by no key alone
        return {("surname", *n.tokens): n.name}
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


# -- the registry's entries: the join rules, in the order they run (the class cues and votes
# before them are ``kg.resolve.kinds``'s) --

_JOINED = "a MergeDecision"


def _join_rule(id: str, fn: Callable[[Sequence[NameGroup], Merger], None], rule: str,
               score: str, reads: str, description: str, example: str) -> Heuristic:
    """Declare a join rule of ``resolve.article`` (its step is handed the article's text too)."""
    return declare(f"resolve.article.{id}", "resolve.article", reads=reads,
                   writes=f'{_JOINED} "{rule}"', description=description, example=example,
                   model=f"join score {score}",
                   fn=lambda named, merger, text: fn(named, merger))


_join_rule("middle-names", attach_middle_names, "middle-name-in-article", "0.9",
           "people's full names",
           "A shorter full name joins the one longer full name of the article it is part of "
           "(\"Mark Heller\", \"Mark Jay Heller\").",
           "Mark Jay Heller filed the motion. Mark Heller said he would appeal.")
_join_rule("short-given-names", attach_short_given_names, "short-given-name-in-article", "0.8",
           "people's full names",
           "A full name whose given name is written short joins the one full name of the "
           "article with the long form (\"Mo Cheeks\", \"Maurice Cheeks\").",
           "Edward Balls met officials on Monday. Ed Balls said the talks went well.")
_join_rule("surnames", attach_surnames,
           'surname-in-article" or "titled-given-name-in-article', "0.9",
           "one-word people, the titles of the article's mentions and its full names",
           "A bare surname joins the one person of the article whose name ends with it, titles "
           "agreeing (\"Mrs Howard\" is not Mr Howard); \"Sir John\" joins the one John by "
           "his given name; two owners: kept apart and recorded.",
           "Vladimir Putin spoke on Monday. Putin said Russia would respond.")
GIVEN_NAME = declare(
    "resolve.article.given-name", "resolve.article",
    reads="a one-word person no full name of the article ends with",
    writes=f'{_JOINED} "given-name"', model="join score 0.9",
    description="A one-word person, untitled, that no full name of the article ends with joins "
                "the one full name it begins (\"Sarah\" of \"Sarah Palin\").",
    example="Sarah Palin spoke in Alaska. Sarah said she would run again.")
FIRST_NAMED = declare(
    "resolve.article.first-named", "resolve.article",
    reads="where the people who share a surname are first written",
    writes=f'{_JOINED} "surname-of-first-named"', model="join score 0.9",
    description="Of two full names of an article with one surname, a bare surname is the "
                "one introduced before it is first written (the brother named near the end is "
                "not the \"LaCalamita\" of the middle); where their given names differ in the "
                "first letter, ``two-surname-owners`` leaves it alone instead.",
    example="Anthony LaCalamita was hired in 2003. LaCalamita said he was shocked. His "
            "brother, Andrew LaCalamita, agreed.")
#: The rules of ``attach_surnames`` that are heuristics of their own, by the rule they record.
_CONDITIONS = {"given-name": GIVEN_NAME.id, "surname-of-first-named": FIRST_NAMED.id}

_join_rule("acronyms", attach_acronyms, "acronym-in-article", "0.9",
           "acronyms and the article's names of several words",
           "An acronym joins the one name of the article it spells (\"ICRC\").",
           "The International Committee of the Red Cross sent aid. The ICRC said more was "
           "needed.")
_join_rule("org-parts", attach_org_parts, "org-short-form-in-article", "0.8",
           "organisations' names and their parts (``org_parts``)",
           "Part of an organisation's name (\"Amnesty\", \"Red Cross\") joins the one longer "
           "organisation name of the article containing it.",
           "Amnesty International criticised the ruling. Amnesty said the law was unjust.")
FIRM_OF_PERSON = declare(
    "resolve.article.firm-of-person", "resolve.article",
    reads="a \"person\" and the article's firms whose names end in legal words",
    writes=f'the group\'s class, and {_JOINED} "org-short-form-in-article"',
    model="join score 0.8",
    description="A \"person\" that is a firm's name without its legal words (\"Johnson "
                "Controls\" beside \"Johnson Controls Inc\"; \"Ericsson\" beside \"LM "
                "Ericsson AB\" where no one has that surname) is the firm.",
    example="Johnson Controls Inc said profits rose. Johnson Controls will hire more staff.")
_join_rule("unqualified", attach_unqualified, "qualified-in-article", "0.8",
           "generic names and the countries qualifying them",
           "An unqualified generic name (\"the defence ministry\") joins the one group of that "
           "name a country qualifies (\"Russia's defence ministry\").",
           "Russia's Defence Ministry said the strikes hit depots. The Defence Ministry gave "
           "no figures.")
_join_rule("descriptions", attach_descriptions, "description-in-article", "0.7",
           "a one-word generic description and the organisations named with that word",
           "A one-word description (\"the army\", \"police\") joins the one organisation of "
           "the article named with that word at its head or end (\"the Free Syrian Army\"); "
           "a country's description only one that names the country too.",
           "The Free Syrian Army took the town. The Army said it had lost ten men.")
declare("resolve.article.expansions", "resolve.article", fn=attach_expansions,
        reads="a one-word name and a name in brackets right after it, or the reverse",
        writes=f'{_JOINED} "acronym-in-brackets"', model="join score 0.9",
        description="A one-word name and the expansion it spells, one in brackets after the "
                    "other, are one thing whatever their classes (\"Asimo (Advanced Step in "
                    "Innovative Mobility)\").",
        example="Card fraud fell, the Association of Card Issuing Banks (Acib) said.")
