"""Roles: who holds which post where, from the ways news introduces people.

    title before name   "Russian President Vladimir Putin", "Defence Minister Sergei Shoigu",
                        "Russian Defense Ministry spokesman Maj. Gen. Igor Konashenkov"
    apposition          "Denis Pushilin, head of the Donetsk People's Republic",
                        "Mikhailo Podolyak, Ukraine's chief negotiator", and the reverse,
                        "the head of the republic, Denis Pushilin"
    as / named          "X resigned as Home Secretary", "X was named coach of Wales"
    party               "Tory Dominic Grieve", "Liberal Democrat leader Charles Kennedy"
    owner               "the city council's John Moore" (a member of it)
    description         "David Blunkett has spoken … The home secretary described …"

The post is the title without ranks and honorifics ("spokesman Maj. Gen." → Spokesman);
the organisation is a mention or a country (by demonym) next to the title: "Russian" before
it, "Ukraine's" owning it, "of the Republic" after it. "Former"/"ex-" before the title or
its organisation make it a former post; a possessive pronoun ("his party leader") gives no
organisation unless the owner's own post named one; a hoped-for or hypothetical post ("would
be premier") is none. Titles of nobility ("Baroness") are ranks, not posts, and a tie to
another person ("his son Alan", "a neighbour of the victim, Sarah Kim", "a family friend")
is no post at all (``relational-nouns.txt``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

from kg.extract.entities import is_title_modifier, is_title_word, title_tokens_before
from kg.extract.rules.context import GENDER_WORDS, OWNER_PRONOUNS, FactContext, noun_phrase
from kg.extract.rules.events import is_irrealis
from kg.extract.rules.places import country_named, country_of_demonym
from kg.extract.rules.registry import kept, rule
from kg.heuristics import applies, declare, found, steps
from kg.lexicon import table, word_list
from kg.lexicon.fact_words import (
    FORMER_WORDS,
    HONORIFICS,
    OCCUPATIONS,
    RANKS,
    ROLE_SPELLINGS,
)
from kg.lexicon.words import (
    NATION_DEMONYMS,
    NOBILITY,
    ORG_HEAD_WORDS,
    PARTY_WORDS,
    RELATIONAL_NOUNS,
)
from kg.model import EntityKind, Membership, Mention, Party, PartyKind

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_GRAMMAR = table("grammar-words")
#: Small words kept as written inside a title ("Director of Public Prosecutions").
TITLE_CONNECTORS = frozenset(_GRAMMAR["title_connectors"])
ORG_PREPOSITIONS = frozenset(_GRAMMAR["organisation_prepositions"])
#: Nouns for a kind of body that a post belongs to ("army chief", "party leader").
BODY_WORDS = word_list("body-words")
#: Verbs that give a post with "as" ("resigned as Home Secretary", "served as president").
AS_VERBS = frozenset(_GRAMMAR["as_verbs"])
LEAVING_VERBS = frozenset(_GRAMMAR["leaving_verbs"])
#: "stepped down as", "stood in as", "was sworn in as": a post "as" only with a particle.
STEPPING_VERBS = frozenset(_GRAMMAR["stepping_verbs"])
LEAVING_PARTICLES = frozenset(_GRAMMAR["leaving_particles"])
#: "X succeeded Y as chairman": Y held the post before.
SUCCEEDING_VERBS = frozenset(_GRAMMAR["succeeding_verbs"])
#: Verbs whose object is given a post "as" ("appointed X as its chief executive").
APPOINTING_VERBS = frozenset(_GRAMMAR["appointing_verbs"])
#: "head of X until last year": a post that ended.
ENDING_PREPOSITIONS = frozenset(_GRAMMAR["ending_prepositions"])
#: Adjectives that are part of a post between its other words ("chief financial officer").
POST_QUALIFIERS = word_list("post-qualifiers")
#: A legislator's or governor's abbreviated title ("Rep.", "Sen."): the person's seat, which
#: another post written beside it is not part of ("Committee Chairman Rep. Edward Markey").
SEAT_TITLES = word_list("seat-titles")
#: Verbs whose participle after a post says its holder was let go ("the coach fired").
ENDED_BY = word_list("post-ending-verbs")
#: Posts a party word before is a portfolio ("Labour Minister"), not the party's.
PORTFOLIO_POSTS = frozenset(_GRAMMAR["portfolio_posts"])
#: Posts held in a body (a team, a company), not of another person nor a trade in a place.
EMPLOYER_POSTS = word_list("employer-posts")
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
SERVED_AS = rule(
    "role.as", "Membership", 0.75,
    "A post given with \"as\" after a verb of serving, leaving or naming.",
    "David Blunkett resigned as Home Secretary in December.",
)
PARTY_BEFORE_NAME = rule(
    "role.party-before-name", "Membership", 0.8,
    "A party word before a name: the person is a member of that party.",
    "Tory Dominic Grieve said the bill was flawed.",
)
OWNED_NAME = rule(
    "role.possessive-organisation", "Membership", 0.7,
    "An organisation owning a name with no post: \"the city council's John Moore\".",
    "The city council's John Moore said the road would close.",
)
DESCRIPTION = rule(
    "role.description", "Membership", 0.6,
    "A definite description of a post standing for the person named just before it.",
    "David Blunkett has spoken of his plans. The home secretary said he would stay.",
)


def role_label(words: Sequence[str]) -> tuple[str | None, bool]:
    """A post's label from its title words, and whether it is a former one.

    >>> role_label(["spokesman", "Maj.", "Gen."])
    ('Spokesman', False)
    >>> role_label(["former", "Defense", "Minister"])
    ('Defence Minister', True)
    >>> role_label(["ex-chairman"]), role_label(["Director", "General"])
    (('Chairman', True), ('Director General', False))
    >>> role_label(["minister", "Baroness"])
    ('Minister', False)
    >>> role_label(["Chairman", "Rep."]), role_label(["Gov."])
    (('Chairman', False), ('Governor', False))
    """
    prefixed = [w for w in words if _plain(w).split("-", 1)[0] in FORMER_WORDS and "-" in w]
    former = bool(prefixed) or any(_plain(w) in FORMER_WORDS for w in words)
    words = [w.split("-", 1)[1] if w in prefixed else w for w in words]  # "ex-chairman"
    posts = [w for w in words
             if _plain(w) not in FORMER_WORDS | HONORIFICS | NOBILITY and _plain(w)]
    if len(posts) > 1:  # "Committee Chairman Rep.": the chairmanship, not the seat
        posts = [w for w in posts if _plain(w) not in SEAT_TITLES] or posts
    ranks = [w for i, w in enumerate(posts) if _plain(w) in RANKS and not _general_after(posts, i)
             and not _qualifies_next(posts, i)]
    kept = [w for w in posts if w not in ranks] or ranks[-1:]
    if not kept:
        return None, former
    label = " ".join(_spelled(RANKS.get(_plain(w), w)) for w in kept)
    return label[:1].upper() + label[1:], former


def title_words(tokens: Sequence[Token]) -> list[str]:
    """The words of a title, hyphenated ones joined ("vice", "-", "chairman" → "vice-chairman")."""
    words: list[str] = []
    for before, token in zip([None, *tokens], tokens, strict=False):
        hyphen = before is not None and not before.whitespace_ and "-" in {before.text, token.text}
        if hyphen and words:
            words[-1] += token.text
        else:
            words.append(token.text)
    return words


def _general_after(words: Sequence[str], i: int) -> bool:
    """ "Director General", "Attorney General": "general" after a post is part of it."""
    return _plain(words[i]) == "general" and i > 0 and _plain(words[i - 1]) not in RANKS


def _qualifies_next(words: Sequence[str], i: int) -> bool:
    """ "General manager", "general secretary": a rank word right before a post word written
    in lower case (no rank of its own) is part of that post.

    >>> _qualifies_next(["General", "manager"], 0), _qualifies_next(["Gen.", "Igor"], 0)
    (True, False)
    """
    return (i + 1 < len(words) and words[i + 1].islower() and _plain(words[i + 1]) not in RANKS
            and not words[i].endswith("."))


def _plain(word: str) -> str:
    return word.lower().strip(".")


def _spelled(word: str) -> str:
    if word in TITLE_CONNECTORS:
        return word  # "Director of Public Prosecutions"
    folded = ROLE_SPELLINGS.get(word.lower())
    if folded is None:
        return word.title() if word.islower() else word
    return folded.title() if word[:1].isupper() or word.islower() else folded


def memberships_of(ctx: FactContext) -> list[Membership]:
    """Every role of every person mention in the chunk: the rules of ``PER_MENTION`` run per
    person in the registry's order (a later one sees what the earlier ones found), then the
    descriptions'."""
    found: list[Membership] = []
    readers = []  # in the registry's order, each once
    for step in steps("facts.role"):
        readers += [r for ids, r in PER_MENTION if step.id in ids and r not in readers]
    for mention in ctx.mentions:
        if mention.kind is EntityKind.PERSON or _titled_name(ctx, mention):
            for reader in readers:
                found += kept(reader(ctx, mention, found))
    found += kept(described(ctx))
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
    if first < start:
        first = _post_words_before(ctx.doc, first, start)
    if first < start and _plain(ctx.doc[start - 1].text) in PORTFOLIO_POSTS:
        portfolio = found(PORTFOLIO_NAME, partial(_portfolio_before, ctx, first))
        first = first if portfolio is None else portfolio  # "Work and Pensions Secretary"
    title = list(ctx.doc[first:start])
    named = [t for t in title if ctx.mention(t) is not None]  # "Labour leader": the party
    if named:
        first = named[-1].i + 1
        title = list(ctx.doc[first:start])
    body, first = _body_in_title(ctx, title, first)  # "Brazil's airport authority chief"
    title = list(ctx.doc[first:start])
    # "the former Labour leader": the party's post; "Labour Minister": a portfolio
    party_words = [t for t in title[:-1] if _is_party_word(t)]
    party: Party | None = None
    if party_words and _plain(title[-1].text) not in PORTFOLIO_POSTS:
        party = _body_as_written(ctx, party_words)
        title = [t for t in title if t not in party_words]
    label, former = role_label(title_words(title))
    if label is None or not any(_names_post(t) for t in title) or _is_tie(title):
        return
    office = _plain(title[-1].text) not in OCCUPATIONS
    organization = party or body or (
        full_name(ctx, _organisation_before(ctx, first, office, title[-1].text))
        or _party_before(ctx, first)
        or _owners_organisation(ctx, first, earlier) or _name_before(ctx, first, start)
        or _organisation_of_name(ctx, mention)
    )
    org_begin = organization.begin if organization is not None else None
    if org_begin is not None and org_begin >= ctx.char(ctx.doc[first]):
        org_begin = None  # named after the title: the former word stands before the title
    former = former or _former_before(ctx, org_begin, first)
    tokens = [*title, ctx.head_token(mention)]
    confidence = TITLE_BEFORE_NAME.prior - (0 if organization else NO_ORGANISATION)
    evidence = ctx.evidence(tokens, TITLE_BEFORE_NAME, round(confidence, 2))
    yield Membership(ctx.entity_party(mention), label, organization, evidence, former)


def _organisation_of_name(ctx: FactContext, mention: Mention) -> Party | None:
    """The organisation named in an "of" phrase right after a titled name ("Chief
    Superintendent Rhys Evans of South Wales Police", "Detective Inspector Mark Hale, of Thames
    Valley Police,"): only an organisation, never a place ("Mayor X of Valencia" is left)."""
    end = ctx.mention_tokens[(mention.begin, mention.end)][1]
    doc = ctx.doc
    at = end + 1 if end < len(doc) and doc[end].text == "," else end
    if at >= len(doc) or doc[at].lower_ != "of":
        return None
    named = [m for m in ctx.mentions_in(list(doc[at + 1 : min(len(doc), at + 8)]))
             if m.begin >= ctx.char(doc[at])]
    first = min(named, key=lambda m: m.begin, default=None)
    if first is None or first.kind is not EntityKind.ORGANIZATION or (
            doc[at + 1 : at + 8].text.find(first.text) > len("the ")):
        return None  # "of" must name the body straight away ("of the Met", "of Kent Police")
    return ctx.entity_party(first)


def _is_tie(title: Sequence[Token]) -> bool:
    """ "his son Sandy", "Robert's wife Audrey", "family friend Ann": a relational noun is a
    tie to another person, not a post."""
    return bool(title) and _plain(title[-1].text) in RELATIONAL_NOUNS


def _post_words_before(doc: Doc, first: int, start: int) -> int:
    """Extend a title over the lower-case words of its phrase: "chief financial officer",
    "rugby director", "economics spokesman", "vice-chairman" (at most three words)."""
    i = first
    while i > 0 and first - i < 3:
        token = doc[i - 1]
        if token.text == "-" and not token.whitespace_ and i > 1 and doc[i - 2].is_lower and (
            not doc[i - 2].whitespace_
        ):
            i -= 2  # "vice-chairman", "co-chairman"
            continue
        attached = i <= token.head.i <= start and token.dep_ in {"compound", "amod", "nmod"}
        lower = token.is_lower or token.is_sent_start and token.is_title and (
            is_title_word(token) or is_title_modifier(token) or token.lower_ in POST_QUALIFIERS
        )  # "Chief financial officer …"
        if not (lower and token.is_alpha and attached and _qualifies_post(token)):
            break
        i -= 1
    return i


def _qualifies_post(token: Token) -> bool:
    """A word that can stand inside a post's title: a qualifier ("chief", "financial",
    "foreign") or a noun ("rugby director") — not a time ("weekend"), not the second half of a
    hyphenated word ("sixth-form"), not a noun right after an article ("the impact manager …"
    is more often a misparse than a post)."""
    before = token.doc[token.i - 1] if token.i > 0 else None
    if token.ent_type_ in {"DATE", "TIME"} or before is not None and (
        before.text == "-" and not before.whitespace_
    ):
        return False
    if is_title_word(token) or is_title_modifier(token) or token.lower_ in POST_QUALIFIERS:
        return True
    return token.pos_ == "NOUN" and not (before is not None and before.dep_ == "det")


def _body_in_title(
    ctx: FactContext, title: Sequence[Token], first: int
) -> tuple[Party | None, int]:
    """The organisation a title's own words name before the post, with its owner, and where
    the post then begins: "Brazil's airport authority chief" → Brazil's airport authority (a
    described body), "chief"."""
    heads = [t for t in title[:-1] if t.pos_ == "NOUN" and t.lower_ in ORG_HEAD_WORDS
             and t.lower_ not in BODY_WORDS]
    if not heads:
        return None, first
    tokens = [t for t in title if t.i <= heads[-1].i]
    owner = ctx.doc[first - 2] if first > 1 and ctx.doc[first - 1].text in {"'s", "’s"} else None
    country = None if owner is None else (
        country_named(owner.text) or country_of_demonym(owner.text)
    )
    if owner is None or country is None and ctx.mention(owner) is None:
        return None, heads[-1].i + 1  # "company president X": whose company is not said
    span = ctx.span([owner, ctx.doc[first - 1], *tokens])
    body = Party(PartyKind.GROUP, span.text, span.begin, span.end, None, country)
    return body, heads[-1].i + 1


def _is_party_word(token: Token) -> bool:
    return token.text[:1].isupper() and token.lower_ in PARTY_WORDS


def _party_before(ctx: FactContext, first: int) -> Party | None:
    """A party named right before a title ("Liberal Democrat leader", "Tory leader"), or
    before the title's portfolio words ("Lib Dem home affairs spokesman"): a nationality-free
    NORP entity or a party word, as a group."""
    i = first - 1
    while i > 0 and first - i <= 3 and ctx.doc[i].is_lower and ctx.doc[i].is_alpha:
        i -= 1  # "home affairs"
    if i < 0:
        return None
    token = ctx.doc[i]
    ents = [e for e in ctx.doc.ents if e.start <= i < e.end and e.label_ == "NORP"]
    if ents and country_of_demonym(ents[0].text) is None:
        tokens = list(ents[0])
    elif token.lower_ in PARTY_WORDS:
        tokens = [token]
    else:
        return None
    while tokens[0].i > 0 and ctx.doc[tokens[0].i - 1].lower_ in PARTY_WORDS:
        tokens.insert(0, ctx.doc[tokens[0].i - 1])  # "Liberal Democrat"
    return _body_as_written(ctx, tokens)


def _former_before(ctx: FactContext, begin: int | None, first: int) -> bool:
    """ "Former Tory leader", "ex-Labour minister": a former word before the organisation
    named before the title (document offset ``begin``), else before the title."""
    bounds = ctx.token_bounds(begin, begin + 1) if begin is not None else None
    start = bounds[0] if bounds is not None else first
    before = ctx.doc[max(0, start - 3) : start]
    return any(t.lower_.strip("-") in FORMER_WORDS for t in before) or _then_before(ctx.doc, start)


def party_member(
    ctx: FactContext, mention: Mention, earlier: Sequence[Membership] = ()
) -> Iterator[Membership]:
    """ "Tory Dominic Grieve": a party word right before the name, with no post."""
    start = ctx.mention_tokens[(mention.begin, mention.end)][0]
    if start == 0 or not _is_party_word(ctx.doc[start - 1]):
        return  # party words only: "moderate Hutus" is no party
    party = _party_before(ctx, start)
    if party is None or mention.kind is not EntityKind.PERSON:
        return
    if any(m.person.mention == (mention.begin, mention.end) and m.organization is not None
           for m in earlier):
        return  # "Tory leader X" already gave the party with the post
    evidence = ctx.evidence([ctx.doc[start - 1], ctx.head_token(mention)], PARTY_BEFORE_NAME)
    yield Membership(ctx.entity_party(mention), "Member", party, evidence, False)


def owned_name(
    ctx: FactContext, mention: Mention, earlier: Sequence[Membership] = ()
) -> Iterator[Membership]:
    """ "the city council's John Moore", "Amnesty's Kate Allen": the owner is the person's
    organisation (a named one, or a phrase ending in an organisation word)."""
    if mention.kind is not EntityKind.PERSON or any(
        m.person.mention == (mention.begin, mention.end) for m in earlier
    ):
        return
    head = ctx.head_token(mention)
    if head.dep_ == "compound" and head.head.pos_ == "NOUN":
        return  # "BBC Radio Scotland's Good Morning Scotland programme": a name as modifier
    start = ctx.mention_tokens[(mention.begin, mention.end)][0]
    for owner in (c for c in head.children if c.dep_ == "poss"):
        if any(t.pos_ in {"NOUN", "ADJ"} and t.is_lower for t in ctx.doc[owner.i + 1 : start]):
            continue  # "Deutsche Boerse's rival Euronext": a description, not a member
        named = ctx.mention(owner)
        if named is not None and named.kind is EntityKind.ORGANIZATION:
            organization = ctx.entity_party(named)
        elif named is None and owner.pos_ == "NOUN" and owner.lower_ in ORG_HEAD_WORDS:
            organization = _body_as_written(ctx, noun_phrase(owner) or [owner])
        else:
            continue
        evidence = ctx.evidence([owner, head], OWNED_NAME)
        yield Membership(ctx.entity_party(mention), "Member", organization, evidence, False)


def described(ctx: FactContext) -> Iterator[Membership]:
    """ "David Blunkett has spoken … The home secretary described …": the post of a definite
    description that stands for the person named as a subject just before it."""
    for token in ctx.doc:
        if token.dep_ not in {"nsubj", "nsubjpass"} or ctx.mention(token) is not None:
            continue
        person = ctx.described_person(token)
        if person is None or not _names_post(token):
            continue
        label, former = role_label([w.text for w in [*_title_modifiers(token), token]])
        if label is None:
            continue
        evidence = ctx.evidence([token], DESCRIPTION)
        yield Membership(ctx.entity_party(person), label, None, evidence, former)


PORTFOLIO_NAME = declare(
    "role.portfolio-name", "facts.role",
    reads="the capitalised words no mention covers right before \"Minister\" or "
          "\"Secretary\", with \"and\" between them",
    writes="Membership.role",
    description="A minister's or secretary's portfolio written in capitals before the post is "
                "part of the post (\"Work and Pensions Secretary\", \"Commerce Secretary\", "
                "\"Higher Education Minister\"), not cut off it: untagged capitalised nouns "
                "(at most four; not \"Earlier\"), never a party, a country or its demonym, "
                "a former word, an honorific or a name the tagger found (\"Home Office "
                "minister\").",
    example="Work and Pensions Secretary Ann Cole said the scheme would stay.").id


def _portfolio_before(ctx: FactContext, first: int) -> int | None:
    """Where the capitalised portfolio written right before a minister's or secretary's title
    (which begins at ``first``) begins, if there is one."""
    doc = ctx.doc
    i, taken = first, 0
    while i > 0 and taken < 4:
        token = doc[i - 1]
        if token.lower_ in {"and", "&"} and taken and i > 1 and _portfolio_word(ctx, doc[i - 2]):
            i -= 1  # "Work and Pensions"
            continue
        if not _portfolio_word(ctx, token):
            break
        i, taken = i - 1, taken + 1
    while i < first and not _portfolio_word(ctx, doc[i]):
        i += 1  # never begins with "and"
    return i if i < first else None


#: Words that are never part of a portfolio's name, though written in capitals before a post.
_NOT_PORTFOLIO = FORMER_WORDS | HONORIFICS | NOBILITY | PARTY_WORDS | NATION_DEMONYMS


def _portfolio_word(ctx: FactContext, token: Token) -> bool:
    plain = _plain(token.text)
    return (token.is_alpha and token.is_title and token.pos_ in {"PROPN", "NOUN"}
            and not token.is_stop
            and ctx.mention(token) is None
            and token.ent_type_ not in {"DATE", "TIME", "NORP", "GPE", "PERSON"}
            and plain not in _NOT_PORTFOLIO
            and not is_title_word(token) and country_named(token.text) is None
            and country_of_demonym(token.text) is None)


def _kind_words_before(doc: Doc, first: int) -> int:
    """Extend a title over words naming the kind of body ("army chief", "party leader")."""
    while first > 0 and doc[first - 1].lower_ in BODY_WORDS and doc[first - 1].pos_ == "NOUN":
        first -= 1
    return first


def _organisation_before(
    ctx: FactContext, first: int, office: bool = True, post: str = ""
) -> Party | None:
    """The organisation or country named right before a title ("Russian", "Ukraine's");
    a demonym counts only before an office ("British director" is a nationality); a body
    the tagger took for a person before a post held in a body ("Retail Decisions chief
    executive")."""
    i = first - 1
    while i > 0 and first - i <= 2 and ctx.doc[i].pos_ == "ADJ" and ctx.doc[i].is_lower \
            and ctx.doc[i - 1].text in {"'s", "’s"}:
        i -= 1  # "Greece's conservative Prime Minister": the owner before an adjective
    if i >= 0 and ctx.doc[i].text in {"'s", "’s"}:
        i -= 1
    if i < 0:
        return None
    token = ctx.doc[i]
    mention = ctx.mention(token)
    if mention is not None and mention.kind is EntityKind.PERSON:
        return body_named_as_person(ctx, mention, post)
    if mention is not None:
        start = ctx.mention_tokens[(mention.begin, mention.end)][0]
        before = ctx.doc[start - 1] if start > 0 else None
        if mention.kind is EntityKind.PLACE and before is not None and before.pos_ == "PROPN" and (
            before.is_title and not is_title_word(before)
        ):
            return None  # "Diageo North America president": a company's region, no government
        return ctx.entity_party(mention)
    side = found(DEMONYM_SIDE, partial(_demonym_side, ctx, i, office, post))
    if side is not None:
        return side
    country = country_of_demonym(token.text) if office else None
    if country is not None:
        return ctx.country_party(token, country)
    if _is_acronym(token) and office:  # "SMFG President": a body the model did not tag
        return _body_as_written(ctx, [token])
    return None


DEMONYM_SIDE = declare(
    "role.demonym-side", "facts.role",
    reads="the demonym (one word, or two: \"South African\") right before a post's title",
    writes="Membership.organization",
    description="A demonym before a post that leads a side (`national-side-posts.txt`: "
                "coach, captain, skipper, manager) names the country's national side, which "
                "employs the person (\"Australian coach X\", \"Italian national coach X\": "
                "the team, affiliated to the country) — before a trade it stays a nationality "
                "(\"British film director\"); and a demonym written in two words (\"South "
                "Korean deputy Foreign Minister\") names its country before an office as one "
                "word does.",
    example="Australian coach Tom Dunn said he was pleased.").id

#: Posts that lead a side: a demonym before them names the national team.
SIDE_POSTS = word_list("national-side-posts")


def _demonym_side(ctx: FactContext, i: int, office: bool, post: str) -> Party | None:
    """The country or national side the demonym ending at token ``i`` names before a post: a
    two-word demonym ("South Korean") before an office, and any demonym before a side's post
    ("Australian coach", the country's team as a group affiliated to it)."""
    doc = ctx.doc
    tokens, country = [doc[i]], None
    if i > 0 and doc[i - 1].is_title and doc[i].is_title:
        country = country_of_demonym(f"{doc[i - 1].text} {doc[i].text}")
        tokens = [doc[i - 1], doc[i]] if country is not None else tokens
    side = _plain(post) in SIDE_POSTS
    if country is None and side and doc[i].is_title:
        country = country_of_demonym(doc[i].text)
    if country is None or not (office or side) or any(ctx.mention(t) for t in tokens):
        return None
    before = doc[tokens[0].i - 1] if tokens[0].i > 0 else None
    if side and before is not None and before.is_title and _plain(before.text) not in (
            FORMER_WORDS) and (not before.is_sent_start or before.pos_ == "PROPN"
                               or ctx.mention(before) is not None):
        return None  # "London Irish coach": the demonym ends a club's name
    owner = doc[max(0, tokens[0].i - 3) : tokens[0].i]
    if side and any(t.text in {"'s", "’s"} or t.lower_ in OWNER_PRONOUNS for t in owner):
        return None  # "Milan 's new Uruguayan coach": the club's, of that nationality
    span = ctx.span(tokens)
    if side:
        return Party(PartyKind.GROUP, country.name, span.begin, span.end, None, country)
    return Party(PartyKind.COUNTRY, span.text, span.begin, span.end, None, country)


def body_named_as_person(ctx: FactContext, mention: Mention, post: str) -> Party | None:
    """A name the tagger took for a person, named with a post held only in a body ("Retail
    Decisions chief executive", "chief of Brightcove", "United boss"): that body as written,
    when nothing in the chunk writes it as a person's name — no given name, title or
    honorific before it, no longer person's name ending in it ("a Blair aide": Tony Blair)."""
    words = mention.text.lower().split()
    if mention.kind is not EntityKind.PERSON or _plain(post) not in EMPLOYER_POSTS or (
        not words or words[0] in GENDER_WORDS
    ):
        return None
    for other in ctx.mentions:
        theirs = other.text.lower().split()
        if other.kind is not EntityKind.PERSON or theirs[-len(words):] != words:
            continue
        start = ctx.mention_tokens[(other.begin, other.end)][0]
        before = _plain(ctx.doc[start - 1].text) if start > 0 else ""
        if len(theirs) > len(words) or before in HONORIFICS or before in GENDER_WORDS:
            return None
    return Party(PartyKind.GROUP, mention.text, mention.begin, mention.end, None, None)


def _name_before(ctx: FactContext, first: int, start: int) -> Party | None:
    """A capitalised name the tagger missed right before a post ("United boss Sir Alex
    Ferguson"), or a country it took for a person ("Wales" in "Said Wales assistant coach"):
    the organisation as written. Never a person's name ("a Blair aide")."""
    run: list[Token] = []
    i = first - 1
    while i >= 0 and len(run) < 5 and _unnamed_name(ctx, ctx.doc[i]):
        run.insert(0, ctx.doc[i])
        i -= 1
    opening = found(OPENING_NAME, partial(_opening_name, ctx, ctx.doc[i])) if (
        i >= 0 and len(run) < 5) else None
    if opening is not None:  # "Academy president X", the article writing "the Academy"
        run.insert(0, opening)
        i -= 1
    if not run or not (first <= run[-1].head.i <= start and run[-1].dep_ in {"compound", "nmod"}):
        return None
    if _plain(ctx.doc[start - 1].text) in PORTFOLIO_POSTS or _longer_name(ctx, i):
        return None  # "Constitutional Affairs Minister": a portfolio; "Touching the Void"
    span = ctx.span(run)
    country = country_named(span.text)
    if country is not None and ctx.mention(run[-1]) is not None:
        return ctx.country_party(run[-1], country) if len(run) == 1 else None
    return Party(PartyKind.GROUP, span.text, span.begin, span.end, None, None)


OPENING_NAME = declare(
    "role.opening-name", "facts.role",
    reads="the capitalised word opening a sentence right before a post, and the article's "
          "other uses of it",
    writes="Membership.organization",
    description="A post whose sentence opens with the name of its body, untagged (\"Academy "
                "president X\", \"Telegraph executive X\"): that word is a name, not a "
                "capitalised common noun, when the article writes it capitalised inside a "
                "sentence after a lower-case word and before none capitalised (\"members of "
                "the Academy of Motion Picture Arts\"); otherwise it is left (\"Festival "
                "director X\").",
    example="Academy president Ann Cole praised the move. Marketing films to the members of "
            "the Academy of Motion Picture Arts and Sciences is costly.").id


def _opening_name(ctx: FactContext, token: Token) -> Token | None:
    """``token``, the untagged capitalised word opening a sentence, when the article writes it
    capitalised after a lower-case word and not followed by another capitalised one."""
    if not (token.is_sent_start and token.is_alpha and token.is_title) or ctx.mention(token) \
            or is_title_word(token) or is_title_modifier(token) or token.ent_type_ in {
            "DATE", "TIME"} or token.lower_ in GENDER_WORDS or token.is_stop:
        return None
    pattern = rf"\b[a-z]+[,;]?[ \t]+{re.escape(token.text)}\b(?!['’]?[ \t]*[A-Z0-9])"
    at = ctx.char(token)  # within a line: a headline with no full stop ends in a lower-case word
    return token if any(m.end() - len(token.text) != at
                        for m in re.finditer(pattern, ctx.frame.document.text)) else None


def _longer_name(ctx: FactContext, i: int) -> bool:
    """Whether the name ending at ``i + 1`` goes on leftwards ("X Factor"), or over a small
    word ("Touching the Void"): a title the tagger missed, not an organisation."""
    doc = ctx.doc
    if i < 0:
        return False
    if doc[i].is_alpha and not doc[i].is_lower:  # "X Factor judge", "Diageo North America"
        other = ctx.mention(doc[i])  # but "Las Vegas Microsoft boss": a place, then a name
        return other is None or other.kind is EntityKind.PERSON or (
            ctx.mention_tokens[(other.begin, other.end)][1] != i + 1)
    return i > 0 and doc[i].is_lower and doc[i].is_stop and doc[i - 1].is_title


def _unnamed_name(ctx: FactContext, token: Token) -> bool:
    mention = ctx.mention(token)
    if mention is not None and not (
        mention.kind is EntityKind.PERSON and country_named(token.text) is not None
    ):
        return False
    return (token.pos_ == "PROPN" and token.is_title and token.is_alpha
            and not (token.is_sent_start and not token.ent_type_)  # "Festival director X"
            and not (is_title_word(token) or is_title_modifier(token))
            and token.ent_type_ not in {"DATE", "TIME"} and token.lower_ not in GENDER_WORDS)


def _is_acronym(token: Token) -> bool:
    return token.pos_ == "PROPN" and token.is_upper and token.is_alpha and len(token) > 1 and (
        not is_title_word(token) and country_named(token.text) is None
    )


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
    """ "X, head of Y" / "Y's chief negotiator, X"."""
    head = ctx.head_token(mention)
    candidates = [c for c in head.children if c.dep_ == "appos"]
    if head.dep_ == "appos":
        candidates.append(head.head)
    owner = head.head
    if head.dep_ in {"appos", "conj"} and owner.dep_ == "pobj" and owner.head.lower_ == "of":
        candidates.append(owner.head.head)  # "the mayor of X, Name"
    shared: dict[int, Token] = {}  # "chairman and chief executive of Sinopec": one body
    for title in list(candidates):
        for other in title.children:
            if other.dep_ == "conj" and _names_post(other) and ctx.mention(other) is None:
                candidates.append(other)
                if not any(c.dep_ == "det" for c in other.children):  # not "and a former banker"
                    shared[other.i] = title
                    shared.setdefault(title.i, other)
    for title in candidates:
        post = _post_before_general(title) or title
        if not _names_post(post) or ctx.mention(title) is not None \
                or _plain(title.text) in RELATIONAL_NOUNS:
            continue  # "son of George Harrison", "a family friend": a tie to a person
        if _across_list(ctx, head, title):
            continue  # "director - X; actor - Y": the items of a list are no appositions
        modifiers = _title_modifiers(post)
        fields = found(FIELD_WORDS, partial(_field_words, post, modifiers)) or []
        words = [*sorted([*modifiers, *fields], key=lambda t: t.i), post, *_general(post),
                 *_field_of(title)]
        if _plain(post.text) in PORTFOLIO_POSTS:
            portfolio = found(PORTFOLIO_NAME, partial(_portfolio_before, ctx, words[0].i))
            if portfolio is not None:  # "The Higher Education Minister, Kim Howells"
                words = [*ctx.doc[portfolio : words[0].i], *words]
        label, former = role_label(title_words(words))
        if label is None:
            continue
        organization = organisation_of_title(ctx, title)
        if organization is None and title.i in shared:
            organization = organisation_of_title(ctx, shared[title.i])
        if organization is None:  # "Pakistan : A , B ( captain ) , C"
            organization = found(TEAM_SHEET_SIDE, partial(_team_sheet_side, ctx, mention, title))
        confidence = APPOSITION.prior - (0 if organization else 1.5 * NO_ORGANISATION)
        evidence = ctx.evidence([head, title], APPOSITION, round(confidence, 2))
        former = former or _ended(title) or _then_before(ctx.doc, min(t.i for t in words))
        yield Membership(ctx.entity_party(mention), label, organization, evidence, former)


TEAM_SHEET_SIDE = declare(
    "role.team-sheet-side", "facts.role",
    reads="the line a name with a post in brackets stands on: a side named before \":\" "
          "or \"-\" at its start, then names and commas",
    writes="Membership.organization",
    description="A post in brackets after a name in a team sheet (\"Pakistan : A , B ( "
                "captain ) , C\", \"India - A ( captain ) , B\") is held in the side the "
                "line opens with, when the tagger named it; a heading that names no side "
                "(\"Squad :\") gives none.",
    example="France - Tom Lowe , Bob Nash ( captain ) , Tim Read , Sam Webb .").id

#: A team sheet's line up to a player: the side, ":" or "-", then names, commas, brackets.
_SHEET_LINE = re.compile(r"\s*(?P<side>[^\W\d][^:\n]{0,40}?)\s+[:-]\s+(?:[^\W\d][^;:\n]*)?$")


def _team_sheet_side(ctx: FactContext, mention: Mention, title: Token) -> Party | None:
    """The side a team sheet's line names before its players, for a player whose post is
    written in brackets right after the name ("B ( captain )")."""
    doc = ctx.doc
    end = ctx.mention_tokens[(mention.begin, mention.end)][1]
    if not (title.i == end + 1 < len(doc) - 1 and doc[end].text == "("
            and doc[title.i + 1].text == ")"):
        return None
    text = ctx.frame.document.text
    match = _SHEET_LINE.match(text, text.rfind("\n", 0, mention.begin) + 1, mention.begin)
    if match is None:
        return None
    begin, end = match.span("side")
    side = next((m for m in ctx.mentions if (m.begin, m.end) == (begin, end)
                 and m.kind is not EntityKind.PERSON), None)
    if side is not None:
        return ctx.entity_party(side)
    country = country_named(match.group("side"))  # a country the tagger left untagged
    return None if country is None else Party(
        PartyKind.GROUP, match.group("side"), begin, end, None, country)


FIELD_WORDS = declare(
    "role.field-words", "facts.role",
    reads="lower-case nouns compounded right before a post in apposition",
    writes="Membership.role",
    description="A post in apposition keeps the lower-case nouns written right before it as "
                "its field (\"a research director at X\" → Research Director, \"sound "
                "engineer\", \"product manager\"), as a title before a name does (\"rugby "
                "director\"); not a body word (\"party\", \"police\"), a date or a name.",
    example="\"Sales will fall,\" said Kate Lowe, a research director at Enders Analysis.").id


def _field_words(post: Token, modifiers: Sequence[Token]) -> list[Token] | None:
    """The lower-case nouns compounded right before ``post`` (at most two, next to it or to
    its title words), with an adjective of theirs: "research director", "deputy labs editor",
    "foreign affairs spokesman"."""
    doc = post.doc
    taken = {t.i for t in modifiers}
    words: list[Token] = []
    i = post.i
    while i > 0 and len(words) < 2:
        token = doc[i - 1]
        if token.i in taken:
            i -= 1
            continue
        field = token.dep_ == "compound" and token.pos_ == "NOUN" or bool(words) and (
            token.dep_ in {"amod", "compound"} and token.pos_ in {"ADJ", "NOUN"})
        if not (field and token.is_lower and token.is_alpha and post.i >= token.head.i > token.i
                and token.lower_ not in BODY_WORDS and not token.ent_type_
                and token.lower_ not in FORMER_WORDS) or _after_hyphen(token):
            break  # "foreign affairs spokesman": the field's own adjective too; "sixth-form" no
        words.append(token)
        i -= 1
    return words or None


def _after_hyphen(token: Token) -> bool:
    """Whether ``token`` is the second half of a hyphenated word ("sixth-form")."""
    before = token.doc[token.i - 1] if token.i > 0 else None
    return before is not None and before.text == "-" and not before.whitespace_


#: Words before "then" that make it "next", not "at the time".
SEQUENCE_WORDS = frozenset(table("grammar-words")["sequence_words"])


def _then_before(doc: Doc, first: int) -> bool:
    """ "then Home Office Minister Lord Falconer", "its then chief executive": "then" right
    before a post says it was held at the time told, and is no longer (registered as
    ``role.then-former``). "and then Prime Minister X spoke" is a sequence, not a time."""
    return first > 1 and applies(THEN_FORMER, lambda: (
        doc[first - 1].lower_ == "then" and not doc[first - 2].is_punct
        and doc[first - 2].lower_ not in SEQUENCE_WORDS))


THEN_FORMER = declare(
    "role.then-former", "facts.role", reads="\"then\" right before a post",
    writes="Membership.former",
    description="A post written \"then X\" (\"then Home Office Minister Lord Falconer\", "
                "\"its then chief executive\") was held at the time told: a former post.",
    example="Lord Goldsmith met then Home Office Minister Lord Falconer in March.").id


def _ended(title: Token) -> bool:
    """ "the head of Universal Music until last year": a post held until a date is former;
    so is one whose holder was let go ("the fifth coach fired this season")."""
    return any(
        t.lower_ in ENDING_PREPOSITIONS and t.head.i >= title.i and any(
            o.ent_type_ == "DATE" for o in t.subtree if o is not t)
        for t in title.subtree
    ) or any(c.dep_ in {"acl", "amod"} and c.tag_ in {"VBN", "VBD"} and c.lemma_.lower() in ENDED_BY
             for c in title.children)


def _a_person(ctx: FactContext, party: Party) -> bool:
    """Whether ``party`` stands for a person's mention (a pronoun's or a surname's too)."""
    return any((m.begin, m.end) == party.mention and m.kind is EntityKind.PERSON
               for m in ctx.mentions)


def _across_list(ctx: FactContext, name: Token, title: Token) -> bool:
    """Whether a semicolon or colon lies between a name and a post: items of a list
    ("director - Martin Scorsese; actor - Jamie Foxx"), not one phrase."""
    low, high = sorted((name.i, title.i))
    return any(t.text in {";", ":"} for t in ctx.doc[low:high])


def _party_of(ctx: FactContext, words: Sequence[Token]) -> Party | None:
    """The party a title's party words name ("resigned as Labour leader"), as a group."""
    if not words:
        return None
    return _body_as_written(ctx, words)


def _general(title: Token) -> list[Token]:
    """ "director general", "attorney general": the postpositive "general" of a post."""
    after = title.doc[title.i + 1] if title.i + 1 < len(title.doc) else None
    return [after] if after is not None and after.lower_ == "general" else []


def _post_before_general(title: Token) -> Token | None:
    """The post of a parse headed by its postpositive "general" ("director general")."""
    if title.lower_ != "general":
        return None
    return next((c for c in title.lefts if c.i == title.i - 1 and _names_post(c)), None)


def _names_post(token: Token) -> bool:
    """A post, not an honorific or a rank ("Captain Jones", "Gen. Ryder") — but a rank that
    is also a post in a team or firm, written in lower case, is that post ("England captain
    X", "the club captain")."""
    plain = _plain(token.text)
    if plain in RANKS:
        return token.is_lower and plain in EMPLOYER_POSTS
    return is_title_word(token) and plain not in HONORIFICS | NOBILITY


def _title_modifiers(title: Token) -> list[Token]:
    """The words in front of a post noun that belong to the title ("deputy", "Foreign")."""
    words: list[Token] = []
    for child in title.lefts:
        if child.dep_ in {"compound", "amod", "nmod"} and (
            is_title_word(child) or is_title_modifier(child) or child.lower_ in FORMER_WORDS
            or child.lower_ in POST_QUALIFIERS
        ):
            words.append(child)
    return words


def organisation_of_title(ctx: FactContext, title: Token) -> Party | None:
    """Whose post a title names: its owner ("Amnesty's"), a demonym ("Russian"), a named
    modifier ("the Kremlin spokesman") or an "of"/"at" phrase ("head of the Republic"), by
    the whole name the article writes for it."""
    return full_name(ctx, _organisation_of_title(ctx, title))


OWNED_FULL_NAME = declare(
    "role.owned-full-name", "facts.role",
    reads="the words around a post's organisation: a \"'s\" after it, \"the\" before it, "
          "and the organisations the chunk names",
    writes="Membership.organization (the name as the article writes it)",
    description="A post's organisation is the name the article writes, not a cut of it: a "
                "\"'s\" that is part of the name (\"head of fast-food giant McDonald's,\"; "
                "\"Sotheby's head of art\" where the article writes \"at Sotheby's.\"), or "
                "the one longer name the chunk gave before for \"the Labs'\" (\"Media Labs "
                "Europe\").",
    example="Ann Cole, the former head of fast-food giant McDonald's, has died.").id


def full_name(ctx: FactContext, party: Party | None) -> Party | None:
    """``party`` by the whole name the article writes for it (``role.owned-full-name``)."""
    if party is None or party.kind is PartyKind.COUNTRY:
        return party
    return found(OWNED_FULL_NAME, partial(_full_name, ctx, party)) or party


def _full_name(ctx: FactContext, party: Party) -> Party | None:
    bounds = ctx.token_bounds(party.begin, party.end)
    if bounds is None:
        return None
    doc = ctx.doc
    first, last = doc[bounds[0]], doc[bounds[1] - 1]
    after = doc[last.i + 1] if last.i + 1 < len(doc) else None
    if after is not None and after.text in POSSESSIVES:
        if last.dep_ != "poss":  # "of fast-food giant McDonald's,": the 's owns nothing
            return _body_as_written(ctx, doc[first.i : after.i + 1])
        words = [t.text for t in doc[first.i : last.i + 1]]
        for token in doc:  # "at Sotheby's.": the article writes the 's as part of the name
            start = token.i - len(words) + 1
            if token.i + 1 < len(doc) and doc[token.i + 1].text in POSSESSIVES and start >= 0 \
                    and [t.text for t in doc[start : token.i + 1]] == words \
                    and token.dep_ != "poss" and token.i != last.i:
                return _body_as_written(ctx, doc[first.i : after.i + 1])
        return None
    if first.i > 0 and doc[first.i - 1].lower_ == "the" and party.mention is not None:
        longer = {m.name: m for m in ctx.mentions if m.end <= party.begin
                  and m.kind is EntityKind.ORGANIZATION and len(m.name) > len(party.text)
                  and party.text in m.name.split()}
        if len(longer) == 1:  # "the Labs' managing director" after "Media Labs Europe"
            named = next(iter(longer.values()))
            return replace(ctx.entity_party(named), text=party.text, begin=party.begin,
                           end=party.end)
    return None


POSSESSIVES = frozenset({"'s", "’s"})


def _organisation_of_title(ctx: FactContext, title: Token) -> Party | None:
    for child in title.children:
        if child.dep_ == "poss" or (child.dep_ == "compound" and ctx.mention(child)):
            owner = ctx.mention(child)
            if owner is not None and owner.kind is EntityKind.PERSON:
                # "Andre Agassi's coach": a tie to a person, unless the "person" is a body
                body = body_named_as_person(ctx, owner, title.text)
                if body is not None:
                    return body
                continue
            party = ctx.party(child)
            if party is not None and party.mention is not None and not _a_person(ctx, party):
                return party  # "his dance teacher": the owner is a person, no organisation
        if child.dep_ in {"amod", "compound", "npadvmod"} and _plain(title.text) not in OCCUPATIONS:
            country = country_of_demonym(child.text)
            if country is not None:
                return ctx.country_party(child, country)
    for child in title.rights:
        if child.dep_ == "prep" and child.lower_ in MEMBER_PREPOSITIONS:
            member = found(WITH_ORGANISATION, partial(_with_organisation, ctx, child))
            if member is not None:  # "an economist with MM Warburg"
                return member
        inside = child.lower_ == "in"  # "vice president in Microsoft's security unit"
        if child.dep_ == "prep" and (child.lower_ in ORG_PREPOSITIONS or inside):
            objects = [c for c in child.children if c.dep_ == "pobj"]
            # "MP for Henley-on-Thames": a seat, "vice president in X's unit": a company
            places = child.lower_ == "for" or inside
            described = found(NAMED_DESCRIPTOR, partial(
                _named_descriptor, ctx, objects[0], places)) if objects else None
            if described is not None:  # "president of carmaker Hollis Motors"
                return described
            # the object's own words: "analyst at Troika Dialog in Moscow" is Troika Dialog's
            mentions = ctx.mentions_in(noun_phrase(objects[0])) if objects else []
            named = [m for m in mentions if m.kind is not EntityKind.PERSON
                     and not (places and m.kind is EntityKind.PLACE)]
            own = ctx.mention(objects[0]) if objects else None
            if own in named:  # "of Russia's Security Council": the council, not its owner
                named.insert(0, own)
            if named:
                whole = _whole_name(ctx, objects[0], named[0]) or _written_whole(
                    ctx, objects[0], named[0])
                return whole or ctx.entity_party(named[0])
            bodies = [body_named_as_person(ctx, m, title.text) for m in mentions]
            if any(bodies):  # "chief of Brightcove", Brightcove tagged as a person
                body = next(b for b in bodies if b is not None)
                whole = _written_whole(ctx, objects[0], next(
                    m for m, b in zip(mentions, bodies, strict=True) if b is not None))
                return whole or body
            if objects and not mentions and (unit := _unit_of(ctx, objects[0])) is not None:
                return unit
            untagged = found(UNTAGGED_NAME, partial(_untagged_name, ctx, objects[0], title)) \
                if objects and not mentions else None
            if untagged is not None:  # "director of the Scottish Chambers of Commerce"
                return untagged
    return None


WITH_ORGANISATION = declare(
    "role.with-organisation", "facts.role",
    reads="a post's \"with\" phrase whose object is a tagged organisation",
    writes="Membership.organization",
    description="A post held \"with\" a named organisation (\"an economist with MM "
                "Warburg\", \"a music analyst with Jupiter Research\", \"a senior economist "
                "with the OECD\"): that organisation, when the phrase's own head is its name "
                "(not \"with a client of Google\"), never a person or a place.",
    example="\"Prices will fall,\" said Ann Cole, an analyst with Fenwick Research.").id
#: "an economist with MM Warburg": prepositions that give the body a post is held in only
#: when their object is itself a tagged organisation.
MEMBER_PREPOSITIONS = frozenset(_GRAMMAR["member_prepositions"])


def _with_organisation(ctx: FactContext, prep: Token) -> Party | None:
    """The tagged organisation a post's "with" phrase names by its own head."""
    for obj in (c for c in prep.children if c.dep_ == "pobj"):
        mention = ctx.mention(obj)
        if mention is None or mention.kind is not EntityKind.ORGANIZATION:
            continue
        if ctx.mention_tokens[(mention.begin, mention.end)][1] != obj.i + 1:
            continue  # the head must end the name: "with Google's rivals" is no post at Google
        return _written_whole(ctx, obj, mention) or ctx.entity_party(mention)
    return None


def _unit_of(ctx: FactContext, unit: Token) -> Party | None:
    """The named organisation an unnamed unit belongs to: "head of the rescue unit for the
    Iranian Red Crescent" (an "of"/"for"/"at" phrase of the unit's own that names one)."""
    for child in unit.rights:
        if child.dep_ == "prep" and child.lower_ in ORG_PREPOSITIONS | {"for"}:
            for obj in (c for c in child.children if c.dep_ == "pobj"):
                named = [m for m in ctx.mentions_in(noun_phrase(obj))
                         if m.kind is EntityKind.ORGANIZATION]
                if named:
                    return ctx.entity_party(named[0])
    return None


def _body_as_written(ctx: FactContext, tokens: Iterable[Token]) -> Party:
    """A body named by ``tokens`` as written, with no entity behind it."""
    span = ctx.span(tokens)
    return Party(PartyKind.GROUP, span.text, span.begin, span.end, None, None)


def _whole_name(ctx: FactContext, head: Token, named: Mention) -> Party | None:
    """The whole capitalised name an organisation slot holds where the tagger found only a
    place or person in it ("head of Universal Music Germany" with "Universal" a place): the
    body as written."""
    if named.kind is EntityKind.ORGANIZATION or head.pos_ != "PROPN":
        return None
    run = [t for t in head.lefts if t.dep_ == "compound"] + [head]
    if not all(t.pos_ == "PROPN" and t.is_title for t in run):
        return None
    span = ctx.span([t for t in head.doc[run[0].i : head.i + 1]])
    if not (span.begin <= named.begin and named.end <= span.end) or (
        (span.begin, span.end) == (named.begin, named.end)
    ):
        return None
    return Party(PartyKind.GROUP, span.text, span.begin, span.end, None, None)


NAMED_DESCRIPTOR = declare(
    "role.named-descriptor", "facts.role",
    reads="the object of a post's \"of\"/\"at\"/\"for\" that is a common noun with a "
          "name in apposition",
    writes="Membership.organization",
    description="A post of a body described before its name (\"president of carmaker Hollis "
                "Motors\", \"director at analyst firm Gartner\", \"chairman of Spain's "
                "biggest bank, Banco Popular\"): the organisation is the name, not the "
                "describing noun's owner, even where the tagger did not tag it.",
    example="Jim Rowe, editor of news site techworld.com, said the ban was wrong.").id


def _named_descriptor(ctx: FactContext, noun: Token, places: bool) -> Party | None:
    """The name in apposition to the common noun a post is of/at/for ("carmaker Hollis
    Motors", "Spain's biggest bank, Banco Popular", "news site techworld.com"): the mention
    that covers the name (no person's, no place's where ``places`` is a seat's "for"), or,
    untagged, the name's capitalised words as written."""
    if noun.pos_ != "NOUN" or not noun.is_lower:
        return None
    for name in (c for c in noun.rights if c.dep_ == "appos" and (
            c.pos_ == "PROPN" or c.like_url)):
        run = [t for t in name.lefts if t.dep_ == "compound" and t.i >= noun.i] + [name]
        if run[0].i + len(run) - 1 != name.i or not all(
                not t.is_lower or t.like_url for t in run):
            continue  # a name written as one run of capitalised words, next to the noun
        mention = ctx.mention(name)
        if mention is not None:
            if mention.kind is EntityKind.PERSON or (places and mention.kind is EntityKind.PLACE):
                continue
            start, end = ctx.mention_tokens[(mention.begin, mention.end)]
            if start <= run[0].i:
                return ctx.entity_party(mention)
        if any((m := ctx.mention(t)) is not None and m.kind is EntityKind.PERSON for t in run):
            continue
        return _body_as_written(ctx, run)
    return None


WHOLE_NAME = declare(
    "role.whole-organisation-name", "facts.role",
    reads="the capitalised name around the organisation mention of a post's \"of\"/\"at\"/"
          "\"for\" phrase",
    writes="Membership.organization",
    description="The organisation a post is of/at/for is the whole capitalised name written "
                "there, where the tagger took only part of it (\"Institute\" of the "
                "Institute for Fiscal Studies, \"Chambers of Commerce\" of the British "
                "Chambers of Commerce, \"Jeeves\" of Ask Jeeves).",
    example="\"We are pleased,\" said Mary Cole, a director at the London-based Institute for "
            "Fiscal Studies.").id

#: Small words that stay inside an organisation's name ("Institute for the Future"), as
#: inside a title, and the ampersand ("Standard & Poor's").
NAME_CONNECTORS = TITLE_CONNECTORS | {"&"}


def _written_whole(ctx: FactContext, head: Token, named: Mention) -> Party | None:
    """The whole name ``head`` heads, capitalised words with the small words between them
    ("the British Chambers of Commerce", "the Institute for the Future", "Ask Jeeves"), as
    written, where ``named`` is only part of it (registered as ``role.whole-organisation-name``)."""
    return found(WHOLE_NAME, lambda: _whole_run(ctx, head, named))


def _whole_run(ctx: FactContext, head: Token, named: Mention) -> Party | None:
    if head.pos_ != "PROPN" or not _capitalised(head):
        return None
    doc = head.doc
    first = head.i
    while first > 0 and doc[first - 1].head.i >= first and doc[first - 1].head.i <= head.i and (
            doc[first - 1].dep_ in {"compound", "amod"} and _capitalised(doc[first - 1])):
        first -= 1  # "British Chambers", "Ask Jeeves"
    last = _name_end(head)
    start, end = ctx.mention_tokens[(named.begin, named.end)]
    if not (first <= start and end - 1 <= last) or (first, last) == (start, end - 1):
        return None
    if any((m := ctx.mention(t)) is not None and m.kind is EntityKind.PERSON and m is not named
           for t in doc[first : last + 1]):
        return None  # another person's name inside: no one organisation's name
    return _body_as_written(ctx, list(doc[first : last + 1]))


UNTAGGED_NAME = declare(
    "role.untagged-organisation-name", "facts.role",
    reads="a capitalised name no mention covers after the \"of\"/\"at\"/\"for\" of a post "
          "held in a body",
    writes="Membership.organization",
    description="A post held in a body (editor, director, spokesman …) of/at/for a capitalised "
                "name the tagger did not tag (\"editor at PC World\"): that name, as written "
                "— never a portfolio or a title's own words (\"Secretary of State\").",
    example="\"Rates are right,\" said Ann Cole, director general of the Scottish Chambers of "
            "Commerce.").id


def _untagged_name(ctx: FactContext, head: Token, title: Token) -> Party | None:
    """The capitalised name ``head`` heads where no mention covers it, for a post held in a
    body: its compound words before it and an "of"/"for" tail of capitalised words."""
    post = _post_before_general(title) or title
    if _plain(post.text) not in EMPLOYER_POSTS or head.pos_ != "PROPN" or not (
            _capitalised(head) or _is_acronym(head)):
        return None
    first = head.i
    doc = head.doc
    while first > 0 and doc[first - 1].dep_ == "compound" and doc[first - 1].head.i <= head.i \
            and (_capitalised(doc[first - 1]) or _is_acronym(doc[first - 1])):
        first -= 1
    if first > 0 and (doc[first - 1].text in HYPHENS or _capitalised(doc[first - 1])):
        return None  # the name goes on leftwards ("Comcast-Spectacor"): not cut at a hyphen
    run = list(doc[first : _name_end(head) + 1])
    if any(ctx.mention(t) is not None or t.ent_type_ in {"DATE", "TIME", "NORP"}
           or t.lower_ in PORTFOLIO_WORDS or t.lower_ in OF_TITLE_TAILS or is_title_modifier(t)
           for t in run):
        return None
    return _body_as_written(ctx, run)


HYPHENS = frozenset({"-", "–"})
#: "Secretary of State", "Chief of Staff": what a post is "of" that is no body.
OF_TITLE_TAILS = frozenset(_GRAMMAR["of_title_tails"])
PORTFOLIO_WORDS = word_list("portfolio-words")


def _name_end(head: Token) -> int:
    """Where the name ``head`` heads ends: after its "of"/"for" tail of capitalised words
    ("Chambers of Commerce", "Institute for the Future"), else at ``head``."""
    doc = head.doc
    prep = doc[head.i + 1] if head.i + 1 < len(doc) else None
    if prep is not None and prep.head.i == head.i and prep.dep_ == "prep" and prep.lower_ in {
            "of", "for"}:
        words = list(prep.subtree)
        if words[-1].i == words[0].i + len(words) - 1 and _capitalised(words[-1]) and all(
                _capitalised(t) or t.lower_ in NAME_CONNECTORS for t in words[1:]):
            return words[-1].i
    return head.i


def _capitalised(token: Token) -> bool:
    return token.is_alpha and token.text[:1].isupper() and not is_title_word(token)


def _field_of(title: Token) -> list[Token]:
    """The field a post is "of" when it is no body: "director of public prosecutions", "chief
    of staff" (a bare lower-case noun phrase, no article, no name)."""
    for child in title.rights:
        if child.dep_ == "prep" and child.lower_ == "of" and child.i == title.i + 1:
            objects = [c for c in child.children if c.dep_ == "pobj"]
            words = list(objects[0].subtree) if objects else []
            plain = all(t.is_lower and t.is_alpha and t.pos_ in {"NOUN", "ADJ"} for t in words)
            if words and plain and len(words) <= 3:
                return [child, *words]
    return []



def _appointer(ctx: FactContext, verb: Token, title: Token) -> Party | None:
    """The named body that appoints someone to its own post: "Barclays appointed X as its
    chief executive", "the FA has appointed X as caretaker boss" (not "… as Sweden's coach",
    whose owner says whose post it is)."""
    if any(c.dep_ == "poss" and c.lower_ not in {"its", "their"} for c in title.children):
        return None
    for subject in (c for c in verb.children if c.dep_ == "nsubj"):
        mention = ctx.mention(subject)
        if mention is not None and mention.kind is not EntityKind.PERSON:
            return ctx.entity_party(mention)
    return None


def served_as(ctx: FactContext, mention: Mention) -> Iterator[Membership]:
    """ "X resigned as Home Secretary", "X was appointed as envoy to the UN", "Barclays
    appointed X as its chief executive"."""
    head = ctx.head_token(mention)
    verb = head.head
    lemma = verb.lemma_.lower()
    appointed = head.dep_ == "dobj" and lemma in APPOINTING_VERBS
    succeeded = head.dep_ == "dobj" and lemma in SUCCEEDING_VERBS  # held the post before
    if not (appointed or succeeded) and (head.dep_ not in {"nsubj", "nsubjpass"}
                                         or lemma not in AS_VERBS):
        return
    particles = {c.lower_ for c in verb.children if c.dep_ in {"prt", "advmod"}}
    if lemma in STEPPING_VERBS and not particles:
        return  # "stood as a candidate": only "stood down / in as" gives a post
    if head.dep_ == "nsubj" and verb.lemma_.lower() in APPOINTING_VERBS and any(
            c.dep_ == "dobj" for c in verb.children):
        return  # "Barclays appointed X as its chief executive": Barclays appoints
    if is_irrealis(verb):
        return  # "he hoped to serve as president"
    named = [c for c in verb.children if c.dep_ in {"oprd", "attr"} and _names_post(c)]
    for prep in (c for c in verb.children if c.dep_ == "prep" and c.lower_ == "as"):
        named += [o for o in prep.children if o.dep_ == "pobj" and _names_post(o)]
    for title in named:  # "resigned as Home Secretary", "was named coach of Wales"
        modifiers = _title_modifiers(title)
        party = [t for t in modifiers if _is_party_word(t)] if (
            _plain(title.text) not in PORTFOLIO_POSTS) else []
        words = [*(t for t in modifiers if t not in party), title, *_general(title),
                 *_field_of(title)]
        label, _former = role_label(title_words(words))
        if label is None:
            continue
        organization = organisation_of_title(ctx, title) or _party_of(ctx, party) or (
            _appointer(ctx, verb, title) if appointed else None)
        former = lemma in LEAVING_VERBS or succeeded or bool(particles & LEAVING_PARTICLES)
        evidence = ctx.evidence([head, title], SERVED_AS)
        yield Membership(ctx.entity_party(mention), label, organization, evidence, former)


#: The readers of the rules read per person mention (``memberships_of`` runs them in the
#: registry's order; a reader runs while any of its rules is on, and what it finds under a rule
#: that is off is dropped).
PER_MENTION: tuple[tuple[tuple[str, ...], Callable[..., Iterable[Membership]]], ...] = (
    ((TITLE_BEFORE_NAME.id,), titled),
    ((APPOSITION.id,), lambda ctx, mention, earlier: appositions(ctx, mention)),
    ((SERVED_AS.id,), lambda ctx, mention, earlier: served_as(ctx, mention)),
    ((PARTY_BEFORE_NAME.id,), party_member),
    ((OWNED_NAME.id,), owned_name),
)
