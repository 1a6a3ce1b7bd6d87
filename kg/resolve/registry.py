"""Stable entity keys: the names each key was given for, kept between builds.

A build reads ``<out_dir>/.kg/entities.json`` before resolving and writes it back after, so
adding articles never renames an entity:

* a cluster whose names were known keeps the key they had (the key whose label it carries
  wins, then the key sharing most names, then the oldest); a cluster of the same class is
  preferred over one whose class changed;
* a cluster that takes over several earlier keys keeps the oldest and lists the others as
  ``Entity.aliases`` (written as ``owl:sameAs``); the registry remembers the merge, so the
  alias stays on later builds;
* a new cluster gets ``<class>/<slug of its label>``, or ``…-2``, ``…-3`` when that key was
  ever given out before: keys are readable, never raw text, and never reused. The class is the
  one the entity ends with (``with_class_keys``): "Yukos", tagged a person but called an oil
  company by its articles, is ``organization/yukos``; a film, book or law is ``work/…``, an
  award ``award/…``, a product, weapon or vehicle ``product/…``. A key given out before
  keeps its class word when the class changes later: IRIs never move.

>>> registry = Registry()
>>> registry.new_key("person", "Vladimir Putin")
'person/vladimir-putin'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kg.atomic import atomic_write_bytes
from kg.errors import BuildError
from kg.ingest.files import slugify
from kg.model import (
    OWN_CLASSES,
    WORK_CLASSES,
    Entity,
    MergeDecision,
    Resolution,
)
from kg.resolve.clusters import Cluster
from kg.resolve.names import normalise_name

REGISTRY_PATH = Path(".kg") / "entities.json"
REPORT_PATH = Path(".kg") / "resolution.json"
FORMAT_VERSION = 1


@dataclass
class Entry:
    """What the registry remembers of one key."""

    kind: str
    label: str
    names: set[str]
    order: int  # when the key was first given out
    merged_into: str | None = None


@dataclass
class Registry:
    """Key → entry, for every key ever given out in one output folder."""

    entries: dict[str, Entry] = field(default_factory=dict)

    def live(self, key: str) -> str:
        """The key that ``key`` was merged into (itself when it never was)."""
        seen = set()
        while (target := self.entries[key].merged_into) and key not in seen:
            seen.add(key)
            key = target
        return key

    def new_key(self, kind: str, label: str, taken: set[str] | frozenset[str] = frozenset()
                ) -> str:
        """A key never given out before: ``kind/slug``, else with ``-2``, ``-3`` …"""
        base = f"{kind}/{slugify(label)}"
        key, n = base, 1
        while key in self.entries or key in taken:
            n += 1
            key = f"{base}-{n}"
        return key

    def with_class_keys(self, resolution: Resolution) -> Resolution:
        """``resolution`` with each key new to this registry renamed after the class its
        entity ended with (``key_class``), where resolution gave it another: keys are minted
        before the words around the mentions retype an entity (``kg.resolve.types``)."""
        taken = set(self.entries) | {e.key for e in resolution.entities}
        renamed: dict[str, str] = {}
        for entity in resolution.entities:
            kind = key_class(entity)
            if entity.key not in self.entries and entity.key.split("/")[0] != kind:
                renamed[entity.key] = self.new_key(kind, entity.label, taken)
                taken.add(renamed[entity.key])
        if not renamed:
            return resolution
        return resolution.moved(sorted((replace(e, key=renamed.get(e.key, e.key))
                                        for e in resolution.entities), key=lambda e: e.key),
                                renamed)

    def assign(self, clusters: Sequence[Cluster]) -> list[tuple[str, tuple[str, ...]]]:
        """A (key, aliases) pair per cluster, in order; see the module docstring."""
        owned = self._owners(clusters)
        taken = {keys[0] for keys in owned.values()}
        merged = self._merged_keys()
        result = []
        for index, cluster in enumerate(clusters):
            keys = owned.get(index) or [
                self.new_key(cluster.kind.value.lower(), cluster.label, taken)]
            taken.add(keys[0])
            aliases = (merged.get(keys[0], set()) | set(keys)) - {keys[0]}
            result.append((keys[0], tuple(sorted(aliases))))
        return result

    def _owners(self, clusters: Sequence[Cluster]) -> dict[int, list[str]]:
        """Cluster index → the live keys it takes over, oldest first. Each key goes to its
        best claimant; of equal claimants, to one that has no key yet (two clusters of the
        same bare name from two articles keep their two keys)."""
        claims = self._claims(clusters)
        owned: dict[int, list[str]] = {}
        for key in sorted(claims, key=lambda k: self.entries[k].order):
            ranked = sorted(claims[key], key=lambda ri: (ri[0], ri[1] not in owned, -ri[1]))
            owned.setdefault(ranked[-1][1], []).append(key)
        return owned

    def _claims(self, clusters: Sequence[Cluster]) -> dict[str, list[tuple[tuple[int, ...], int]]]:
        """Live key → (rank, cluster index) of every cluster sharing a name with it."""
        by_name: dict[str, set[str]] = {}
        for key, entry in self.entries.items():
            if entry.merged_into is None:
                for name in entry.names:
                    by_name.setdefault(name, set()).add(key)
        claims: dict[str, list[tuple[tuple[int, ...], int]]] = {}
        for index, cluster in enumerate(clusters):
            names = {normalise_name(f) for f in cluster.forms}
            for key in set().union(*(by_name.get(n, set()) for n in names)):
                claims.setdefault(key, []).append((self._rank(key, cluster, names), index))
        return claims

    def _rank(self, key: str, cluster: Cluster, names: set[str]) -> tuple[int, ...]:
        # Same class, then the very label, then the label among the names, then overlap
        # (per mille of the names of both, so "Smith" does not go to "Adam Smith").
        entry = self.entries[key]
        label = normalise_name(entry.label)
        overlap = 1000 * len(entry.names & names) // len(entry.names | names)
        return (entry.kind == cluster.kind.value, label == normalise_name(cluster.label),
                label in names, overlap)

    def _merged_keys(self) -> dict[str, set[str]]:
        """Live key → the earlier keys merged into it."""
        found: dict[str, set[str]] = {}
        for key, entry in self.entries.items():
            if entry.merged_into:
                found.setdefault(self.live(key), set()).add(key)
        return found

    def updated(self, resolution: Resolution) -> Registry:
        """This registry plus the keys, names and merges of ``resolution``."""
        entries = {k: Entry(e.kind, e.label, set(e.names), e.order, e.merged_into)
                   for k, e in self.entries.items()}
        for entity in resolution.entities:
            names = {normalise_name(n) for n in (entity.label, *entity.alt_labels)}
            entry = entries.get(entity.key)
            if entry is None:
                entry = entries[entity.key] = Entry(entity.kind.value, entity.label, set(),
                                                    len(entries))
            entry.names |= names
            entry.label, entry.merged_into = entity.label, None
            for alias in entity.aliases:
                entries[alias].merged_into = entity.key
        return Registry(entries)


def key_class(entity: Entity) -> str:
    """The class word of a new key for ``entity``: "work" for a film, book or law, "award",
    "product" for a product, weapon or vehicle, else its class ("person", "organization",
    "place", "event").

    >>> from kg.model import EntityKind
    >>> key_class(Entity("person/doom", EntityKind.PERSON, "Doom", fine_type="VideoGame"))
    'work'
    >>> key_class(Entity("person/yukos", EntityKind.ORGANIZATION, "Yukos"))
    'organization'
    """
    if entity.fine_type in WORK_CLASSES:
        return "work"
    if entity.fine_type in OWN_CLASSES:
        return "award" if entity.fine_type == "Award" else "product"
    return entity.kind.value.lower()


def load_registry(out_dir: Path) -> Registry:
    """The registry of ``out_dir`` (empty when there is none yet).

    >>> import tempfile
    >>> load_registry(Path(tempfile.mkdtemp())).entries
    {}
    """
    path = Path(out_dir) / REGISTRY_PATH
    if not path.exists():
        return Registry()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Registry({key: _entry(value) for key, value in data["entities"].items()})
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise BuildError(f"entity registry {path} is unreadable ({e}); move it away to "
                         "start afresh (existing IRIs may then change)") from e


def _entry(value: dict[str, Any]) -> Entry:
    return Entry(str(value["kind"]), str(value["label"]), set(value["names"]),
                 int(value["order"]), value.get("merged_into"))


def save_registry(out_dir: Path, registry: Registry, resolution: Resolution) -> None:
    """Write the registry and the report of every resolution decision, each atomically.

    >>> import tempfile; from kg.model import Resolution
    >>> out = Path(tempfile.mkdtemp()); save_registry(out, Registry(), Resolution((), {}))
    >>> load_registry(out).entries
    {}
    """

    folder = Path(out_dir) / REGISTRY_PATH.parent
    folder.mkdir(parents=True, exist_ok=True)
    entities = {key: {"kind": e.kind, "label": e.label, "names": sorted(e.names),
                      "order": e.order, "merged_into": e.merged_into}
                for key, e in sorted(registry.entries.items())}
    document = {"version": FORMAT_VERSION, "entities": entities}
    atomic_write_bytes(Path(out_dir) / REGISTRY_PATH, _json(document))
    report = {"version": FORMAT_VERSION,
              "decisions": [_decision(d) for d in resolution.decisions]}
    atomic_write_bytes(Path(out_dir) / REPORT_PATH, _json(report))


def _decision(d: MergeDecision) -> dict[str, Any]:
    return {"entity": d.entity, "left": d.left, "right": d.right, "rule": d.rule,
            "score": d.score, "merged": d.merged}


def _json(document: dict[str, Any]) -> bytes:
    return (json.dumps(document, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode()
