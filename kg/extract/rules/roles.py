"""Roles: who holds which post where, from the ways news introduces people.

    title before name   "Russian President Vladimir Putin", "Defence Minister Sergei Shoigu",
                        "Russian Defense Ministry spokesman Maj. Gen. Igor Konashenkov"
    apposition          "Denis Pushilin, head of the Donetsk People's Republic",
                        "Mikhailo Podolyak, Ukraine's chief negotiator", and the reverse,
                        "the head of the republic, Denis Pushilin"
    copula              "Smith is the chief executive of Acme"

The post is the title without ranks and honorifics ("spokesman Maj. Gen." → Spokesman);
the organisation is a mention or a country (by demonym) next to the title: "Russian" before
it, "Ukraine's" owning it, "of the Republic" after it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from kg.extract.entities import is_title_modifier, is_title_word, title_tokens_before
from kg.extract.rules.context import OWNER_PRONOUNS, FactContext, noun_phrase
from kg.extract.rules.places import country_of_demonym
from kg.extract.rules.registry import rule
from kg.lexicon import table, word_list
from kg.lexicon.fact_words import (
    FORMER_WORDS,
    HONORIFICS,
    OCCUPATIONS,
    RANKS,
    ROLE_SPELLINGS,
)
from kg.model import EntityKind, Membership, Mention, Party

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_GRAMMAR = table("grammar-words")
ORG_PREPOSITIONS = frozenset(_GRAMMAR["organisation_prepositions"])
#: Nouns for a kind of body that a post belongs to ("army chief", "party leader").
BODY_WORDS = word_list("body-words")
#: Verbs that give a post with "as" ("resigned as Home Secretary", "served as president").
AS_VERBS = frozenset(_GRAMMAR["as_verbs"])
LEAVING_VERBS = frozenset(_GRAMMAR["leaving_verbs"])
COPULAS = frozenset(_GRAMMAR["copulas"])
#: Confidence lost when a role's organisation is not named.
NO_ORGANISATION = 0.1

TITLE_BEFORE_NAME = rule(
    "role.title-before-name", "Membership", 0.9,
    "A post written before a name; the organisation from a demonym, owner or name before it.",
    "French President Emmanuel Macron spoke to reporters on Tuesday.",
)
APPOSITION = rule(
    "role.apposition", "Membership", 0.85,
    "A post in apposition to a name, either way round, with its \"of\"/\"at\" organisation.",
    "Peter Hall, chairman of Barclays, resigned on Monday.",
)
COPULA = rule(
    "role.copula", "Membership", 0.85,
    "A post given by \"is\", \"became\" or \"remains\".",
    "John Smith is the chief executive of Acme Corporation.",
)
SERVED_AS = rule(
    "role.as", "Membership", 0.75,
    "A post given with \"as\" after a verb of serving, leaving or naming.",
    "David Blunkett resigned as Home Secretary in December.",
)


def role_label(words: Sequence[str]) -> tuple[str | None, bool]:
    """A post's label from its title words, and whether it is a former one.

    >>> role_label(["spokesman", "Maj.", "Gen."])
    ('Spokesman', False)
    >>> role_label(["former", "Defense", "Minister"])
    ('Defence Minister', True)
    """
    former = any(w.lower().strip(".") in FORMER_WORDS for w in words)
    posts = [w for w in words if _plain(w) not in FORMER_WORDS | HONORIFICS and _plain(w)]
    ranks = [w for w in posts if _plain(w) in RANKS]
    kept = [w for w in posts if _plain(w) not in RANKS] or ranks[-1:]
    if not kept:
        return None, former
    label = " ".join(_spelled(RANKS.get(_plain(w), w)) for w in kept)
    return label[:1].upper() + label[1:], former


def _plain(word: str) -> str:
    return word.lower().strip(".")


def _spelled(word: str) -> str:
    folded = ROLE_SPELLINGS.get(word.lower())
    if folded is None:
        return word.title() if word.islower() else word
    return folded.title() if word[:1].isupper() or word.islower() else folded


def memberships_of(ctx: FactContext) -> list[Membership]:
    """Every role of every person mention in the chunk."""
    found: list[Membership] = []
    for mention in ctx.mentions:
        if mention.kind is EntityKind.PERSON or _titled_name(ctx, mention):
            found += titled(ctx, mention, found)
            found += appositions(ctx, mention)
            found += served_as(ctx, mention)
    best: dict[tuple[object, ...], Membership] = {}
    for membership in found:  # one per person, post and organisation: the surest reading
        where = membership.organization.begin if membership.organization else -1
        key = (membership.person.begin, membership.role, where)
        if key not in best or best[key].evidence.confidence < membership.evidence.confidence:
            best[key] = membership
    return list(best.values())


def _titled_name(ctx: FactContext, mention: Mention) -> bool:
    """A name the model took for an organisation, but with a post right before it
    ("Chancellor Olaf Scholz"): a person."""
    start, end = ctx.mention_tokens[(mention.begin, mention.end)]
    names = ctx.doc[start:end]
    return (
        1 < len(names) <= 4 and all(t.pos_ == "PROPN" and t.text[:1].isupper() for t in names)
        and start > 0 and _names_post(ctx.doc[start - 1])
    )


def titled(
    ctx: FactContext, mention: Mention, earlier: Sequence[Membership] = ()
) -> Iterator[Membership]:
    """ "Russian President Vladimir Putin": the title right before the name."""
    start = ctx.mention_tokens[(mention.begin, mention.end)][0]
    first = _kind_words_before(ctx.doc, title_tokens_before(ctx.doc, start))
    while first < start and ctx.doc[first].is_punct:
        first += 1  # a title does not begin with the full stop of the sentence before
    title = ctx.doc[first:start]
    named = [t for t in title if ctx.mention(t) is not None]  # "Labour leader": the party
    if named:
        first = named[-1].i + 1
        title = ctx.doc[first:start]
    label, former = role_label([t.text for t in title])
    if label is None or not any(_names_post(t) for t in title):
        return
    office = _plain(title[-1].text) not in OCCUPATIONS
    organization = _organisation_before(ctx, first, office) or _owners_organisation(
        ctx, first, earlier
    )
    tokens = [*title, ctx.head_token(mention)]
    confidence = TITLE_BEFORE_NAME.confidence - (0 if organization else NO_ORGANISATION)
    evidence = ctx.evidence(tokens, TITLE_BEFORE_NAME, round(confidence, 2))
    yield Membership(ctx.entity_party(mention), label, organization, evidence, former)


def _kind_words_before(doc: Doc, first: int) -> int:
    """Extend a title over words naming the kind of body ("army chief", "party leader")."""
    while first > 0 and doc[first - 1].lower_ in BODY_WORDS and doc[first - 1].pos_ == "NOUN":
        first -= 1
    return first


def _organisation_before(ctx: FactContext, first: int, office: bool = True) -> Party | None:
    """The organisation or country named right before a title ("Russian", "Ukraine's");
    a demonym counts only before an office ("British director" is a nationality)."""
    i = first - 1
    if i >= 0 and ctx.doc[i].text in {"'s", "’s"}:
        i -= 1
    if i < 0:
        return None
    token = ctx.doc[i]
    mention = ctx.mention(token)
    if mention is not None and mention.kind is not EntityKind.PERSON:
        return ctx.entity_party(mention)
    country = country_of_demonym(token.text) if office else None
    return ctx.country_party(token, country) if country is not None else None


def _owners_organisation(
    ctx: FactContext, first: int, earlier: Sequence[Membership]
) -> Party | None:
    """ "his Defence Minister": the organisation of the post the owner was given earlier."""
    if first == 0 or ctx.doc[first - 1].lower_ not in OWNER_PRONOUNS:
        return None
    owner = ctx.party(ctx.doc[first - 1])
    for membership in reversed(earlier):
        same = owner is not None and membership.person.mention == owner.mention
        if same and membership.organization is not None:
            return membership.organization
    return None


def appositions(ctx: FactContext, mention: Mention) -> Iterator[Membership]:
    """ "X, head of Y" / "Y's chief negotiator, X" / "X is the head of Y"."""
    head = ctx.head_token(mention)
    candidates = [(c, APPOSITION) for c in head.children if c.dep_ == "appos"]
    if head.dep_ == "appos":
        candidates.append((head.head, APPOSITION))
    owner = head.head
    if head.dep_ in {"appos", "conj"} and owner.dep_ == "pobj" and owner.head.lower_ == "of":
        candidates.append((owner.head.head, APPOSITION))  # "the mayor of X, Name"
    if head.dep_ == "nsubj" and head.head.lemma_ in COPULAS:
        candidates += [(c, COPULA) for c in head.head.children if c.dep_ == "attr"]
    for title, declared in candidates:
        if not _names_post(title) or ctx.mention(title) is not None:
            continue
        words = [*_title_modifiers(title), title]
        label, former = role_label([w.text for w in words])
        if label is None:
            continue
        organization = organisation_of_title(ctx, title)
        confidence = declared.confidence - (0 if organization else 1.5 * NO_ORGANISATION)
        evidence = ctx.evidence([head, title], declared, round(confidence, 2))
        yield Membership(ctx.entity_party(mention), label, organization, evidence, former)


def _names_post(token: Token) -> bool:
    plain = _plain(token.text)
    return is_title_word(token) and plain not in HONORIFICS and plain not in RANKS


def _title_modifiers(title: Token) -> list[Token]:
    """The words in front of a post noun that belong to the title ("deputy", "Foreign")."""
    words: list[Token] = []
    for child in title.lefts:
        if child.dep_ in {"compound", "amod", "nmod"} and (
            is_title_word(child) or is_title_modifier(child) or child.lower_ in FORMER_WORDS
        ):
            words.append(child)
    return words


def organisation_of_title(ctx: FactContext, title: Token) -> Party | None:
    """Whose post a title names: its owner ("Amnesty's"), a demonym ("Russian"), a named
    modifier ("the Kremlin spokesman") or an "of"/"at" phrase ("head of the Republic")."""
    for child in title.children:
        if child.dep_ == "poss" or (child.dep_ == "compound" and ctx.mention(child)):
            party = ctx.party(child)
            if party is not None and party.mention is not None:
                return party
        if child.dep_ in {"amod", "compound", "npadvmod"} and _plain(title.text) not in OCCUPATIONS:
            country = country_of_demonym(child.text)
            if country is not None:
                return ctx.country_party(child, country)
    for child in title.rights:
        if child.dep_ == "prep" and child.lower_ in ORG_PREPOSITIONS:
            objects = [c for c in child.children if c.dep_ == "pobj"]
            # the object's own words: "analyst at Troika Dialog in Moscow" is Troika Dialog's
            mentions = ctx.mentions_in(noun_phrase(objects[0])) if objects else []
            named = [m for m in mentions if m.kind is not EntityKind.PERSON]
            if named:
                return ctx.entity_party(named[0])
    return None



def served_as(ctx: FactContext, mention: Mention) -> Iterator[Membership]:
    """ "X resigned as Home Secretary", "X was appointed as envoy to the UN"."""
    head = ctx.head_token(mention)
    verb = head.head
    if head.dep_ not in {"nsubj", "nsubjpass"} or verb.lemma_.lower() not in AS_VERBS:
        return
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ == "as"):
        for title in (o for o in prep.children if o.dep_ == "pobj" and _names_post(o)):
            label, _former = role_label([w.text for w in [*_title_modifiers(title), title]])
            if label is None:
                continue
            organization = organisation_of_title(ctx, title)
            former = verb.lemma_.lower() in LEAVING_VERBS
            evidence = ctx.evidence([head, title], SERVED_AS)
            yield Membership(ctx.entity_party(mention), label, organization, evidence, former)
