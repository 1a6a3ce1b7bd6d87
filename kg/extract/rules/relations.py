"""Relations between named things: organisation part of organisation, place in place.

    "the National Guard, to which the Azov Regiment belongs"   regiment subOrganizationOf guard
    "X is part of Y", "X, a member of Y"                         subOrganizationOf / memberOf
    "Rubizhne, a Donbas town", "the Ukrainian city of Mariupol" town containedInPlace region
    "eastern Ukraine's Donbas region", "Kyiv, Ukraine"          region containedInPlace country
    "the Azovstal plant in Mariupol"                             facility containedInPlace city
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from kg.extract.rules.context import RELATIVE_PRONOUNS, FactContext
from kg.extract.rules.places import country_named, country_of_demonym, is_city
from kg.extract.rules.registry import Rule, rule
from kg.lexicon import table
from kg.lexicon.fact_words import FACILITY_NOUNS, PLACE_NOUNS
from kg.model import EntityKind, Mention, Party, PartyKind, Relation, RelationKind

if TYPE_CHECKING:
    from spacy.tokens import Token

MEMBERSHIP_NOUNS = {
    noun: RelationKind[kind] for noun, kind in table("grammar-words")["membership_nouns"].items()
}

BELONGS = rule(
    "relation.belongs", "Relation", 0.8,
    "\"X belongs to Y\", \"Y, to which X belongs\": part of an organisation, or in a place.",
    "The Royal Marines belong to the Royal Navy.",
)
PART_OF = rule(
    "relation.part-of", "Relation", 0.8,
    "\"X is part of Y\", \"X, a member of Y\".",
    "The Coast Guard is part of the Department of Homeland Security.",
)
PLACE_NOUN = rule(
    "relation.place-noun", "Relation", 0.8,
    "A place noun puts a place in a larger one: \"the Ukrainian city of X\", \"X, a Donbas town\".",
    "Fighting went on in the Nigerian city of Kano on Monday.",
)
PLACE_OWNER = rule(
    "relation.place-owner", "Relation", 0.8,
    "A place owned by or set beside a larger one: \"Ukraine's Donbas region\", \"Kyiv, Ukraine\".",
    "Protesters gathered in Lyon, France, on Saturday.",
)
FACILITY_IN = rule(
    "relation.facility-in", "Relation", 0.8,
    "A facility \"in\" a place: \"the Azovstal plant in Mariupol\".",
    "Fire broke out at Heathrow airport in London.",
)


def relations_of(ctx: FactContext) -> list[Relation]:
    """Every part-of, member-of and located-in relation stated in the chunk."""
    found: list[Relation] = []
    for token in ctx.doc:
        if token.lemma_ == "belong":
            found += belongs(ctx, token)
        elif token.lemma_ in MEMBERSHIP_NOUNS and token.pos_ == "NOUN":
            found += part_of(ctx, token)
        elif token.lemma_ in PLACE_NOUNS and token.pos_ == "NOUN":
            found += place_noun(ctx, token)
    for mention in ctx.mentions:
        if _is_place(mention):
            found += place_owner(ctx, mention)
    return found


def _is_place(mention: Mention) -> bool:
    return mention.kind is EntityKind.PLACE or is_city(mention.name)


def _relation(
    ctx: FactContext, kind: RelationKind | None, subject: Party | None, obj: Party | None,
    tokens: list[Token], declared: Rule,
) -> Iterator[Relation]:
    if kind is None or subject is None or obj is None or subject.mention == obj.mention:
        return
    if obj.kind is PartyKind.GROUP or subject.kind is PartyKind.GROUP:
        return
    yield Relation(kind, subject, obj, ctx.evidence(tokens, declared))


def _kind_between(ctx: FactContext, subject: Party, obj: Party) -> RelationKind | None:
    """subOrganizationOf between organisations, containedInPlace between places, memberOf
    from a person or country to an organisation."""
    kinds = [_party_kind(ctx, p) for p in (subject, obj)]
    if kinds == [EntityKind.ORGANIZATION, EntityKind.ORGANIZATION]:
        return RelationKind.SUB_ORGANIZATION
    if kinds == [EntityKind.PLACE, EntityKind.PLACE]:
        return RelationKind.CONTAINED_IN
    if kinds[1] is EntityKind.ORGANIZATION:
        return RelationKind.MEMBER_OF
    return None


def _party_kind(ctx: FactContext, party: Party) -> EntityKind | None:
    if party.kind is PartyKind.COUNTRY:
        return EntityKind.PLACE
    mention = ctx.mention_by_offsets(party.mention) if party.mention else None
    if mention is None:
        return None
    return EntityKind.PLACE if _is_place(mention) else mention.kind


def belongs(ctx: FactContext, verb: Token) -> Iterator[Relation]:
    """ "X belongs to Y", "Y, to which X belongs"."""
    subjects = [c for c in verb.children if c.dep_ == "nsubj"]
    targets = [
        o for p in verb.children if p.dep_ == "prep" and p.lower_ == "to"
        for o in p.children if o.dep_ == "pobj"
    ]
    if not subjects or not targets:
        return
    target = targets[0]
    if target.lower_ in RELATIVE_PRONOUNS:
        target = _antecedent(target.head)
    subject, obj = ctx.party(subjects[0]), ctx.party(target)
    if subject is None or obj is None:
        return
    kind = _kind_between(ctx, subject, obj)
    yield from _relation(ctx, kind, subject, obj, [verb, subjects[0], target], BELONGS)


def _antecedent(preposition: Token) -> Token:
    """The noun right before "to which": what the relative clause is about (the parser
    often hangs the clause on an earlier noun)."""
    i = preposition.i - 1
    while i > 0 and preposition.doc[i].is_punct:
        i -= 1
    return preposition.doc[i]


def part_of(ctx: FactContext, noun: Token) -> Iterator[Relation]:
    """ "X is part of Y", "X, a member of Y"."""
    owners = [
        o for p in noun.children if p.dep_ == "prep" and p.lower_ == "of"
        for o in p.children if o.dep_ == "pobj"
    ]
    if noun.dep_ == "attr":
        subjects = [c for c in noun.head.children if c.dep_ == "nsubj"]
    else:
        subjects = [noun.head] if noun.dep_ == "appos" else []
    if not owners or not subjects:
        return
    subject, obj = ctx.party(subjects[0]), ctx.party(owners[0])
    if subject is None or obj is None:
        return
    kind = _kind_between(ctx, subject, obj)
    if kind is RelationKind.SUB_ORGANIZATION and noun.lemma_ == "member":
        kind = RelationKind.MEMBER_OF
    tokens = [noun, subjects[0], owners[0]]
    yield from _relation(ctx, kind, subject, obj, tokens, PART_OF)


def place_noun(ctx: FactContext, noun: Token) -> Iterator[Relation]:
    """ "Rubizhne, a Donbas town" / "the Ukrainian city of Mariupol" / "a town in Y"."""
    place: Mention | None
    if noun.dep_ == "appos" and ctx.mention(noun.head) is not None:
        place = ctx.mention(noun.head)
    else:
        named = [
            o for p in noun.children if p.dep_ == "prep" and p.lower_ == "of"
            for o in p.children if o.dep_ == "pobj" and ctx.mention(o) is not None
        ]
        if not named:
            return
        place = ctx.mention(named[0])
    if place is None or not _is_place(place):
        return
    container = _container(ctx, noun)
    if container is not None and container.mention != (place.begin, place.end):
        evidence = ctx.evidence([noun, ctx.head_token(place)], PLACE_NOUN)
        yield Relation(RelationKind.CONTAINED_IN, ctx.entity_party(place), container, evidence)


def _container(ctx: FactContext, noun: Token) -> Party | None:
    """The larger place a place noun is put in: "Donbas town", "Ukrainian city", "town in Y"."""
    for child in noun.children:
        mention = ctx.mention(child)
        if child.dep_ in {"compound", "poss", "nmod"} and mention and _is_place(mention):
            return ctx.entity_party(mention)
        if child.dep_ in {"amod", "compound"} and (c := country_of_demonym(child.text)):
            return ctx.country_party(child, c)
        if child.dep_ == "prep" and child.lower_ == "in":
            places = [m for m in ctx.mentions_in(child.subtree) if _is_place(m)]
            if places:
                return ctx.entity_party(places[0])
    return None


def place_owner(ctx: FactContext, mention: Mention) -> Iterator[Relation]:
    """ "Ukraine's Donbas region", "Kyiv, Ukraine", "the X plant in Y"."""
    head = ctx.head_token(mention)
    holders = [head, head.head] if head.dep_ == "compound" else [head]
    for holder in holders:
        for child in holder.children:
            owner = ctx.mention(child)
            if owner is None or owner is mention or not _is_place(owner):
                continue
            if child.dep_ == "poss" or (
                child.dep_ == "appos" and country_named(owner.name) is not None
            ):
                yield from _located(ctx, mention, owner, child, PLACE_OWNER)
        for prep in (c for c in holder.children if c.dep_ == "prep" and c.lower_ == "in"):
            if not _is_facility(ctx, mention, holder):
                continue
            for obj in (o for o in prep.children if o.dep_ == "pobj"):
                owner = ctx.mention(obj)
                if owner is not None and owner is not mention and _is_place(owner):
                    yield from _located(ctx, mention, owner, obj, FACILITY_IN)


def _is_facility(ctx: FactContext, mention: Mention, holder: Token) -> bool:
    return mention.ner_label == "FAC" or holder.lemma_ in FACILITY_NOUNS


def _located(
    ctx: FactContext, inner: Mention, outer: Mention, token: Token, declared: Rule
) -> Iterator[Relation]:
    evidence = ctx.evidence([ctx.head_token(inner), token], declared)
    yield Relation(
        RelationKind.CONTAINED_IN, ctx.entity_party(inner), ctx.entity_party(outer), evidence
    )
