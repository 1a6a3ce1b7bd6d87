"""What every fact rule needs from a parsed chunk: offsets, mentions by token, parties.

A ``FactContext`` wraps one spaCy ``Doc`` (a chunk of an article) with the chunk's mentions
and time expressions, and answers the questions the rules share: which mention covers this
token, which sentence holds it, who a pronoun or a bare surname stands for, and how a noun
phrase becomes a ``Party``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from kg.extract.entities import fold_space, is_title_word
from kg.extract.recovery import dateline_end
from kg.extract.rules.places import country_named, country_of_demonym, is_capital, is_city
from kg.extract.rules.registry import Rule
from kg.lexicon import table
from kg.lexicon.fact_words import CITY_NOUNS, PLACE_NOUNS, SPEECH_VERBS
from kg.lexicon.words import PHRASE_DETERMINERS, PHRASE_PREPOSITIONS
from kg.model import Country, EntityKind, Evidence, Mention, Party, PartyKind, Span, TimeExpression

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

    from kg.extract.frame import ChunkFrame

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
_PRONOUNS = table("pronouns")
PERSON_PRONOUNS = frozenset(_PRONOUNS["person"])
THING_PRONOUNS = frozenset(_PRONOUNS["thing"])
GROUP_PRONOUNS = frozenset(_PRONOUNS["group"])
RELATIVE_PRONOUNS = frozenset(_PRONOUNS["relative"])
OWNER_PRONOUNS = frozenset(_PRONOUNS["owners"])
_GENDERS = table("given-names")
#: Given names and titles that fix a person's gender, and the pronouns that need it.
GENDER_WORDS = {
    **{w: "male" for w in (*_GENDERS["male"], *_GENDERS["male_titles"])},
    **{w: "female" for w in (*_GENDERS["female"], *_GENDERS["female_titles"])},
}
#: Titles that make a name a person's whatever the tagger called it ("Mr Cable" tagged ORG).
PERSON_TITLES = frozenset((*_GENDERS["male_titles"], *_GENDERS["female_titles"]))
PRONOUN_GENDER = {
    **{w: "male" for w in _GENDERS["pronouns_male"]},
    **{w: "female" for w in _GENDERS["pronouns_female"]},
}
DEMONSTRATIVES = frozenset(_PRONOUNS["demonstrative"])
MAX_GROUP_TOKENS = 12
METONYM_DEPS = frozenset({"nsubj", "poss", "compound", "npadvmod", "amod"})


def name_genders(mention: Mention, one_word: bool = True) -> set[str]:
    """The genders a person's titles ("Mrs") and given name ("Kimberly") say; with
    ``one_word`` false, a name of one word says none by itself (a surname: "King")."""
    words = [w.lower().strip(".") for t in mention.titles for w in t.split()]
    if one_word or len(mention.name.split()) > 1:
        words.append(mention.name.split()[0].lower().strip("."))
    return {GENDER_WORDS[w] for w in words if w in GENDER_WORDS}


class FactContext:
    """One parsed chunk with its mentions and times, indexed by token."""

    def __init__(
        self,
        doc: Doc,
        frame: ChunkFrame,
        mentions: Sequence[Mention],
        times: Sequence[TimeExpression],
    ) -> None:
        self.doc = doc
        self.frame = frame
        self.mentions: list[Mention] = []  # those that align with tokens
        self.mention_at: dict[int, Mention] = {}
        self.mention_tokens: dict[tuple[int, int], tuple[int, int]] = {}
        for mention in mentions:
            bounds = self.token_bounds(mention.begin, mention.end)
            if bounds is not None:
                self.mentions.append(mention)
                self.mention_tokens[(mention.begin, mention.end)] = bounds
                for i in range(*bounds):
                    self.mention_at[i] = mention
        self._datelines: dict[int, int | None] = {}  # a line's start -> its dateline's end
        self.time_at: dict[int, TimeExpression] = {}
        for time in times:
            bounds = self.token_bounds(time.begin, time.end)
            for i in range(*(bounds or (0, 0))):
                self.time_at[i] = time

    def token_bounds(self, begin: int, end: int) -> tuple[int, int] | None:
        """Token bounds of the document span ``begin:end`` in this chunk."""
        span = self.doc.char_span(
            begin - self.frame.offset, end - self.frame.offset, alignment_mode="expand"
        )
        return (span.start, span.end) if span is not None and len(span) else None

    # --- offsets and evidence -------------------------------------------------------------

    def char(self, token: Token) -> int:
        """Document offset of ``token``'s first character."""
        return self.frame.offset + token.idx

    def span(self, tokens: Iterable[Token]) -> Span:
        """The document span from the first to the last of ``tokens``."""
        ordered = sorted(tokens, key=lambda t: t.i)
        begin = self.char(ordered[0])
        end = self.char(ordered[-1]) + len(ordered[-1].text)
        return Span(begin, end, self.frame.document.text[begin:end])

    def sentence(self, token: Token) -> int:
        """Global index of the sentence holding ``token``."""
        return self.frame.sentence_of_token(token.i)

    def evidence(
        self, tokens: Iterable[Token], rule: Rule, confidence: float | None = None
    ) -> Evidence:
        """Evidence from the sentences that hold ``tokens``: the rule that found the fact and
        its confidence (the rule's own unless the rule lowered it)."""
        sentences = tuple(sorted({self.sentence(t) for t in tokens}))
        return Evidence(sentences, rule.id, rule.prior if confidence is None else confidence)

    def in_dateline(self, token: Token) -> bool:
        """Whether ``token`` is in the dateline opening its line ("DETROIT (AP) -")."""
        at = self.char(token)
        text = self.frame.document.text
        line = text.rfind("\n", 0, at) + 1
        if line not in self._datelines:
            self._datelines[line] = dateline_end(text, line)
        end = self._datelines[line]
        return end is not None and at < end

    # --- mentions ------------------------------------------------------------------------

    def mention(self, token: Token) -> Mention | None:
        """The mention covering ``token``, if any."""
        return self.mention_at.get(token.i)

    def mentions_in(self, tokens: Iterable[Token]) -> list[Mention]:
        """Mentions with a token among ``tokens``, in text order, each once."""
        found = {id(m): m for t in tokens if (m := self.mention_at.get(t.i)) is not None}
        return sorted(found.values(), key=lambda m: m.begin)

    def head_token(self, mention: Mention) -> Token:
        """The syntactic head of a mention's tokens."""
        start, end = self.mention_tokens[(mention.begin, mention.end)]
        return self.doc[start:end].root

    def gender(self, mention: Mention) -> str | None:
        """ "male" or "female" when a title ("Mrs") or given name ("Kimberly") of the person, or
        of an earlier mention with the same surname, says so."""
        if kind_of(mention) is not EntityKind.PERSON:
            return None
        surname = mention.name.split()[-1]
        for other in [mention, *(m for m in self.mentions if m.kind is EntityKind.PERSON
                                 and m.name.split()[-1] == surname and m is not mention)]:
            found = name_genders(other)
            if len(found) == 1:
                return found.pop()
        return None

    def agrees(self, mention: Mention, pronoun: Token) -> bool:
        """Whether a pronoun can stand for ``mention``: "she" is not "Mr Blunkett"."""
        wanted = PRONOUN_GENDER.get(pronoun.lower_)
        return wanted is None or self.gender(mention) in {None, wanted}

    def antecedent(
        self, token: Token, kinds: frozenset[EntityKind], subjects_only: bool = False,
        outside: Sequence[Span] = (),
    ) -> Mention | None:
        """The most recent earlier mention of one of ``kinds`` that agrees with the pronoun
        ``token`` in gender, subjects first (3 sentences). A speaker's pronoun (``outside``:
        what was quoted or reported so far) is nobody named inside those words, and the
        first subject of a main clause before the subject of a clause inside it ("X was
        inspired by the impact Y had")."""
        before = [m for m in self.mentions if m.end <= self.char(token) and kind_of(m) in kinds
                  and self.agrees(m, token) and not _within(m, outside)]
        recent = [m for m in before if self.sentence(token) - m.sentence <= 3]
        subjects = [m for m in recent if self.head_token(m).dep_ in SUBJECT_DEPS]
        if outside:
            subjects = [m for m in subjects if _main_clause(self.head_token(m))] or subjects
            # the sentence's first subject is its topic ("X has been lifted by the impact Y
            # has had"), whatever the parser made of the second
            subjects = [m for m in subjects if m.sentence == subjects[-1].sentence][:1]
        found = subjects if subjects_only else subjects or recent
        return found[-1] if found else None

    def sole_named(self, head: Token, kinds: frozenset[EntityKind], skip: Iterable[Mention] = ()
                   ) -> Mention | None:
        """The one thing of ``kinds`` named in the sentence of ``head`` other than ``skip``, or
        when none is, the one named in the sentence before; ``None`` when there are none or
        several."""
        here = self.sentence(head)
        skipped = {(m.begin, m.end) for m in skip}
        for back in (0, 1):
            found = [m for m in self.mentions if here - m.sentence == back
                     and kind_of(m) in kinds and (m.begin, m.end) not in skipped]
            if found:
                return found[-1] if len(_named_things(found)) == 1 else None
        return None

    def described_person(self, head: Token) -> Mention | None:
        """The person a definite description of a post stands for: "David Blunkett has
        spoken … The home secretary described …" (the person subject of the sentence before,
        or earlier in the same one). Only "the" + a post noun opening a sentence, with no
        owner, "of" phrase or name."""
        if head.pos_ != "NOUN" or not is_title_word(head) or head.tag_ == "NNS":
            return None
        children = list(head.children)
        if not any(c.dep_ == "det" and c.lower_ == "the" for c in children) or any(
            c.dep_ in {"poss", "appos"} or c.dep_ == "prep" and c.lower_ == "of"
            or self.mention(c) is not None for c in children
        ):
            return None
        if head.left_edge.i != head.sent.start:
            return None  # only a sentence opening on it: "The home secretary described …"
        found = self.antecedent(head, frozenset({EntityKind.PERSON}), subjects_only=True)
        if found is None or self.sentence(head) - found.sentence > 1:
            return None  # the person must be the subject just before
        posts = self.posts_written_with(found)
        if posts and head.lemma_.lower() not in posts:
            return None  # "Maria Lopez, the club's chairwoman, … The minister insisted …"
        return found

    def posts_written_with(self, mention: Mention) -> set[str]:
        """The post nouns written with a person's mention: before the name ("Foreign
        Secretary Jack Straw") or in apposition to it ("Maria Lopez, the club's chairwoman")."""
        start = self.mention_tokens[(mention.begin, mention.end)][0]
        name = self.head_token(mention)
        words = list(self.doc[max(start - 3, 0):start])
        words += [t for c in name.children if c.dep_ == "appos" for t in c.subtree]
        return {t.lemma_.lower() for t in words if t.pos_ in {"NOUN", "PROPN"}
                and is_title_word(t)}

    def named_earlier(self, head: Token) -> Mention | None:
        """An earlier mention this unrecognised name repeats: the same words ("the Azov
        Regiment") or a person's surname ("Shoigu" → Sergei Shoigu)."""
        phrase = " ".join(t.text for t in noun_phrase(head))
        for mention in reversed(self.mentions):
            if mention.end > self.char(head):
                continue
            if mention.name == phrase:
                return mention
            surname = mention.name.split()[-1]
            if mention.kind is EntityKind.PERSON and surname == head.text != mention.name:
                return mention
        return None

    def recent_city(self, token: Token,
                    skip: Callable[[Mention], bool] | None = None) -> Mention | None:
        """The latest city mentioned before ``token`` (GeoNames), not counting a city that
        stands for its government ("Moscow says", "Moscow's forces"), nor one ``skip``
        leaves out."""
        for mention in reversed(self.mentions):
            if mention.begin >= self.char(token) or mention.kind is EntityKind.PERSON:
                continue
            if not is_city(mention.name) or skip is not None and skip(mention):
                continue
            if not self._stands_for_government(mention):
                return mention
        return None

    def _stands_for_government(self, mention: Mention) -> bool:
        """ "Moscow says", "Moscow's forces", "Moscow-backed": a city as its government (never
        a dateline's: "MOSCOW (Reuters) - …")."""
        head = self.head_token(mention)
        if self.in_dateline(head):
            return False
        if head.dep_ == "nsubj" and head.head.lemma_.lower() in SPEECH_VERBS:
            return True
        return is_capital(mention.name) and head.dep_ in METONYM_DEPS

    # --- parties -------------------------------------------------------------------------

    def entity_party(self, mention: Mention, token: Token | None = None) -> Party:
        """A party for ``mention``, written as ``token`` when that is where it appears."""
        if token is None or self.mention(token) is mention:
            return Party(PartyKind.ENTITY, mention.text, mention.begin, mention.end,
                         (mention.begin, mention.end))
        span = self.span([token])
        return Party(PartyKind.ENTITY, span.text, span.begin, span.end,
                     (mention.begin, mention.end))

    def country_party(self, token: Token, country: Country) -> Party:
        """A party for a demonym or country name standing for ``country``."""
        span = self.span([token])
        return Party(PartyKind.COUNTRY, span.text, span.begin, span.end, None, country)

    def party(
        self, head: Token, speaker_hint: Party | None = None, said: Span | None = None,
        outside: Sequence[Span] = (),
    ) -> Party | None:
        """The party the noun phrase headed by ``head`` denotes, if any (a speaker's pronoun:
        never someone named ``outside``, in what was quoted). A dateline's words ("DETROIT
        (AP) - …") are nobody's in the sentence they open."""
        if self.in_dateline(head):  # the parser may hang the real subject on the dateline
            after = [c for c in head.subtree if not self.in_dateline(c) and self.in_dateline(
                c.head) and c.dep_ in {"appos", "dep"} and c.pos_ in {"NOUN", "PROPN"}]
            return self.party(after[0], speaker_hint, said, outside) if after else None
        lower = head.lower_
        if lower in RELATIVE_PRONOUNS and head.head.dep_ == "relcl":
            return self.party(head.head.head, speaker_hint)
        if (mention := self.mention(head)) is not None:
            return self.entity_party(mention)
        if head.dep_ == "appos" and (named := self.mention(head.head)) is not None:
            return self.entity_party(named)  # "Crimea, the peninsula …"
        for child in head.children:  # "the Kremlin spokesman, Dmitry Peskov", "the studio MGM"
            if child.dep_ == "appos" and (named := self.mention(child)) is not None:
                return self.entity_party(named)
        if head.pos_ == "PRON":
            return self.pronoun_party(head, speaker_hint, said, outside)
        if head.pos_ == "PROPN" and (earlier := self.named_earlier(head)) is not None:
            return self.entity_party(earlier, head)
        if (described := self.described_person(head)) is not None:
            return self.entity_party(described, head)
        if head.pos_ in {"NOUN", "PROPN"}:
            return self.group_party(head)
        return None

    def pronoun_party(
        self, head: Token, hint: Party | None, said: Span | None = None,
        outside: Sequence[Span] = (),
    ) -> Party | None:
        """Who a personal pronoun stands for: the last speaker (``hint``; names inside what
        they said, ``said``, do not come between), or the last fitting subject; "they" after
        a described group that spoke ("experts warned. They say …") is that group."""
        lower = head.lower_
        if lower in GROUP_PRONOUNS and hint is not None and hint.kind is PartyKind.GROUP:
            return hint
        if lower in PERSON_PRONOUNS:
            kinds = frozenset({EntityKind.PERSON})
        elif lower in THING_PRONOUNS | GROUP_PRONOUNS:
            kinds = frozenset({EntityKind.ORGANIZATION, EntityKind.PLACE})
        else:
            return None
        if hint is not None and hint.mention is not None:
            hinted = self.mention_by_offsets(hint.mention)
            if hinted is not None and kind_of(hinted) in kinds and self.agrees(hinted, head) and (
                not self._intervening(hint, head, kinds, said, outside)
            ):
                return self.entity_party(hinted, head)
        found = self.antecedent(head, kinds, outside=outside)
        if found is None:
            return None
        if lower in GROUP_PRONOUNS and (group := self._group_named_by(found)) is not None:
            return group
        return self.entity_party(found, head)

    def _group_named_by(self, mention: Mention) -> Party | None:
        """The group a name qualifies as the subject of its clause: "West Yorkshire police
        confirmed they …", "Chelsea fans said they …": "they" are the police, the fans —
        not the county or the club."""
        name = self.head_token(mention)
        noun = name.head
        if name.dep_ not in {"compound", "amod", "poss"} or noun.pos_ != "NOUN" \
                or noun.dep_ not in SUBJECT_DEPS or self.mention(noun) is not None:
            return None
        return self.group_party(noun)

    def _intervening(
        self, hint: Party, head: Token, kinds: frozenset[EntityKind], said: Span | None = None,
        outside: Sequence[Span] = (),
    ) -> bool:
        """Whether someone else of ``kinds`` that agrees with ``head`` is named between the
        last speaker and ``head``, outside what the speaker said."""
        hinted = self.mention_by_offsets(hint.mention) if hint.mention else None
        name = hinted.name if hinted else None
        return any(
            hint.end <= m.begin and m.end <= self.char(head) and kind_of(m) in kinds
            and m.name != name and not (name and m.name in name) and self.agrees(m, head)
            and not (said is not None and said.begin <= m.begin and m.end <= said.end)
            and not _within(m, outside)
            for m in self.mentions
        )

    def mention_by_offsets(self, offsets: tuple[int, int]) -> Mention | None:
        """The mention at ``offsets`` in this chunk."""
        for mention in self.mentions:
            if (mention.begin, mention.end) == offsets:
                return mention
        return None

    def place_named(self, noun: Token) -> Mention | None:
        """The place "the city of X" names (whatever class the model gave X)."""
        if noun.lemma_ not in PLACE_NOUNS:
            return None
        for prep in (c for c in noun.rights if c.dep_ == "prep" and c.lower_ == "of"):
            for obj in (o for o in prep.children if o.dep_ == "pobj"):
                if (mention := self.mention(obj)) is not None:
                    return mention
        return None

    def group_party(self, head: Token) -> Party | None:
        """A described group ("Ukrainian officials"), with its country when a demonym says."""
        tokens = noun_phrase(head)
        if not tokens:
            return None
        if (named := self.place_named(head)) is not None:
            return self.entity_party(named)
        if head.lower_ in CITY_NOUNS and (city := self.recent_city(head)) is not None:
            return self.entity_party(city, head)
        whole = " ".join(t.text for t in tokens)
        if (country := country_named(whole)) is not None:
            return self.country_party(head, country)
        country = next((c for t in tokens if (c := _country_word(t)) is not None), None)
        span = self.span(tokens)
        return Party(PartyKind.GROUP, fold_space(span.text), span.begin, span.end, None, country)


def kind_of(mention: Mention) -> EntityKind:
    """A mention's class for pronouns: a person when a title opens its name ("Mr Cable",
    whatever the tagger called it), else the tagger's."""
    first = mention.text.split()[0].lower().strip(".") if mention.text.split() else ""
    return EntityKind.PERSON if first in PERSON_TITLES else mention.kind


def _named_things(mentions: Sequence[Mention]) -> set[str]:
    """The distinct things ``mentions`` name: a person by surname ("Mr Kilroy-Silk",
    "Kilroy-Silk"), anything else by its name, a name inside another counting as it ("Lenovo",
    "Lenovo Group")."""
    names = {(m.name.split()[-1] if kind_of(m) is EntityKind.PERSON else m.name).lower()
             for m in mentions if m.name.split()}
    return {n for n in names if not any(n != o and f" {n} " in f" {o} " for o in names)}


def _within(mention: Mention, spans: Sequence[Span]) -> bool:
    return any(s.begin <= mention.begin and mention.end <= s.end for s in spans)


def _main_clause(subject: Token) -> bool:
    """Whether ``subject`` is the subject of the sentence's main verb (or a verb joined to it),
    not of a clause inside it."""
    verb = subject.head
    while verb.dep_ == "conj":
        verb = verb.head
    return verb.dep_ == "ROOT"


def noun_phrase(head: Token) -> list[Token]:
    """The words of the noun phrase headed by ``head``: its left dependents and ``head``,
    plus a directly following "of"/"in" phrase up to a comma; without a leading determiner or
    punctuation."""
    doc, start = head.doc, head.i
    while start > head.left_edge.i and not _breaks_phrase(doc[start - 1]):
        start -= 1
    tokens = list(doc[start : head.i + 1])
    rights = list(head.rights)
    if rights and rights[0].dep_ == "prep" and rights[0].i == head.i + 1:
        if rights[0].lower_ in PHRASE_PREPOSITIONS:  # up to a comma: "seats, where …"
            phrase = list(rights[0].subtree)
            tokens += next((phrase[:n] for n, t in enumerate(phrase) if _breaks_phrase(t)),
                           phrase)
    tokens = tokens[-MAX_GROUP_TOKENS:]
    while tokens and (tokens[0].is_punct or tokens[0].lower_ in PHRASE_DETERMINERS):
        tokens.pop(0)
    while tokens and tokens[-1].is_punct:
        tokens.pop()
    return tokens


def _breaks_phrase(token: Token) -> bool:
    """Punctuation that ends a noun phrase on the left (not the hyphen of "last-ditch")."""
    attached_hyphen = token.text == "-" and not token.whitespace_
    return token.is_punct and not attached_hyphen or token.is_space


def _country_word(token: Token) -> Country | None:
    """The country a word names as a demonym ("Ukrainian") or by name ("U.S")."""
    return country_of_demonym(token.text) or country_named(token.text)
