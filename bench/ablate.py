"""Each heuristic's contribution, measured with it switched off, on the check halves.

    .venv/bin/python bench/ablate.py [--half check|tune] [--only PATTERN] [--sets a,b]
                                     [--results bench/RESULTS-ablation.md] [--json FILE]

The evaluation sets (``bench/halves.py`` keeps their tune and check halves apart) are parsed once
(``bench/parses.py``) and extracted and resolved with every heuristic on, recording where each
fired. Then, for each heuristic that fired in a set, the documents where it fired are extracted
again with it off (resolution runs again over the whole set) and the set is scored again; a
heuristic that fired nowhere in a set changes nothing there. Reported per heuristic, as the
change when it is switched OFF (so a negative figure is what the heuristic contributes):

* ``conll``, ``wikigold``, ``btc``: F1 of PER/ORG/LOC names through extraction and resolution
  (``bench/build_ner_eval.py``'s instrument);
* ``ecb``: share of named gold mentions detected and within-topic B-cubed F1 (``ecb_eval``);
* ``judged``: the judged rows of ``tests/eval/precision*/`` (BBC, ECB+ and CoNLL-2003 train
  articles; with ``--sample TAG`` only one first look's) — how many rows judged right and how
  many judged wrong are no longer produced, and how many rows no judgement covers appear or go;
* ``facts``: matched facts (roles, events, claims) of the facts set (check: ``heldout.jsonl``).

A heuristic *pays* when switching it off loses more than it gains on some set and loses
nothing elsewhere; *harms* when switching it off only gains; *idle* when it changes nothing
(it fired nowhere in the half, or its fires changed no score).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.halves import half, unit  # noqa: E402
from bench.parses import ParsedSet  # noqa: E402
from kg.build.rules import registry  # noqa: E402
from kg.heuristics import FireLog, firing, switched_off  # noqa: E402
from kg.ingest.files import document_from_text  # noqa: E402
from kg.model import ArticleMeta, Document, Extraction, Resolution  # noqa: E402
from kg.resolve.corpus_names import with_corpus_names  # noqa: E402
from kg.resolve.resolver import resolve_entities  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
BBC = ROOT.parent / "shared" / "corpora" / "bbc"
WORK = ROOT / "bench" / "work" / "ablate"
JUDGED = (ROOT / "tests" / "eval" / "precision", ROOT / "tests" / "eval" / "precision-ecb")
#: Stages that run before resolution (switching one off means extracting again).
EXTRACTION_STAGES = ("sentences", "ner", "recovery", "lines", "descriptions", "facts")

Scores = dict[str, float]


@dataclass
class EvalSet:
    """One evaluation set's documents (one half) and how to score a run of them."""

    name: str
    documents: list[Document]
    score: Callable[[list[Extraction], Resolution], Scores]
    parsed: ParsedSet | None = None
    baseline: list[Extraction] = field(default_factory=list)
    base_scores: Scores = field(default_factory=dict)

    def prepare(self, log: FireLog) -> None:
        """Parse (or read the cached parses), then extract with every heuristic on."""
        self.parsed = ParsedSet.of(self.documents, cache=WORK / "parses" / self.name)
        with firing() as own:
            self.baseline = self.parsed.extract()
            self.base_scores = self.score(*resolved(self.baseline))
        for id, documents in own.documents.items():
            for document in documents:
                log.add(id, f"{self.name}:{document}")

    def without(self, id: str, stage: str, fired_in: set[str]) -> Scores:
        """The scores with heuristic ``id`` off (its documents ``fired_in`` extracted again)."""
        assert self.parsed is not None
        with switched_off({id}):
            extractions = list(self.baseline)
            if stage.startswith(EXTRACTION_STAGES):
                again = [i for i, d in enumerate(self.documents)
                         if "*" in fired_in or d.doc_id in fired_in]
                chosen = tuple(self.documents[i] for i in again)
                if stage == "sentences":  # before the parser: parsed again with it off
                    fresh = ParsedSet.of(chosen, cache=WORK / "parses" / self.name)
                else:
                    fresh = ParsedSet(chosen, [self.parsed.docs[i] for i in again],
                                      self.parsed.model)
                for i, extraction in zip(again, fresh.extract(), strict=True):
                    extractions[i] = extraction
            return self.score(*resolved(extractions))


def resolved(extractions: list[Extraction]) -> tuple[list[Extraction], Resolution]:
    """The extractions with the corpus's names, as a build writes them, and their resolution."""
    named = with_corpus_names(extractions)
    return named, resolve_entities(named)


# -- the sets ----------------------------------------------------------------------------------

def ner_set(name: str, path: Path, labels: Any, unit: str, which: str) -> EvalSet:
    from bench.build_ner_eval import document_text, entity_type
    from kg.extract.ner.corpus import read_documents

    documents, golds = [], {}
    for i, sentences in enumerate(read_documents(path, labels)):
        key = f"{unit}:{i}"
        if half(key) != which:
            continue
        text, gold = document_text(sentences)
        documents.append(document_from_text(text, doc_id=key.replace(":", "-")))
        golds[documents[-1].doc_id] = gold

    def score(extractions: list[Extraction], resolution: Resolution) -> Scores:
        entities = {e.key: e for e in resolution.entities}
        tp = fp = fn = 0
        for extraction in extractions:
            doc = extraction.document.doc_id
            found = set()
            for m in extraction.mentions:
                key = resolution.assignments.get((doc, m.begin, m.end))
                kind = entity_type(entities[key]) if key else None
                if kind is not None:
                    found.add((m.begin, m.end, kind))
            gold = golds[doc]
            tp, fp, fn = tp + len(gold & found), fp + len(found - gold), fn + len(gold - found)
        p, r = tp / max(tp + fp, 1), tp / max(tp + fn, 1)
        return {"F1": 2 * p * r / (p + r) if p + r else 0.0, "P": p, "R": r}

    return EvalSet(name, documents, score)


def ecb_set(which: str) -> EvalSet:
    from bench.ecb_eval import DEV_SET, align, load_documents
    from bench.ecb_eval import score as ecb_score

    texts, gold = load_documents(DEV_SET)
    topic = {g.doc: g.topic for g in gold}
    keep = {doc for doc in texts if half(f"ecb:{topic.get(doc, doc.split('_')[0])}") == which}
    documents = [document_from_text(texts[d], doc_id=d) for d in sorted(keep)]
    gold = [g for g in gold if g.doc in keep]

    def score(extractions: list[Extraction], resolution: Resolution) -> Scores:
        found = {e.document.doc_id: [(m.begin, m.end, resolution.assignments[key])
                                     for m in e.mentions
                                     if (key := (e.document.doc_id, m.begin, m.end))
                                     in resolution.assignments]
                 for e in extractions}
        scores = ecb_score(align(gold, found))
        return {"detected": scores.detected / max(scores.gold, 1), "B3": scores.system[2]}

    return EvalSet("ecb", documents, score)


def facts_set(which: str) -> EvalSet:
    from tests.eval.facts.score import CASES, KINDS, Tally, load_cases, score_case

    path = CASES if which == "tune" else CASES.with_name("heldout.jsonl")
    cases = load_cases(path)
    documents = [document_from_text(c.text, doc_id=c.id,
                                    meta=ArticleMeta(date_published=c.published))
                 for c in cases]

    def score(extractions: list[Extraction], resolution: Resolution) -> Scores:
        tallies = {kind: Tally() for kind in KINDS}
        for case, extraction in zip(cases, extractions, strict=True):
            score_case(case, extraction, tallies)
        return {f"{kind} matched": float(t.matched) for kind, t in tallies.items()} | {
            f"{kind} extra": float(t.predicted - t.matched) for kind, t in tallies.items()}

    return EvalSet("facts", documents, score)


def judged_rows(which: str, sample: str | None = None) -> dict[str, dict[str, Any]]:
    """The judged rows of articles in the half (BBC by article id, ECB+ by topic, CoNLL by
    document), of one first look's ``sample`` only when given."""
    rows = {}
    for folder in JUDGED:
        for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
            for line in path.read_text(encoding="utf-8").splitlines():
                row = json.loads(line)
                if row.get("kind") in ("people-roles", "claims", "events") \
                        and half(unit(row["article"])) == which \
                        and sample in (None, row.get("sample")):
                    rows[row["key"]] = row
    return rows


def judged_set(which: str, sample: str | None = None) -> EvalSet:
    rows = judged_rows(which, sample)
    documents = judged_documents(sorted({r["article"] for r in rows.values()}))
    rows_of = RowsOf()

    def score(extractions: list[Extraction], resolution: Resolution) -> Scores:
        produced = same_rows(rows_of(extractions, resolution), rows)
        counts: Counter[str] = Counter()
        for key, row in rows.items():
            verdict = "right" if row.get("correct") else "wrong"
            counts[f"{verdict} kept"] += key in produced
        counts["unjudged"] = len(produced - rows.keys())
        return {k: float(v) for k, v in counts.items()}

    return EvalSet("judged", documents, score)


def judged_documents(articles: Sequence[str]) -> list[Document]:
    """The documents judged rows name — BBC files, ECB+ dev documents (sentences joined by
    newlines), CoNLL-2003 training documents (``conll_documents``) — as the builds that made
    the rows read them, copies marked."""
    from bench.ecb_eval import DEV_SET, load_documents
    from kg.ingest.copies import mark_copies
    from kg.ingest.files import read_documents

    ecb_texts, _ = load_documents(DEV_SET)
    paths = [BBC / (a.replace("-", "_") + ".txt") for a in articles if a.startswith("bbc-")]
    documents = list(read_documents([str(p) for p in paths if p.exists()]))
    documents += [document_from_text(ecb_texts[a], doc_id=a) for a in articles
                  if a in ecb_texts]
    documents += conll_documents([a for a in articles if a.startswith("conll-train-")])
    return mark_copies(documents)


def same_rows(produced: set[str], judged: dict[str, Any]) -> set[str]:
    """``produced`` with each unjudged row that gives a judged row's output in its article,
    the judged row's key not produced, filed under that key: its sentence changed (a rule that
    runs before the parser moved a boundary, "PLACE 1996-08-29" no longer opens it), what it
    says did not. A row whose output matches several judged rows of its article keeps its key.

    >>> judged = {"claims|a|s1|o1": {}, "claims|a|s2|o2": {}}
    >>> sorted(same_rows({"claims|a|s9|o1", "claims|a|s2|o2", "claims|a|s9|o3"}, judged))
    ['claims|a|s1|o1', 'claims|a|s2|o2', 'claims|a|s9|o3']
    """
    missing: dict[tuple[str, ...], list[str]] = {}
    for key in judged.keys() - produced:
        kind, article, _sentence, output = key.split("|")
        missing.setdefault((kind, article, output), []).append(key)
    found = set()
    for key in produced:
        kind, article, _sentence, output = key.split("|")
        same = missing.get((kind, article, output), [])
        found.add(same[0] if key not in judged and len(same) == 1 else key)
    return found


def conll_documents(articles: Sequence[str]) -> list[Document]:
    """The CoNLL-2003 training documents judged rows name (``conll-train-N``), written as
    ``bench/precision.py --corpus conll`` writes them (under ``bench/work/ablate/conll-docs``,
    git-ignored: Reuters' text is not committed) and read as its build reads them."""
    from bench.precision import CONLL_TRAIN, article_path, materialise
    from kg.ingest.files import read_documents

    if not articles:
        return []
    if not CONLL_TRAIN.exists():
        raise SystemExit(f"ablate: {CONLL_TRAIN} not found (judged rows name CoNLL documents)")
    paths = [article_path(a, WORK / "conll-docs") for a in articles]
    materialise(paths)
    return list(read_documents([str(p) for p in paths]))


class RowsOf:
    """The named questions' row keys of a run, asked again only for the articles a run
    changed: an article whose extraction equals the baseline's and whose mentions' entities
    read as before keeps the baseline's rows (asking the questions over every judged article
    for each heuristic took minutes)."""

    def __init__(self) -> None:
        self.baseline: dict[str, tuple[Extraction, tuple[Any, ...], set[str]]] = {}

    def __call__(self, extractions: list[Extraction], resolution: Resolution) -> set[str]:
        entities = {e.key: e for e in resolution.entities}
        changed, keys = [], set()
        for extraction in extractions:
            doc = extraction.document.doc_id
            seen = _readings(extraction, resolution, entities)
            known = self.baseline.get(doc)
            if known is not None and known[1] == seen and known[0] == extraction:
                keys |= known[2]
            else:
                changed.append((extraction, seen))
        fresh = produced_keys([e for e, _ in changed], resolution)
        for extraction, seen in changed:
            doc = extraction.document.doc_id
            mine = {k for k in fresh if k.split("|")[1] == doc}
            keys |= mine
            if doc not in self.baseline:
                self.baseline[doc] = (extraction, seen, mine)
        return keys


def _readings(extraction: Extraction, resolution: Resolution, entities: dict[str, Any]
              ) -> tuple[Any, ...]:
    """How resolution reads an article's mentions: each one's entity label and class."""
    doc = extraction.document.doc_id
    found = []
    for m in extraction.mentions:
        key = resolution.assignments.get((doc, m.begin, m.end))
        entity = entities.get(key) if key else None
        found.append((m.begin, entity.label if entity else None,
                      entity.kind if entity else None, entity.fine_type if entity else None))
    return tuple(found)


def produced_keys(extractions: list[Extraction], resolution: Resolution) -> set[str]:
    """The keys of the named questions' rows (people-roles, claims, events) of the articles
    ``extractions`` (their graphs and the entities graph)."""
    from rdflib import Dataset

    from bench.precision import named_rows
    from kg.config import Settings
    from kg.rdf.graph import document_triples
    from kg.rdf.serialize import serialize
    from kg.rdf.terms import article_graph_iri, entities_graph_iri, entity_triples

    if not extractions:
        return set()
    base = Settings().base_iri
    quads = [(*t, article_graph_iri(base, e.document.doc_id))
             for e in extractions for t in document_triples(e, resolution, base)]
    quads += [(*t, entities_graph_iri(base)) for t in entity_triples(resolution, base)]
    dataset = Dataset(store="Oxigraph", default_union=True)
    dataset.parse(data=serialize(quads, "nq"), format="ox-nquads")
    return {row["key"] for kind in ("people-roles", "claims", "events")
            for row in named_rows(dataset, kind)}


def eval_sets(which: str, names: Sequence[str], sample: str | None = None) -> list[EvalSet]:
    from bench.build_ner_eval import SETS

    found = []
    for name in names:
        if name in SETS:
            path, labels = SETS[name]
            unit = {"conll": "conll-dev", "wikigold": "wikigold", "btc": "btc-g"}[name]
            found.append(ner_set(name, DATA / path, labels, unit, which))
        elif name == "ecb":
            found.append(ecb_set(which))
        elif name == "facts":
            found.append(facts_set(which))
        elif name == "judged":
            found.append(judged_set(which, sample))
    return found


# -- the ablation ------------------------------------------------------------------------------

@dataclass
class Contribution:
    id: str
    stage: str
    fired: dict[str, int]  # set -> documents it fired in ("*" counts as every document)
    deltas: dict[str, Scores]  # set -> score change when switched off
    broken: tuple[str, ...] = ()  # sets whose run fails with it off: the rest relies on it

    def verdict(self) -> str:
        if self.broken:
            return "relied on"
        gains, losses = 0, 0
        for name, delta in self.deltas.items():
            good = _goodness(name, delta)
            gains += good > 1e-9
            losses += good < -1e-9
        if losses and not gains:
            return "pays"
        if gains and not losses:
            return "harms"
        if gains and losses:
            return "mixed"
        return "idle"


def _goodness(name: str, delta: Scores) -> float:
    """How much better a set scores with the heuristic off (negative: it helped)."""
    if name == "judged":  # right rows lost count against it, wrong rows removed for it
        return delta.get("right kept", 0) - delta.get("wrong kept", 0)
    if name == "facts":
        return sum(v if k.endswith("matched") else -v for k, v in delta.items())
    if name == "ecb":
        return delta.get("B3", 0) + delta.get("detected", 0)
    return delta.get("F1", 0)


def selected(id: str, only: str) -> bool:
    """Whether heuristic ``id`` matches ``--only``: a pattern, or several comma-separated.

    >>> selected("resolve.article.name-ends", "resolve.corpus.*,resolve.article.name-*")
    True
    >>> selected("resolve.article.surnames", "resolve.article.name-ends")
    False
    """
    return any(fnmatch.fnmatch(id, pattern) for pattern in only.split(","))


def ablate(sets: list[EvalSet], only: str | None = None,
           progress: Callable[[str], None] = print) -> list[Contribution]:
    log = FireLog()
    for s in sets:
        started = time.perf_counter()
        s.prepare(log)
        progress(f"{s.name}: {len(s.documents)} documents, {s.base_scores} "
                 f"({time.perf_counter() - started:.0f} s)")
    found = []
    for h in registry():
        if only and not selected(h.id, only):
            continue
        fired: dict[str, int] = {}
        deltas: dict[str, Scores] = {}
        broken: list[str] = []
        for s in sets:
            where = {d.split(":", 1)[1] for d in log.documents.get(h.id, ())
                     if d.startswith(s.name + ":")}
            if not where:
                continue
            fired[s.name] = len(s.documents) if "*" in where else len(where)
            try:
                after = s.without(h.id, h.stage, where)
            except Exception as e:  # a step the rest of the pipeline relies on
                progress(f"{h.id}: the {s.name} run fails without it: {e!r}")
                broken.append(s.name)
                continue
            deltas[s.name] = {k: after.get(k, 0.0) - v for k, v in s.base_scores.items()}
        found.append(Contribution(h.id, h.stage, fired, deltas, tuple(broken)))
        progress(f"{h.id}: {found[-1].verdict()} {fired} "
                 f"{ {k: {m: round(x, 4) for m, x in v.items() if x} for k, v in deltas.items()} }")
    return found


def table(found: Iterable[Contribution], sets: list[EvalSet], which: str) -> list[str]:
    lines = [f"| heuristic | stage | fired in ({which} half) | change when off | verdict |",
             "|---|---|---|---|---|"]
    for c in found:
        fired = ", ".join(f"{k} {n}" for k, n in c.fired.items()) or "nowhere"
        change = "; ".join(f"{k}: " + ", ".join(f"{m} {x:+.4g}" for m, x in v.items() if x)
                           for k, v in c.deltas.items() if any(v.values())) or "none"
        lines.append(f"| `{c.id}` | {c.stage} | {fired} | {change} | {c.verdict()} |")
    return lines


def summary(path: Path) -> list[str]:
    """A saved ablation (``--json``) as Markdown: the verdicts counted by stage, then every
    heuristic that harms or is mixed, with its changes."""
    data = json.loads(path.read_text(encoding="utf-8"))
    by_stage: dict[str, Counter[str]] = {}
    for c in data["contributions"]:
        by_stage.setdefault(c["stage"], Counter())[c["verdict"]] += 1
    verdicts = ("pays", "mixed", "harms", "idle", "relied on")
    lines = [f"| stage | {' | '.join(verdicts)} |", "|---|" + "---|" * len(verdicts)]
    for stage, counts in by_stage.items():
        lines.append(f"| {stage} | " + " | ".join(str(counts[v]) for v in verdicts) + " |")
    lines += ["", "| heuristic | verdict | change when off (check halves) |", "|---|---|---|"]
    for c in data["contributions"]:
        if c["verdict"] in ("harms", "mixed"):
            change = "; ".join(f"{k}: " + ", ".join(f"{m} {x:+.4g}" for m, x in v.items() if x)
                               for k, v in c["deltas"].items() if any(v.values()))
            lines.append(f"| `{c['id']}` | {c['verdict']} | {change} |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=("check", "tune"), default="check")
    parser.add_argument("--only", help="ablate only heuristics matching this pattern (or "
                                       "one of these, comma-separated)")
    parser.add_argument("--sets", default="conll,wikigold,btc,ecb,judged,facts")
    parser.add_argument("--sample", metavar="TAG", help="the judged set: only the rows judged "
                                                        "for this sample (first-look-6 …)")
    parser.add_argument("--json", type=Path, help="write the contributions as JSON here")
    parser.add_argument("--summary", type=Path, metavar="JSON",
                        help="print a saved ablation (--json) as Markdown and stop")
    args = parser.parse_args(argv)
    if args.summary:
        print("\n".join(summary(args.summary)))
        return 0
    sets = eval_sets(args.half, args.sets.split(","), args.sample)
    found = ablate(sets, args.only)
    print("\n".join(table(found, sets, args.half)))
    print(Counter(c.verdict() for c in found))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(
            {"half": args.half, "base": {s.name: s.base_scores for s in sets},
             "contributions": [{"id": c.id, "stage": c.stage, "fired": c.fired,
                                "deltas": c.deltas, "broken": c.broken, "verdict": c.verdict()}
                               for c in found]},
            indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
