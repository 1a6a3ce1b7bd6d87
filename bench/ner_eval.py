"""NER development figures: CoNLL-2003 dev (exact span and type) and ECB+ dev (detection).

    .venv/bin/python bench/ner_eval.py [--data ../shared/data] [--model kg/extract/ner/model]
                                       [--speed N] [--results bench/RESULTS-ner.md]
    .venv/bin/python bench/ner_eval.py --build-speed N [--rounds R] [--model DIR]
    .venv/bin/python bench/ner_eval.py --agreement N [--model DIR]

Systems, all read from one run of the small pipeline with the news NER added:

- ``sm``: the small model's own ``ner`` (PERSON→PER, ORG→ORG, GPE/LOC/FAC→LOC);
- ``news``: the news NER alone (its PER/ORG/LOC);
- ``news+sm``: the news NER, with the small model's names filling the gaps it leaves
  (``add_news_ner(..., fill_from_small=True)``);
- ``+consistent``: with a name found once also found at its other occurrences in the
  document (``add_news_ner(..., consistent=True)``). ``news+sm+consistent`` is what
  ``add_news_ner`` does by default (the shipped combination).

CoNLL dev: per-type precision, recall and F1 of PER/ORG/LOC, exact span and type, over the
documents as tokenised in the file, and the recall of the dev names CoNLL train never names; the
same figures on wikigold and BTC section g, never trained on (out of domain). ECB+ dev: the
instrument of ``../shared/data/README.md``: gold mentions of types PER/ORG/GPE/LOC_* with a
cluster, starting with a capital letter, not pronouns, in documents whose sentences are joined
by newlines; a mention is detected when an entity of the system overlaps it. ``--speed N`` also
times ``nlp.pipe`` over N BBC articles, plain small pipeline against the one with the news NER.
``--build-speed N`` times only raw ``en_core_web_sm`` ``nlp.pipe`` against a whole ``kg build``
(default pipeline) of N BBC articles (issue 12's throughput figure). ``--agreement N`` compares
the build's value, NORP and thing labels with the small model's own ``ner`` over N BBC articles
(per label P/R/F1, the small model as a silver reference: how far a joint model, which replaces
it, departs from it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kg.config import MODEL_PACKAGE  # noqa: E402
from kg.extract import load_pipeline  # noqa: E402
from kg.extract.ner.component import (  # noqa: E402
    MODEL_DIR,
    SMALL_ENTS_KEY,
    SMALL_NAME_LABELS,
    add_news_ner,
    merged_entities,
)
from kg.extract.ner.corpus import CONLL_LABELS, read_documents  # noqa: E402

TYPES = ("PER", "ORG", "LOC")
ECB_TYPES = {
    "HUMAN_PART_PER": "PER",
    "HUMAN_PART_ORG": "ORG",
    "HUMAN_PART_GPE": "GPE",
    "LOC_GEO": "LOC",
    "LOC_FAC": "LOC",
    "LOC_OTHER": "LOC",
}
PRONOUNS = frozenset(
    "i me my mine we us our ours you your yours he him his she her hers it its they them their "
    "theirs this that these those who whom whose which what himself herself itself themselves "
    "ourselves myself yourself one".split()
)
#: Small-model labels that are values, not names (never counted as detecting a name).
VALUE_LABELS = frozenset({"DATE", "TIME", "CARDINAL", "MONEY", "PERCENT", "QUANTITY", "ORDINAL"})
#: The news NER's variants: options of ``add_news_ner`` (applied here to one plain run).
VARIANTS = {
    "news": {},
    "news+consistent": {"consistent": True},
    "news+sm": {"fill_from_small": True},
    "news+sm+consistent": {"fill_from_small": True, "consistent": True},
}
SYSTEMS = ("sm", *VARIANTS)
Spans = set[tuple[int, int, str]]


def small_names(doc: Any) -> list[Any]:
    return [s for s in doc.spans[SMALL_ENTS_KEY] if s.label_ not in VALUE_LABELS]


def system_entities(doc: Any) -> dict[str, list[Any]]:
    """Name entities of each system, as spaCy spans (labels as the system gives them)."""
    out = {"sm": small_names(doc)}
    for name, options in VARIANTS.items():
        merged = merged_entities(doc.ents, doc.spans[SMALL_ENTS_KEY], **options)
        out[name] = [e for e in merged if e.label_ not in VALUE_LABELS]
    return out


def typed(spans: Iterable[Any]) -> Spans:
    """(start, end, PER|ORG|LOC) of the spans, small-model labels mapped."""
    out = set()
    for s in spans:
        label = SMALL_NAME_LABELS.get(s.label_, s.label_)
        if label in TYPES:
            out.add((s.start, s.end, label))
    return out


@dataclass
class Counts:
    tp: Counter[str] = field(default_factory=Counter)
    fp: Counter[str] = field(default_factory=Counter)
    fn: Counter[str] = field(default_factory=Counter)

    def add(self, gold: Spans, found: Spans) -> None:
        for _s, _e, label in found & gold:
            self.tp[label] += 1
        for _s, _e, label in found - gold:
            self.fp[label] += 1
        for _s, _e, label in gold - found:
            self.fn[label] += 1

    def prf(self, labels: Iterable[str]) -> tuple[float, float, float]:
        tp = sum(self.tp[t] for t in labels)
        fp = sum(self.fp[t] for t in labels)
        fn = sum(self.fn[t] for t in labels)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def gold_spans(doc: Any) -> Spans:
    return {(e.start, e.end, e.label_) for e in doc.ents if e.label_ in TYPES}


#: Token-per-line sets the shipped model never trained on, read as CoNLL dev is: out-of-domain
#: checks (Wikipedia; tweets of news outlets, which have no MISC).
OUT_OF_DOMAIN = {"wikigold": "ner-open/wikigold/wikigold.conll", "BTC g": "ner-open/btc/g.conll"}


def conll_scores(nlp: Any, data: Path, path: str = "conll2003/dev.txt",
                 unseen: Counter[str] | None = None) -> dict[str, Counts]:
    """Counts per system over a token-per-line set (CoNLL-2003 dev by default). With
    ``unseen``, also counts the gold names whose words are no name of CoNLL train ("<system>")
    and those of them each system finds exactly ("<system>/found")."""
    from spacy.tokens import Doc

    from kg.extract.ner.corpus import doc_of

    documents = read_documents(data / path, CONLL_LABELS)
    golds = [doc_of(nlp.vocab, d) for d in documents]
    inputs = [Doc(nlp.vocab, words=[t.text for t in g]) for g in golds]
    seen = train_names(nlp, data) if unseen is not None else frozenset()
    counts = {name: Counts() for name in SYSTEMS}
    for gold, doc in zip(golds, nlp.pipe(inputs, batch_size=64), strict=True):
        new = {s for s in gold_spans(gold) if gold[s[0]:s[1]].text not in seen}
        for name, spans in system_entities(doc).items():
            found = typed(spans)
            counts[name].add(gold_spans(gold), found)
            if unseen is not None:
                unseen[name] += len(new)
                unseen[name + "/found"] += len(new & found)
    return counts


def train_names(nlp: Any, data: Path) -> frozenset[str]:
    """The words of every name of CoNLL-2003 train."""
    from kg.extract.ner.corpus import doc_of

    documents = read_documents(data / "conll2003" / "train.txt", CONLL_LABELS)
    return frozenset(e.text for d in documents for e in doc_of(nlp.vocab, d).ents)


def is_named_mention(mention: dict[str, Any]) -> bool:
    text = mention["text"]
    return (
        mention["type"] in ECB_TYPES
        and bool(mention["cluster"])
        and text[:1].isupper()
        and text.lower() not in PRONOUNS
    )


def ecb_detection(nlp: Any, data: Path) -> dict[str, Counter[str]]:
    """Per system, counts of gold named mentions found ("<type>") and in all ("<type>/all")."""
    rows = [json.loads(line) for line in (data / "ecbplus-dev" / "ecbplus_dev.jsonl").open()]
    texts, golds = [], []
    for row in rows:
        starts, offset = [], 0
        for sentence in row["sentences"]:
            starts.append(offset)
            offset += len(sentence) + 1
        texts.append("\n".join(row["sentences"]))
        golds.append(
            [
                (starts[m["sent"]] + m["char_start"], starts[m["sent"]] + m["char_end"],
                 ECB_TYPES[m["type"]])
                for m in row["mentions"]
                if is_named_mention(m)
            ]
        )
    found = {name: Counter[str]() for name in SYSTEMS}
    for doc, gold in zip(nlp.pipe(texts, batch_size=16), golds, strict=True):
        for name, spans in system_entities(doc).items():
            chars = [(s.start_char, s.end_char) for s in spans]
            for start, end, kind in gold:
                found[name][kind + "/all"] += 1
                found[name][kind] += any(a < end and start < b for a, b in chars)
    return found


def words_per_second(nlp: Any, texts: list[str]) -> float:
    started = time.perf_counter()
    words = sum(len(doc) for doc in nlp.pipe(texts, batch_size=64))
    return words / (time.perf_counter() - started)


def speed(model: Path, n: int, add: Callable[..., Any]) -> dict[str, float]:
    """Words per second of plain sm and sm + news NER over ``n`` BBC articles (best of 2)."""
    folder = ROOT.parent / "shared" / "corpora" / "bbc"
    texts = [p.read_text(errors="replace") for p in sorted(folder.glob("*.txt"))[:n]]
    plain, news = load_pipeline(MODEL_PACKAGE), add(load_pipeline(MODEL_PACKAGE), model=model)
    result = {"articles": float(len(texts)), "sm": 0.0, "sm+news": 0.0}
    for _ in range(2):
        result["sm"] = max(result["sm"], words_per_second(plain, texts))
        result["sm+news"] = max(result["sm+news"], words_per_second(news, texts))
    return result


def bbc_texts(n: int) -> tuple[list[Path], list[str]]:
    """The first ``n`` BBC articles (the evaluation corpus, never trained on): paths, texts."""
    from kg.ingest.files import read_documents

    folder = ROOT.parent / "shared" / "corpora" / "bbc"
    paths = sorted(folder.glob("*.txt"))[:n]
    texts = [d.text for d in read_documents([str(p) for p in paths], on_skip=lambda _s: None)]
    return paths, texts


def news_pipeline(model: Path) -> Any:
    """The default build pipeline with the news NER of ``model`` (``load_pipeline()`` when
    ``model`` is the shipped one)."""
    from kg.extract.ner.component import add_spacy_labels

    return add_spacy_labels(add_news_ner(load_pipeline(MODEL_PACKAGE), model=model))


#: The small model's labels that are not names of people, organisations or places: what the
#: joint model learns from it as silver labels.
SILVER_TYPES = ("DATE", "TIME", "MONEY", "PERCENT", "CARDINAL", "ORDINAL", "QUANTITY", "NORP",
                "EVENT", "WORK_OF_ART", "PRODUCT", "LAW", "LANGUAGE")


def silver_agreement(model: Path, n: int) -> Counts:
    """Per label, exact-span agreement of the build's final entities (``doc.ents`` of the
    default pipeline with ``model``) with the small model's own ``ner`` (the reference: silver,
    not gold) over ``n`` BBC articles, for the labels the joint model takes from it."""
    import spacy

    from kg.extract.pipeline import model_dir

    _paths, texts = bbc_texts(n)
    small = spacy.load(model_dir(MODEL_PACKAGE))
    counts = Counts()
    docs = zip(small.pipe(texts, batch_size=16), news_pipeline(model).pipe(texts, batch_size=16),
               strict=True)
    for reference, built in docs:
        gold = {(e.start_char, e.end_char, e.label_) for e in reference.ents
                if e.label_ in SILVER_TYPES}
        found = {(e.start_char, e.end_char, e.label_) for e in built.ents
                 if e.label_ in SILVER_TYPES}
        counts.add(gold, found)
    return counts


def agreement_table(counts: Counts) -> list[str]:
    lines = ["| label | reference spans | P | R | F1 |", "|---|---|---|---|---|"]
    for label in (*SILVER_TYPES, "all"):
        labels = SILVER_TYPES if label == "all" else (label,)
        p, r, f = counts.prf(labels)
        n = sum(counts.tp[t] + counts.fn[t] for t in labels)
        lines.append(f"| {label} | {n} | {p:.3f} | {r:.3f} | {f:.3f} |")
    return lines


def build_speed(n: int, rounds: int = 2, model: Path = MODEL_DIR) -> dict[str, float]:
    """Words per second over the same ``n`` BBC articles: raw en_core_web_sm ``nlp.pipe``
    (nothing kept) against a whole kg build with the default pipeline (news NER, extraction,
    resolution, RDF written; no cache), each the best of ``rounds``, the runs interleaved.
    Both in wall-clock time (``raw``, ``build``) and in this process's CPU time (``raw_cpu``,
    ``build_cpu``: what a shared, loaded machine disturbs least). The first build of the
    process also loads what every later build reuses (GeoNames, the vocabulary graph)."""
    import tempfile

    import spacy

    from kg.build.corpus import build_corpus
    from kg.config import Settings
    from kg.extract.pipeline import model_dir

    paths, texts = bbc_texts(n)
    plain, default = spacy.load(model_dir(MODEL_PACKAGE)), news_pipeline(model)  # raw: spaCy's
    words = sum(len(doc) for doc in plain.pipe(texts, batch_size=64))  # also warms up
    result = {"articles": float(len(texts)), "words": float(words), "raw": 0.0, "build": 0.0,
              "raw_cpu": 0.0, "build_cpu": 0.0}

    def best(key: str, wall: float, cpu: float) -> None:
        result[key] = max(result[key], words / wall)
        result[f"{key}_cpu"] = max(result[f"{key}_cpu"], words / cpu)

    for _ in range(rounds):
        wall, cpu = time.perf_counter(), time.process_time()
        sum(len(doc) for doc in plain.pipe(texts, batch_size=64))
        best("raw", time.perf_counter() - wall, time.process_time() - cpu)
        with tempfile.TemporaryDirectory() as out:
            wall, cpu = time.perf_counter(), time.process_time()
            build_corpus(list(paths), Settings(out_dir=Path(out), cache=False),
                         formats=("trig",), nlp=default)
            best("build", time.perf_counter() - wall, time.process_time() - cpu)
    return result


def conll_table(counts: dict[str, Counts]) -> list[str]:
    lines = ["| system | type | P | R | F1 |", "|---|---|---|---|---|"]
    for name, c in counts.items():
        for label in (*TYPES, "all"):
            p, r, f = c.prf(TYPES if label == "all" else (label,))
            row = f"| {name} | {label} | {p:.3f} | {r:.3f} | {f:.3f} |"
            lines.append(row.replace("| all |", "| **PER+ORG+LOC** |"))
    return lines


def ood_rows(nlp: Any, data: Path) -> list[str]:
    scores = {s: conll_scores(nlp, data, path) for s, path in OUT_OF_DOMAIN.items()}
    rows = []
    for name in SYSTEMS:
        cells = [" / ".join(f"{x:.3f}" for x in scores[s][name].prf(TYPES)) for s in scores]
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    return rows


def ecb_table(found: dict[str, Counter[str]]) -> list[str]:
    kinds = ("PER", "ORG", "GPE", "LOC")
    head = "| system | " + " | ".join(kinds) + " | **all** |"
    lines = [head, "|---" * (len(kinds) + 2) + "|"]
    for name, c in found.items():
        cells = [f"{c[k] / c[k + '/all']:.3f}" for k in kinds]
        total = sum(c[k] for k in kinds) / sum(c[k + "/all"] for k in kinds)
        lines.append(f"| {name} | " + " | ".join(cells) + f" | **{total:.3f}** |")
    n = {k: found["sm"][k + "/all"] for k in kinds}
    lines.append("")
    lines.append("Gold mentions: " + ", ".join(f"{k} {v}" for k, v in n.items()))
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    parser.add_argument("--model", type=Path, default=MODEL_DIR)
    parser.add_argument("--speed", type=int, default=0, metavar="N")
    parser.add_argument("--results", type=Path, help="write the tables to this Markdown file")
    parser.add_argument("--build-speed", type=int, default=0, metavar="N",
                        help="only time raw en_core_web_sm nlp.pipe against a kg build over "
                             "N BBC articles")
    parser.add_argument("--rounds", type=int, default=2,
                        help="with --build-speed: best of this many runs of each side")
    parser.add_argument("--agreement", type=int, default=0, metavar="N",
                        help="only compare the build's value, NORP and thing labels with the "
                             "small model's own ner over N BBC articles")
    args = parser.parse_args()
    if args.agreement:
        print(f"{args.model}: the build's labels against en_core_web_sm's ner (silver "
              f"reference), exact spans, {args.agreement} BBC articles")
        print("\n".join(agreement_table(silver_agreement(args.model, args.agreement))))
        return 0
    if args.build_speed:
        b = build_speed(args.build_speed, args.rounds, args.model)
        print(f"{int(b['articles'])} BBC articles, {int(b['words'])} words, best of "
              f"{args.rounds}: raw en_core_web_sm nlp.pipe {b['raw']:.0f} words/s, kg build "
              f"(default pipeline) {b['build']:.0f} words/s ({b['build'] / b['raw']:.2f}x); "
              f"CPU time: raw {b['raw_cpu']:.0f}, build {b['build_cpu']:.0f} words/s "
              f"({b['build_cpu'] / b['raw_cpu']:.2f}x); load average "
              f"{os.getloadavg()[0]:.1f}")
        return 0
    nlp = add_news_ner(load_pipeline(MODEL_PACKAGE), model=args.model, fill_from_small=False,
                       consistent=False)
    record = json.loads((args.model / "training.json").read_text())
    unseen: Counter[str] = Counter()
    shown = args.model.relative_to(ROOT) if args.model.is_relative_to(ROOT) else args.model
    lines = [
        "# NER development figures",
        "",
        f"Model: `{shown}`"
        f" (training sets: {', '.join(record['sets'])}). Written by `bench/ner_eval.py`.",
        "",
        "## CoNLL-2003 dev: exact span and type",
        "",
        *conll_table(conll_scores(nlp, args.data, unseen=unseen)),
        "",
        "Recall of the CoNLL dev names whose words are no name in CoNLL train (exact span "
        "and type):",
        "",
        "| system | found | unseen names | recall |",
        "|---|---|---|---|",
        *(f"| {name} | {unseen[name + '/found']} | {unseen[name]} | "
          f"{unseen[name + '/found'] / unseen[name]:.3f} |" for name in SYSTEMS),
        "",
        "## Out of domain: sets never trained on, PER+ORG+LOC exact span and type",
        "",
        "| system | " + " | ".join(f"{s} P / R / F1" for s in OUT_OF_DOMAIN) + " |",
        "|---" * (len(OUT_OF_DOMAIN) + 1) + "|",
        *ood_rows(nlp, args.data),
        "",
        "## ECB+ dev (16 topics): named mentions detected",
        "",
        *ecb_table(ecb_detection(nlp, args.data)),
    ]
    if args.speed:
        s = speed(args.model, args.speed, add_news_ner)
        lines += [
            "",
            f"## Speed: `nlp.pipe` over {int(s['articles'])} BBC articles (best of 2)",
            "",
            "| pipeline | words/s |",
            "|---|---|",
            f"| plain en_core_web_sm | {s['sm']:.0f} |",
            f"| with the news NER as shipped | {s['sm+news']:.0f} "
            f"({s['sm+news'] / s['sm']:.2f}×) |",
            "",
            f"Load average at the end: {os.getloadavg()[0]:.1f}.",
        ]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.results:
        args.results.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
