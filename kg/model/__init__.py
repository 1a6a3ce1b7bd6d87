"""The stage contracts: plain frozen dataclasses that the pipeline stages hand to each other.

    ingest ─▶ Document ─▶ extract ─▶ Extraction (Sentence, Mention, TimeExpression,
              Quantity, Fact …) ─▶ resolve ─▶ Resolution (Entity, MergeDecision) ─▶ rdf

>>> from kg.model import Span
>>> Span(0, 5, "Paris").end
5
"""

from kg.model.document import (
    DESCRIPTION,
    NEWS_MEDIUM,
    OWN_CLASSES,
    WORK_CLASSES,
    ArticleMeta,
    Document,
    Entity,
    EntityKind,
    Extraction,
    GeoLink,
    Mention,
    MentionRef,
    MergeDecision,
    Quantity,
    Resolution,
    Sentence,
)
from kg.model.facts import (
    Claim,
    ClaimKind,
    Country,
    Event,
    EventType,
    Evidence,
    Fact,
    Figure,
    Measure,
    Membership,
    Party,
    PartyKind,
    Relation,
    RelationKind,
    within,
)
from kg.model.text import Span, TimeExpression

__all__ = [
    "DESCRIPTION", "NEWS_MEDIUM", "OWN_CLASSES", "WORK_CLASSES", "ArticleMeta", "Claim",
    "ClaimKind", "Country", "Document", "Entity",
    "EntityKind", "Event", "EventType", "Evidence", "Extraction", "Fact", "Figure", "GeoLink",
    "Measure", "Membership",
    "Mention", "MentionRef", "MergeDecision", "Party", "PartyKind", "Quantity", "Relation",
    "RelationKind", "Resolution", "Sentence", "Span", "TimeExpression", "within",
]
