"""One hand-written article and the resolution a test of the type vote starts from: each name
found once, in order, with the key and class the test gives it."""

from __future__ import annotations

from collections.abc import Callable

from kg.ingest.files import document_from_text
from kg.model import Entity, EntityKind, Extraction, GeoLink, Mention, Resolution, Sentence

#: Which names GeoNames "knows": (name, key, class) → a link or None.
GeoOf = Callable[[str, str, EntityKind], GeoLink | None]


def every_place_known(name: str, key: str, kind: EntityKind) -> GeoLink | None:
    """Every place is a place GeoNames knows."""
    return GeoLink(1, name, 1.0, 1.0, "XX") if kind is EntityKind.PLACE else None


def one_article(text: str, names: list[tuple[str, EntityKind, str]],
                geo_of: GeoOf = every_place_known) -> tuple[Resolution, list[Extraction]]:
    """``text`` as one article whose mentions are ``names`` (name, class, entity key), each
    found after the one before; a place GeoNames does not know carries the resolver's note."""
    document = document_from_text(text, path="a.txt")
    mentions, entities, assignments = [], [], {}
    start = 0
    for name, kind, key in names:
        begin = text.index(name, start)
        start = begin + len(name)
        mentions.append(Mention(begin, begin + len(name), name, name, kind, kind.name, 0))
        assignments[(document.doc_id, begin, begin + len(name))] = key
        if key not in {e.key for e in entities}:
            geo = geo_of(name, key, kind)
            note = "not in GeoNames" if kind is EntityKind.PLACE and geo is None else None
            entities.append(Entity(key, kind, name, geo=geo, geo_note=note))
    extraction = Extraction(document, (Sentence(0, 0, len(text)),), tuple(mentions))
    return Resolution(tuple(entities), assignments), [extraction]
