"""The conflicting-figures ledger on everyday news, judged group by group (issue 39).

    python bench/ledger_eval.py bbc|ecb|conll|btc tune|check|all [--untouched] [--write-unjudged]
                                [--ablate] [--off ID,PATTERN…]

Builds one half (``bench/halves.py``) of a corpus — BBC by article id, ECB+ dev by topic, its
documents built as ``bench/ecb_eval.py`` builds them (sentences joined by newlines, no
dates), CoNLL-2003 (Reuters newswire of 1996, ``train.txt`` and ``dev.txt``) by document
(``conll-train:N``, ``conll-dev:N``: its place in the file; tokens joined by spaces,
sentences by newlines, no dates given — a document's own dateline line "LONDON 1996-08-22"
is its text), BTC's news tweets (sections E and G of the Broad Twitter Corpus, by tweet:
``btc-g:405``; one tweet a document, undated) — runs the ``conflicting-figures`` question
and scores every listed group against the judged groups in
``tests/eval/ledger/<corpus>.jsonl``. Parsed documents are cached under
``bench/work/ledger/`` (spaCy ``DocBin``), so a change of the rules re-runs only the rules,
resolution and the query.

A group is the figures listed for one measured thing (``?thing``). Its key is the measure's
label and its figures (article, words as written, a digest of the sentence): a judgement stays
valid while the same figures are grouped; a group that gains or loses a figure is a new,
unjudged group. A judged row holds ``real`` (the kind the ledger gives is a real disagreement
of that kind: conflict, update, forecasts or revision), ``mixed`` (the group puts figures of
two different measured things together) and ``why``.

The real disagreements of each half, written down by reading its casualty and damage figures
(ECB+) or its articles (BBC), are in ``tests/eval/ledger/real-<corpus>.jsonl``: a real one is
found when a listed group holds two of its figures or more; the others are reported missed.

``--off`` builds with heuristics switched off (ids or patterns, as ``kg build --rules``), for a
"before" beside the "after" of one run: the figures as extracted without them.

``--ablate`` runs the ledger again with each of its heuristics (``kg rules``, stage ``ledger``)
switched off in turn, the figures as extracted: one line each, after one with all on.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from conll import CONLL, CONLL_FILES, conll_id, conll_texts  # noqa: E402
from halves import half, unit  # noqa: E402

PROJECT_ROOT = Path(__file__).resolve().parents[1]
BBC = PROJECT_ROOT.parent / "shared" / "corpora" / "bbc"
ECB = PROJECT_ROOT.parent / "shared" / "data" / "ecbplus-dev" / "ecbplus_dev.jsonl"
BTC = PROJECT_ROOT.parent / "shared" / "data" / "ner-open" / "btc"
#: BTC's sections of news: E (tweets on the MH17 disaster, July 2014) and G (mainstream news
#: outlets' tweets, 2011-2014).
BTC_SECTIONS = ("e", "g")
WORK = PROJECT_ROOT / "bench" / "work" / "ledger"
JUDGED = PROJECT_ROOT / "tests" / "eval" / "ledger"
#: BBC articles kg's earlier rules were read against (bench/precision.py's seeded sample):
#: the untouched check sample leaves them out.
PRECISION_SEED, PRECISION_ARTICLES = 16, 400


# -- documents ----------------------------------------------------------------------------


def bbc_documents(which: str, untouched: bool = False) -> list[Any]:
    """The distinct BBC articles of one half (by article id); ``untouched`` leaves out the
    articles of bench/precision.py's sample, which earlier rules were tuned on."""
    from kg.ingest.copies import mark_copies
    from kg.ingest.files import read_documents

    seen: set[str] = set()
    paths = []
    for path in sorted(BBC.glob("bbc_*.txt")):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest not in seen and which in ("all", half(path.stem.replace("_", "-"))):
            seen.add(digest)
            paths.append(path)
    if untouched:
        from precision import choose_articles

        tuned = set(choose_articles(BBC, PRECISION_ARTICLES, PRECISION_SEED))
        paths = [p for p in paths if p not in tuned]
    return mark_copies(list(read_documents(paths)))


def ecb_documents(which: str) -> list[Any]:
    """The ECB+ dev documents of the topics of one half, as bench/ecb_eval.py builds them."""
    from kg.ingest.files import document_from_text

    documents = []
    for line in ECB.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        if which in ("all", half(f"ecb:{record['topic']}")):
            documents.append(document_from_text("\n".join(record["sentences"]),
                                                doc_id=record["doc"]))
    return documents


def conll_documents(which: str) -> list[Any]:
    """The CoNLL-2003 documents (train and dev) of one half, by document
    (``conll-train:17``)."""
    from kg.ingest.files import document_from_text

    documents = []
    for name in CONLL_FILES:
        for i, text in enumerate(conll_texts(CONLL / f"{name}.txt")):
            doc_id = conll_id(name, i)
            if which in ("all", half(unit(doc_id))):
                documents.append(document_from_text(text, doc_id=doc_id))
    return documents


def btc_tweets(path: Path) -> list[str]:
    """The tweets of a BTC section's CoNLL file (a blank line ends one), tokens joined by
    spaces."""
    tweets, tokens = [], []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.strip():
            tokens.append(line.split("\t")[0].split()[0] if line.split() else "")
        elif tokens:
            tweets.append(" ".join(tokens))
            tokens = []
    return tweets


def btc_documents(which: str) -> list[Any]:
    """The tweets of BTC's news sections (E, G) of one half, by tweet (``btc-g:405``, as
    bench/halves.py deals section G), each its tokens joined by spaces, undated."""
    from kg.ingest.files import document_from_text

    documents = []
    for name in BTC_SECTIONS:
        for i, text in enumerate(btc_tweets(BTC / f"{name}.conll")):
            if which in ("all", half(f"btc-{name}:{i}")):
                documents.append(document_from_text(text, doc_id=f"btc-{name}-{i}"))
    return documents


def documents_of(corpus: str, which: str, untouched: bool = False) -> list[Any]:
    if corpus == "conll":
        return conll_documents(which)
    if corpus == "btc":
        return btc_documents(which)
    return bbc_documents(which, untouched) if corpus == "bbc" else ecb_documents(which)


# -- parsing once, extracting many times ----------------------------------------------------


def parsed(documents: Sequence[Any], name: str, nlp: Any) -> list[tuple[Any, list[Any]]]:
    """Each document with its parsed chunks, from ``bench/work/ledger/<name>.spacy`` when
    it holds exactly these texts, parsed and cached otherwise."""
    from spacy.tokens import DocBin

    from kg.extract.collect import ChunkContext
    from kg.extract.pipeline import chunk_bounds

    digest = hashlib.sha256("|".join(d.sha256 for d in documents).encode()).hexdigest()[:16]
    path = WORK / f"{name}-{digest}.spacy"
    chunks = [(d, begin, end, i == len(bounds) - 1) for d in documents
              for bounds in [chunk_bounds(d.text)] for i, (begin, end) in enumerate(bounds)]
    if path.exists():
        docs = list(DocBin().from_disk(path).get_docs(nlp.vocab))
    else:
        print(f"parsing {len(documents)} documents …", file=sys.stderr)
        docs = list(nlp.pipe((d.text[b:e] for d, b, e, _ in chunks), batch_size=32))
        WORK.mkdir(parents=True, exist_ok=True)
        DocBin(docs=docs, store_user_data=True).to_disk(path)
    parts: dict[str, tuple[Any, list[Any]]] = {}
    for (document, begin, _, last), doc in zip(chunks, docs, strict=True):
        parts.setdefault(document.doc_id, (document, []))[1].append(
            (doc, ChunkContext(document, begin, last)))
    return list(parts.values())


def build(corpus: str, which: str, untouched: bool = False) -> Any:
    """The graph of one half, as an rdflib Dataset held in Oxigraph."""
    return dataset_of(built_corpus(corpus, which, untouched))


def built_corpus(corpus: str, which: str, untouched: bool = False) -> Any:
    """One half extracted and resolved (``kg.build.corpus.Corpus``)."""
    from kg.build.corpus import corpus_from_extractions
    from kg.config import Settings
    from kg.extract import load_pipeline
    from kg.extract.collect import extraction_from_chunks

    nlp = load_pipeline()
    # the whole of ECB+ or CoNLL is its two halves, parsed (and cached) half by half
    halves = ("tune", "check") if which == "all" and corpus != "bbc" else (which,)
    extractions = [extraction_from_chunks(document, parts) for part in halves
                   for document, parts in parsed(
                       documents_of(corpus, part, untouched),
                       f"{corpus}-{part}{'-untouched' if untouched else ''}", nlp)]
    return corpus_from_extractions(extractions, Settings())


def dataset_of(built: Any) -> Any:
    """A built corpus's graph, written afresh (under the heuristics switched on where this is
    asked), as an rdflib Dataset held in Oxigraph."""
    from rdflib import Dataset

    from kg.rdf.graph import corpus_quads
    from kg.rdf.serialize import serialize
    from kg.store.sparql import PREFIXES

    quads = list(corpus_quads(list(built.extractions), built.resolution, built.base_iri,
                              built.model))
    dataset = Dataset(store="Oxigraph", default_union=True)
    for prefix, namespace in PREFIXES.items():
        dataset.bind(prefix, namespace)
    dataset.parse(data=serialize(quads, "nq"), format="ox-nquads")
    return dataset


def ablation(built: Any, corpus: str, which: str) -> list[dict[str, Any]]:
    """The ledger with every heuristic on, then with each of its own (stage ``ledger``) off
    in turn: the groups it lists, their judged precision and the real disagreements found."""
    from kg.build.rules import registry
    from kg.heuristics import switched_off

    judged = load_judged(corpus)
    rows = []
    for off in ["", *(h.id for h in registry() if h.stage == "ledger")]:
        with switched_off({off} - {""}):
            groups = groups_of(dataset_of(built))
        rows.append({"off": off or "(none)", **score(groups, judged),
                     "recall": recall(groups, corpus, which)})
    return rows


# -- groups and judgements -------------------------------------------------------------------


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()[:10]


def _local(iri: Any) -> str:
    return str(iri or "").rstrip("/").rsplit("/", 1)[-1]


@dataclass(frozen=True)
class Group:
    """The figures the ledger lists for one measured thing."""

    measure: str
    kinds: tuple[str, ...]
    rows: tuple[dict[str, str], ...]

    @property
    def key(self) -> str:
        members = sorted({(r["article"], r["figure"], _digest(r["sentence"])) for r in self.rows})
        return f"{'/'.join(self.kinds)}|{self.measure}|" + "|".join(":".join(m) for m in members)

    def row(self) -> dict[str, Any]:
        return {"key": self.key, "measure": self.measure, "kinds": list(self.kinds),
                "order": self.rows[0].get("order", ""),
                "figures": [{k: r[k] for k in ("figure", "value", "wording", "source", "article",
                                               "sentence") if k in r}
                            for r in self.rows]}


def groups_of(graph: Any) -> list[Group]:
    """The ledger's groups: its rows gathered by disagreement (one measured thing, one kind),
    as the /conflicts page gathers them."""
    import kg
    from kg.serve.queries import CONFLICTS

    found: dict[str, list[dict[str, str]]] = defaultdict(list)
    for row in kg.query(graph, CONFLICTS, timeout=None):
        values = {k: "" if v is None else str(v) for k, v in row.items()}
        values["article"] = _local(values.get("article"))
        found[values["group"]].append(values)
    groups = []
    for rows in found.values():
        unique = {(r["article"], r["fact"]): r for r in rows}
        kept = sorted(unique.values(), key=lambda r: (r["article"], r["figure"]))
        groups.append(Group(kept[0]["measure"], tuple(sorted({r["status"] for r in kept})),
                            tuple(kept)))
    return sorted(groups, key=lambda g: g.key)


def load_judged(corpus: str) -> dict[str, dict[str, Any]]:
    path = JUDGED / f"{corpus}.jsonl"
    if not path.exists():
        return {}
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    return {r["key"]: r for r in rows}


def score(groups: Sequence[Group], judged: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Precision of the listed groups over those judged, and the mixed groups among them."""
    known = [judged[g.key] for g in groups if g.key in judged]
    real = sum(1 for j in known if j["real"])
    mixed = sum(1 for j in known if j.get("mixed"))
    return {"groups": len(groups), "judged": len(known), "real": real, "mixed": mixed,
            "precision": real / len(known) if known else None}


def _same_figure(gold: dict[str, str], listed: dict[str, str]) -> bool:
    def plain(text: str) -> str:
        return "".join(text.lower().split()).replace(",", "")

    return gold["article"] == listed["article"] and (
        plain(gold["figure"]) in plain(listed["figure"])
        or plain(listed["figure"]) in plain(gold["figure"]))


def recall(groups: Sequence[Group], corpus: str, which: str) -> dict[str, Any]:
    """How many of the real disagreements written down in ``tests/eval/ledger/real-<corpus>
    .jsonl`` for this half a listed group holds (two of its figures or more)."""
    path = JUDGED / f"real-{corpus}.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line] if path.exists() else []
    real = [r for r in rows if which in ("all", r["half"])]
    found = [r for r in real if any(
        sum(any(_same_figure(f, g) for g in group.rows) for f in r["figures"]) >= 2
        for group in groups)]
    return {"real": len(real), "found": len(found),
            "missed": [f"{r['event']}: {r['measure']}" for r in real if r not in found]}


def write_jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                    encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", choices=("bbc", "ecb", "conll", "btc"))
    parser.add_argument("half", choices=("tune", "check", "all"),
                        help="a half, or the whole set (its groups across the halves too)")
    parser.add_argument("--untouched", action="store_true",
                        help="BBC: leave out the articles of bench/precision.py's sample")
    parser.add_argument("--write-unjudged", action="store_true")
    parser.add_argument("--ablate", action="store_true",
                        help="each of the ledger's heuristics switched off in turn")
    parser.add_argument("--off", default="",
                        help="heuristics to switch off while building (ids or patterns, "
                             "comma-separated)")
    args = parser.parse_args(argv)
    if args.off:
        from kg.build.rules import registry
        from kg.heuristics import expand_switches, switched_off

        registry()  # every stage's heuristics declared, so that their ids are known
        with switched_off(expand_switches(args.off.split(","))):
            return _run(args)
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    if args.ablate:
        built = built_corpus(args.corpus, args.half, args.untouched)
        for row in ablation(built, args.corpus, args.half):
            found = {k: v for k, v in row.pop("recall").items() if k != "missed"}
            print(json.dumps({**row, "recall": found}, ensure_ascii=False))
        return 0
    graph = build(args.corpus, args.half, args.untouched)
    groups = groups_of(graph)
    judged = load_judged(args.corpus)
    name = f"{args.corpus}-{args.half}{'-untouched' if args.untouched else ''}" + (
        "-off" if args.off else "")
    write_jsonl(WORK / f"groups-{name}.jsonl", (g.row() for g in groups))
    if args.write_unjudged:
        write_jsonl(WORK / f"unjudged-{name}.jsonl",
                    ({**g.row(), "real": None, "mixed": None, "why": ""}
                     for g in groups if g.key not in judged))
    print(json.dumps({"set": name, **score(groups, judged),
                      "recall": recall(groups, args.corpus, args.half)}, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
