"""Across articles: which groups of different articles are one thing.

No step compares every group with every other. Each rule looks candidates up in an index
built in one pass (exact identity keys; a sound key of surnames; acronym letters; parts of
organisation names) and compares only within those blocks:

* ``same keys``      equal identity keys: the same name after case, "the", possessives,
                     British/American spelling and a works tail are set aside ("Azovstal
                     steel works" = "Azovstal steelworks"), or the same generic institution
                     of the same country ("Russia's defence ministry" = "Russian Defense
                     Ministry").
* ``transliteration`` full names whose words are near-spellings ("Zelenskiy"/"Zelensky").
* ``partial name``   a shorter full name to the one longer full name with its words in
                     order ("Mark Heller" → "Mark Jay Heller").
* ``surname``        a bare surname to the one full name in the corpus ending with it; two
                     candidates: kept apart and recorded.
* ``listed surname`` a bare surname of a team sheet (``kg.resolve.sheets``) only to the one
                     full name whose articles share two of its article's other names.
* ``class vote``     a one-word "person" nobody in the corpus is named after, to the one
                     organisation of that name ("Labour" tagged PERSON).
* ``class vote``     a name of several words tagged a person in one article and something
                     else in another ("Vince Cable" tagged ORG once): one entity.
* ``acronym``        an acronym to the one multi-word name in the corpus it spells, when
                     some article spelled that name out with it.
* ``org short form`` part of an organisation name ("the Red Cross") to the one longer
                     organisation name in the corpus containing it.

People and other things live in separate key spaces, so a person never merges with a place.
Each rule is a heuristic of the stage ``resolve.corpus`` (``kg.heuristics``): ``merge_corpus``
runs them in the order they are declared here, leaves out those switched off and records a
rule's fire when it joined two groups.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

from kg.heuristics import declare, fired, heuristic, is_on, steps
from kg.lexicon.words import TITLE_NOUNS
from kg.model import EntityKind
from kg.resolve.context import Contexts
from kg.resolve.document import org_parts
from kg.resolve.geo import is_country_name, is_place_name
from kg.resolve.groups import Group, Key, Merger
from kg.resolve.linking import join_by_context
from kg.resolve.names import (
    ACRONYM_SKIP,
    MIN_VARIANT_LENGTH,
    acronym_letters,
    comparison_tokens,
    initials,
    is_partial_name,
    near_spelling,
    phonetic_key,
    titles_agree,
)
from kg.resolve.sheets import LISTED_SURNAME, TEAM_SHEET_SURNAMES
from kg.resolve.short_names import NAME_ENDS, ends_inside

KEY_RULES = {"person": "same-name", "surname": "same-name", "titled-surname": "same-name",
             "name": "same-name", "org": "qualified-name", "generic": "same-name"}


def merge_corpus(groups: Sequence[Group], contexts: Contexts | None = None) -> Merger:
    """A union-find over ``groups`` with every cross-article join applied and recorded; with
    ``contexts`` (what surrounds each group), the context model's joins too
    (``kg.resolve.linking``).

    >>> from kg.resolve.groups import Group
    >>> putin = Group("a", anchor="Vladimir Putin", keys={("person", "vladimir", "putin"): "x"})
    >>> bare = Group("b", anchor="Putin", keys={("surname", "putin"): "Putin"})
    >>> merger = merge_corpus([putin, bare])
    >>> merger.find(1) == merger.find(0), merger.joins[0].rule
    (True, 'surname-in-corpus')
    """
    merger = Merger(len(groups))
    merger.contexts = contexts
    for step in steps("resolve.corpus"):
        if step.fn is not None:  # the others are conditions inside a join rule
            made = merged(merger)
            step(groups, merger)
            if merged(merger) > made:
                fired(step.id)
    return merger


def merged(merger: Merger) -> int:
    """How many joins ``merger`` made (refusals aside)."""
    return sum(join.merged for join in merger.joins)


#: What a join rule writes.
JOINED = "a MergeDecision"


@heuristic("resolve.corpus.same-keys", "resolve.corpus",
           reads="the identity keys of every article's groups",
           writes=f'{JOINED} "same-name", "spelling-variant", "word-form-variant" or '
                  '"qualified-name"',
           description="Groups of two articles that share an identity key are one thing: the "
                       "same name once case, \"the\", possessives, British or American "
                       "spelling and a works tail are set aside, or the same generic "
                       "institution of the same country.",
           example="The Azovstal steel works was shelled on Monday.\n|||\n"
                   "Fighters held out in the Azovstal steelworks.",
           model="join score 1.0 (a full name, a name), 0.9 (a surname, a country's "
                 "institution), 0.8 (a generic name)")
def join_same_keys(groups: Sequence[Group], merger: Merger) -> None:
    """Join groups sharing an identity key — not a given name under "Sir" or "Dame": two
    articles' "Sir John" may be two knights (``join_surnames`` joins it to one full name);
    nor a team sheet's bare surname: two sheets' "Robinson" may be two sides' players
    (``join_listed_surnames``)."""
    first: dict[Key, int] = {}
    for i, group in enumerate(groups):
        for key, form in group.keys.items():
            if key[0] in ("titled-given-name", LISTED_SURNAME):
                continue
            j = first.setdefault(key, i)
            if j != i:
                other = groups[j].keys[key]
                merger.join(j, i, other, form, _key_rule(key, other, form), _SCORES[key[0]])


_SCORES = {"person": 1.0, "surname": 0.9, "titled-surname": 0.9, "name": 1.0, "org": 0.9,
           "generic": 0.8}


def _key_rule(key: Key, left: str, right: str) -> str:
    if key[0] != "name":
        return KEY_RULES[key[0]]
    if left.casefold() == right.casefold():
        return "same-name"
    if comparison_tokens(left) == comparison_tokens(right):
        return "spelling-variant"
    return "word-form-variant"


def _people(groups: Sequence[Group], kind: str) -> Iterator[tuple[int, tuple[str, ...]]]:
    for i, group in enumerate(groups):
        for key in group.keys:
            if key[0] == kind:
                yield i, key[1:]


@heuristic("resolve.corpus.transliterations", "resolve.corpus",
           reads="people's full names, blocked by the sound of the surname",
           writes=f'{JOINED} "transliteration"',
           description="Full names of as many words whose words are all near-spellings of "
                       "each other are one person (\"Zelenskiy\", \"Zelensky\").",
           example="President Volodymyr Zelenskiy spoke on Monday.\n|||\n"
                   "President Volodymyr Zelensky thanked the allies.",
           model="join score 0.8")
def join_transliterations(groups: Sequence[Group], merger: Merger) -> None:
    """Join full names of as many words whose words are all near-spellings, blocked by the
    sound key of the surname."""
    blocks: dict[tuple[int, str], list[tuple[int, tuple[str, ...]]]] = {}
    for i, tokens in _people(groups, "person"):
        blocks.setdefault((len(tokens), phonetic_key(tokens[-1])), []).append((i, tokens))
    for block in blocks.values():
        for a, (i, left) in enumerate(block):
            for j, right in block[a + 1 :]:
                if left != right and all(map(near_spelling, left, right)):
                    merger.join(i, j, groups[i].keys[("person", *left)],
                                groups[j].keys[("person", *right)], "transliteration", 0.8)


@heuristic("resolve.corpus.partial-names", "resolve.corpus",
           reads="people's full names", writes=f'{JOINED} "partial-name-in-corpus"',
           description="A shorter full name joins the one longer full name of the corpus "
                       "with its words in order (\"Mark Heller\", \"Mark Jay Heller\"); "
                       "two candidates: kept apart and recorded.",
           example="The lawyer Mark Jay Heller filed the motion.\n|||\n"
                   "Mark Heller said the trial would go ahead.",
           model="join score 0.7")
def join_partial_names(groups: Sequence[Group], merger: Merger) -> None:
    """Join a person's shorter full name to the one longer full name of the corpus that has
    its words in order, first and last among them ("Mark Heller" → "Mark Jay Heller") or
    inside it ("Maurice Cheeks" in a headline's "Hire Maurice Cheeks"); two candidates that
    are not already one person: kept apart and recorded."""
    by_word: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    for i, tokens in _people(groups, "person"):
        by_word.setdefault(tokens[-1], []).append((i, tokens))
        by_word.setdefault(tokens[0], []).append((i, tokens))
    for i, tokens in _people(groups, "person"):
        found = [(j, other) for j, other in by_word.get(tokens[-1], []) + by_word.get(
            tokens[0], []) if len(other) > len(tokens) and is_partial_name(tokens, other)]
        # "Malcolm X" is not his grandson "Malcolm X Attallah Shabazz"
        longer = {j for j, other in found if not ends_inside(tokens, other)}
        if len(longer) < len({j for j, _other in found}):
            fired(NAME_ENDS.id)
        owners = {merger.find(j) for j in longer}
        _join_unique(groups, merger, i, owners, "partial-name-in-corpus", 0.7)


@heuristic("resolve.corpus.surnames", "resolve.corpus",
           reads="bare surnames and people's full names",
           writes=f'{JOINED} "surname-in-corpus", "titled-surname-in-corpus" or '
                  '"titled-given-name-in-corpus"',
           description="A bare surname joins the one person of the corpus whose full name "
                       "ends with it (a given name too, unless outweighed); a titled "
                       "surname only a person whose titles agree; \"Sir Elton\" the one "
                       "Sir Elton.",
           example="Prime Minister Tony Blair met union leaders.\n|||\n"
                   "Blair said the talks had gone well.",
           model="join score 0.7")
def join_surnames(groups: Sequence[Group], merger: Merger) -> None:
    """Join a bare surname to the one person of the corpus whose full name ends with it (or a
    near-spelling of it, for surnames of nine letters or more). A word that is also someone's
    given name ("Gordon", "Harry") may be either: it is kept apart like any ambiguity, unless
    the people with that surname are named three times as often as those with that given
    name ("Obama" is not the "Obama" of a headline's "Obama Overturns"). Of several owners,
    the one whose articles clearly share the article's other names wins (``ArticleContext``).
    A surname under a woman's title or a rank joins only a full name whose titles agree
    ("Baroness Kennedy" is not Charles Kennedy; see ``titles_agree``); a given name under
    "Sir" or "Dame" joins such a full name by its given name ("Sir Elton" is Sir Elton John,
    "Sir John" no Elton John)."""
    by_surname: dict[str, list[int]] = {}
    by_given: dict[str, list[int]] = {}
    by_sound: dict[str, list[tuple[int, str]]] = {}
    for i, tokens in _people(groups, "person"):
        by_surname.setdefault(tokens[-1], []).append(i)
        by_given.setdefault(tokens[0], []).append(i)
        by_sound.setdefault(phonetic_key(tokens[-1]), []).append((i, tokens[-1]))
    mentions: Counter[int] = Counter()
    for i, group in enumerate(groups):
        mentions[merger.find(i)] += len(group.refs)
    context = ArticleContext(groups, merger)
    for i, (surname,) in _people(groups, "surname"):
        best = None
        owners = {merger.find(j) for j in by_surname.get(surname, [])}
        if not owners and len(surname) > MIN_VARIANT_LENGTH:
            sound = by_sound.get(phonetic_key(surname), [])
            owners = {merger.find(j) for j, other in sound if near_spelling(surname, other)}
        given = {merger.find(j) for j in by_given.get(surname, [])} - owners
        if not owners or sum(map(mentions.__getitem__, owners)) < 3 * sum(
                map(mentions.__getitem__, given)):
            owners |= given  # "Gordon" may be Gordon Brown, unless Craig Gordon outweighs him
        rule = "surname-in-corpus"
        if len(owners) > 1 and merger.find(i) not in owners and is_on(BY_CONTEXT.id) and (
                best := context.best(i, owners)):
            owners, rule = best, "surname-by-context"
            fired(BY_CONTEXT.id)
        _join_unique(groups, merger, i, owners, rule, 0.6 if best else 0.7)
    for i, (_title, surname) in _people(groups, "titled-surname"):
        owners = {merger.find(j) for j in by_surname.get(surname, [])
                  if titles_agree(groups[i].titles, groups[j].titles)}
        _join_unique(groups, merger, i, owners, "titled-surname-in-corpus", 0.7)
    for i, (_title, first) in _people(groups, "titled-given-name"):  # "Sir Elton"
        owners = {merger.find(j) for j in by_given.get(first, [])
                  if titles_agree(groups[i].titles, groups[j].titles)}
        _join_unique(groups, merger, i, owners, "titled-given-name-in-corpus", 0.7)


@heuristic(TEAM_SHEET_SURNAMES, "resolve.corpus",
           reads="bare surnames a team sheet lists, people's full names, the other names of "
                 "their articles",
           writes=f'{JOINED} "listed-surname-by-context"',
           description="A bare surname every mention of which is an item of a team sheet "
                       "(one side's player) joins no namesake by its key alone: only the one "
                       "person of the corpus whose full name ends with it and whose articles "
                       "name at least two of the people its article names.",
           example="Charlie Hodgson kicked four penalties for England.\n|||\n"
                   "Wasps beat London Irish 31-12.\nReplacements: Everitt for Mapletoft, "
                   "Hodgson for Edwards, Wheatley for Hatley, Paice for Walt, Strudwick "
                   "for Kennedy.",
           model="join score 0.6")
def join_listed_surnames(groups: Sequence[Group], merger: Merger) -> None:
    """Join a team sheet's bare surname (``kg.resolve.sheets``; its key "listed-surname",
    which ``join_same_keys`` does not join) to the one person whose full name ends with it and
    whose articles share at least two of the people its article names, three times as many
    as any other such person's (``ArticleContext``): "Hodgson for Edwards (77)" in London
    Irish's replacements is not Charlie Hodgson of England's articles, nor "Fletcher (West
    Ham)" the novelist Susan Fletcher."""
    by_surname: dict[str, list[int]] = {}
    for i, tokens in _people(groups, "person"):
        by_surname.setdefault(tokens[-1], []).append(i)
    context = ArticleContext(groups, merger, people=True)
    for i, (surname,) in _people(groups, LISTED_SURNAME):
        owners = {merger.find(j) for j in by_surname.get(surname, [])}
        if owners and merger.find(i) not in owners and (best := context.best(i, owners)):
            _join_unique(groups, merger, i, best, "listed-surname-by-context", 0.6)


BY_CONTEXT = declare(
    "resolve.corpus.surname-by-context", "resolve.corpus",
    reads="the other names of the articles of each candidate owner",
    writes=f'{JOINED} "surname-by-context"',
    description="Of two people who could own a bare surname, the one whose articles share "
                "at least two of the article's other names, three times as many as the other's "
                "(``ArticleContext``), owns it.",
    example="Clive Owen starred in Closer with Julia Roberts and Jude Law.\n|||\n"
            "Michael Owen scored for Real Madrid against Valencia.\n|||\n"
            "Owen starred with Julia Roberts and Jude Law in the film Closer.",
    model="join score 0.6")


class ArticleContext:
    """What else each article names, to tell apart two people who could own a surname: the
    "Williams" of an article that also names MGM and Hollywood is the Williams whose
    articles name them too."""

    def __init__(self, groups: Sequence[Group], merger: Merger, people: bool = False) -> None:
        """``people``: only the names of people count (a team sheet's side is its players,
        not the places and clubs every match report names)."""
        self.groups = groups
        self.names: dict[str, set[tuple[str, ...]]] = {}
        for group in groups:
            if not people or group.kind is EntityKind.PERSON:
                self.names.setdefault(group.doc_id, set()).add(comparison_tokens(group.anchor))
        self.docs: dict[int, set[str]] = {}
        for root, members in merger.sets().items():
            self.docs[root] = {groups[k].doc_id for k in members}

    def best(self, i: int, owners: set[int]) -> set[int] | None:
        """The owner whose articles share at least two other names with group ``i``'s
        article and three times as many as any other owner; else ``None``."""
        here = self.names.get(self.groups[i].doc_id, set()) - {
            comparison_tokens(self.groups[i].anchor)}
        shared = sorted(((len(here & self._names_of(o)), o) for o in owners), reverse=True)
        runner_up = shared[1][0] if len(shared) > 1 else 0
        if shared[0][0] >= 2 and shared[0][0] >= 3 * runner_up:
            return {shared[0][1]}
        return None

    def _names_of(self, root: int) -> set[tuple[str, ...]]:
        found: set[tuple[str, ...]] = set()
        for doc in self.docs.get(root, ()):
            found |= self.names.get(doc, set())
        return found


@heuristic("resolve.corpus.tagger-slips", "resolve.corpus",
           reads="one-word \"people\" and organisations' names",
           writes=f'{JOINED} "class-vote"',
           description="A one-word \"person\" who is nobody's surname or given name in the "
                       "corpus joins the one organisation of that name the corpus names as "
                       "often (\"Labour\" tagged a person).",
           example="Senior Labour backbencher Jim Hale spoke.\n|||\nLabour won the vote."
                   "\n|||\nLabour said it would govern.",
           model="join score 0.6")
def join_tagger_slips(groups: Sequence[Group], merger: Merger) -> None:
    """Join a one-word "person" that is nobody's surname or given name in the corpus to the
    one organisation of that name, when the corpus names the organisation at least as often:
    the tagger's slips ("Labour" tagged PERSON) are outvoted across articles as they are
    within one. Places are never joined so: "Jordan" the person is not the country."""
    organisations: dict[str, list[int]] = {}
    for i, group in enumerate(groups):
        for key in group.keys:  # ("name", "amnesty"), or ("generic", "labour") for parties
            if key[0] in ("name", "generic") and len(key) == 2 and (
                    group.kind is EntityKind.ORGANIZATION):
                organisations.setdefault(key[1], []).append(i)
    people = {t for _i, tokens in _people(groups, "person") for t in (tokens[0], tokens[-1])}
    mentions: Counter[int] = Counter()
    for i, group in enumerate(groups):
        mentions[merger.find(i)] += len(group.refs)
    for i, (token,) in _people(groups, "surname"):
        owners = {merger.find(j) for j in organisations.get(token, [])}
        if token not in people and len(owners) == 1:
            owner = next(iter(owners))
            if mentions[owner] >= mentions[merger.find(i)]:
                merger.join(owner, i, groups[owner].anchor, groups[i].anchor, "class-vote", 0.6)


@heuristic("resolve.corpus.class-disagreements", "resolve.corpus",
           reads="names of two words or more and their classes in each article",
           writes=f'{JOINED} "class-vote"',
           description="A name tagged a person in one article and something else in another "
                       "is one thing (\"Vince Cable\" tagged an organisation once), unless "
                       "cues decided both classes; the vote of all its mentions decides.",
           example="Elton Brand scored 30 points for the Clippers.\n|||\n"
                   "The Clippers lost when Elton Brand was hurt.",
           model="join score 0.7")
def join_class_disagreements(groups: Sequence[Group], merger: Merger) -> None:
    """Join a name of two or more words that the tagger called a person in one article and
    something else in another ("Vince Cable" tagged ORG once) — unless cues or GeoNames
    decided both classes. The cluster's class is then the vote of all its mentions."""
    people: dict[tuple[str, ...], list[int]] = {}
    for i, tokens in _people(groups, "person"):
        people.setdefault(tokens, []).append(i)
    for i, tokens in _named(groups):
        if len(tokens) < 2 or groups[i].kind is EntityKind.PERSON:
            continue
        owners = {merger.find(j) for j in people.get(tokens, [])
                  if not (groups[i].evidence and groups[j].evidence)}
        _join_unique(groups, merger, i, owners, "class-vote", 0.7)


@heuristic("resolve.corpus.surname-slips", "resolve.corpus",
           reads="one-word organisations and places, people's surnames",
           writes=f'{JOINED} "class-vote"',
           description="A one-word \"organisation\" or \"place\" that is the surname of "
                       "one person of the corpus, no known place and no given name, joins "
                       "that person where the corpus uses the word for them twice as often.",
           example="Inmate Jeremy Comeaux escaped on Monday. Comeaux was recaptured.\n|||\n"
                   "Comeaux faces new charges.",
           model="join score 0.6")
def join_surname_slips(groups: Sequence[Group], merger: Merger) -> None:
    """Join a one-word "organisation" or "place" that is the surname of one person in the
    corpus — no one's given name, no known place, no cue deciding its class — when the
    corpus uses the word for that person (alone or in the full name) at least twice as often
    ("Comeaux" tagged ORG in one article, "Comeaux" the inmate in five)."""
    owners: dict[str, set[int]] = {}
    for i, tokens in _people(groups, "person"):
        owners.setdefault(tokens[-1], set()).add(merger.find(i))
    given = {tokens[0] for _i, tokens in _people(groups, "person")}
    as_person: Counter[str] = Counter()
    for i, (token,) in _people(groups, "surname"):
        as_person[token] += len(groups[i].refs)
    for i, tokens in _people(groups, "person"):  # "Vladimir Putin" uses "Putin" too
        as_person[tokens[-1]] += len(groups[i].refs)
    slips: dict[str, list[int]] = {}
    for i, tokens in _named(groups):
        group = groups[i]
        if (len(tokens) == 1 and group.kind is not EntityKind.PERSON and not group.evidence
                and not acronym_letters(group.anchor)):
            slips.setdefault(tokens[0], []).append(i)
    for token, members in slips.items():
        found = {merger.find(j) for j in owners.get(token, set())}
        named = sum(len(groups[i].refs) for i in members)
        if (len(found) != 1 or token in given or as_person[token] < 2 * named
                or is_place_name(groups[members[0]].anchor)):
            continue
        owner = found.pop()
        for i in members:
            merger.join(owner, i, groups[owner].anchor, groups[i].anchor, "class-vote", 0.6)


@heuristic("resolve.corpus.people-taken-for-places", "resolve.corpus",
           reads="one-word places every mention of which the tagger called a person",
           writes=f'{JOINED} "class-vote"',
           description="A one-word name tagged a person but made a place only because "
                       "GeoNames knows a town of that name joins the one person of the "
                       "corpus with that given name or surname named twice as often.",
           example="Estelle Morris resigned on Monday. Estelle Morris was education "
                   "secretary.\n|||\nCritics of Estelle welcomed the news.",
           model="join score 0.6")
def join_people_taken_for_places(groups: Sequence[Group], merger: Merger) -> None:
    """Join a one-word name the tagger called a person every time, made a place only because
    GeoNames knows a town of that name, to the one person of the corpus with that given name
    or surname, when the corpus names that person twice as often ("Lindsay" in an article
    whose headline alone said "Lindsay Lohan": Lindsay, Ontario, is a town). A country keeps
    its class ("Jordan")."""
    names: dict[str, set[int]] = {}
    for i, tokens in _people(groups, "person"):
        for token in (tokens[0], tokens[-1]):
            names.setdefault(token, set()).add(merger.find(i))
    mentions: Counter[int] = Counter()
    for i, group in enumerate(groups):
        mentions[merger.find(i)] += len(group.refs)
    for i, tokens in _named(groups):
        group = groups[i]
        if (len(tokens) != 1 or group.kind is not EntityKind.PLACE
                or set(group.votes) != {EntityKind.PERSON} or is_country_name(group.anchor)):
            continue
        owners = {merger.find(j) for j in names.get(tokens[0], set())}
        if len(owners) == 1 and mentions[next(iter(owners))] >= 2 * mentions[merger.find(i)]:
            _join_unique(groups, merger, i, owners, "class-vote", 0.6)


def _join_unique(groups: Sequence[Group], merger: Merger, i: int, owners: set[int], rule: str,
                 score: float) -> None:
    if merger.find(i) in owners:
        return  # already one with a candidate (another group of its set was joined first)
    if len(owners) == 1:
        j = owners.pop()
        merger.join(j, i, groups[j].anchor, groups[i].anchor, rule, score)
    elif owners:
        forms = " | ".join(sorted(groups[j].anchor for j in owners))
        merger.refuse(i, groups[i].anchor, forms, f"ambiguous-{rule}")


def _named(groups: Sequence[Group]) -> Iterator[tuple[int, tuple[str, ...]]]:
    for i, group in enumerate(groups):
        for key in group.keys:
            if key[0] == "name":
                yield i, key[1:]


@heuristic("resolve.corpus.acronyms", "resolve.corpus",
           reads="acronyms and names of several capitalised words",
           writes=f'{JOINED} "acronym" (or refused: "acronym-without-evidence")',
           description="An acronym joins the one name of the corpus it spells that some "
                       "article spelled out with it (\"United Nations (UN)\"); of several, "
                       "the one spelled out clearly most often.",
           example="The International Atomic Energy Agency (IAEA) sent inspectors.\n|||\n"
                   "The IAEA said the plant was safe.",
           model="join score 0.8")
def join_acronyms(groups: Sequence[Group], merger: Merger) -> None:
    """Join an acronym to the one multi-word name of the corpus whose initials it spells and
    that some article spelled out with that acronym ("United Nations (UN)"); of several, to
    the one spelled out clearly most often. Without such evidence only an acronym of four
    letters or more joins its one expansion ("NATO"); the others are recorded as refused.
    Country acronyms ("US", "UK") are GeoNames' business."""
    expansions: dict[str, list[int]] = {}
    for i, tokens in _named(groups):
        if len(tokens) > 1 and spells_out(groups[i].keys[("name", *tokens)]):
            expansions.setdefault(initials(tokens), []).append(i)
    spelled: dict[str, Counter[int]] = {}
    for i, group in enumerate(groups):
        for form in group.forms:
            if (letters := acronym_letters(form)) and group.anchor != form:
                spelled.setdefault(letters, Counter())[merger.find(i)] += 1
    for i, group in enumerate(groups):
        letters = acronym_letters(group.anchor)
        if (not letters or letters in TITLE_NOUNS or group.kind is EntityKind.PERSON
                or is_country_name(group.anchor)):
            continue
        owners = {merger.find(j) for j in expansions.get(letters, [])}
        if owners and merger.find(i) not in owners:
            evidenced = _spelled_out(owners, spelled.get(letters))
            if not evidenced and len(letters) >= LONG_ACRONYM and is_on(LONG.id):
                evidenced = owners  # four letters spelling one name by chance are rare
                fired(LONG.id)
            if evidenced:
                _join_unique(groups, merger, i, evidenced, "acronym", 0.8)
            else:
                forms = " | ".join(sorted(groups[j].anchor for j in owners))
                merger.refuse(i, group.anchor, forms, "acronym-without-evidence")


#: Acronyms this long may join the one name they spell without an article spelling it out
#: ("NATO"); shorter ones ("IP", "GM") need that evidence.
LONG_ACRONYM = 4
LONG = declare(
    "resolve.corpus.long-acronym", "resolve.corpus",
    reads="an acronym of four letters or more and the names it spells",
    writes=f'{JOINED} "acronym"',
    description="An acronym of four letters or more joins the one name of the corpus it spells "
                "even where no article spelled it out with it (\"NATO\").",
    example="The North Atlantic Treaty Organization met in Brussels.\n|||\n"
            "NATO said it would send more troops.",
    model="join score 0.8")


def spells_out(form: str) -> bool:
    """Whether a name can be what an acronym stands for: its words capitalised ("North
    Atlantic Treaty Organization"), none an acronym itself ("US Super Bowl" is no "USB").

    >>> spells_out("General Motors"), spells_out("IRB Rugby Aid"), spells_out("north east")
    (True, False, False)
    """
    words = [w for w in form.split() if w.lower() not in ACRONYM_SKIP]
    return all(w[:1].isupper() and not (len(w) > 1 and w.isupper()) for w in words)


def _spelled_out(owners: set[int], spelled: Counter[int] | None) -> set[int]:
    """The expansions some article spelled out with the acronym ("United Nations (UN)", or
    both in one article); of several, the one spelled out clearly most often (twice as often
    as any other), if there is one. An expansion no article ties to the acronym is no
    evidence: "IP" in "Voice over IP" is not the Independence Party."""
    counts = sorted(((spelled or Counter())[o], o) for o in owners)
    counts = [(n, o) for n, o in counts if n > 0]
    if len(counts) > 1 and counts[-1][0] >= 2 * counts[-2][0]:
        return {counts[-1][1]}
    return {o for _n, o in counts}


@heuristic("resolve.corpus.org-short-forms", "resolve.corpus",
           reads="organisations' names and their parts",
           writes=f'{JOINED} "org-short-form"',
           description="Part of an organisation's name (\"Red Cross\", \"Amnesty\") joins "
                       "the one longer organisation name of the corpus containing it.",
           example="The International Committee of the Red Cross sent aid.\n|||\n"
                   "The Red Cross said more was needed.",
           model="join score 0.7")
def join_org_short_forms(groups: Sequence[Group], merger: Merger) -> None:
    """Join part of an organisation's name ("Red Cross", "Amnesty") to the one longer
    organisation name of the corpus containing it (see ``org_parts``)."""
    parts: dict[tuple[str, ...], list[int]] = {}
    for i, tokens in _named(groups):
        if groups[i].kind is EntityKind.ORGANIZATION:
            for part in org_parts(tokens):
                parts.setdefault(part, []).append(i)
    for i, group in enumerate(groups):
        if group.kind is not EntityKind.ORGANIZATION or acronym_letters(group.anchor):
            continue
        tokens = comparison_tokens(group.anchor)
        if ("name", *tokens) in group.keys and not is_place_name(group.anchor):
            owners = {merger.find(j) for j in parts.get(tokens, [])}
            _join_unique(groups, merger, i, owners, "org-short-form", 0.7)


@heuristic("resolve.corpus.context-joins", "resolve.corpus",
           reads="candidate pairs blocked by name keys (``kg.resolve.blocks``) and what "
                 "surrounds their mentions: sentences, the article's topic, its other names, "
                 "classes",
           writes=f'{JOINED} "context-<relation>" (acronym, abbreviation, plural, initial, '
                  'given-variant, surname, same-name)',
           description="Candidates the rules left apart, blocked by name keys "
                       "(``kg.resolve.blocks``), are scored by the context model and "
                       "clustered corpus-wide by average linkage at its learned threshold "
                       "(\"G Henson\" of a team sheet and Gavin Henson of the match report; "
                       "\"Rafa Benitez\" and \"Rafael Benitez\").",
           example="Wales beat England 11-9 in the Six Nations at the Millennium Stadium. "
                   "Gavin Henson kicked the winning penalty for Wales, and Shane Williams and "
                   "Dwayne Peel ran England ragged.\n|||\nSix Nations: Wales v England, "
                   "Millennium Stadium. Wales: G Thomas, H Luscombe, T Shanklin, G Henson, "
                   "S Williams; S Jones, D Peel. England: J Robinson, M Cueto.",
           model="the context model's mean probability over the pairs of the two sets")
def join_in_context(groups: Sequence[Group], merger: Merger) -> None:
    """Join what the context model finds one thing (``kg.resolve.linking``)."""
    join_by_context(groups, merger)
