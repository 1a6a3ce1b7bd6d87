"""Entity spans the tagger cut that a general rule makes whole, before cleaning.

* **an acronym's expansion in brackets** ("Asimo (Advanced Step in Innovative Mobility)", "the
  Widget Standards in Broadcasting (WSB)"): the tagger ends names at a lowercase "in" or "of"
  and kept "Advanced Step" apart. When the capitalised words' first letters (or the first few
  letters of each: "Ofcom" is "Office of Communications") spell the acronym, the whole
  bracketed or bracketing phrase is one name, of the class of the name written first; the
  resolver joins the two (``kg.resolve.document.attach_expansions``).
* **a surname particle** ("Ursula von der Leyen", "Frans van Houten", "Leonardo da Vinci"):
  the tagger ends or starts a name at a lowercase "von", "van", "da" (`surname-particles.txt`)
  and made "Ursula" a place and "Frans" a MISC word; a capitalised proper noun, lowercase
  particles and a capitalised word are one person when the tagger read a person on either side
  and no organisation, work or event on them ("Tour de France" stays); not after an initial
  or a title ("R de Marigny", "President da Silva": other rules read those).
* **"police" of a named force**: where the article names one police force ("the Tarnow
  Police Department", "Vancouver Police" after a place the tagger ended before "Police", a US
  department's acronym "NYPD"), "police" and "Police" standing alone (not "police officers",
  not in a longer name: "the Crime and Police Bill") are mentions of it; the resolver joins
  them to it (``attach_descriptions``). With no force named, or two, they stay no mention:
  the tagger's own "police" is no name, and no article's bare "police" is another's.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

from kg.lexicon import word_list
from kg.lexicon.countries import demonym_code
from kg.lexicon.words import ACRONYM_SKIP, TITLE_NOUNS

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

#: Labels of spans an expansion may replace or join.
NAME_LABELS = frozenset({"PERSON", "ORG", "GPE", "LOC", "FAC", "NORP", "PRODUCT", "EVENT",
                         "WORK_OF_ART"})
#: Most words an expansion has ("American Association for the Advancement of Science").
MAX_EXPANSION = 10


def spells(acronym: str, words: Sequence[str]) -> bool:
    """Whether ``acronym`` is spelled, in order, by a non-empty start of each capitalised word
    of ``words`` (function words skipped; at least two such words).

    >>> spells("ICRC", "International Committee of the Red Cross".split())
    True
    >>> spells("Asimo", "Advanced Step in Innovative Mobility".split())
    True
    >>> spells("BBC", "Bank of Canada".split())
    False
    """
    content = [w.lower() for w in words if w.lower() not in ACRONYM_SKIP]
    if len(content) < 2 or not all(w[:1].isupper() for w in words
                                   if w.lower() not in ACRONYM_SKIP):
        return False
    return _spelled(acronym.lower().replace(".", ""), tuple(content))


@lru_cache(maxsize=4096)
def _spelled(letters: str, words: tuple[str, ...]) -> bool:
    if not words:
        return not letters
    head, rest = words[0], words[1:]
    return any(letters[:n] == head[:n] and _spelled(letters[n:], rest)
               for n in range(1, min(len(head), len(letters) - len(rest)) + 1))


def _is_acronym_token(text: str) -> bool:
    """A one-word name an expansion can spell: letters only, capitalised, 2-8 long."""
    bare = text.replace(".", "")
    return 2 <= len(bare) <= 8 and bare.isalpha() and bare[0].isupper()


def _expansion_words(doc: Doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` are capitalised words and spelling's function words only."""
    return 2 <= end - start <= MAX_EXPANSION and all(
        t.is_title or t.is_upper or t.lower_ in ACRONYM_SKIP for t in doc[start:end]
    ) and doc[start].lower_ not in ACRONYM_SKIP and doc[end - 1].lower_ not in ACRONYM_SKIP


def bracketed_expansions(doc: Doc) -> list[tuple[int, int, int]]:
    """Acronyms and their expansions around brackets, as (start, end, acronym token): "Asimo
    (Advanced Step in Innovative Mobility)" gives the bracket's words, "Widget Standards in
    Broadcasting (WSB)" the words before the bracket."""
    found = []
    for open_ in (t for t in doc if t.text == "("):
        i = open_.i
        close = next((t.i for t in doc[i + 1 : i + MAX_EXPANSION + 2] if t.text == ")"), None)
        if close is None:
            continue
        if i > 0 and _is_acronym_token(doc[i - 1].text) and _expansion_words(doc, i + 1, close):
            if spells(doc[i - 1].text, [t.text for t in doc[i + 1 : close]]):
                found.append((i + 1, close, i - 1))
        elif close == i + 2 and doc[i + 1].is_upper and _is_acronym_token(doc[i + 1].text):
            for start in range(max(0, i - MAX_EXPANSION), i - 1):
                if (_expansion_words(doc, start, i)
                        and spells(doc[i + 1].text, [t.text for t in doc[start:i]])):
                    found.append((start, i, i + 1))
                    break
    return found


def expansions_joined(doc: Doc, ents: Sequence[Span]) -> list[Span]:
    """``ents`` with each bracketed acronym expansion one span, labelled as the name before
    the brackets: the acronym ("Asimo (…)"), else the expansion's first part ("… (WSB)")."""
    from spacy.tokens import Span

    result = list(ents)
    for start, end, acronym in bracketed_expansions(doc):
        inside = [e for e in result if e.start < end and e.end > start]
        if not inside or any(e.start < start or e.end > end for e in inside):
            continue  # nothing tagged there, or a name running out of the phrase
        if len(inside) == 1 and (inside[0].start, inside[0].end) == (start, end):
            continue  # already whole: its class stays the tagger's
        if any(e.label_ not in NAME_LABELS for e in inside):
            continue
        own = doc[acronym].ent_type_  # the name before the brackets is the one written first
        label = own if own in NAME_LABELS and acronym < start else inside[0].label_
        result = [e for e in result if e not in inside] + [Span(doc, start, end, label=label)]
    return sorted(result, key=lambda e: e.start)


#: The word a police force's name holds and its bare description is.
POLICE = "police"
#: Dependencies of a "police" that modifies another noun ("police officers", "police car").
MODIFIER_DEPS = frozenset({"compound", "amod", "nmod"})
#: Labels of the place a force is named by ("Vancouver Police", "Greek Police").
FORCE_PLACE_LABELS = frozenset({"GPE", "LOC", "NORP"})
#: Dependencies of a place that stands for itself, not for its police ("In Athens Police
#: fired", "Athens, Police said").
PLACE_ARGUMENT_DEPS = frozenset({"pobj", "nsubj", "nsubjpass", "dobj", "conj", "appos"})
#: What may follow "police" in a force's name: nothing, "Department", "Service", "Force".
FORCE_ENDINGS = frozenset({(), *((w,) for w in word_list("force-name-endings"))})
#: Fewest letters of a police department's acronym ("NYPD", "LAPD"; not "SPD", a party).
FORCE_ACRONYM_LETTERS = 4


def place_forces(doc: Doc, ents: Sequence[Span]) -> list[Span]:
    """``ents`` with each place written right before "Police" ("according to Vancouver Police
    spokesperson …", "Greek Police Clash With …") one ORG span: the force's name, which the
    tagger ended at the place. Only a place the tagger found (a nationality only when it names
    a country) that qualifies the word, not one that stands for itself ("In Athens Police
    fired …"). A lower-case "Athens police" is left a place and a group, as news NER
    conventions have it (CoNLL-2003 tags only "Athens")."""
    from spacy.tokens import Span

    result = []
    for ent in ents:
        after = doc[ent.end] if ent.end < len(doc) else None
        if (after is not None and after.lower_ == POLICE and after.is_title and not after.ent_type_
                and ent.label_ in FORCE_PLACE_LABELS and ent[-1].dep_ not in PLACE_ARGUMENT_DEPS
                and all(t.is_title or t.is_upper for t in ent if t.is_alpha)
                and (ent.label_ != "NORP" or demonym_code(ent.text) is not None)):
            result.append(Span(doc, ent.start, ent.end + 1, label="ORG"))
        else:
            result.append(ent)
    return result


def is_force_acronym(text: str) -> bool:
    """Whether ``text`` is a police department's acronym ("NYPD", "LAPD").

    >>> is_force_acronym("NYPD"), is_force_acronym("SPD"), is_force_acronym("Nypd")
    (True, False, False)
    """
    return (len(text) >= FORCE_ACRONYM_LETTERS and text.isalpha() and text.isupper()
            and text.endswith("PD"))


def named_force(ents: Sequence[Span]) -> str | None:
    """The one police force the document names ("Tarnow Police", "Tarnow Police Department",
    "NYPD"), else ``None``: no name of a force, two, or a name with "Police" that is no force
    ("the Police Federation", "Police Authority", a headline's "Teen Shot By Police"). A name
    written also in capitals ("VANCOUVER POLICE") or by its acronym ("NYPD" of "New York
    Police Department") is one force, and "the Police Department" beside it none."""
    named: dict[str, Span] = {}
    for e in ents:
        if e.label_ == "ORG" and (len(e) > 1 and any(t.lower_ == POLICE and t.is_title for t in e)
                                  or is_force_acronym(e.text)) \
                and not is_force_description([t.lower_ for t in e]):
            named.setdefault(e.text.lower(), e)
    acronyms = [name for name, e in named.items() if is_force_acronym(e.text)]
    for name in acronyms:
        if any(spells(named[name].text, e.text.split()) for e in named.values() if len(e) > 1):
            del named[name]  # "NYPD" beside the "New York Police Department"
    if len(named) != 1:
        return None
    (span,) = named.values()
    if is_force_acronym(span.text):
        return span.text
    at = next(t.i for t in span if t.lower_ == POLICE)
    place = span.doc[span.start : at]  # "Tarnow"; not a headline's "Teen Shot By Police"
    return span.text if len(place) and not any(t.is_stop for t in place) \
        and _force_ending(span, at) else None


def _force_ending(span: Span, at: int) -> bool:
    """Whether the words after "police" (token ``at``) end a force's name: none,
    "Department", "Service" or "Force" — not "Federation", "Authority"."""
    return tuple(t.lower_ for t in span.doc[at + 1 : span.end]) in FORCE_ENDINGS


def is_force_description(words: Sequence[str]) -> bool:
    """Whether lower-case words (a leading "the" aside) are the description of a force the
    article names otherwise: "police", "(the) Police Department", "… Service", "… Force"
    (not "Police Scotland").

    >>> is_force_description(["the", "police", "department"]), is_force_description(
    ...     ["police", "scotland"])
    (True, False)
    """
    i = 0
    while i < len(words) and words[i] == "the":
        i += 1
    return tuple(words[i : i + 1]) == (POLICE,) and tuple(words[i + 1 :]) in FORCE_ENDINGS


def with_force_descriptions(doc: Doc, ents: Sequence[Span]) -> list[Span]:
    """``ents`` with each place's police one name of the force (``place_forces``) and, where
    the document names one police force, each "police" standing alone outside them as an ORG
    span (see the module docstring)."""
    from spacy.tokens import Span

    ents = place_forces(doc, ents)
    if named_force(ents) is None:
        return ents
    added = [Span(doc, t.i, t.i + 1, label="ORG") for t in doc
             if t.lower_ == POLICE and not t.ent_type_ and t.dep_ not in MODIFIER_DEPS
             and not any(e.start <= t.i < e.end for e in ents)
             and not (t.i + 1 < len(doc) and doc[t.i + 1].is_title)]  # "… and Police Bill"
    return sorted([*ents, *added], key=lambda e: e.start)


#: Lowercase words inside a person's name ("von der", "van", "da", "bin").
SURNAME_PARTICLES = word_list("surname-particles")
#: Labels a given name may wrongly carry before a particle ("Ursula" GPE, "Frans" MISC).
GIVEN_NAME_LABELS = frozenset({"PERSON", "GPE", "LOC", "MISC", "NORP", ""})


def particle_joined(doc: Doc, ents: Sequence[Span]) -> list[Span]:
    """``ents`` with each name cut at a surname particle one PERSON span (see the module
    docstring)."""
    from spacy.tokens import Span

    result = list(ents)
    for first, last in _particle_names(doc):
        parts = [e for e in result if e.start <= last and e.end > first]
        labels = {e.label_ for e in parts}
        whole = len(parts) == 1 and parts[0].start <= first and parts[0].end > last
        if whole or "PERSON" not in labels or not labels <= GIVEN_NAME_LABELS:
            continue  # already whole, no person on either side, or an organisation's word
        start = min(first, *(e.start for e in parts))
        end = max(last + 1, *(e.end for e in parts))
        result = [e for e in result if e not in parts] + [Span(doc, start, end, label="PERSON")]
    return sorted(result, key=lambda e: e.start)


def _particle_names(doc: Doc) -> list[tuple[int, int]]:
    """(first, last) token of each "Name particle… Name" run."""
    found = []
    words = [t.text for t in doc]  # a Token is made only where a particle is
    i = 1
    while i < len(words) - 1:
        j = i
        while j < len(words) - 1 and words[j] in SURNAME_PARTICLES:
            j += 1
        if j == i:
            i += 1
            continue
        before, after = doc[i - 1], doc[j]
        if (before.is_title and after.is_title
                and (before.pos_ == "PROPN" or before.ent_type_)  # not "Yesterday de …"
                and len(before.text.rstrip(".")) > 1  # "R de Marigny": the initial rule's
                and before.lower_.rstrip(".") not in TITLE_NOUNS):  # "President da Silva"
            found.append((i - 1, j))
        i = j + 1
    return found
