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
  ever given out before: keys are readable, never raw text, and never reused.

>>> registry = Registry()
>>> registry.new_key("person", "Vladimir Putin")
'person/vladimir-putin'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kg.errors import BuildError
from kg.ingest import slugify
from kg.names import normalise_name

if TYPE_CHECKING:
    from kg.model import MergeDecision, Resolution
    from kg.resolve import Cluster

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

    def assign(self, clusters: Sequence[Cluster]) -> list[tuple[str, tuple[str, ...]]]:
        """A (key, aliases) pair per cluster, in order; see the module docstring."""
        claims = self._claims(clusters)
        chosen: list[str | None] = [None] * len(clusters)
        owned: dict[int, list[str]] = {}
        for key, (_rank, index) in sorted(claims.items(), key=lambda kv: self.entries[kv[0]].order):
            owned.setdefault(index, []).append(key)
        for index, keys in owned.items():
            chosen[index] = min(keys, key=lambda k: self.entries[k].order)
        taken = {k for k in chosen if k}
        result = []
        for index, cluster in enumerate(clusters):
            key = chosen[index] or self.new_key(cluster.kind.value.lower(), cluster.label, taken)
            taken.add(key)
            result.append((key, self._aliases(key, owned.get(index, []))))
        return result

    def _claims(self, clusters: Sequence[Cluster]) -> dict[str, tuple[tuple[int, ...], int]]:
        """Live key → (rank, index of the cluster with the best claim to it)."""
        by_name: dict[str, set[str]] = {}
        for key, entry in self.entries.items():
            if entry.merged_into is None:
                for name in entry.names:
                    by_name.setdefault(name, set()).add(key)
        best: dict[str, tuple[tuple[int, ...], int]] = {}
        for index, cluster in enumerate(clusters):
            names = {normalise_name(f) for f in cluster.forms}
            for key in set().union(*(by_name.get(n, set()) for n in names)):
                rank = self._rank(key, cluster, names)
                if key not in best or rank > best[key][0]:
                    best[key] = (rank, index)
        return best

    def _rank(self, key: str, cluster: Cluster, names: set[str]) -> tuple[int, ...]:
        entry = self.entries[key]
        same_kind = entry.kind == cluster.kind.value
        return (same_kind, normalise_name(entry.label) in names, len(entry.names & names))

    def _aliases(self, key: str, claimed: list[str]) -> tuple[str, ...]:
        earlier = {k for k, e in self.entries.items() if e.merged_into and self.live(k) == key}
        return tuple(sorted((earlier | set(claimed)) - {key}))

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


def load_registry(out_dir: Path) -> Registry:
    """The registry of ``out_dir`` (empty when there is none yet)."""
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
    """Write the registry and the report of every resolution decision, each atomically."""
    from kg.output import atomic_write_bytes

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
