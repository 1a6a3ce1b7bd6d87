"""Claims: reported speech with its speaker, cue and the text of what was said.

    indirect      a speech verb's clausal complement: "Pushilin said 200,000 remained";
                  an accusation: "Kyiv accuses Moscow of deporting residents"
    direct        a quotation with a speech verb beside it: '"…," he said'; a quotation
                  opening a sentence right after another one, with no cue of its own,
                  continues the previous speaker's words (news style)
    according-to  "…, according to the official": the rest of the sentence
    nominal       "Russia's claims that …": a claim noun with a "that" clause

Speakers are noun phrases: a mention, a pronoun (he/she → the previous speaker if a person,
else the latest person subject; it/they → the same for organisations and places; "it" never a
country or a city), a bare surname of an earlier person (the one full name ending in it), a
post alone ("the mayor said": the one person named with that post), or a described group
("Ukrainian officials") that can speak (not "his determination", "the current system").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING

from kg.extract.entities import fold_space, is_title_word, strip_leading_titles
from kg.extract.frame import doc_text
from kg.extract.rules.context import (
    DEMONSTRATIVES,
    RELATIVE_PRONOUNS,
    THING_PRONOUNS,
    FactContext,
    kind_of,
    noun_phrase,
)
from kg.extract.rules.event_senses import subjects
from kg.extract.rules.figures import clause_tokens
from kg.extract.rules.places import country_named, is_city
from kg.extract.rules.registry import rule
from kg.extract.rules.times import pinned
from kg.heuristics import applies, declare, found
from kg.lexicon import table, word_list
from kg.lexicon.fact_words import (
    ACCUSE_VERBS,
    CLAIM_NOUNS,
    EPISTEMIC_VERBS,
    OCCUPATIONS,
    SPEECH_VERBS,
)
from kg.lexicon.words import DASHES, QUOTE_PAIRS, TRIM_MARKS
from kg.model import (
    Claim,
    ClaimKind,
    EntityKind,
    Mention,
    Party,
    PartyKind,
    Span,
    TimeExpression,
)

if TYPE_CHECKING:
    from spacy.tokens import Token

OPENING = QUOTE_PAIRS
CLOSING = frozenset(QUOTE_PAIRS.values())
MIN_QUOTE_WORDS = 3
CONTINUATION_GAP = 2  # sentences between a quotation and the one it continues
TRIM = TRIM_MARKS
#: Confidence lost when the speaker is a pronoun or a bare surname.
INDIRECT_SPEAKER = 0.15
#: Words that open a contrasting clause ("X said …, while Y denied …").
CONTRASTING = frozenset(table("grammar-words")["contrasting"])
#: Who speaks for a body: the claim is the body's ("a spokesman for the ministry said").
SPOKESPERSONS = frozenset(table("grammar-words")["spokespersons"])
#: Speech verbs whose object is whom they were said to ("told the BBC …").
ADDRESSEE_VERBS = frozenset(table("grammar-words")["addressee_verbs"])
#: A reporter's verbs giving another's words "as saying": the one quoted speaks.
QUOTING_VERBS = frozenset(table("grammar-words")["quoting_verbs"])
#: Nouns a relative clause describes with no gap in it ("the day he said he would quit").
ADVERBIAL_RELATIVES = frozenset(table("grammar-words")["adverbial_relatives"])
#: Past forms of the modals: a clause under one is reported after a past cue ("said it would").
PAST_MODALS = frozenset(table("grammar-words")["past_modals"])
#: A share's nouns ("80 percent", "40%"): with no "of" phrase, no speaker.
SHARE_WORDS = frozenset(table("grammar-words")["share_words"])
#: Head nouns of what cannot speak ("his determination suggests", "the current system is").
NON_SPEAKERS = word_list("non-speaker-nouns")
OTHER_OFFICE = word_list("other-office-modifiers")

NOT_A_SPEAKER = declare(
    "claim.not-a-speaker", "facts.claim",
    reads="the head noun of a claim's described (unnamed) speaker",
    writes="drops the claim",
    description="A speaker must be able to speak: a described speaker whose head noun is a "
                "quality, a happening, an arrangement or a claim itself (data list "
                "non-speaker-nouns) is no speaker: the writer reasons, or the parser took what "
                "was spoken about for who spoke, and the claim is dropped.",
    example="His quiet determination suggests he is in no mood to lose.").id
IT_NO_PLACE = declare(
    "claim.it-no-place", "facts.claim",
    reads="the antecedent of a speaker's \"it\"",
    writes="drops the claim",
    description="A speaker's \"it\" stands for an organisation or a document, never for a "
                "country or a city: those speak only by their own name (\"Britain says\"); "
                "when the nearest antecedent is one, the speaker is unknown and the claim is "
                "dropped.",
    example="The book was published in Britain on Monday. It claims the two men fell out.").id

RELATIVE_GAP = declare(
    "claim.relative-gap", "facts.claim",
    reads="a speech verb heading a relative clause and its subject",
    writes="drops the claim",
    description="A speech verb inside a relative clause whose subject is not the relative "
                "word (\"regulations that they say are unlawful\", \"what he said were its "
                "achievements\", \"a target he says he has met\"): what was said has its gap "
                "filled by the noun outside the clause, so no span of the sentence is the "
                "claim, and the claim is dropped.",
    example="The groups sued to halt regulations that they say are inconsistent with the "
            "act.").id
SECOND_ACT = declare(
    "claim.second-act", "facts.claim",
    reads="a verb joined to the said clause's verb, its subject and form",
    writes="Claim.text (ends before the joined verb)",
    description="A verb joined to what was said with no subject of its own and the speech "
                "verb's own form, where the said clause's verb is a modal's (\"said he would "
                "not respond and promised to …\", \"stressing X should not … and attacking "
                "…\"), is the speaker's next act, not part of what was said: the text ends "
                "before its \"and\"/\"but\".",
    example="Mr Blair said he would not respond to gossip and promised to hail Labour's "
            "record.").id
QUOTE_REOPENED = declare(
    "claim.quote-reopened", "facts.claim",
    reads="the sides of a straight quotation mark and the words before it",
    writes="the quotations of a chunk (what a direct claim's words are)",
    description="A straight quotation mark faces the way its spaces say: one opening a "
                "sentence while a quotation is open starts the next quotation, its closer lost "
                "(news copy whose paragraph breaks were dropped: '\"… no choice. \"Now we go "
                "home,\" he said'); one opening mid-sentence nests ('the \"Father of the "
                "House\" and …') — instead of closing the open quotation and pairing every "
                "later mark the wrong way round.",
    example="\"We had no choice. \"Now we go home and rest,\" the coach said.").id
QUOTE_TAKEN = declare(
    "claim.quote-taken", "facts.claim",
    reads="the quotation around a speech verb's clause, and whether it is a claim already",
    writes="drops the claim",
    description="A cue after the last sentence of a quotation that opened sentences before "
                "('\"They did well. The back row was superb,\" he added'): the quotation is "
                "already a claim, continuing the last speaker's words, so the clause the cue "
                "takes is no second, indirect claim of the same words.",
    example="Coach Anna Berg was pleased. \"We have won the match today,\" she said. \"They "
            "did well. The back row was superb,\" she added.").id
FRONTED_PARTICIPLE = declare(
    "claim.fronted-participle", "facts.claim",
    reads="a speech participle opening a sentence and the speech verb it hangs on",
    writes="drops the participle's claim (the main verb's stays)",
    description="A speech participle with no subject of its own before the speech verb it "
                "modifies (\"Announcing the plans, Mr Redwood said: '…'\", \"Responding to "
                "the critics, Ms Pugh said …\") is no cue of its own: the sentence's words "
                "are the main verb's, with its cue.",
    example="Announcing the plans, Mr Redwood said: \"Labour has forgotten the taxpayers "
            "of this country.\"").id
NAME_END = declare(
    "claim.name-end", "facts.claim",
    reads="the phrase after a named speaker's name",
    writes="Party.text of the speaker (ends at the name)",
    description="A named speaker's words stop at the name and its title: a phrase after it "
                "that names nothing (\"said Arts minister Estelle Morris of the findings\", "
                "\"… at a London press conference\") is about the saying, not the speaker; a "
                "body named after the name stays (\"Rick McGuire of the Alpine Lakes "
                "Protection Society\").",
    example="\"The plan will work,\" said Health minister Anna Berg of the findings.").id
SURNAME_PERSON = declare(
    "claim.surname-person", "facts.claim",
    reads="a speaker named by one word and the people the chunk named before it",
    writes="Claim.speaker (the earlier full name)",
    description="A speaker given by a surname alone (\"Smith said\") is the person named "
                "earlier in the chunk with that surname when exactly one is (a description "
                "the tagger took into a name, \"Singer Knight\", is no other person); with "
                "none or several, the resolver decides, as before — dropping the claim lost "
                "right claims on the tune half and on unseen articles.",
    example="Coach Anna Berg was pleased. \"We played well,\" Berg said.").id
DESCRIBED_SUBJECT = declare(
    "claim.described-subject", "facts.claim",
    reads="a speaker that is \"the\" and a post (\"the mayor said\") and the posts written "
          "with the people named before it",
    writes="Claim.speaker (the person named with that post)",
    description="A speaker described by a post alone (\"the mayor said\", \"said the "
                "governor\") is the person the chunk named earlier with that post (\"Athens "
                "Mayor Nikitas Kaklamanis\"), when exactly one person was — not one with another "
                "office of that name (\"shadow chancellor\", \"deputy mayor\").",
    example="Athens Mayor Nikitas Kaklamanis visited the square. \"People came up to me,\" "
            "the mayor said.").id
JOINED_CLAUSE = declare(
    "claim.joined-clause", "facts.claim",
    reads="a clause with its own subject joined by \"and\"/\"but\" to the speech verb",
    writes="Claim.text (runs on to the joined clause's end)",
    description="A clause with a subject of its own, joined by \"and\" or \"but\" after "
                "what was said and no speech verb itself, which the parser hung on the speech "
                "verb (\"said the bill would target X, but ministers had been complacent\") "
                "is the rest of what was said: the text runs on to its end.",
    example="Mr Cable said the bill would target loan sharks, but ministers had been "
            "complacent about debt.").id
REPORT_TIME = declare(
    "claim.report-time", "facts.claim",
    reads="the words between the speech verb and the said clause",
    writes="Claim.text (starts after the time)",
    description="When the speaker spoke (\"said on Thursday they had arrested …\", \"said "
                "on Friday it expected …\"), written between the speech verb and what was "
                "said and hung by the parser on the said clause, is not what was said: the "
                "text starts after it.",
    example="Dock police said on Thursday they had arrested three men at the port.").id
QUOTED_AS_SAYING = declare(
    "claim.quoted-as-saying", "facts.claim",
    reads="a speech participle after \"as\" on a quoting verb (\"quoted X as saying\"), "
          "that verb's object or passive subject",
    writes="Claim.speaker (the one quoted, not the one quoting)",
    description="\"A quoted B as saying …\" (\"Russian news agencies quoted the Kremlin "
                "spokesman as saying\", '\"…,\" the agency quoted the minister as saying'): "
                "the words are B's, whom the reporter A quotes — B is the speaker, not A, "
                "whom the participle's subject would otherwise be taken from; in the passive "
                "(\"B was quoted as saying\") B is the subject (data list grammar-words, "
                "quoting_verbs).",
    example="Russian news agencies quoted the Kremlin spokesman as saying that the minister "
            "had not asked for a meeting.").id
OWN_CUE = declare(
    "claim.own-cue", "facts.claim",
    reads="a speech verb written at a quotation's marks (\"X said : \"…\"\", '…,\" said X') "
          "and its subject",
    writes="which cue a quotation is the claim of",
    description="A quotation whose own cue is written at its marks — a speech verb and a "
                "colon right before it (\"Professor X demurred, saying :\"), or a speech verb "
                "right after its closing mark ('…, \" said Tamas Erdei') — with a subject "
                "that is no pronoun, is that speaker's: not the previous speaker's words "
                "continued (when the quotation opens a line of its own), not another cue's "
                "nearer in the sentence (\"when T&N predicted …, Hope said : \"…\"\"), and "
                "still the claim when it crosses a line break; a quotation after it must open "
                "a line or a sentence (not 'had \"a bearish impact,\" one trader said') and not "
                "end one ('… market . \"⏎Roe said he …'). A quotation reopened at the end of "
                "that cue's line ('…, \" Foster said . \"⏎Also, …') continues it.",
    example="Analyst Anna Berg said sales were weak.\n\"The figures will be ...\nbelow the "
            "plan , \" said Peter Nagy , an analyst for ING .").id

INDIRECT = rule(
    "claim.indirect", "Claim", 0.85,
    "A speech verb's clause (\"X said (that) ...\"), or an accusation (\"X accuses Y of ...\").",
    "Gordon Brown said the economy would grow by 3% this year.",
)
DIRECT = rule(
    "claim.direct", "Claim", 0.9,
    "A quotation with a speech verb beside it.",
    "\"We will not give up the fight,\" Tony Blair said on Sunday.",
)
ACCORDING_TO = rule(
    "claim.according-to", "Claim", 0.75,
    "\"..., according to X\": X claims the rest of the sentence.",
    "Sales fell sharply last year, according to the Bank of England.",
)
NOMINAL = rule(
    "claim.nominal", "Claim", 0.75,
    "A claim noun with a \"that\" clause: \"Russia's claims that ...\".",
    "Labour rejected the Conservatives' claims that taxes would rise.",
)
CONTINUED_QUOTE = rule(
    "claim.continued-quote", "Claim", 0.6,
    "A quotation opening a sentence with no cue continues the previous speaker's words.",
    "\"We will win this,\" Tony Blair said. \"Our plans are working and the voters know it.\"",
)
PRONOUN_NOT_NAMED = declare(
    "claim.pronoun-not-named", "facts.claim",
    reads="the antecedent of a speaker's pronoun and the names in what it is said to say",
    writes="Claim.speaker (the next antecedent), or drops the claim",
    description="A speaker's pronoun is nobody its own words name (\"It said the KDP was "
                "responsible\", \"he insisted he still trusted Mr Blair\"): when the "
                "antecedent found for it is named — by the same name or its last words — in "
                "the said clause or the quotation, it is the next antecedent other than that "
                "one; with none, the speaker is unknown and the claim is dropped — but for "
                "\"it\", which keeps its antecedent: a body names itself in its statements "
                "(\"The BPI believes …, it said\").",
    example="Gordon Brown spoke to reporters after Tony Blair left for Africa. But before "
            "doing so, he insisted he still trusted Mr Blair.").id
SHARE_NO_SPEAKER = declare(
    "claim.share-no-speaker", "facts.claim",
    reads="a speaker that is a number or a share (\"80 percent\", \"40%\") and its "
          "\"of\" phrase",
    writes="drops the claim",
    description="A share or a bare number with no \"of\" naming whose it is (\"80 percent "
                "said\", \"with 40% saying\") is no speaker: the poll's respondents spoke, "
                "and the sentence does not name them; \"18% of all searchers say\" keeps "
                "its speaker (data list grammar-words, share_words).",
    example="But 80 percent said the rebels had shown little interest in peace.").id

CLAIM_RULES = {
    ClaimKind.INDIRECT: INDIRECT, ClaimKind.DIRECT: DIRECT,
    ClaimKind.ACCORDING_TO: ACCORDING_TO, ClaimKind.NOMINAL: NOMINAL,
}


@dataclass
class Quote:
    """A quotation in the chunk (document offsets of the words between the marks)."""

    begin: int
    end: int
    used: bool = False


def quotations(text: str, offset: int) -> list[Quote]:
    """Quotations in ``text``: curly, straight or ``tokenised'' double quotes; one left open at
    the end of a paragraph ends there (the next paragraph reopens it). A straight mark opens
    or closes by its sides (``claim.quote-reopened``): one opening after a sentence's end while
    a quotation is open starts the next one (news copy whose paragraph breaks were lost keeps
    the reopening mark and drops the closing one); one opening inside a sentence nests.

    >>> [(q.begin, q.end) for q in quotations('He said "we will go home now" today.', 0)]
    [(9, 28)]
    >>> [(q.begin, q.end) for q in quotations("He said `` we will go home '' today .", 0)]
    [(10, 27)]
    >>> t = '"We had no choice. "Now we go home," he said.'
    >>> [t[q.begin : q.end] for q in quotations(t, 0)]
    ['We had no choice.', 'Now we go home,']
    >>> t = 'He said "we will all go home\\n\\nand then “we rest and eat” today.'
    >>> [t[q.begin : q.end] for q in quotations(t, 0)]  # the break ends the first
    ['we will all go home', 'we rest and eat']
    """
    found: list[Quote] = []
    stack: list[tuple[int, str]] = []  # the open quotations: where each began, its closer
    i = 0
    while i < len(text):
        stop = _QUOTE_STOP.search(text, i)  # only a mark or a paragraph break does anything
        if stop is None:
            break
        i = stop.start()
        if stack and text.startswith("\n\n", i):
            found.append(Quote(offset + stack[0][0], offset + i))
            stack, i = [], i + 1
            continue
        mark = _opening_at(text, i)
        closes = bool(stack) and text.startswith(stack[-1][1], i)
        side = _side(text, i, mark or stack[-1][1]) if mark is not None or closes else None
        if closes and (side != "open" or mark != stack[-1][1] or not applies(
                QUOTE_REOPENED, lambda: True)):
            begin, closer = stack.pop()
            if not stack:
                found.append(Quote(offset + begin, offset + i))
            i += len(closer)
            continue
        if mark is not None and (not stack or mark == stack[-1][1] and side == "open"):
            if stack and _after_sentence(text, i):
                end = len(text[:i].rstrip())  # its closer was lost
                found.append(Quote(offset + stack[0][0], offset + end))
                stack = []
            stack.append((i + len(mark), OPENING[mark]))
            i += len(mark)
            continue
        i += 1
    if stack:
        found.append(Quote(offset + stack[0][0], offset + len(text)))
    return [q for q in found
            if len(text[q.begin - offset : q.end - offset].split()) >= MIN_QUOTE_WORDS]


def _side(text: str, i: int, mark: str) -> str | None:
    """Which way a mark faces when the same mark opens and closes: "open" with a space (or
    the text's start) before it and a word after, "close" the other way round; else None."""
    if OPENING.get(mark) != mark:
        return None
    before = text[i - 1] if i > 0 else " "
    after = text[i + len(mark)] if i + len(mark) < len(text) else " "
    if (before.isspace() or before in "([") and not after.isspace():
        return "open"
    if not before.isspace() and (after.isspace() or not after.isalnum()):
        return "close"
    return None


def _after_sentence(text: str, i: int) -> bool:
    """Whether the mark at ``i`` follows a sentence's end ("… no choice. "Now …")."""
    before = text[max(0, i - 4) : i].rstrip()
    return bool(before) and before[-1] in ".!?" and i > len(text[:i].rstrip())


#: Opening marks, the longest first ("``" before a lone "`" could ever be one).
_OPENERS = sorted(OPENING, key=len, reverse=True)


#: Where :func:`quotations` has something to decide: a mark that opens or closes, or a
#: paragraph break. Every other character only moves the scan on, so it jumps between these.
_QUOTE_STOP = re.compile("|".join(
    re.escape(m) for m in sorted({*OPENING, *OPENING.values(), "\n\n"}, key=len, reverse=True)))


def _opening_at(text: str, i: int) -> str | None:
    return next((mark for mark in _OPENERS if text.startswith(mark, i)), None)


class ClaimReader:
    """Reads a chunk's claims in text order, remembering the last speaker for pronouns."""

    def __init__(self, ctx: FactContext) -> None:
        self.ctx = ctx
        self.quotes = quotations(doc_text(ctx.doc), ctx.frame.offset)
        self.last: Claim | None = None
        #: The last claim: whom a pronoun speaker stands for.
        self.reporter: Claim | None = None
        #: What was claimed so far: nobody named inside it is a pronoun's speaker.
        self.said: list[Span] = []
        #: The last claim made by a quotation's own cue, and where that cue is.
        self.own_said: tuple[Claim, int] | None = None
        #: Each quotation's own cue (``claim.own-cue``), looked for once.
        self.own_cues: dict[tuple[int, int], Token | None] = {}

    def claims(self) -> list[Claim]:
        """Every claim of the chunk, in text order."""
        found: list[Claim] = []
        for sent in self.ctx.doc.sents:
            for claim in self._sentence_claims(sent.start, sent.end):
                found.append(claim)
                self.reporter = claim
                self.last = claim
                self.said.append(claim.content)
        return found

    def _sentence_claims(self, start: int, end: int) -> Iterator[Claim]:
        tokens = list(self.ctx.doc[start:end])
        for token in tokens:
            if _is_cue(token):
                if not _in_name(self.ctx, token):
                    yield from self.speech(token)
            elif token.pos_ == "VERB" and token.lemma_.lower() in ACCUSE_VERBS:
                yield from self.accusation(token)
            elif token.lower_ == "according":
                yield from self.according_to(token, tokens)
            elif token.pos_ == "NOUN" and token.lemma_.lower() in CLAIM_NOUNS:
                yield from self.nominal(token)
        yield from self.continued(tokens)

    # --- rules ---------------------------------------------------------------------------

    def speech(self, verb: Token) -> Iterator[Claim]:
        """ "X said (that) …" and '"…," X said'."""
        if any(c.dep_ == "neg" for c in verb.children):
            return
        if applies(RELATIVE_GAP, lambda: _relative_gap(verb)):
            return
        if applies(FRONTED_PARTICIPLE, lambda: _fronted_participle(verb)):
            return
        if verb.tag_ == "VBG" and verb.dep_ in {"ccomp", "xcomp", "oprd"} and not any(
            c.dep_ in {"aux", "auxpass"} for c in verb.children
        ):
            return  # "had many critics thinking …", "left fans wondering …": no statement
        infinitive = any(c.dep_ == "aux" and c.tag_ == "TO" for c in verb.children)
        speakers = [s for s in subjects(_adding_to(verb)) if s.dep_ == "nsubj"  # "prompted X
                    or s.dep_ == "dobj" and verb.dep_ == "xcomp" and infinitive]  # to say"
        quoted = found(QUOTED_AS_SAYING, lambda: _quoted_as_saying(verb) or None)
        if quoted:
            speakers = quoted
        speakers, stray = _inverted(verb, speakers)
        quote = self._quote_near(verb)
        spoken = [Span(quote.begin, quote.end, "")] if quote is not None else []
        own_words = [*spoken, *(self.ctx.span(list(c.subtree)) for c in verb.children
                                if c.dep_ in {"ccomp", "parataxis"})]
        speaker = self._speaker(speakers[0], spoken, own_words) if speakers else None
        if speaker is None or self._quoted_pronoun(verb, speakers[0]):
            return
        complements = [c for c in verb.children if c.dep_ in {"ccomp", "parataxis"}]
        if any(_relative(c) for c in complements):
            return  # "masks, that were popular", "which critics claim would …": no statement
        if not complements:  # "said the scheme aimed to …", parsed as an object with a clause
            complements = [o for o in verb.children if o.dep_ == "dobj" and any(
                c.dep_ in {"acl", "relcl"} and c.pos_ == "VERB" and not _relative(c)
                for c in o.children)]
        if complements and _wh_clause(complements[0]):
            return  # "explained why he paused", "asked whether …": what about, not what was said
        if complements:
            clause = _clause_of(verb, complements)
            subject = found(STRAY_SUBJECT, lambda: _stray_subject(verb, clause) or None)
            if subject:
                clause = [*subject, *clause]
            act = found(SECOND_ACT, lambda: _second_act(verb, clause) or None)
            if act:
                acted = {t.i for t in act}
                clause = [t for t in clause if t.i not in acted]
            content = self._trimmed(sorted([*stray, *clause]), verb)
        else:
            content = None
        if content is None and verb.dep_ == "parataxis":  # "X seized Y, the UN said, as …"
            inserted = {t.i for t in verb.subtree} - {t.i for t in stray}
            clause = [t for t in clause_tokens(verb.head) if t.i not in inserted]
            content = self._trimmed(sorted({*clause, *stray, *_infinitives(verb.head)},
                                           key=lambda t: t.i), verb)
        own = quote is not None and _same(self._own_cue(quote), verb)
        if quote is not None and (own or content is None and not complements
                                  or content is not None and self._quoted(content)):
            quote.used = True  # '"…," he said': the words are the quotation
            content, kind = self._quote_span(quote), ClaimKind.DIRECT
        elif content is not None and applies(QUOTE_TAKEN, lambda: any(
                q.used and _inside(content, q) for q in self.quotes)):
            return  # the quotation these words close is already a claim (continued)
        elif content is not None:
            for q in self.quotes:
                q.used = q.used or _inside(Span(q.begin, q.end, ""), content)
            kind = ClaimKind.INDIRECT
        else:
            return
        claim = self._claim(speaker, verb.lemma_.lower(), kind, content, verb)
        if own:
            self.own_said = (claim, self.ctx.char(verb))
        yield claim

    def _quoted_pronoun(self, verb: Token, subject: Token) -> bool:
        """A speech verb inside a quotation with a pronoun subject ('"… and he told me …"'):
        reported by the quoted speaker, it is not the quoted speaker's own claim."""
        if subject.pos_ != "PRON":
            return False
        sent = verb.sent
        begin, end = self.ctx.char(sent[0]), self.ctx.char(sent[-1]) + len(sent[-1].text)
        at = self.ctx.char(verb)  # a quotation opened and closed in this sentence, around it
        return any(begin < q.begin <= at < q.end < end for q in self.quotes)

    def _quoted(self, content: Span) -> bool:
        """Whether ``content`` lies inside a quotation (then the quotation is the claim)."""
        return any(_inside(content, q) for q in self.quotes)

    def accusation(self, verb: Token) -> Iterator[Claim]:
        """ "Kyiv accuses Moscow of deporting residents": whom, and of what."""
        speakers = [s for s in subjects(verb) if s.dep_ == "nsubj"]
        accused = [c for c in verb.children if c.dep_ == "dobj"]
        charges = [c for c in verb.children if c.dep_ == "prep" and c.lower_ in {"of", "for"}]
        speaker = self._speaker(speakers[0]) if speakers else None
        if speaker is None or not accused or not charges:
            return
        target = self.ctx.party(accused[0])
        if target is not None and target.mention is not None and target.mention == (
            speaker.mention
        ):
            return  # "fighting two lawsuits, one accusing it of …": nobody accuses itself
        content = self._trimmed([*accused[0].subtree, *charges[0].subtree], verb)
        if content is not None:
            yield self._claim(speaker, verb.lemma_.lower(), ClaimKind.INDIRECT, content, verb)

    def according_to(self, token: Token, sentence: list[Token]) -> Iterator[Claim]:
        """ "…, according to X": X claims the rest of the sentence."""
        objects = [o for p in token.children if p.lower_ == "to" for o in p.children
                   if o.dep_ == "pobj"]
        opening = token.i == token.sent.start or token.nbor(-1).is_punct
        speaker = self._speaker(objects[0]) if objects and opening else None
        if speaker is None:
            return  # "dealt with according to the law": a manner, not a source
        excluded = {t.i for t in token.subtree}
        before = [t for t in sentence if t.i < min(excluded)]
        after = [t for t in sentence if t.i > max(excluded)]
        # "X happened, according to Y, despite …": the clause before, never the phrase inside
        if before and before[0].pos_ == "SCONJ":
            return  # "Although X grew, according to Y, Z …": whose claim is which is unclear
        rest = before if any(t.pos_ in {"VERB", "AUX"} for t in before) else after
        content = self._trimmed(rest, token)
        if content is not None:
            yield self._claim(speaker, "according to", ClaimKind.ACCORDING_TO, content, token)

    def nominal(self, noun: Token) -> Iterator[Claim]:
        """ "Russia's claims that its military has liberated …"."""
        owners = [c for c in noun.children if c.dep_ == "poss"]
        clauses = [c for c in noun.children if c.dep_ in {"acl", "ccomp"}
                   and any(m.dep_ == "mark" and m.lower_ == "that" for m in c.children)]
        speaker = self._speaker(owners[0]) if owners else None
        if speaker is None or not clauses:
            return
        content = self._trimmed(list(clauses[0].subtree), noun)
        if content is not None:
            yield self._claim(speaker, noun.lemma_.lower(), ClaimKind.NOMINAL, content, noun)

    def continued(self, sentence: list[Token]) -> Iterator[Claim]:
        """A quotation opening this sentence, with no cue, continues the previous quotation."""
        ctx, last = self.ctx, self.last
        if last is None or last.kind is not ClaimKind.DIRECT:
            return
        begin = ctx.char(sentence[0])
        end = ctx.char(sentence[-1]) + len(sentence[-1].text)
        text = ctx.frame.document.text
        for quote in self.quotes:
            if quote.used or self._own_cue(quote) is not None:
                continue
            opens_paragraph = "\n" in text[max(0, quote.begin - 3) : quote.begin - 1]
            if not (begin <= quote.begin <= begin + 2 or begin < quote.begin < end and (
                    opens_paragraph or applies(  # '…," Foster said . "⏎Also, …'
                        OWN_CUE, lambda: self._reopened_at_cue(quote, last)))):  # noqa: B023
                continue
            if ctx.sentence(sentence[0]) - last.evidence.sentences[-1] > CONTINUATION_GAP:
                return
            quote.used = True
            content = self._quote_span(quote)
            evidence = ctx.evidence(self._tokens_of(content), CONTINUED_QUOTE)
            yield Claim(last.speaker, last.cue, ClaimKind.DIRECT, content, None, evidence)

    # --- helpers -------------------------------------------------------------------------

    def _speaker(self, head: Token, spoken: Sequence[Span] = (),
                 own_words: Sequence[Span] = ()) -> Party | None:
        """The speaker, written as the whole noun phrase ("Russia's defence ministry"); a
        pronoun is nobody named in what was claimed so far or in the words ``spoken``, nor
        anybody its ``own_words`` (the said clause, the quotation) name."""
        hint = self.reporter.speaker if self.reporter is not None else None
        said = self.reporter.content if self.reporter is not None else None
        outside = [*self.said, *spoken]
        party = self.ctx.party(head, hint, said, outside)
        if party is not None and head.pos_ == "PRON" and own_words:
            first = party
            passed = found(PRONOUN_NOT_NAMED, lambda: self._named_in(first, own_words))
            if passed:  # "It said the KDP was …": not the KDP; the one before it, if any
                party = self.ctx.party(head, None, said, [*outside, *passed])
                if head.lower_ == "it":  # a body names itself in its statements ("The BPI
                    party = party or first  # believes …, it said"): none other, it stays
                elif party is not None and self._named_in(party, own_words):
                    return None
        if party is not None and party.kind is PartyKind.GROUP and applies(
                NOT_A_SPEAKER, lambda: head.lemma_.lower() in NON_SPEAKERS):
            return None
        if party is not None and party.kind is PartyKind.GROUP and applies(
                SHARE_NO_SPEAKER, lambda: _bare_share(head)):
            return None
        if party is not None and head.lower_ in THING_PRONOUNS and applies(
                IT_NO_PLACE, lambda: self._is_place(party)):
            return None
        if party is not None and party.kind is PartyKind.GROUP \
                and (body := self._spoken_for(head)) is not None:
            phrase = self.ctx.span(list(head.subtree))
            return replace(self.ctx.entity_party(body), text=fold_space(phrase.text),
                           begin=phrase.begin, end=phrase.end)
        if party is not None and party.kind is PartyKind.GROUP and (
                person := found(DESCRIBED_SUBJECT, lambda: self._post_holder(head))) is not None:
            phrase = self.ctx.span(noun_phrase(head) or [head])
            return replace(self.ctx.entity_party(person, head), text=fold_space(phrase.text),
                           begin=phrase.begin, end=phrase.end)
        if party is None or head.pos_ == "PRON" or party.kind is not PartyKind.ENTITY:
            return party
        surname = found(SURNAME_PERSON, lambda: self._surname_of(head))
        named = self.ctx.entity_party(surname, head) if surname is not None else party
        if self._owned_place(head):
            return None  # "Brown's Britain, by Robert Peston, says …": a title, not a country
        words = noun_phrase(head) or [head]
        if applies(NAME_END, lambda: _glued_after_name(head, words)):
            words = [t for t in words if t.i <= head.i]
        phrase = self.ctx.span(words)
        return replace(named, text=fold_space(phrase.text), begin=phrase.begin, end=phrase.end)

    def _named_in(self, party: Party, words: Sequence[Span]) -> list[Span] | None:
        """When the entity ``party`` stands for is named in ``words`` (the same name, or one
        name the last words of the other: "Mr Blair", "Tony Blair"), the places it is named
        before them (to be passed over); ``None`` when it is not named there."""
        mention = self.ctx.mention_by_offsets(party.mention) if party.mention else None
        if mention is None:
            return None
        inside = [m for m in self.ctx.mentions
                  if any(w.begin <= m.begin and m.end <= w.end for w in words)]
        if not any(_same_name(m.name, mention.name) for m in inside):
            return None
        start = min(w.begin for w in words)
        return [Span(m.begin, m.end, "") for m in self.ctx.mentions
                if m.end <= start and _same_name(m.name, mention.name)]

    def _surname_of(self, head: Token) -> Mention | None:
        """The person named earlier whose surname a one-word person speaker is: the one full
        name ending in it (none when none or several do)."""
        mention = self.ctx.mention(head)
        if mention is None or kind_of(mention) is not EntityKind.PERSON \
                or len(mention.name.split()) != 1 or mention.titles:
            return None
        surname = mention.name
        fuller: dict[str, Mention] = {}
        for other in self.ctx.mentions:
            if other.end > mention.begin or kind_of(other) is not EntityKind.PERSON:
                continue
            name = self._name_words(other)  # "Singer Knight": a description, then "Knight"
            if len(name) > 1 and name[-1] == surname:
                fuller.setdefault(" ".join(name), other)
        # none or several ("Simon Cowell", "Writer Tony Cowell"): the resolver's, as before
        return next(iter(fuller.values())) if len(fuller) == 1 else None

    def _name_words(self, mention: Mention) -> list[str]:
        """A person's name without the description the tagger took into it ("Veteran
        Martinez", "Writer Tony Cowell"): from its first proper noun on, past the titles
        ``strip_leading_titles`` takes off a person's name and any occupation."""
        doc = self.ctx.doc
        start, end = self.ctx.mention_tokens[(mention.begin, mention.end)]
        start = strip_leading_titles(doc, start, end)
        while end - start > 1 and (doc[start].pos_ != "PROPN" or doc[start].lower_ in OCCUPATIONS):
            start = strip_leading_titles(doc, start + 1, end)
        return [t.text for t in doc[start:end]]

    def _post_holder(self, head: Token) -> Mention | None:
        """The person named earlier with the post that "the" + ``head`` describes ("the
        mayor" → "Athens Mayor Nikitas Kaklamanis"), when exactly one person was."""
        children = list(head.children)
        if head.pos_ != "NOUN" or head.tag_ == "NNS" or not is_title_word(head) or not any(
                c.dep_ == "det" and c.lower_ == "the" for c in children) or any(
                c.dep_ in {"poss", "compound", "amod", "appos", "prep"} for c in children):
            return None
        lemma = head.lemma_.lower()
        holders = {m.name: m for m in self.ctx.mentions
                   if m.end <= self.ctx.char(head) and kind_of(m) is EntityKind.PERSON
                   and len(m.name.split()) > 1 and lemma in self._plain_posts(m)}
        return next(iter(holders.values())) if len(holders) == 1 else None

    def _plain_posts(self, mention: Mention) -> set[str]:
        """The posts written with a person, but for those another word makes another office
        ("shadow chancellor Oliver Letwin" holds no "chancellor")."""
        posts = self.ctx.posts_written_with(mention)
        start = self.ctx.mention_tokens[(mention.begin, mention.end)][0]
        name = self.ctx.head_token(mention)
        words = [*self.ctx.doc[max(start - 4, 0):start],
                 *(t for c in name.children if c.dep_ == "appos" for t in c.subtree)]
        for before, word in zip(words, words[1:], strict=False):
            if before.lower_ in OTHER_OFFICE or before.lower_.startswith(("ex-", "vice-")):
                posts.discard(word.lemma_.lower())
        return posts

    def _is_place(self, party: Party) -> bool:
        """Whether ``party`` stands for a country or a city (not for a firm or a building the
        tagger called a place: "Ryanair", "the White House")."""
        if party.kind is PartyKind.COUNTRY:
            return True
        mention = self.ctx.mention_by_offsets(party.mention) if party.mention else None
        return mention is not None and kind_of(mention) is EntityKind.PLACE and (
            country_named(mention.name) is not None or is_city(mention.name))

    def _spoken_for(self, head: Token) -> Mention | None:
        """The body a spokesperson speaks for: "a spokesman for the Ministry of Defence", "a
        Foreign Office spokeswoman", "the army's spokesman" — the claim is the body's."""
        if head.lower_ not in SPOKESPERSONS:
            return None
        named = [c for c in head.children if c.dep_ in {"compound", "poss"}]
        named += [o for c in head.children if c.dep_ == "prep" and c.lower_ in {"for", "of"}
                  for o in c.children if o.dep_ == "pobj"]
        bodies = [m for t in named if (m := self.ctx.mention(t)) is not None
                  and m.kind is not EntityKind.PERSON]
        return bodies[0] if len(bodies) == 1 else None

    def _owned_place(self, head: Token) -> bool:
        """A place owned by a person ("Brown's Britain") is the name of a work."""
        place = self.ctx.mention(head)
        if place is None or place.kind is not EntityKind.PLACE:
            return False
        owners = [self.ctx.mention(c) for c in head.children if c.dep_ == "poss"]
        return any(o is not None and o.kind is EntityKind.PERSON for o in owners)

    def _claim(
        self, speaker: Party, cue: str, kind: ClaimKind, content: Span, cue_token: Token
    ) -> Claim:
        declared = CLAIM_RULES[kind]
        confidence = declared.prior
        if speaker.mention and not speaker.begin <= speaker.mention[0] < speaker.end:
            confidence -= INDIRECT_SPEAKER  # the speaker was a pronoun or a bare surname
        tokens = [cue_token, *self._tokens_of(content)]
        evidence = self.ctx.evidence(tokens, declared, round(confidence, 2))
        uttered = _time_of(self.ctx, cue_token)
        return Claim(speaker, cue, kind, content, uttered, evidence)

    def _quote_near(self, verb: Token) -> Quote | None:
        """The unused quotation nearest the verb in its sentence, not containing it."""
        ctx = self.ctx
        sent = verb.sent
        begin, end = ctx.char(sent[0]), ctx.char(sent[-1]) + len(sent[-1].text)
        at = ctx.char(verb)
        if applies(QUOTE_REOPENED, lambda: any(q.begin <= at < q.end for q in self.quotes)):
            return None  # '"… the other school of thought suggests …"': quoted, not a cue
        unused = [q for q in self.quotes if not q.used and not q.begin <= at < q.end]
        own = [q for q in unused if _same(self._own_cue(q), verb)]
        if own:
            return own[0]  # '… , saying :' with its quotation on the next line
        near = [q for q in unused if q.begin < end and q.end > begin - 3
                and self._own_cue(q) is None]  # not another cue's ("…, Hope said : '…'")
        return min(near, key=lambda q: min(abs(q.begin - at), abs(q.end - at)), default=None)

    def _own_cue(self, quote: Quote) -> Token | None:
        """The speech verb written at ``quote``'s marks with a subject that is no pronoun
        (``claim.own-cue``): "X said : "…"", '"…," said X', '"…," X said'; else None."""
        key = (quote.begin, quote.end)
        if key not in self.own_cues:
            self.own_cues[key] = found(OWN_CUE, lambda: self._cue_at(quote))
        return self.own_cues[key]

    def _cue_at(self, quote: Quote) -> Token | None:
        bounds = self.ctx.token_bounds(quote.begin, quote.end)
        if bounds is None:
            return None
        doc = self.ctx.doc
        before = [t for t in doc[max(0, bounds[0] - 4) : bounds[0]] if not t.is_space]
        after = [t for t in doc[bounds[1] : bounds[1] + 6] if not t.is_space]
        verb = None
        if len(before) >= 3 and before[-1].text in OPENING and before[-2].text == ":":
            verb = before[-3]  # "X demurred , saying : "…""
        elif after and after[0].text in CLOSING and self._opens_line(before) \
                and not self._quote_span(quote).text.endswith("."):
            between: list[Token] = []
            for token in after[1:5]:
                if _is_cue(token):
                    verb = token
                    break
                between.append(token)
            own = {t.i for s in (verb.children if verb is not None else ())
                   if s.dep_ == "nsubj" for t in s.subtree}
            if any(not t.is_punct and t.i not in own for t in between):
                verb = None  # '"…," the minister's aide, who …': no cue at the marks
            text = self.ctx.frame.document.text
            if verb is not None and "\n" in text[quote.end : self.ctx.char(verb)]:
                verb = None  # '… market . "⏎Roe said he …': the next line's cue
        if verb is None or not _is_cue(verb):
            return None
        speakers = [s for s in subjects(_adding_to(verb)) if s.dep_ == "nsubj"]
        return verb if speakers and speakers[0].pos_ != "PRON" else None

    def _reopened_at_cue(self, quote: Quote, last: Claim) -> bool:
        """Whether ``quote`` opens at the end of the line of the last claim's own cue, which
        closed the quotation before ('"…," Foster said . "⏎Also, …'): it continues it."""
        if self.own_said is None or self.own_said[0] is not last:
            return False
        text = self.ctx.frame.document.text
        cue = self.own_said[1]
        return cue < quote.begin and text.startswith("\n", quote.begin) \
            and "\n" not in text[cue : quote.begin]

    def _opens_line(self, before: list[Token]) -> bool:
        """Whether the opening mark ending ``before`` opens a line or a sentence: the
        quotation is all that was said ('"…," said X'), not a phrase quoted inside it ('The
        tender had "a bearish impact," one trader said')."""
        if not before or before[-1].text not in OPENING:
            return False
        if len(before) < 2 or before[-1].is_sent_start or before[-2].text in {".", "?", "!", ":"}:
            return True
        end = self.ctx.char(before[-2]) + len(before[-2].text)
        return "\n" in self.ctx.frame.document.text[end : self.ctx.char(before[-1])]

    def _quote_span(self, quote: Quote) -> Span:
        text = self.ctx.frame.document.text
        begin, end = quote.begin, quote.end
        while begin < end and (text[begin].isspace() or text[begin] in TRIM):
            begin += 1
        while end > begin and (text[end - 1].isspace() or text[end - 1] in TRIM - {"."}):
            end -= 1
        return Span(begin, end, text[begin:end])

    def _trimmed(self, tokens: list[Token], cue: Token | None = None) -> Span | None:
        """A clause as claim text: in one paragraph (the cue's, or the nearest to it), without
        a dateline, a leading "that", edge punctuation."""
        tokens = _one_paragraph(tokens, cue)
        if cue is not None:  # the cue's sentence (bounds once: ``Token.sent`` walks to them)
            sent = cue.sent
            tokens = [t for t in tokens if sent.start <= t.i < sent.end]
        tokens = _before_next_cue(tokens)
        if not any(t.pos_ in {"VERB", "AUX"} for t in tokens):
            return None  # "Golden rule 'intact' says ex-aide": a headline's object, no clause
        dashes = [t.i for t in tokens[:8] if t.text in DASHES and t.whitespace_]
        if dashes and tokens[0].i == tokens[0].sent.start:
            tokens = [t for t in tokens if t.i > dashes[0]]  # "KYIV, May 18 - …"
        if cue is not None and tokens and tokens[0].i == cue.i + 1:
            time = found(REPORT_TIME, partial(self._report_time, tokens))
            tokens = tokens[time:] if time else tokens
        while tokens and (_is_edge(tokens[0]) or tokens[0].lower_ == "that"
                          or tokens[0].dep_ == "cc" and tokens[0].i == tokens[0].sent.start):
            tokens = tokens[1:]  # "that", and the "But" opening the sentence
        while tokens and _is_edge(tokens[-1]):
            tokens = tokens[:-1]
        return self.ctx.span(tokens) if tokens else None

    def _report_time(self, tokens: list[Token]) -> int | None:
        """How many of the leading ``tokens`` (right after the speech verb) are when the
        speaker spoke: a time expression, with "on"/"at" before it, hung on a verb, that a
        clause with a subject and a verb of its own follows ("on Thursday | they had arrested
        …"; not "first-half | profit fell", a noun's)."""
        at = 1 if tokens[0].lower_ in {"on", "at"} else 0
        end = at
        while end < len(tokens) and tokens[end].i in self.ctx.time_at:
            end += 1
        rest = tokens[end:]
        if end == at or not rest:
            return None
        inside = {t.i for t in tokens[:end]}
        if any(t.head.i not in inside and t.head.pos_ not in {"VERB", "AUX"}
               for t in tokens[:end]):
            return None  # a noun's modifier: "said 1996 first-half profit fell"
        return end if any(t.dep_ in {"nsubj", "nsubjpass", "expl"} for t in rest) and any(
            t.pos_ in {"VERB", "AUX"} for t in rest) else None

    def _tokens_of(self, span: Span) -> list[Token]:
        bounds = self.ctx.token_bounds(span.begin, span.end)
        return list(self.ctx.doc[bounds[0] : bounds[1]]) if bounds else []


def _inverted(verb: Token, speakers: list[Token]) -> tuple[list[Token], list[Token]]:
    """The speaker of an inserted, inverted cue ("The decision, said spokesman Jonathan Todd,
    was final"): the subject after the verb, which a comma opens; a subject before it is the
    reported clause's own, which the parser hung on the cue (its words, for the claim)."""
    after = [s for s in speakers if s.i > verb.i]
    before = [s for s in speakers if s.i < verb.i]
    if not after or not before or verb.i == 0 or verb.doc[verb.i - 1].text != ",":
        return speakers, []
    return after, [t for s in before for t in s.subtree if t.i < verb.i - 1]


def _fronted_participle(verb: Token) -> bool:
    """A participle opening the sentence before a speech verb it hangs on ("Announcing the
    plans, X said: …", "Responding to the critics, X said …"): the main verb is the cue — not
    a participle with a said clause of its own ("Saying Britain must change direction, X
    argues …": two claims)."""
    head = verb.head
    return verb.tag_ == "VBG" and verb.dep_ == "advcl" and verb.i < head.i \
        and _is_cue(head) and any(c.dep_ == "nsubj" for c in head.children) \
        and not any(c.dep_.startswith("nsubj") or c.dep_ in {"ccomp", "parataxis"}
                    for c in verb.children)  # "Saying Britain must change, X argues …": two


def _same_name(one: str, other: str) -> bool:
    """Whether two names are one's last words the other ("Blair", "Tony Blair")."""
    a, b = one.lower().split(), other.lower().split()
    n = min(len(a), len(b))
    return n > 0 and a[-n:] == b[-n:]


def _bare_share(head: Token) -> bool:
    """A share or a number with no "of" naming whose ("80 percent", "40%", "40"), not "18%
    of all searchers"."""
    if any(c.dep_ == "prep" and c.lower_ == "of" for c in head.children):
        return False
    return head.lower_ in SHARE_WORDS or head.pos_ == "NUM" or head.like_num


def _glued_after_name(head: Token, words: list[Token]) -> bool:
    """Whether the phrase after a named speaker names nothing ("said Arts minister Estelle
    Morris *of the findings*", "said X *at a London press conference*"): its object is no
    proper noun or named body — the speaker's own body stays ("Rick McGuire of the Alpine
    Lakes Protection Society")."""
    after = [t for t in words if t.i > head.i]
    objects = [t for t in after if t.dep_ == "pobj" and t.head.head.i == head.i]
    return head.pos_ == "PROPN" and head in words and bool(objects) and not any(
        t.pos_ == "PROPN" or t.ent_type_ in {"ORG", "GPE", "FAC", "NORP"} for t in objects)


def _infinitives(verb: Token) -> list[Token]:
    """The infinitive clauses after a verb that finish its sense ("could not be relied on to
    not be tempted to …"), which a clause's own tokens leave out with its other clauses."""
    return [t for c in verb.rights if c.dep_ in {"advcl", "xcomp"} and any(
        a.dep_ in {"aux", "auxpass"} and a.tag_ == "TO" and a.i < c.i for a in c.children)
        for t in c.subtree]


def _same(token: Token | None, other: Token) -> bool:
    """Whether ``token`` is ``other`` (spaCy makes a new object for each look-up)."""
    return token is not None and token.i == other.i


def _is_cue(token: Token) -> bool:
    """Whether ``token`` is a speech verb ("said", "told", "warned"): a claim's cue."""
    return token.pos_ == "VERB" and token.lemma_.lower() in SPEECH_VERBS


def _quoted_as_saying(verb: Token) -> list[Token]:
    """The one a reporter quotes "as saying" (``claim.quoted-as-saying``): the object of
    "quoted B as saying", the subject of "B was quoted as saying"; else none."""
    marker = verb.head
    if verb.dep_ != "pcomp" or marker.lower_ != "as" or marker.dep_ != "prep":
        return []
    quoting = marker.head
    if quoting.lemma_.lower() not in QUOTING_VERBS or quoting.pos_ != "VERB":
        return []
    objects = [c for c in quoting.children if c.dep_ == "dobj"]
    return objects or [c for c in quoting.children if c.dep_ == "nsubjpass"]


def _adding_to(verb: Token) -> Token:
    """The speech verb a participle cue adds to ("X said …, adding …": X adds), which the
    parser may hang inside what X said; else the verb itself."""
    if verb.tag_ != "VBG" or verb.dep_ not in {"advcl", "conj"}:
        return verb
    return next((a for a in verb.ancestors if _is_cue(a)), verb)


def _before_next_cue(tokens: list[Token]) -> list[Token]:
    """The words before a second cue the parser hung inside the clause ("… a fresh start,
    adding it was …", "…, saying …", "…, while the ministry denied …"): what follows is
    another claim, with its own cue."""
    for before, token in zip(tokens, tokens[1:], strict=False):
        if before.text == "," and token.tag_ == "VBG" and token.lemma_.lower() in SPEECH_VERBS:
            return [t for t in tokens if t.i < before.i]
        if before.text == "," and token.lower_ in CONTRASTING and token.dep_ == "mark" \
                and token.head.lemma_.lower() in SPEECH_VERBS:
            return [t for t in tokens if t.i < before.i]  # "…, while Y denied …": Y's claim
    return tokens


def _breaks(tokens: Iterable[Token]) -> bool:
    """Whether a paragraph break lies among ``tokens``."""
    return any(t.is_space and "\n" in t.text or "\n\n" in t.whitespace_ for t in tokens)


def _wh_clause(clause: Token) -> bool:
    """A clause opened by a question word or "whether"/"if": an indirect question."""
    first = clause.left_edge  # its own word: "if we lose, we are struggling" is a claim
    own = first.head == clause or first.head.head == clause and first.head.dep_ in {"nsubj",
                                                                                   "dobj"}
    return own and first.lower_ != "that" and (
        first.tag_ in {"WRB", "WP", "WDT"} or first.lower_ in {"whether", "if"})


def _relative(clause: Token) -> bool:
    """A clause whose subject is a relative pronoun ("something that had …", "masks, that
    were …"): it describes a noun, it is not what was said."""
    return any(c.dep_ in {"nsubj", "nsubjpass"} and c.tag_ in {"WDT", "WP"}
               for c in clause.children)


def _clause_of(verb: Token, complements: list[Token]) -> list[Token]:
    """What was said: the first complement, and with it the complements on the same side of
    the verb that the parser split it into ('He was released and "that's the end of it", X
    added')."""
    side = [c for c in complements if (c.i < verb.i) == (complements[0].i < verb.i)
            and c.sent == verb.sent]
    side += _stray_verbs(verb, side)
    side += found(JOINED_CLAUSE, lambda: _joined_clauses(verb, side) or None) or []
    begin = min(c.left_edge.i for c in side)
    end = max(c.right_edge.i for c in side) + 1
    return list(verb.doc[begin:end]) if len(side) > 1 else list(complements[0].subtree)


def _relative_gap(verb: Token) -> bool:
    """Whether ``verb`` heads a relative clause whose gap lies in what was said: a relative
    clause ("regulations that they say are …", "a target he says he has met") whose subject is
    not the relative word ("Smith, who said …"), that no "where"/"when" opens and that
    describes no time or reason ("the day he said he would quit"), or a free relative ("what
    he said were …")."""
    children = list(verb.children)
    if any(c.tag_ == "WRB" or c.dep_ == "prep" and any(o.tag_ in {"WP", "WDT"}
                                                       for o in c.children)
           for c in children) or verb.head.lemma_.lower() in ADVERBIAL_RELATIVES:
        return False  # "the day he said …", "where he said …", "at which X believe …"
    subject = [c for c in children if c.dep_.startswith("nsubj")]
    if any((c.tag_ == "WP" or c.tag_ == "WDT" and c.lower_ != "that")
           and not c.dep_.startswith("nsubj") for c in children):
        return verb.dep_ in {"relcl", "pcomp", "ccomp"} and bool(subject)
    if verb.dep_ != "relcl" or not subject or verb.head.pos_ == "PROPN":
        return False  # "told The News that investigators believe …": "that" opens the clause
    if subject[0].pos_ == "PROPN" and subject[0].left_edge.i == verb.head.i + 1:
        return False  # "the lawyer William Smith told …": a name after its post, misparsed
    if any(t.is_quote or t.text[-1] in ".!?" for t in verb.doc[verb.head.i : verb.left_edge.i]):
        return False  # '"… no need," X said', "… a lifeline. The firm warned …": misparsed
    return subject[0].tag_ not in {"WP", "WDT"} and subject[0].lower_ not in RELATIVE_PRONOUNS


def _second_act(verb: Token, clause: list[Token]) -> list[Token]:
    """The words of the speaker's next act, which the parser joined to what was said ("said
    he would not respond and promised to …"): a verb joined to the said clause's verb with no
    subject of its own and the speech verb's form (past, "-ing") where the clause's verb is a
    modal's ("would", "should"); with its "and"/"but"."""
    inside = {t.i for t in clause}
    heads = [t for t in clause if t.head.i not in inside]
    if len(heads) != 1 or heads[0].pos_ not in {"VERB", "AUX"} or heads[0].tag_ == verb.tag_:
        return []
    head = heads[0]
    if not any(c.tag_ == "MD" for c in head.children):
        return []  # "had grown and hired": one act of the clause; "would … and promised": two
    for conj in (c for c in head.children if c.dep_ == "conj" and c.i > head.i):
        own = [c for c in conj.children if c.dep_.startswith("nsubj") or c.dep_ in {
            "expl", "aux", "auxpass"}]  # "and be turned into …" shares the modal
        if conj.pos_ == "VERB" and conj.tag_ == verb.tag_ and not own \
                and conj.lower_ != conj.lemma_.lower():  # "would … and put": "put" is both
            joins = [c for c in head.children if c.dep_ == "cc" and c.i < conj.i]
            start = joins[-1].i if joins else conj.left_edge.i
            while start > 0 and verb.doc[start - 1].is_punct and verb.doc[start - 1].i in inside:
                start -= 1
            return [t for t in clause if start <= t.i <= conj.right_edge.i]
    return []


def _joined_clauses(verb: Token, side: list[Token]) -> list[Token]:
    """Clauses with a subject of their own joined by "and"/"but" to the speech verb after what
    was said ("said the bill would target X, but ministers had been complacent"): the parser
    hangs the rest of what was said on the speech verb. Never a clause with a speech or
    belief verb ("…, but Y said …", "critics fear …": another claim), a person or "this"/
    "that" as its subject ("but Tory X branded …", "and this caused a row": the writer on what
    was said) or, after a past cue, the present tense (the writer's, now)."""
    end = max(c.right_edge.i for c in side)
    if end < verb.i:
        return []
    found = []
    for conj in (c for c in verb.children if c.dep_ == "conj" and c.i > end):
        own = [c for c in conj.children if c.dep_.startswith("nsubj") or c.dep_ == "expl"]
        joins = [c for c in verb.children if c.dep_ == "cc" and end < c.i < conj.i]
        if own and joins and joins[-1].lower_ in {"and", "but"} and conj.pos_ in {
                "VERB", "AUX"} and own[0].ent_type_ != "PERSON" and _reported(verb, conj) \
                and own[0].lower_ not in DEMONSTRATIVES \
                and not any(t.lemma_.lower() in EPISTEMIC_VERBS | ACCUSE_VERBS
                            and t.pos_ == "VERB" for t in conj.subtree):
            found.append(conj)
    return found


def _reported(cue: Token, verb: Token) -> bool:
    """Whether ``verb``'s tense fits speech reported by ``cue``: after a past cue, a past
    verb ("had been", "was", "would") — a present one ("this has caused a row", "critics
    fear") is the writer's, now."""
    if cue.tag_ != "VBD":
        return True
    auxiliaries = [c for c in verb.children if c.dep_ in {"aux", "auxpass"}]
    first = auxiliaries[0] if auxiliaries else verb
    return first.tag_ == "VBD" or first.lower_ in PAST_MODALS


def _stray_subject(verb: Token, clause: list[Token]) -> list[Token]:
    """The said clause's subject, which the parser hung on the speech verb as its object
    ("have indicated the market may be recovering": "market" the verb's object) or, when it is
    counted, as a phrase ("said around eight members were planning": "around" a preposition of
    "said"): the one phrase right between the verb and a clause with no subject of its own —
    no comma, quotation mark or "that" between, and no verb whose object is the addressee
    ("told the BBC …")."""
    if not clause or clause[0].i <= verb.i + 1 or verb.lemma_.lower() in ADDRESSEE_VERBS:
        return []
    head = next((t for t in clause if t.head.i == verb.i), None)
    if head is None or head.pos_ not in {"VERB", "AUX"} or any(
            c.dep_.startswith("nsubj") or c.dep_ in {"expl", "csubj"} for c in head.children):
        return []
    between = list(verb.doc[verb.i + 1 : clause[0].i])
    orphans = [c for c in verb.children if verb.i < c.i < clause[0].i]
    if len(orphans) != 1 or {t.i for t in between} != {t.i for t in orphans[0].subtree} or any(
            t.is_punct or t.is_quote or t.lower_ == "that" for t in between):
        return []
    phrase = orphans[0]
    counted = phrase.dep_ == "prep" and any(
        o.dep_ == "pobj" and any(c.dep_ == "nummod" for c in o.children) for o in phrase.children)
    return between if phrase.dep_ == "dobj" or counted else []


STRAY_SUBJECT = declare(
    "claim.stray-subject", "facts.claim",
    reads="the words between a speech verb and its subjectless clause",
    writes="Claim.text (from the clause's subject)",
    description="The said clause's subject the parser hung on the speech verb (\"indicated "
                "the market may be recovering\": the market, the verb's object) is the start "
                "of what was said.",
    example="The latest surveys have indicated the market may be recovering.").id


def _stray_verbs(verb: Token, side: list[Token]) -> list[Token]:
    """The said clause's own verb, which the parser hung on the speech verb as a conjunct
    ("said the number of Britons dead or missing have reached 440": "reached"): a conjunct
    right after the clause, with no subject and no "and"/"or" of its own between."""
    end = max(c.right_edge.i for c in side)
    if end < verb.i:
        return []
    stray = []
    for conj in (c for c in verb.children if c.dep_ == "conj" and c.pos_ in {"VERB", "AUX"}):
        between = verb.doc[end + 1 : conj.left_edge.i]
        own = [c for c in conj.children if c.dep_.startswith("nsubj") or c.dep_ == "expl"]
        if conj.left_edge.i > end and not own and not any(
            t.dep_ == "cc" or t.is_punct for t in between
        ):
            stray.append(conj)
            end = conj.right_edge.i
    return stray


def _one_paragraph(tokens: list[Token], anchor: Token | None) -> list[Token]:
    """The tokens in the paragraph of ``anchor`` (else of the first token): claimed words never
    run across a paragraph break (a headline and the first line)."""
    paragraphs: list[list[Token]] = [[]]
    for token in tokens:
        if token.is_space and "\n" in token.text or "\n\n" in token.whitespace_:
            if not token.is_space:
                paragraphs[-1].append(token)
            paragraphs.append([])
        else:
            paragraphs[-1].append(token)
    paragraphs = [p for p in paragraphs if p]
    if anchor is not None and paragraphs and anchor.i > paragraphs[-1][-1].i:
        return paragraphs[-1]  # '… ," he said': the words just before the cue
    if anchor is not None and paragraphs and anchor.i < paragraphs[0][0].i and _breaks(
        anchor.doc[anchor.i : paragraphs[0][0].i]
    ):
        return []  # a headline's cue ("BBC denies comeback") says nothing of the next paragraph
    near = [p for p in paragraphs if anchor is not None and p[0].i <= anchor.i <= p[-1].i]
    return near[0] if near else paragraphs[0] if paragraphs else []


def _in_name(ctx: FactContext, verb: Token) -> bool:
    """A verb inside a name ("the North East Says No campaign") reports nothing."""
    capitalised = verb.text[:1].isupper() and verb.i != verb.sent.start
    return capitalised or ctx.mention(verb) is not None


def _is_edge(token: Token) -> bool:
    return token.text in TRIM or token.is_space


def _inside(inner: Span, outer: Quote | Span) -> bool:
    return outer.begin - 2 <= inner.begin and inner.end <= outer.end + 2


def _time_of(ctx: FactContext, verb: Token) -> TimeExpression | None:
    """A date expression attached to the cue verb ("said Wednesday", "tweeted on Wednesday")."""
    for child in verb.children:
        tokens = list(child.subtree) if child.dep_ in {"npadvmod", "prep", "tmod"} else []
        times = [ctx.time_at[t.i] for t in tokens if t.i in ctx.time_at]
        if times:
            return pinned(times[0], ctx.frame.document.meta.date_published)
    return None


def claims_of(ctx: FactContext) -> list[Claim]:
    """Every claim of the chunk."""
    return ClaimReader(ctx).claims()
