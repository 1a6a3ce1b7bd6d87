"""Fact rules over a parsed chunk: roles, relations, figures, events and claims.

``facts_of`` is the one entry point; ``kg.extract.collect`` calls it per chunk with the chunk's
mentions and time expressions (document offsets) and gets ``kg.model`` objects back.

>>> from kg.extract import load_pipeline, extract_document  # doctest: +SKIP
>>> from kg.ingest.files import document_from_text  # doctest: +SKIP
>>> doc = document_from_text("Russian President Vladimir Putin spoke.")  # doctest: +SKIP
>>> extract_document(load_pipeline(), doc).facts[0].role  # doctest: +SKIP
'President'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kg.extract.rules.claims import claims_of
from kg.extract.rules.context import FactContext
from kg.extract.rules.events import events_of
from kg.extract.rules.figures import figures_of
from kg.extract.rules.registry import Rule, kept, registered_rules
from kg.extract.rules.relations import relations_of
from kg.extract.rules.roles import memberships_of
from kg.extract.rules.signals import with_signals
from kg.model import Fact, Mention, TimeExpression

if TYPE_CHECKING:
    from spacy.tokens import Doc

    from kg.extract.frame import ChunkFrame

__all__ = ["Rule", "all_rules", "facts_of"]


def facts_of(
    doc: Doc, frame: ChunkFrame, mentions: Sequence[Mention], times: Sequence[TimeExpression]
) -> list[Fact]:
    """All facts of one parsed chunk, with document offsets."""
    ctx = FactContext(doc, frame, mentions, times)
    figures = list(kept(figures_of(ctx)))
    found: list[Fact] = [*memberships_of(ctx), *kept(relations_of(ctx)), *figures]
    found += kept(events_of(ctx, figures))
    found += kept(claims_of(ctx))
    return [with_signals(ctx, fact) for fact in found]


def all_rules() -> tuple[Rule, ...]:
    """Every extraction rule, as declared in the rule modules (all imported above).

    >>> "role.title-before-name" in {r.id for r in all_rules()}
    True
    """
    return registered_rules()
