"""Name variants of one thing: "Labour", "the Labour Party" and "New Labour"; "Lib Dems" and
"Liberal Democrats"; "the Oscars" and "Oscar" — joined once the corpus's vote has given every
entity its class.

Resolution joins names by their identity keys, which keep "Labour Party" apart from "Labour"
and "Oscars" from "Oscar": most pairs so alike are two things ("Times" and "Time", "Sony" and
"Sony Ericsson"). A few ways of writing one name are regular enough for a rule, once the
classes of the two entities are known (``kg.resolve.types``: a party, an award, an event):

* ``party``         a party's name with or without its head word: "the Labour Party" and
                    "Labour", "Conservative Party" and "Conservatives" (only where one of the
                    two is a party: "Green" and "Green Party");
* ``plural``        a name and its plural, in its last word: "Liberal Democrats" and "Liberal
                    Democrat", "Academy Awards" and "Academy Award"; one word only for an
                    award or a party ("Oscars" and "Oscar", "Conservatives" and
                    "Conservative"; not "Times" and "Time");
* ``abbreviation``  as many words, each the start of the other's: "Lib Dems" and "Liberal
                    Democrats";
* ``alias``         another name of a few well-known organisations, awards and events that
                    no rule of spelling reads ("Tories", "New Labour", "the Oscars": data,
                    ``name-aliases.toml``).

People and places never join so (two people may share a surname, a place its name with a
club), nor names made only of institution words unless one of the two is a party ("defence
ministry", "police": resolution keeps two countries' or two towns' apart; "Labour" and "the
Labour Party" are one), nor two things whose finer classes differ ("Sun" the newspaper, "Suns"
the team). A thing is looked up under its label and its other labels, but two things join
only where one of them is found by its label (two festivals that each hold a "Film Festival"
cut from their names are two), and not when one label is a run of words of the other's but
its tail, a body and its prize or service ("Norwich Union" and "Norwich Union Grand Prix";
"Wildlife Service" is "Fish and Wildlife Service", when it ends no other thing's name:
"Film Festival" is neither "Cannes Film Festival" nor "Sundance Film Festival"). The entity
with most mentions (a nickname or a short form last: not "Tory", "Lib Dems") keeps its key
and label; the others' names become its other labels and their keys, if an earlier build gave
them out, its aliases. Each join is a ``MergeDecision`` "variant-<relation>".

>>> variant_keys("the Labour Party", party=True)
{('labour', 'party'): 'name', ('labour',): 'party'}
>>> sorted(variant_keys("Oscars").items())  # doctest: +NORMALIZE_WHITESPACE
[(('academy', 'award'), 'alias'), (('academy', 'awards'), 'alias'), (('oscar',), 'word-plural'),
 (('oscars',), 'name')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cache

from kg.lexicon import table
from kg.model import OWN_CLASSES, WORK_CLASSES, Entity, EntityKind, MergeDecision, Resolution
from kg.resolve.names import comparison_tokens, is_generic

__all__ = ["join_variants", "variant_keys"]

PARTY = "PoliticalParty"
AWARD = "Award"
#: Finer classes one thing may be given under two of its names: an award and its ceremony.
ONE_THING = frozenset({AWARD, "Event"})
#: The head word a party's name may go without.
PARTY_WORD = "party"
#: A key shared by more entities than this names no one thing: skipped.
MAX_BLOCK = 12
#: The join score of each relation.
SCORES = {"same-name": 0.9, "alias": 0.9, "party": 0.9, "plural": 0.8, "abbreviation": 0.7}


@cache
def aliases() -> dict[tuple[str, ...], tuple[str, ...]]:
    """Alias → the name it stands for, both as comparison tokens (``name-aliases.toml``)."""
    found = table("name-aliases")["aliases"]
    return {comparison_tokens(k): comparison_tokens(v) for k, v in found.items()}


def _singular(word: str) -> str:
    """A plural's singular, roughly; "news" and "-ss", "-us", "-is" words are no plurals.

    >>> _singular("tories"), _singular("dems"), _singular("news"), _singular("congress")
    ('tory', 'dem', 'news', 'congress')
    """
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"  # "tories" → "tory"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "news")):
        return word[:-1]
    return word


def variant_keys(name: str, party: bool = False) -> dict[tuple[str, ...], str]:
    """The keys a name is looked up under, each with how it was made from the name: its
    words ("name"), the name an alias stands for ("alias"), without a party's head word
    ("party": a party's name, or the party an alias stands for), a plural's last word made
    singular ("plural"; "word-plural" for a one-word
    name, which only an award or a party may join so)."""
    tokens = comparison_tokens(name)
    found = {tokens: "name"}
    if tokens in aliases():
        found[aliases()[tokens]] = "alias"
    keys: dict[tuple[str, ...], str] = {}
    for words, how in found.items():
        if (party or how == "alias") and len(words) > 1 and words[-1] == PARTY_WORD:
            keys.setdefault(words, how)  # an alias names a party: "New Labour" is one
            words, how = words[:-1], "party" if how == "name" else how
        if not words:
            continue
        keys.setdefault(words, how)
        singular = (*words[:-1], _singular(words[-1]))
        if singular != words:
            plural = "plural" if len(words) > 1 else "word-plural"
            keys.setdefault(singular, plural if how == "name" else how)
    return keys


def is_thing(entity: Entity) -> bool:
    """An organisation, an event, or a thing of its own class (an award, a work): not a person
    or a place, whose names two of them may share."""
    if entity.fine_type in OWN_CLASSES | WORK_CLASSES:
        return True
    return entity.kind in (EntityKind.ORGANIZATION, EntityKind.EVENT)


def is_party(entity: Entity) -> bool:
    return entity.fine_type == PARTY or comparison_tokens(entity.label)[-1:] == (PARTY_WORD,)


def compatible(a: Entity, b: Entity) -> bool:
    """Whether two things' finer classes allow one thing: the same, one without, or an award
    and its ceremony."""
    fine = {a.fine_type, b.fine_type} - {None}
    return len(fine) < 2 or fine <= ONE_THING


def _nickname(label: str) -> bool:
    """Whether a label is another name of a thing (``name-aliases.toml``).

    >>> _nickname("Tory"), _nickname("Conservatives")
    (True, False)
    """
    return "alias" in variant_keys(label).values()


def _shortened(entity: Entity, group: Sequence[Entity]) -> int:
    """How far a thing's label is from the proper name of ``group``: 2 where it is another's
    with its words abbreviated ("Lib Dems" of "Liberal Democrats"), 1 where it is a party's or
    an award's plural name in the singular ("Liberal Democrat"), else 0."""
    words = tuple(map(_singular, comparison_tokens(entity.label)))
    singular = 0
    for other in (e for e in group if e is not entity):
        written = comparison_tokens(other.label)
        longer = tuple(map(_singular, written))
        if len(longer) == len(words) and len("".join(longer)) > len("".join(words)) and all(
                y.startswith(x[:3]) and len(y) >= len(x) for x, y in zip(words, longer,
                                                                         strict=True)):
            return 2
        if other.fine_type in WORD_PLURALS and len(written) > 1 and written != words == longer:
            singular = 1
    return singular


def _names(entity: Entity) -> list[str]:
    return [entity.label, *entity.alt_labels]


def _part_of(a: Entity, b: Entity) -> bool:
    """Whether one thing's label is a run of words of the other's, longer, label, not its
    tail: a body and its prize, product or service ("Norwich Union" / "Norwich Union Grand
    Prix", "Oxford University" / "Oxford University Library Services"). A tail keeps the
    head word, and names the body ("Wildlife Service" of "Fish and Wildlife Service").

    >>> def thing(label): return Entity(label, EntityKind.ORGANIZATION, label)
    >>> _part_of(thing("Norwich Union"), thing("Norwich Union Grand Prix"))
    True
    >>> _part_of(thing("Fish and Wildlife Service"), thing("Wildlife Service"))
    False
    """
    left, right = sorted((comparison_tokens(a.label), comparison_tokens(b.label)), key=len)
    return len(left) < len(right) and any(
        right[k : k + len(left)] == left for k in range(len(right) - len(left)))


#: How a key was made from a name, the most direct first: a pair of things is joined by the
#: least direct of the ways its two names give the key they share.
WAYS = ("name", "plural", "word-plural", "party", "alias")
#: The finer classes a one-word plural may join its singular in: "Oscars" and "Oscar",
#: "Conservatives" and "Conservative" (not "Times" and "Time").
WORD_PLURALS = frozenset({AWARD, PARTY})
#: Bodies named by what they do, whose names differ by country, not by spelling: "Court of
#: Appeal" (England's) and "Court of Appeals" (a US court) are two.
NO_PLURALS = frozenset({"Court", "GovernmentOrganization", "ArmedForces"})


def candidate_joins(entities: Sequence[Entity]) -> Iterator[tuple[int, int, str]]:
    """Pairs of things (indices) whose names are variants of each other, with the relation
    ("same-name" where the names are the same: resolution kept them apart by their
    identity keys, "Labour" of a group whose fullest name was "Labour Party")."""
    index: dict[tuple[str, ...], dict[int, str]] = {}
    #: Per key, the entities found under it only by a name of institution words.
    generic: dict[tuple[str, ...], set[int]] = {}
    #: Per key, the entities found under it by their label (not only by another label).
    labelled: dict[tuple[str, ...], set[int]] = {}
    parties = {i for i, entity in enumerate(entities) if is_party(entity)}
    for i, entity in enumerate(entities):
        for name in _names(entity):
            plain = is_generic(comparison_tokens(name))
            for key, how in variant_keys(name, i in parties).items():
                if name == entity.label:
                    labelled.setdefault(key, set()).add(i)
                ways = index.setdefault(key, {})
                if plain and i not in ways:
                    generic.setdefault(key, set()).add(i)
                elif not plain:
                    generic.get(key, set()).discard(i)
                ways[i] = min(ways.get(i, how), how, key=WAYS.index)
    pairs: list[tuple[int, int, str]] = []
    for key, ways in index.items():
        if len(ways) > MAX_BLOCK:
            continue
        members = sorted(ways)
        for a, i in enumerate(members):
            for j in members[a + 1 :]:
                how = max(ways[i], ways[j], key=WAYS.index)
                fine = {entities[i].fine_type, entities[j].fine_type}
                if generic.get(key, set()) & {i, j} and not parties & {i, j}:
                    continue  # "defence ministry", "police": every country has its own
                if {ways[i], ways[j]} == {"party", "word-plural"} and not {i, j} <= parties:
                    continue  # "New Party" is no "News"
                if not labelled.get(key, set()) & {i, j}:
                    continue  # "Cannes Film Festival", "Sundance Film Festival": a shared part
                if how == "name" and _part_of(entities[i], entities[j]):
                    continue  # "Norwich Union", "Norwich Union Grand Prix"
                if not compatible(entities[i], entities[j]) or (
                        how == "word-plural" and not fine & WORD_PLURALS) or (
                        how in ("plural", "word-plural") and fine & NO_PLURALS):
                    continue
                pairs.append((i, j, {"name": "same-name", "word-plural": "plural"}.get(how, how)))
    tails: dict[int, set[int]] = {}
    for i, j, relation in pairs:
        short = _tail(entities, i, j) if relation == "same-name" else None
        if short is not None:
            tails.setdefault(short, set()).add(j if short == i else i)
    for i, j, relation in pairs:
        short = _tail(entities, i, j) if relation == "same-name" else None
        if short is None or len(tails[short]) == 1:
            yield i, j, relation  # a tail joins the one longer name it ends: "Film Festival"
    yield from _abbreviations(entities)


def _tail(entities: Sequence[Entity], i: int, j: int) -> int | None:
    """Which of two things' labels is the tail of the other's, longer, label, if one is."""
    left, right = comparison_tokens(entities[i].label), comparison_tokens(entities[j].label)
    if len(left) < len(right) and right[-len(left) :] == left:
        return i
    if len(right) < len(left) and left[-len(right) :] == right:
        return j
    return None


def _abbreviations(entities: Sequence[Entity]) -> Iterator[tuple[int, int, str]]:
    """Things of as many words (three letters or more each, plurals made singular), each the
    start of the other's: "Lib Dems" / "Liberal Democrats"."""
    index: dict[tuple[str, ...], list[tuple[int, tuple[str, ...]]]] = {}
    for i, entity in enumerate(entities):
        for name in [entity.label]:
            words = tuple(map(_singular, comparison_tokens(name)))
            if len(words) > 1 and all(len(w) >= 3 for w in words):
                index.setdefault(tuple(w[:3] for w in words), []).append((i, words))
    for block in index.values():
        if len(block) > MAX_BLOCK:
            continue
        for a, (i, left) in enumerate(block):
            for j, right in block[a + 1 :]:
                if i != j and left != right and compatible(entities[i], entities[j]) and all(
                        x.startswith(y) or y.startswith(x) for x, y in zip(left, right,
                                                                          strict=True)):
                    yield i, j, "abbreviation"


def join_variants(resolution: Resolution, earlier_keys: frozenset[str] = frozenset()
                  ) -> Resolution:
    """``resolution`` with the things whose names are variants of each other joined (see the
    module docstring); ``earlier_keys``: the keys earlier builds gave out, kept as aliases of
    the entity a joined one goes to."""
    things = [e for e in resolution.entities if is_thing(e)]
    sets = {i: [i] for i in range(len(things))}
    root = list(range(len(things)))
    joins: list[tuple[int, int, str]] = []
    for i, j, relation in sorted(set(candidate_joins(things))):
        a, b = sorted((root[i], root[j]))
        if a != b and all(compatible(things[x], things[y]) for x in sets[a] for y in sets[b]):
            for k in sets[b]:
                root[k] = a
            sets[a] += sets.pop(b)
            joins.append((i, j, relation))
    if not joins:
        return resolution
    mentions = Counter(resolution.assignments.values())
    moved: dict[str, str] = {}
    kept: dict[str, Entity] = {}
    for members in sets.values():
        if len(members) < 2:
            continue
        group = [things[i] for i in members]
        # a nickname or a short form never labels the thing its proper name is in: "Tory",
        # "New Labour", "Lib Dems"
        head = max(group, key=lambda e: (not _nickname(e.label), -_shortened(e, group),
                                         mentions[e.key], -len(e.key), e.key))
        others = [e for e in group if e is not head]
        names = {n for e in group for n in _names(e)} - {head.label}
        fine = head.fine_type or next((e.fine_type for e in sorted(
            others, key=lambda e: -mentions[e.key]) if e.fine_type), None)
        kept[head.key] = replace(
            head, fine_type=fine, alt_labels=tuple(sorted(names)),
            aliases=tuple(sorted({*head.aliases, *(a for e in others for a in e.aliases),
                                  *({e.key for e in others} & earlier_keys)})))
        moved.update((e.key, head.key) for e in others)
    decisions = [*resolution.decisions, *(
        MergeDecision(moved.get(things[i].key, things[i].key), things[i].label, things[j].label,
                      f"variant-{relation}", SCORES[relation]) for i, j, relation in joins)]
    entities = (kept.get(e.key, e) for e in resolution.entities if e.key not in moved)
    return resolution.moved(entities, moved, decisions)
