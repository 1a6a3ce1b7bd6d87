"""Names other articles of the corpus found, recovered where an article's tagger missed them;
and sentence openers and cut-off words of longer names that the corpus writes as common
words, dropped (``CorpusWords``).

Runs between extraction and resolution (``kg.build.corpus.corpus_from_extractions``), over
every article's text and mentions; it is not part of an article's cached extraction, since
what it adds depends on the rest of the corpus. The article's own repeats and headline rules
are ``kg.extract.recovery``'s. The three steps (common openers and fragments dropped, names
found elsewhere added) are the heuristics of the stage ``corpus-names``, run in their declared
order; a step's fire is recorded in each article it changed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from kg.collector import cycles_uncollected
from kg.extract.recovery import (
    CAPITALISED_WORD,
    in_sentence,
    is_capitals_line,
    is_known_place,
    is_title_case_line,
    is_url_line,
    line_bounds,
    lower_words,
    stands_alone,
)
from kg.extract.spans import POLICE
from kg.heuristics import declare, fired, in_document, steps
from kg.lexicon.countries import demonym_code
from kg.lexicon.words import CALENDAR_WORDS, HONORIFICS, NATION_DEMONYMS, TITLE_NOUNS
from kg.model import EntityKind, Extraction, Mention


def with_corpus_names(extractions: Sequence[Extraction]) -> list[Extraction]:
    """``extractions`` with the names other articles of the corpus found added where an
    article writes them and its tagger missed them ("Klitschko" in an article whose tagger
    never found him, "Lindsay Lohan" in a headline whose body says only "Lohan"), after the
    one-word sentence openers and the cut-off words of longer names that the corpus writes as
    common words are dropped (``CorpusWords``: "Millions of workers …", "Unit" of "the
    Economist Intelligence Unit").

    Stricter than the article's own repeats (``kg.extract.recovery``): the name is a person's
    full name, or the surname of one found twice, or a name of several words, or a one-word
    organisation or place other articles found as a name three times, in two articles or more
    ("TMZ", "Sox"); no word of it is a title, a nationality, a feast or an acronym's plural
    (``not_a_name``); its last word is written only with a capital in the whole corpus
    ("Brown", "Young", "Labour" are also words; "Red Sox" may be recovered, "red" is a word
    but "Sox" is not; "Overturn Bush Rules" may not); most of its finds agree on its class;
    a person's name is no place GeoNames knows. An
    occurrence counts as in the article's own rule (a whole word, not part of a longer
    capitalised name, no web-address line) and takes the name's most frequent class and NER
    label; in a Title Case line (a headline) the words after a name may be capitalised too,
    and in a line set in capitals the name is found in capitals ("RED SOX MAKE HUGE OFFER TO
    TEIXEIRA").

    >>> from kg.model import ArticleMeta, Document, Sentence
    >>> def article(doc, text, *found):
    ...     mentions = tuple(Mention(text.index(n), text.index(n) + len(n), n, n,
    ...                              EntityKind.PERSON, "PERSON", 0) for n in found)
    ...     return Extraction(Document(doc, doc, text, ArticleMeta(), ""),
    ...                       (Sentence(0, 0, len(text)),), mentions)
    >>> won = article("a", "Wladimir Klitschko won.", "Wladimir Klitschko")
    >>> kept = article("b", "Wladimir Klitschko kept his belts.", "Wladimir Klitschko")
    >>> later = article("c", "In 2008, Klitschko stopped him.")
    >>> [m.name for m in with_corpus_names([won, kept, later])[2].mentions]
    ['Klitschko']
    """
    with cycles_uncollected():
        return _with_corpus_names(extractions)


def _with_corpus_names(extractions: Sequence[Extraction]) -> list[Extraction]:
    words = CorpusWords.of(extractions)
    found = list(extractions)
    for step in steps("corpus-names"):
        changed = step(found, words)
        for before, after in zip(found, changed, strict=True):
            if after.mentions != before.mentions:
                with in_document(before.document.doc_id):
                    fired(step.id)
        found = changed
    return found


def _without_common_openers(extractions: Sequence[Extraction],
                            words: CorpusWords) -> list[Extraction]:
    return _keeping(extractions, lambda m, text, begin: not words.common_opener(m, text, begin))


def _without_fragments(extractions: Sequence[Extraction],
                       words: CorpusWords) -> list[Extraction]:
    return _keeping(extractions, lambda m, text, begin: not words.fragment(m, text, begin))


def _with_names_found_elsewhere(extractions: Sequence[Extraction],
                                words: CorpusWords) -> list[Extraction]:
    """``extractions`` with the names other articles found added where an article writes them
    (see ``with_corpus_names``)."""
    lower = set(words.lower)
    names = _corpus_names(extractions, lower)
    if not names:
        return list(extractions)
    by_first: dict[str, list[str]] = {}
    for name in names:
        by_first.setdefault(name.split()[0].upper(), []).append(name)
    for first, candidates in by_first.items():  # the longest first, sorted once
        by_first[first] = sorted(candidates, key=len, reverse=True)
    found = []
    for extraction in extractions:
        added = _corpus_mentions(extraction, names, by_first, lower)
        found.append(replace(extraction, mentions=tuple(sorted(
            [*extraction.mentions, *added], key=lambda m: (m.begin, m.end)))) if added
            else extraction)
    return found


def _corpus_names(extractions: Sequence[Extraction],
                  lower: set[str]) -> dict[str, tuple[EntityKind, str]]:
    """Name → (class, NER label) for the names the corpus found that may be recovered
    (``lower``: the words the corpus writes in lower case)."""
    votes: dict[str, Counter[tuple[EntityKind, str]]] = {}
    articles: dict[str, set[str]] = {}
    full_names: Counter[str] = Counter()
    for extraction in extractions:
        for m in extraction.mentions:
            if m.kind not in (EntityKind.PERSON, EntityKind.ORGANIZATION, EntityKind.PLACE) \
                    or m.is_description:
                continue
            votes.setdefault(m.name, Counter())[m.kind, m.ner_label] += 1
            articles.setdefault(m.name, set()).add(extraction.document.doc_id)
            words = m.name.split()
            if m.kind is EntityKind.PERSON and len(words) > 1:
                votes.setdefault(words[-1], Counter())[m.kind, m.ner_label] += 1
                full_names[m.name] += 1
    # a surname of a full name found twice: "Fake DVDs" tagged PERSON once gives no "DVDs"
    surnames = {name.split()[-1] for name, n in full_names.items() if n >= 2}
    names = {}
    for name, counted in votes.items():
        (kind, label), n = counted.most_common(1)[0]
        words = name.split()
        if (len(name) < 3 or n * 3 < 2 * sum(counted.values())
                or not all(CAPITALISED_WORD.fullmatch(w) for w in words)
                or any(not_a_name(w) for w in words)
                # a word the corpus also writes in lower case is also a word ("Brown",
                # "Labour"); a name of several may open with one ("Red Sox", "New York"), but
                # not end with one ("Overturn Bush Rules" of a headline)
                or words[-1].lower() in lower
                or (kind is EntityKind.PERSON and is_known_place(name))):
            continue
        if len(words) > 1 or (name in surnames if kind is EntityKind.PERSON
                              else n >= 3 and len(articles[name]) >= 2):
            names[name] = (kind, label)
    return names


#: What may stand right before a word that opens a sentence or a quotation, besides nothing:
#: an opening quote or bracket, a colon or a dash ("He added: \"Far too little …").
_OPENER_MARKS = frozenset("\"“'‘(:–—-")
#: A capitalised word.
_TITLE_WORD = re.compile(r"\b[A-Z][a-z]+\b")


@dataclass(frozen=True)
class CorpusWords:
    """How the corpus writes its words: in how many articles each is written in lower case
    (web-address lines aside) and in how many capitalised inside a sentence (not opening it
    or a quotation) — what tells a common word from a name."""

    lower: Counter[str]
    inside: Counter[str]

    @classmethod
    def of(cls, extractions: Sequence[Extraction]) -> CorpusWords:
        lower: Counter[str] = Counter()
        inside: Counter[str] = Counter()
        for extraction in extractions:
            text = extraction.document.text
            lower.update(lower_words(text))
            inside.update({word.group().lower() for s in extraction.sentences
                           for word in _TITLE_WORD.finditer(text, s.begin, s.end)
                           if not _opens(text, s.begin, word.start())})
        return cls(lower, inside)

    def common_opener(self, m: Mention, text: str, sentence_begin: int) -> bool:
        """Whether ``m`` is one word that opens a sentence or a quotation and that the corpus
        writes in lower case and never capitalises anywhere else ("Millions of workers will
        lose their jobs", "Far too little has been done"): a common word, capitalised only by
        where it stands. The article's own rule (``kg.extract.entities.sentence_case_words``)
        sees only the article's words; across the corpus, a word one article opens a sentence
        with is written in lower case by another. Not "police" (the article's force,
        ``kg.extract.spans``), nor a word capitalised inside a sentence anywhere ("Next" of
        "shares in Next", "Brown" of "Mr Brown"), nor a description of a person.

        >>> words = CorpusWords(Counter(millions=1, next=1), Counter(next=1))
        >>> def one(name):
        ...     return Mention(0, len(name), name, name, EntityKind.ORGANIZATION, "ORG", 0)
        >>> words.common_opener(one("Millions"), "Millions will lose jobs.", 0)
        True
        >>> words.common_opener(one("Next"), "Next said so.", 0)
        False
        """
        word = _one_word(m)
        return (word is not None and self.lower[word] > 0 and not self.inside[word]
                and _opens(text, sentence_begin, m.begin))

    def fragment(self, m: Mention, text: str, sentence_begin: int) -> bool:
        """Whether ``m`` is one common word of a longer capitalised name the tagger cut:
        "Finding" of the film "Finding Neverland", "Unit" of "the Economist Intelligence
        Unit", "Football" of the game "Football Manager". The word is written next to another
        capitalised word inside a sentence (not "The": "told The Times" is the paper), and
        the corpus writes it in lower case in at least three times as many articles as it
        capitalises it inside a sentence — a word, not a name ("Bush" of "George Bush" is
        capitalised far more often than "bush" is written). Not after an honorific: "Mr
        Cable" and "Ms Short" are people."""
        word = _one_word(m)
        if word is None or self.lower[word] < 2 or self.lower[word] < 3 * self.inside[word]:
            return False
        before = _WORD_BEFORE.search(text, max(sentence_begin, m.begin - _WORD_REACH), m.begin)
        if before is not None and (m.titles or before.group(1).lower().rstrip(".") in HONORIFICS):
            return False  # "Mr Cable", "Ms Short": a surname, however common the word
        if before is not None and before.group(1) != "The" \
                and not _opens(text, sentence_begin, before.start(1)):
            return True
        return _WORD_AFTER.match(text, m.end) is not None


def _one_word(m: Mention) -> str | None:
    """The word, lowercased, of a name written as one capitalised word that the corpus-word
    rules may drop: not a description of a person, not "police" (the article's force)."""
    word = m.text.lower()
    if m.is_description or word == POLICE or not _TITLE_WORD.fullmatch(m.text):
        return None
    return word


def _keeping(extractions: Sequence[Extraction],
             keep: Callable[[Mention, str, int], bool]) -> list[Extraction]:
    """``extractions`` with only the mentions ``keep`` (given the mention, the article's text
    and where the mention's sentence begins) keeps."""
    found = []
    for extraction in extractions:
        text = extraction.document.text
        starts = {s.index: s.begin for s in extraction.sentences}
        kept = tuple(m for m in extraction.mentions
                     if keep(m, text, starts.get(m.sentence, m.begin)))
        found.append(replace(extraction, mentions=kept)
                     if len(kept) < len(extraction.mentions) else extraction)
    return found


#: A capitalised word right before a name, with one space between ("Finding" of "Finding
#: Neverland" is before "Neverland"); and right after one.
_WORD_BEFORE = re.compile(r"\b([A-Z][\w'’-]*) $")
_WORD_AFTER = re.compile(r" ([A-Z][\w'’-]*)\b")
#: How far back the word before a name is looked for: a sentence may be a table's whole line
#: of thousands of characters, and searching it from its start for each name is quadratic.
_WORD_REACH = 100


def _opens(text: str, sentence_begin: int, begin: int) -> bool:
    """Whether the word at ``begin`` opens its sentence (beginning at ``sentence_begin``) or a
    quotation inside it."""
    i = begin  # read back over the white space only, not the whole sentence before
    while i > sentence_begin and text[i - 1].isspace():
        i -= 1
    return i == sentence_begin or text[i - 1] in _OPENER_MARKS


#: Words a tagger's slip may make a name in one article that no other article should repeat:
#: titles ("Sgt"), days and feasts ("Christmas").
_NOT_NAMES = TITLE_NOUNS | HONORIFICS | NATION_DEMONYMS | CALENDAR_WORDS


def not_a_name(word: str) -> bool:
    """Whether a word of a name is no name for other articles to repeat: a title, a day or
    feast, a nationality ("French" of the critic Philip French is the French of "French
    operators" elsewhere), or an acronym's plural ("DVDs").

    >>> [not_a_name(w) for w in ("Sgt", "French", "Turkmen", "DVDs", "Klitschko")]
    [True, True, True, True, False]
    """
    return (word.lower() in _NOT_NAMES or bool(demonym_code(word.lower()))
            or bool(re.fullmatch(r"[A-Z]{2,}s", word)))


_WORD_CHARACTER = re.compile(r"[\w’-]")


def _corpus_mentions(extraction: Extraction, names: dict[str, tuple[EntityKind, str]],
                     by_first: dict[str, list[str]], lower: set[str]) -> list[Mention]:
    """The mentions of ``names`` in ``extraction``'s text (``by_first``: the names by their
    first word in capitals, the longest first)."""
    text = extraction.document.text
    bounds = line_bounds(text)
    taken = [(m.begin, m.end) for m in extraction.mentions]
    taken += [(b, e) for b, e in bounds if is_url_line(text[b:e])]
    name_words = {w for m in extraction.mentions for w in m.name.split()}
    headlines = [(b, e) for b, e in bounds if is_title_case_line(text[b:e])]
    capitals = [(b, e) for b, e in bounds if is_capitals_line(text[b:e])]
    found = []
    for word in CAPITALISED_WORD.finditer(text):
        begin = word.start()
        if begin and (text[begin - 1].isalnum() or text[begin - 1] in "'’-"):
            continue
        candidates = by_first.get(word.group().upper())
        if not candidates:
            continue
        in_capitals = any(b <= begin < e for b, e in capitals)
        for name in candidates:
            end = begin + len(name)
            written = text[begin:end]
            if ((written == name or in_capitals and written == name.upper())
                    and not _WORD_CHARACTER.match(text, end, end + 1)
                    and not any(b < end and begin < e for b, e in taken)):
                alone, title = stands_alone(text, begin, end, name, lower, name_words)
                # a headline's words are all capitalised: "Lohan Checks Into", "RED SOX MAKE"
                if alone or in_capitals or any(b <= begin < e for b, e in headlines):
                    kind, label = names[name]
                    taken.append((begin, end))
                    found.append(in_sentence(Mention(begin, end, written, name, kind, label, 0,
                                                      (title,) if title else ()),
                                              extraction.sentences))
                    break
    return found


# -- the registry's entries, in the order they run --

declare("corpus-names.common-opener", "corpus-names", fn=_without_common_openers,
        reads="a one-word name opening a sentence or quotation, how the corpus writes it",
        writes="drops the Mention",
        description="A one-word name opening a sentence or a quotation that the corpus writes "
                    "in lower case and never capitalises inside a sentence is a common word "
                    "(\"Millions of workers …\"), not \"police\" nor a description.",
        example="\"Blogging is in a strange place,\" she said.\n|||\n"
                "Many firms now use blogging to reach customers.")
declare("corpus-names.fragment", "corpus-names", fn=_without_fragments,
        reads="a one-word name beside another capitalised word, how the corpus writes it",
        writes="drops the Mention",
        description="One common word of a longer capitalised name the tagger cut (\"Unit\" of "
                    "\"the Economist Intelligence Unit\") is dropped where the corpus writes it "
                    "in lower case in three times as many articles as it capitalises it.",
        example="Electronics chain Best Buy missed its sales target.\n|||\n"
                "It was the best year yet.\n|||\nThe best team won.\n|||\nShe did her best.")
declare("corpus-names.found-elsewhere", "corpus-names", fn=_with_names_found_elsewhere,
        reads="the names every article found and how the corpus writes their words",
        writes="a Mention the article's tagger missed",
        description="A name other articles found (a full name, a surname found twice, a name "
                    "of several words, a one-word organisation or place found three times in "
                    "two articles) is a mention wherever an article writes it as a name.",
        example="Coach Rod Macqueen picked his squad.\n|||\n"
                "Woodward's side will face Rod Macqueen's Southern Hemisphere team.")
