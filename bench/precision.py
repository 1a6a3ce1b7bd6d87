"""Precision of what kg states, judged against the sentence (issue 16, item 1).

Builds a fixed, seeded sample of BBC articles from ../shared/corpora/bbc, samples rows of each
named question and of the entities with a fixed seed, and scores them against the judged set in
tests/eval/precision/ (JSON Lines, one file per kind: the sentence, the output row, the
judgement per field and overall, and why):

    python bench/precision.py [--articles 400] [--out bench/work/precision] [--write-unjudged]
    python bench/precision.py --seed 3501 --fresh --half both --sample first-look-1 \
        --out bench/work/precision-fresh-3501

``--seed`` chooses the articles and orders the rows (16 is kg's own, tuned-on sample);
``--fresh`` chooses only articles that no judged row names, that no other first look pinned
(``samples/TAG.txt``) and that are not in the seed-16 sample (a *first look*: text no rule was
written on; the rows judged for its own ``--sample`` do not count, so a first look is drawn
again the same after its rows were judged); ``--half
tune|check|both`` reports each half of ``bench/halves.py`` by article, every kind sampled again
from that half's articles alone (its rows; the entities of its mentions); ``--sample TAG``
scores against the judged rows of one sample only (the rows judged on kg's own seed-16 sample
carry no tag: ``seed-16``, the default for seed 16) and tags the unjudged rows it writes, so
each first look keeps its own figures (an entity row is keyed by class and label alone, so it
must be judged per sample); ``--rows N`` samples N rows of each fact kind instead of 40.

``--corpus conll`` draws CoNLL-2003's training documents instead (Reuters newswire of 1996,
``bench/conll.py``; no fact rule was written on them): written as text files under
``<out>/docs/conll-train-N.txt`` (article ``conll-train-N``, halved as ``conll-train:N``),
every one qualifying as fresh but those a judged row of another sample names. Reuters' text
is never committed: a judged row of it is stored ``redacted`` (no sentence, a long output
field as its digest) and scored by its key alone.

A judged row is keyed by article + sentence + output (entities: class + label), so a judgement
stays valid while the output it judged is still produced; a changed output is a new row, listed
as "not judged" (``--write-unjudged`` writes them to <out>/unjudged-<kind>.jsonl, ready to be
judged and appended). Rows are sampled in the order of a seeded hash of their key, so a change
of the build changes the sample only where its output changed. Precision per kind is over the
sampled rows the judged set covers.

Kinds: people-roles, claims, events (one row each), conflicting-figures (one row per measured
thing, all its values), entities-top (the 60 most-mentioned entities), entities-random (40
others), split-entities (candidate groups among the top 200 entities: one real thing under two
IRIs? — counted, not a precision), entity-merges (each of the top 60: do its mentions merge
different real things? — counted).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT_ROOT))

from bench.conll import CONLL, conll_id, conll_texts  # noqa: E402
from bench.halves import half, unit  # noqa: E402
from kg.rdf.terms import ENTITY_CLASSES  # noqa: E402

CORPUS = PROJECT_ROOT.parent / "shared" / "corpora" / "bbc"
CONLL_TRAIN = CONLL / "train.txt"
#: The corpora a sample is drawn from, by --corpus (CoNLL: its training file's documents).
CORPORA = {"bbc": "BBC", "conll": "CoNLL-2003 train"}
#: A judged row of Reuters' text keeps no output field longer than this many words.
SHORT = 6
JUDGED_DIR = PROJECT_ROOT / "tests" / "eval" / "precision"
#: The articles each first look drew, by its --sample tag, one id a line: a first look drawn
#: again reads them here, since a row judged later on an article no sample named before shifts
#: a fresh draw.
SAMPLES_DIR = JUDGED_DIR / "samples"
SEED = 16
ARTICLES = 400
ROWS = 40
#: Seconds one query may take: a 400-article graph on a loaded shared machine needs more than
#: the interactive default.
QUERY_TIMEOUT = 900.0
TOP, TOP_POOL = 60, 200
ROW_KINDS = ("people-roles", "claims", "events", "conflicting-figures")
ENTITY_KINDS = ("entities-top", "entities-random", "split-entities", "entity-merges")
KINDS = ROW_KINDS + ENTITY_KINDS
#: The kinds judged by a count of groups, not a precision: the verdict field each is judged by.
COUNTED = {"split-entities": "split", "entity-merges": "merged"}
#: The sample the judged rows without a ``sample`` tag belong to (kg's own, tuned on).
OWN_SAMPLE = "seed-16"
HALVES = ("tune", "check")

#: The output fields a row is keyed and judged by (the rest is context for the judge).
FIELDS = {
    "people-roles": ("person", "role", "organization", "former"),
    "claims": ("speaker", "speakerText", "cue", "kind", "text", "quantities"),
    "events": ("type", "trigger", "agents", "patients", "places", "date"),
    "conflicting-figures": ("measure", "values"),
}

#: Every entity, by the one class of ``ENTITY_CLASSES`` it has (a film as schema:CreativeWork,
#: an award as kg:Award: each class kg gives entities is sampled and judged).
ENTITY_QUERY = """
SELECT ?entity ?label ?type ?mention ?text ?article ?sentence WHERE {
  ?mention itsrdf:taIdentRef ?entity ; nif:anchorOf ?text ; nif:referenceContext ?article ;
           nif:sentence/nif:anchorOf ?sentence .
  ?entity rdfs:label ?label ; a ?type .
  FILTER (?type IN (CLASSES))
}""".replace("CLASSES", ", ".join(f"<{iri}>" for iri in ENTITY_CLASSES))


# -- the sample ----------------------------------------------------------------------------

def choose_articles(folder: Path = CORPUS, n: int = ARTICLES, seed: int = SEED,
                    exclude: Iterable[Path] = ()) -> list[Path]:
    """``n`` distinct articles of ``folder``, chosen with a fixed seed (duplicates dropped, and
    every article whose text is that of an ``exclude``d one)."""
    seen = {_digest_of(path) for path in exclude}
    distinct = []
    for path in sorted(folder.glob("*.txt")):
        digest = _digest_of(path)
        if digest not in seen:
            seen.add(digest)
            distinct.append(path)
    return sorted(random.Random(seed).sample(distinct, min(n, len(distinct))))


def fresh_articles(folder: Path = CORPUS, n: int = ARTICLES, seed: int = SEED,
                   judged: dict[str, dict[str, Any]] | None = None,
                   own: int = ARTICLES, sample_tag: str | None = None,
                   pins: Path | None = None) -> list[Path]:
    """``n`` articles of ``folder`` no rule was tuned on: none that a judged row names, none
    that another first look pinned (``pins``: an article whose only judged rows are entity
    rows is named by none), none of kg's own sample (``own`` articles, seed 16) — a first look
    (issue 35). The rows judged for ``sample_tag`` itself do not count, so a first look drawn
    again after its rows were judged (to judge the rows a rule change made new) is the same
    articles."""
    judged = load_judged() if judged is None else judged
    named = {a for row in judged.values() for a in row.get("article", "").split(",")
             if a.startswith("bbc-") and (sample_tag is None or
                                          row.get("sample", OWN_SAMPLE) != sample_tag)}
    named |= {a for a in pinned_ids(pins, sample_tag) if a.startswith("bbc-")}
    seen = [article_path(a, folder) for a in sorted(named)]
    own_sample = choose_articles(folder, own, SEED)
    return choose_articles(folder, n, seed, exclude=[p for p in seen + own_sample if p.is_file()])


def conll_articles(out: Path, n: int = ARTICLES, seed: int = SEED,
                   judged: dict[str, dict[str, Any]] | None = None,
                   sample_tag: str | None = None, texts: Sequence[str] | None = None,
                   pins: Path | None = None) -> list[Path]:
    """``n`` distinct documents of CoNLL-2003's training file chosen with ``seed``, none that
    a judged row of another sample than ``sample_tag`` names (with ``judged``) and none that
    another first look pinned (with ``pins``: every document it drew, judged rows or not), as
    paths under ``out/docs`` (``conll-train-N.txt``; ``materialise`` writes them)."""
    texts = conll_texts(CONLL_TRAIN) if texts is None else texts
    named = {a for row in (judged or {}).values() for a in row.get("article", "").split(",")
             if sample_tag is None or row.get("sample", OWN_SAMPLE) != sample_tag}
    named |= pinned_ids(pins, sample_tag)
    seen: set[str] = set()
    distinct = []
    for number, text in enumerate(texts):
        if text not in seen and conll_id("train", number) not in named:
            seen.add(text)
            distinct.append(number)
    chosen = sorted(random.Random(seed).sample(distinct, min(n, len(distinct))))
    return [article_path(conll_id("train", number), out / "docs") for number in chosen]


def materialise(paths: Iterable[Path], texts: Sequence[str] | None = None) -> None:
    """Write each CoNLL training document a path names (``conll-train-N.txt``) there, as text
    (git-ignored work files: Reuters' text is not committed)."""
    texts = conll_texts(CONLL_TRAIN) if texts is None else texts
    for path in paths:
        text = texts[int(unit(path.stem).rsplit(":", 1)[1])] + "\n"
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(text, encoding="utf-8")
            tmp.replace(path)


def redacted(row: dict[str, Any]) -> dict[str, Any]:
    """A judged row of Reuters' text as it may be committed: no sentence, every output field
    longer than ``SHORT`` words (a claim's text) given as the SHA-1 of its words; names,
    posts, triggers and lists of them stay. Its key, digested from the real sentence and
    output, still matches the row the build gives.

    >>> row = {"key": "k", "sentence": "Reid 's goal .", "output": {
    ...     "speaker": "Reid", "text": "one two three four five six seven",
    ...     "values": "5 = 5 (A, conll-train-1) | 6 = 6 (B, conll-train-1)"}}
    >>> cut = redacted(row)
    >>> cut["sentence"], cut["output"]["speaker"], cut["output"]["text"][:5], cut["corpus"]
    ('', 'Reid', 'sha1:', 'conll')
    >>> cut["output"]["values"] == row["output"]["values"]
    True
    >>> forms = "U.S. ×9, United States ×2, America ×1, US ×1"
    >>> redacted({"kind": "entity-merges", "sentence": "", "output": {"forms": forms}}
    ...          )["output"]["forms"] == forms
    True
    """
    def short(value: str) -> str:
        parts = value.split(sep) if sep in value else [value]
        if all(len(part.split()) <= SHORT for part in parts):
            return value
        return "sha1:" + hashlib.sha1(value.encode()).hexdigest()

    # An entity's forms are names with their counts ("U.S. ×12, America ×2"), one each.
    sep = ", " if row.get("kind") in ("entities-top", "entities-random", "entity-merges") else " | "
    output = {k: short(v) if isinstance(v, str) else v for k, v in row["output"].items()}
    return {**row, "sentence": "", "output": output, "corpus": "conll"}


def pinned_ids(pins: Path | None, but: str | None = None) -> set[str]:
    """The article ids every first look pinned under ``pins`` drew (``TAG.txt``, one a line)
    but first look ``but``'s own (no folder: none).

    >>> pinned_ids(None)
    set()
    """
    if pins is None or not pins.is_dir():
        return set()
    return {line.strip() for pin in sorted(pins.glob("*.txt")) if pin.stem != but
            for line in pin.read_text(encoding="utf-8").splitlines() if line.strip()}


def pinned_articles(tag: str | None, draw: Callable[[], list[Path]],
                    folder: Path = CORPUS, pins: Path = SAMPLES_DIR) -> list[Path]:
    """The articles of first look ``tag`` as first drawn (``pins/TAG.txt``), else ``draw()``'s,
    written there for the next run (no tag: drawn, not pinned)."""
    pin = pins / f"{tag}.txt" if tag else None
    if pin is not None and pin.is_file():
        ids = [line.strip() for line in pin.read_text(encoding="utf-8").splitlines()
               if line.strip()]
        return [article_path(a, folder) for a in ids]
    articles = draw()
    if pin is not None:
        pin.parent.mkdir(parents=True, exist_ok=True)
        tmp = pin.with_suffix(".tmp")
        tmp.write_text("".join(f"{article_id(p)}\n" for p in articles), encoding="utf-8")
        tmp.replace(pin)
    return articles


def _digest_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def article_id(path: Path) -> str:
    """The id a BBC file's article gets (bbc_business_326.txt → "bbc-business-326").

    >>> article_id(Path("bbc_tech_007.txt"))
    'bbc-tech-007'
    """
    return path.stem.replace("_", "-")


def build(paths: Sequence[Path], out: Path, nlp: Any = None,
          rules_off: frozenset[str] = frozenset()) -> Path:
    """Build ``paths`` into ``out`` (cached: a re-run re-extracts only what changed, and
    resolves everything again), with the heuristics ``rules_off`` switched off."""
    from kg.build.corpus import build_corpus
    from kg.config import Settings

    # Resolution code is not part of what makes a build "up to date": forget the last build's
    # manifest (the extraction cache stays), so every run resolves with the current rules.
    (out / ".kg" / "manifest.json").unlink(missing_ok=True)
    report = build_corpus(list(paths), Settings(out_dir=out, rules_off=rules_off),
                          formats=("trig",), nlp=nlp)
    print(report.summary(), file=sys.stderr)
    return out / "graph.trig"


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _local(iri: Any) -> str:
    return _text(iri).rstrip("/").rsplit("/", 1)[-1]


def _class(iri: Any) -> str:
    """A class's local name, schema.org's or kg's ("Person", "Award")."""
    return _local(iri).rsplit("#", 1)[-1]


def _digest(value: Any) -> str:
    return hashlib.sha1(json.dumps(value, sort_keys=True).encode()).hexdigest()[:12]


def row_key(kind: str, article: str, sentence: str, output: dict[str, str]) -> str:
    """The key a judgement is filed under: kind, article, sentence and output."""
    return f"{kind}|{article}|{_digest(sentence)}|{_digest(output)}"


def named_rows(graph: Any, kind: str, sparql: str | None = None) -> list[dict[str, Any]]:
    """Every row of one named question, as a judge sees it (article, sentence, output);
    ``sparql``, when given, is asked instead of the named question's own text."""
    from kg.api import query

    found = query(graph, sparql or kind, timeout=QUERY_TIMEOUT)
    rows = [{k: _text(v) for k, v in row.items()} for row in found]
    if kind == "conflicting-figures":
        return _figure_groups(rows)
    unique = {}
    for row in rows:
        judged = judged_row(kind, row)
        unique[judged["key"]] = judged
    return list(unique.values())


def judged_row(kind: str, row: dict[str, str]) -> dict[str, Any]:
    """One answer row of a named question as a judge sees it, keyed as judgements are."""
    output = {f: row.get(f, "") for f in FIELDS[kind]}
    if kind == "events" and not output["date"]:
        output["date"] = row.get("time", "")
    article, sentence = _local(row["article"]), row["sentence"]
    key = row_key(kind, article, sentence, output)
    return {"key": key, "kind": kind, "article": article, "sentence": sentence, "output": output}


def _figure_groups(rows: list[dict[str, str]]) -> list[dict[str, Any]]:
    by_measure: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in rows:
        by_measure[row["measure"]].append(row)
    groups = []
    for measure, members in by_measure.items():
        values = sorted({f"{r['figure']} = {r['value']} ({r['source']}, {_local(r['article'])})"
                         for r in members})
        output = {"measure": measure, "values": " | ".join(values)}
        sentence = " // ".join(sorted({r["sentence"] for r in members}))
        article = ",".join(sorted({_local(r["article"]) for r in members}))
        key = row_key("conflicting-figures", article, sentence, output)
        groups.append({"key": key, "kind": "conflicting-figures", "article": article,
                       "sentence": sentence, "output": output})
    return groups


@dataclass
class EntityStats:
    """One entity as the sample shows it: label, class, mention forms and evidence."""

    iri: str
    label: str
    type: str
    mentions: int
    articles: set[str]
    forms: Counter[str]
    evidence: dict[str, str]  # form -> one sentence with it

    def row(self, kind: str) -> dict[str, Any]:
        """The entity as a judge sees it; ``entity-merges`` shows every form, one sentence
        each (do they name one thing?), the others the eight commonest and three sentences."""
        forms = self.forms.most_common(None if kind == "entity-merges" else 8)
        output = {"label": self.label, "type": self.type,
                  "forms": ", ".join(f"{f} ×{n}" for f, n in forms)}
        key = f"{kind}|{self.type}|{self.label}"
        shown = forms if kind == "entity-merges" else forms[:3]
        sentences = " // ".join(self.evidence[f] for f, _n in shown)
        return {"key": key, "kind": kind, "article": f"{len(self.articles)} articles",
                "sentence": sentences, "output": output, "mentions": self.mentions}


def entity_stats(graph: Any, which: str | None = None) -> list[EntityStats]:
    """Every entity with its mentions, most-mentioned first (then by label); with ``which``
    ("tune" or "check"), only the mentions in that half's articles count."""
    from kg.api import query

    stats: dict[str, EntityStats] = {}
    seen: set[tuple[str, str]] = set()
    for row in query(graph, ENTITY_QUERY, timeout=QUERY_TIMEOUT):
        if which and half(unit(_local(row["article"]))) != which:
            continue
        iri, mention = _text(row["entity"]), _text(row["mention"])
        entity = stats.setdefault(iri, EntityStats(iri, _text(row["label"]), _class(row["type"]),
                                                   0, set(), Counter(), {}))
        if (iri, mention) in seen:
            continue
        seen.add((iri, mention))
        text = _text(row["text"])
        entity.mentions += 1
        entity.articles.add(_local(row["article"]))
        entity.forms[text] += 1
        entity.evidence.setdefault(text, _text(row["sentence"]))
    return sorted(stats.values(), key=lambda e: (-e.mentions, e.label, e.iri))


def _words(label: str) -> list[str]:
    """A label's words, lower case, a plural's "s" dropped ("Lib Dems" and "Lib Dem" alike)."""
    words = re.findall(r"[A-Za-z][\w'-]*", label.lower())
    return [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in words]


def split_candidates(entities: Sequence[EntityStats]) -> list[dict[str, Any]]:
    """Groups of top entities that may be one thing under two IRIs: the same name (any
    classes), the same last word (people), one name's words inside another's, a name whose
    words each begin another's ("Lib Dems", "Liberal Democrats"), or an acronym of another
    (union-find over pairs)."""
    parent = list(range(len(entities)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    names = [_words(e.label) for e in entities]
    for i, j in itertools.combinations(range(len(entities)), 2):
        if _maybe_same(entities[i], names[i], entities[j], names[j]):
            parent[find(i)] = find(j)
    groups: dict[int, list[EntityStats]] = defaultdict(list)
    for i, entity in enumerate(entities):
        groups[find(i)].append(entity)
    rows = []
    for members in groups.values():
        if len(members) < 2:
            continue
        members.sort(key=lambda e: (e.label, e.type))
        output = {"entities": " | ".join(f"{e.label} [{e.type}] ×{e.mentions}" for e in members)}
        key = "split-entities|" + " | ".join(f"{e.type}:{e.label}" for e in members)
        sentence = " // ".join(next(iter(e.evidence.values())) for e in members)
        rows.append({"key": key, "kind": "split-entities", "article": "", "sentence": sentence,
                     "output": output})
    return sorted(rows, key=lambda r: r["key"])


def _maybe_same(a: EntityStats, wa: list[str], b: EntityStats, wb: list[str]) -> bool:
    """>>> same = lambda x, y: _maybe_same(*_entity(x), *_entity(y))
    >>> same("Lib Dems", "Liberal Democrats"), same("Oscars", "Oscar"), same("Labour", "Labour")
    (True, True, True)
    >>> same("Fed", "Federer"), same("Andy Robinson", "Andrew Robertson")
    (False, False)
    """
    if not wa or not wb or wa == wb:
        return bool(wa) and wa == wb
    if a.type == "Person" and b.type == "Person" and wa[-1] == wb[-1]:
        return True
    short, long = sorted((wa, wb), key=len)
    if len(short) < len(long) and all(w in long for w in short) and len(short[0]) > 2:
        return True
    if len(wa) == len(wb) > 1 and all(len(x) > 2 and len(y) > 2 and (x.startswith(y) or
                                                                    y.startswith(x))
                                      for x, y in zip(wa, wb, strict=True)):
        return True
    acronym = "".join(w[0] for w in long if w not in {"of", "the", "and", "for"})
    return len(short) == 1 and len(short[0]) >= 2 and short[0] == acronym


def _entity(label: str, kind: str = "Organization") -> tuple[EntityStats, list[str]]:
    return EntityStats(label, label, kind, 1, set(), Counter(), {}), _words(label)


def seeded_order(key: str, seed: int = SEED) -> str:
    """Where a row falls in the sample: a hash of the seed and its key. A row keeps its place
    when other rows come and go, so a changed build changes the sample only where its output
    changed, and the judgements of the rest still count."""
    return hashlib.sha256(f"{seed}|{key}".encode()).hexdigest()


def sample(graph: Any, seed: int = SEED, rows: int = ROWS,
           which: str | None = None, kinds: Sequence[str] = KINDS
           ) -> dict[str, list[dict[str, Any]]]:
    """The seeded sample of every kind: the first ``rows`` rows in ``seeded_order``; with
    ``which`` ("tune" or "check"), the same drawn from that half's articles alone (its rows,
    and the top and random entities as that half's mentions rank them; an entity row is
    judged once per sample, by its class, label and all its mentions, so a half reuses the
    judgement; split groups and merges are counted on the whole sample only)."""
    picked: dict[str, list[dict[str, Any]]] = {}
    for kind in (k for k in ROW_KINDS if k in kinds):
        found = [r for r in named_rows(graph, kind) if not which or _in_half(r, which)]
        picked[kind] = sorted(found, key=lambda r: seeded_order(r["key"], seed))[:rows]
    entities = entity_sample(entity_stats(graph, which), seed)
    picked.update({k: v for k, v in entities.items()
                   if (not which or k not in COUNTED) and k in kinds})
    return picked


def entity_sample(entities: Sequence[EntityStats],
                  seed: int = SEED) -> dict[str, list[dict[str, Any]]]:
    """The entity kinds' sample of ``entities`` (most-mentioned first)."""
    rest = sorted((e.row("entities-random") for e in entities[TOP:]),
                  key=lambda r: seeded_order(r["key"], seed))
    return {"entities-top": [e.row("entities-top") for e in entities[:TOP]],
            "entities-random": rest[:ROWS],
            "split-entities": split_candidates(entities[:TOP_POOL]),
            "entity-merges": [e.row("entity-merges") for e in entities[:TOP]]}


def _in_half(row: dict[str, Any], which: str) -> bool:
    """A row is in a half when its articles are (a conflicting-figures group spanning both
    halves is in neither)."""
    return all(half(unit(a)) == which for a in row["article"].split(","))


# -- the judged set ------------------------------------------------------------------------

def load_judged(folder: Path = JUDGED_DIR,
                sample_tag: str | None = None) -> dict[str, dict[str, Any]]:
    """Every judged row by key (``correct`` is true/false; split groups: ``split``; entity
    merges: ``merged``); with ``sample_tag``, only the rows judged for that sample (a row
    without a tag is kg's own, ``OWN_SAMPLE``). A key judged again for the same sample keeps
    its later row; a key judged for several samples (an entity: its class and label) keeps
    the first sample's, so a later sample never changes an earlier one's figures."""
    judged: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                tag, earlier = row.get("sample", OWN_SAMPLE), judged.get(row["key"])
                if sample_tag is not None and tag != sample_tag:
                    continue
                if earlier is None or earlier.get("sample", OWN_SAMPLE) == tag:
                    judged[row["key"]] = row
            except (ValueError, KeyError, AttributeError) as e:
                raise SystemExit(f"{path}:{number}: not a judged row ({e})") from e
    return judged


@dataclass(frozen=True)
class KindScore:
    """Precision of one kind over the sampled rows the judged set covers."""

    kind: str
    sampled: int
    judged: int
    correct: int

    @property
    def precision(self) -> float:
        return self.correct / self.judged if self.judged else 0.0

    def line(self) -> str:
        if self.kind == "split-entities":
            return (f"{self.kind:<20} {self.correct} real split groups of {self.judged} "
                    f"judged candidates ({self.sampled} candidates, "
                    f"{self.sampled - self.judged} not judged)")
        if self.kind == "entity-merges":
            return (f"{self.kind:<20} {self.correct} entities merge different things, of "
                    f"{self.judged} judged ({self.sampled} top entities, "
                    f"{self.sampled - self.judged} not judged)")
        return (f"{self.kind:<20} precision {self.precision:6.1%}  ({self.correct}/{self.judged}"
                f" judged; {self.sampled} sampled, {self.sampled - self.judged} not judged)")


def score(picked: dict[str, list[dict[str, Any]]],
          judged: dict[str, dict[str, Any]]) -> dict[str, KindScore]:
    """Per kind: sampled, judged and correct rows (split groups: groups judged a real split;
    entity merges: entities judged to merge different things)."""
    scores = {}
    for kind, rows in picked.items():
        hits = [judged[r["key"]] for r in rows if r["key"] in judged]
        good = sum(1 for j in hits if j.get(COUNTED.get(kind, "correct")))
        scores[kind] = KindScore(kind, len(rows), len(hits), good)
    return scores


def by_half(picked: dict[str, list[dict[str, Any]]], judged: dict[str, dict[str, Any]],
            kinds: Sequence[str] = ROW_KINDS[:3]) -> str:
    """The fact rows of a whole sample split by their articles' halves: right/judged per kind
    and half (the rows a half's own sample, ``--half``, would draw are others).

    >>> rows = {"claims": [{"key": "a", "article": "bbc-tech-001"}]}
    >>> by_half(rows, {"a": {"correct": True}}, ["claims"])
    'the same rows by half: claims tune 0/0 · check 1/1'
    """
    cells = []
    for kind in kinds:
        counts = []
        for which in HALVES:
            hits = [judged[r["key"]] for r in picked.get(kind, ())
                    if r["key"] in judged and _in_half(r, which)]
            counts.append(f"{which} {sum(1 for j in hits if j.get('correct'))}/{len(hits)}")
        cells.append(f"{kind} " + " · ".join(counts))
    return "the same rows by half: " + "; ".join(cells)


def unjudged(picked: dict[str, list[dict[str, Any]]], judged: dict[str, dict[str, Any]],
             sample_tag: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """The sampled rows no judgement covers, as blank judged rows (tagged with the sample
    they are judged for, when one is named)."""
    blank = {kind: [] for kind in picked}  # type: dict[str, list[dict[str, Any]]]
    tag = {"sample": sample_tag} if sample_tag and sample_tag != OWN_SAMPLE else {}
    for kind, rows in picked.items():
        for row in rows:
            if row["key"] not in judged:
                verdict = {COUNTED[kind]: None} if kind in COUNTED else {
                    "fields": dict.fromkeys(row["output"]), "correct": None}
                blank[kind].append({**row, **verdict, "why": "", **tag})
    return blank


def gone(produced: Iterable[str], judged: dict[str, dict[str, Any]],
         kinds: Iterable[str] = ROW_KINDS) -> list[dict[str, Any]]:
    """Judged rows of ``kinds`` that the current build no longer produces (fixed, or lost)."""
    keys, wanted = set(produced), set(kinds)
    return [row for key, row in judged.items() if row["kind"] in wanted and key not in keys]


def mark_fixed(rows: Iterable[dict[str, Any]], produced: Iterable[str],
               folder: Path = JUDGED_DIR) -> int:
    """Set ``fixed: true`` on judged-wrong rows whose sentence no longer gives any row of their
    kind (the wrong statement is gone, not merely relabelled: an entity's label depends on the
    corpus), so that a test can say they never come back; returns how many were marked."""
    sentences = {key.rsplit("|", 1)[0] for key in produced}
    fixed = {r["key"] for r in rows if r.get("correct") is False and not r.get("fixed")
             and r["key"].rsplit("|", 1)[0] not in sentences}
    return _set_fixed(folder.glob("*.jsonl"), fixed)


def mark_fixed_entities(entities: Sequence[EntityStats], judged: dict[str, dict[str, Any]],
                        folder: Path = JUDGED_DIR) -> int:
    """Set ``fixed: true`` on judged-wrong entity rows whose class and label no entity of the
    build has any more (an entity row has no sentence of its own: its key is the thing);
    returns how many were marked."""
    produced = {f"{kind}|{e.type}|{e.label}" for e in entities
                for kind in ("entities-top", "entities-random")}
    fixed = {key for key, r in judged.items()
             if r["kind"] in ("entities-top", "entities-random") and r.get("correct") is False
             and not r.get("fixed") and key not in produced}
    return _set_fixed(folder.glob("entities-*.jsonl"), fixed)


def _set_fixed(paths: Iterable[Path], fixed: set[str]) -> int:
    """Rewrite the judged files among ``paths`` that hold a row keyed in ``fixed`` with
    ``fixed: true`` on those rows; returns how many keys were marked."""
    for path in sorted(paths):
        lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
                 if line.strip()]
        if any(r["key"] in fixed for r in lines):
            write_jsonl(path, [{**r, "fixed": True} if r["key"] in fixed else r for r in lines])
    return len(fixed)


def judged_articles(judged: dict[str, dict[str, Any]], n: int,
                    kinds: Sequence[str] = ("people-roles", "claims", "events")) -> list[str]:
    """The ``n`` articles with most judged rows of ``kinds`` (for a quick re-check)."""
    counts = Counter(r["article"] for r in judged.values()
                     if r["kind"] in kinds and r["article"].startswith("bbc-"))
    return [a for a, _n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))[:n]]


def article_path(doc_id: str, folder: Path = CORPUS) -> Path:
    """The BBC file an article id was made from ("bbc-business-326" → bbc_business_326.txt);
    a CoNLL document's, written under ``folder`` (conll-train-7 → conll-train-7.txt).

    >>> article_path("bbc-tech-007").name, article_path("conll-train-7", Path("d")).name
    ('bbc_tech_007.txt', 'conll-train-7.txt')
    """
    if doc_id.startswith("conll-"):
        return folder / f"{doc_id}.txt"
    return folder / (doc_id.replace("-", "_") + ".txt")


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=ARTICLES)
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="bbc",
                        help="draw BBC articles, or CoNLL-2003's training documents (written "
                             "under OUT/docs)")
    parser.add_argument("--out", type=Path, default=PROJECT_ROOT / "bench" / "work" / "precision")
    parser.add_argument("--seed", type=int, default=SEED,
                        help="the seed that chooses the articles and orders the rows")
    parser.add_argument("--fresh", action="store_true",
                        help="only articles no judged row names (but those of its own --sample), "
                             "none another first look pinned, none of the seed-16 sample")
    parser.add_argument("--half", choices=("tune", "check", "both"),
                        help="also report each half's own sample (bench/halves.py, by article)")
    parser.add_argument("--sample", dest="sample_tag", metavar="TAG",
                        help=f"score against the rows judged for sample TAG only (untagged rows "
                             f"are {OWN_SAMPLE!r}); tag the unjudged rows written")
    parser.add_argument("--rows", type=int, default=ROWS,
                        help="rows sampled of each fact kind")
    parser.add_argument("--write-unjudged", action="store_true",
                        help="write the sampled rows no judgement covers to OUT/unjudged-*.jsonl")
    parser.add_argument("--graph", type=Path,
                        help="sample this graph file (an earlier build) instead of building")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help="the kinds sampled, comma-separated (entities only: "
                             + ",".join(ENTITY_KINDS) + ")")
    parser.add_argument("--rules-off", default="", metavar="ID,...",
                        help="build with these heuristics switched off (kg build --rules -ID)")
    parser.add_argument("--mark-fixed", action="store_true",
                        help="mark judged-wrong rows the build no longer produces as fixed")
    args = parser.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    if set(kinds) - set(KINDS):
        parser.error(f"--kinds: unknown kind(s) {', '.join(sorted(set(kinds) - set(KINDS)))}")
    source = CORPUS if args.corpus == "bbc" else CONLL_TRAIN
    if not source.exists():
        print(f"precision: {source} not found (the {CORPORA[args.corpus]} corpus beside the "
              f"project)", file=sys.stderr)
        return 2
    # An entity row is keyed by its class and label alone, so a sample is scored against its
    # own judgements: kg's own (seed 16) by default, a first look by its --sample tag.
    own = args.seed == SEED and not args.fresh
    judged = load_judged(sample_tag=args.sample_tag or (OWN_SAMPLE if own else None))
    if args.corpus == "conll":
        texts = conll_texts(CONLL_TRAIN)
        every = load_judged() if args.fresh else {}
        articles = pinned_articles(args.sample_tag, lambda: conll_articles(
            args.out, args.articles, args.seed, every, args.sample_tag, texts,
            SAMPLES_DIR if args.fresh else None),
            args.out / "docs")
        materialise(articles, texts)
    elif args.fresh:
        articles = pinned_articles(args.sample_tag, lambda: fresh_articles(
            CORPUS, args.articles, args.seed, sample_tag=args.sample_tag, pins=SAMPLES_DIR))
    else:
        articles = choose_articles(CORPUS, args.articles, args.seed)
    off = frozenset(i for i in args.rules_off.split(",") if i)
    graph = args.graph or build(articles, args.out, None, off)
    views = {"whole sample": None}
    if args.half:
        views.update({h: h for h in HALVES if args.half in (h, "both")})
    blank: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for title, which in views.items():
        picked = sample(graph, args.seed, args.rows, which, kinds)
        print(f"Precision on {len(articles)} {'fresh ' if args.fresh else ''}"
              f"{CORPORA[args.corpus]} articles "
              f"(seed {args.seed}), {title}{'' if which is None else ' half'}, judged set "
              f"{JUDGED_DIR}{f' (sample {args.sample_tag})' if args.sample_tag else ''}:")
        for kind_score in score(picked, judged).values():
            print("  " + kind_score.line())
        if which is None:
            print("  " + by_half(picked, judged))
        for kind, rows in unjudged(picked, judged, args.sample_tag).items():
            blank[kind].update((r["key"], r) for r in rows)
    stats = entity_stats(graph)
    built = {a for e in stats for a in e.articles}
    produced = [r["key"] for kind in ROW_KINDS if kind in kinds for r in named_rows(graph, kind)]
    mine = {k: r for k, r in judged.items() if set(r["article"].split(",")) <= built}
    missing = gone(produced, mine, [k for k in ROW_KINDS if k in kinds])
    wrong = [r for r in missing if r.get("correct") is False]
    print(f"  judged rows of these articles no longer produced: {len(missing)} ({len(wrong)} "
          f"of them judged wrong, {sum(1 for r in wrong if r.get('fixed'))} marked fixed)")
    if args.mark_fixed:
        print(f"  newly marked fixed: {mark_fixed(wrong, produced)}")
        print(f"  entity rows newly marked fixed: {mark_fixed_entities(stats, judged)}")
    if args.write_unjudged:
        for kind, by_key in blank.items():
            write_jsonl(args.out / f"unjudged-{kind}.jsonl", by_key.values())
        print(f"unjudged rows written to {args.out}/unjudged-*.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
