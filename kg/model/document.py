"""Plain frozen dataclasses that the pipeline stages hand to each other.

    ingest ─▶ Document ─▶ extract ─▶ Extraction (Sentence, Mention, TimeExpression,
              Quantity, …) ─▶ resolve ─▶ Resolution (Entity, MergeDecision) ─▶ rdf

Offsets everywhere are Python ``str`` indices into ``Document.text`` (the decoded text with
line ends normalised to ``\\n``), end exclusive, so ``text[begin:end]`` is always the span.
No stage mutates what it receives.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from enum import StrEnum

from kg.model.facts import Fact
from kg.model.text import TimeExpression


class EntityKind(StrEnum):
    """The four classes of named things kg writes; values are schema.org local names."""

    PERSON = "Person"
    ORGANIZATION = "Organization"
    PLACE = "Place"
    EVENT = "Event"


@dataclass(frozen=True, slots=True)
class ArticleMeta:
    """What a user tells kg about an article besides its text (all optional)."""

    date_published: date | None = None
    title: str | None = None
    source: str | None = None
    url: str | None = None
    identifier: str | None = None
    author: str | None = None  # the byline, as the page or feed writes it
    content: str | None = None  # "full" or "summary": how much of the article a feed gave
    retrieved: datetime | None = None  # when it was fetched or archived (a WARC record's date)
    fetched_from: str | None = None  # the URL it was read from, when not the article's own
    copy_of: str | None = None  # doc_id of the article this one is a near-duplicate of


@dataclass(frozen=True, slots=True)
class Document:
    """One article: its decoded text, where it came from and its metadata.

    >>> Document("a", "a.txt", "Hello.", ArticleMeta(), "0" * 64).text
    'Hello.'
    """

    doc_id: str
    path: str
    text: str
    meta: ArticleMeta
    sha256: str


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence as the parser split it."""

    index: int
    begin: int
    end: int


@dataclass(frozen=True, slots=True)
class Mention:
    """A named-entity mention, trimmed of a leading "the" and a trailing possessive.

    ``name`` is the cleaned surface form (white space folded), ``titles`` the role words
    found before it ("President", "Defence Minister"), kept for the roles extractor. A
    description of a person the article named ("the 40-year-old American") has that person's
    name and the NER label ``DESCRIPTION``: it adds a mention to them, never a name form, a
    class vote or an entity of its own.
    """

    begin: int
    end: int
    text: str
    name: str
    kind: EntityKind
    ner_label: str
    sentence: int
    titles: tuple[str, ...] = ()

    @property
    def is_description(self) -> bool:
        return self.ner_label == DESCRIPTION


#: The NER label of a mention written as a description of someone named ("the challenger").
DESCRIPTION = "DESCRIPTION"


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number in the text, normalised ("1,730" → 1730.0, "five million" → 5000000.0)."""

    begin: int
    end: int
    text: str
    sentence: int
    value: float | None
    qualifier: str | None = None  # "approximately", "at least", "at most", "more than", …
    unit: str | None = None  # the counted noun's lemma ("fighter") or a unit ("percent")


@dataclass(frozen=True, slots=True)
class Extraction:
    """Everything extracted from one document, before cross-document resolution."""

    document: Document
    sentences: tuple[Sentence, ...]
    mentions: tuple[Mention, ...]
    times: tuple[TimeExpression, ...] = ()
    quantities: tuple[Quantity, ...] = ()
    facts: tuple[Fact, ...] = field(default=())  # roles, relations, events, figures, claims

    def sentence_of(self, offset: int) -> Sentence | None:
        """The sentence containing ``offset``, if any."""
        for sentence in self.sentences:
            if sentence.begin <= offset < sentence.end:
                return sentence
        return None


@dataclass(frozen=True, slots=True)
class GeoLink:
    """A place linked to a GeoNames record."""

    geonames_id: int
    name: str
    latitude: float
    longitude: float
    country_code: str
    note: str | None = None
    feature: str = "city"  # "country", "continent" or "city": areas have no single point


#: Fine classes that are no person, organisation, place or event: the coarse class is dropped.
OWN_CLASSES = frozenset({"Product", "Vehicle", "Weapon", "Award"})
#: Works (and laws, which schema.org counts as works): schema:CreativeWork and their own class
#: instead of the coarse one.
WORK_CLASSES = frozenset({"Movie", "TVSeries", "VideoGame", "MusicRecording", "Book",
                          "Legislation"})
#: The fine class of newspapers, broadcasters and agencies: where a story was published.
NEWS_MEDIUM = "NewsMediaOrganization"


@dataclass(frozen=True, slots=True)
class Entity:
    """A resolved real-world thing: one IRI, one canonical label, every surface form."""

    key: str  # IRI path below the data base, e.g. "person/vladimir-putin"
    kind: EntityKind
    label: str
    alt_labels: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()  # earlier keys kept as owl:sameAs after a merge
    geo: GeoLink | None = None
    geo_note: str | None = None  # why a place was left unlinked
    # a finer class the article's own words give ("GovernmentOrganization", "Product"; see
    # kg.resolve.types); a Product is no longer a person, organisation, place or event
    fine_type: str | None = None


@dataclass(frozen=True, slots=True)
class MergeDecision:
    """Why two surface forms were put in one entity (or kept apart)."""

    entity: str  # entity key
    left: str
    right: str
    rule: str
    score: float
    merged: bool = True


MentionRef = tuple[str, int, int]  # (doc_id, begin, end)


@dataclass(frozen=True)
class Resolution:
    """Entities of a whole corpus and which entity each mention refers to."""

    entities: tuple[Entity, ...]
    assignments: dict[MentionRef, str]  # mention → entity key
    decisions: tuple[MergeDecision, ...] = ()

    def entity(self, key: str) -> Entity:
        """The entity with ``key``; raises ``KeyError`` when there is none."""
        return self._by_key()[key]

    def moved(self, entities: Iterable[Entity], keys: Mapping[str, str],
              decisions: Iterable[MergeDecision] | None = None) -> Resolution:
        """A resolution of ``entities`` with every mention and decision (``decisions``, else
        these) of a key in ``keys`` moved to the key it maps to: a renamed or a joined entity.

        >>> r = Resolution((), {("d", 0, 3): "person/x"}, (MergeDecision("person/x", "X", "X",
        ...                "same-name", 1.0),))
        >>> moved = r.moved((), {"person/x": "organization/x"})
        >>> moved.assignments, moved.decisions[0].entity
        ({('d', 0, 3): 'organization/x'}, 'organization/x')
        """
        return Resolution(
            tuple(entities),
            {ref: keys.get(key, key) for ref, key in self.assignments.items()},
            tuple(replace(d, entity=keys.get(d.entity, d.entity))
                  for d in (self.decisions if decisions is None else decisions)))

    def _by_key(self) -> dict[str, Entity]:
        cache = self.__dict__.get("_index")
        if cache is None:
            cache = {e.key: e for e in self.entities}
            object.__setattr__(self, "_index", cache)
        return cache
