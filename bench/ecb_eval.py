"""Cross-document coreference on the ECB+ development topics, as ../shared/data/README.md scores it.

    python bench/ecb_eval.py [../shared/data/ecbplus-dev/ecbplus_dev.jsonl] [--ner news|small]
                             [--losses FILE.tsv] [--half tune|check]

Gold: the mentions of types PER/ORG/GPE/LOC_* that have a cluster, start with a capital
letter and are not pronouns. Each document is its sentences joined by newlines, extracted and
resolved by kg (all documents at once, as ``kg build`` does); each gold mention is aligned to
the system mention that overlaps it most. Reported: the share of gold mentions detected, and
B-cubed P/R/F1 of kg's entities against the gold clusters within each topic (a mention's
cluster is only compared with mentions of its own topic), over the detected mentions — beside a
baseline that puts the same mentions with the same last word in one cluster, per topic.

``--half`` keeps the topics of one half (``bench/halves.py``, ``half(f"ecb:{topic}")``: rules
and the context model are tuned on the tune topics, reported on the check topics).

``--losses`` also follows each gold mention through kg's steps (``STAGES``: the tagger's
entities, the cleaned mentions, the article's own recovery, the line rules, the corpus names,
resolution) and says where a name the tagger found was lost, or which step recovered one it
missed; the table goes to stdout, one row per gold mention to the TSV file.

>>> is_gold_named({"type": "HUMAN_PART_PER", "cluster": "HUM1", "text": "Tara Reid"})
True
>>> is_gold_named({"type": "HUMAN_PART_PER", "cluster": "HUM1", "text": "She"})
False
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[1]
if str(PROJECT_ROOT) not in sys.path:
    sys.path.insert(0, str(PROJECT_ROOT))
DEV_SET = PROJECT_ROOT.parent / "shared" / "data" / "ecbplus-dev" / "ecbplus_dev.jsonl"
TYPES = ("HUMAN_PART_PER", "HUMAN_PART_ORG", "HUMAN_PART_GPE")
PRONOUNS = frozenset("""i me my mine myself you your yours yourself yourselves he him his himself
she her hers herself it its itself we us our ours ourselves they them their theirs themselves
this that these those who whom whose which what one""".split())

#: A scored mention: (system cluster, gold cluster, document) — clusters prefixed by topic.
Scored = tuple[str, str, str]


def is_gold_named(mention: dict[str, Any]) -> bool:
    """A named gold mention: a person/organisation/place type, a cluster, a capital, no pronoun."""
    kind, text = mention["type"], mention["text"].strip()
    return (bool(mention["cluster"]) and (kind in TYPES or kind.startswith("LOC_"))
            and text[:1].isupper() and text.lower() not in PRONOUNS)


@dataclass(frozen=True)
class GoldMention:
    doc: str
    topic: str
    begin: int  # offsets in the document text (sentences joined by newlines)
    end: int
    text: str
    cluster: str
    kind: str = ""


def load_documents(path: Path = DEV_SET, which: str | None = None
                   ) -> tuple[dict[str, str], list[GoldMention]]:
    """Document texts by id and the named gold mentions, with offsets into those texts; with
    ``which`` ("tune" or "check"), only the documents of that half's topics."""
    from bench.halves import half

    texts, gold = {}, []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            record = json.loads(line)
            if which and half(f"ecb:{record['topic']}") != which:
                continue
            doc, starts, offset = record["doc"], [], 0
            for sentence in record["sentences"]:
                starts.append(offset)
                offset += len(sentence) + 1
            texts[doc] = "\n".join(record["sentences"])
            gold += [GoldMention(doc, record["topic"], starts[m["sent"]] + m["char_start"],
                                 starts[m["sent"]] + m["char_end"], m["text"], m["cluster"],
                                 m["type"])
                     for m in record["mentions"] if is_gold_named(m)]
        except (ValueError, KeyError, IndexError) as e:
            raise SystemExit(f"{path}:{number}: not an ECB+ record ({e!r})") from e
    return texts, gold


Found = dict[str, list[tuple[int, int, str]]]  # document -> (begin, end, entity key)

#: The steps a name passes through in ``kg build``, in order: the tagger's entities
#: (``doc.ents``, value labels aside), the mentions ``kg.extract.entities`` keeps of them
#: (classes, titles, trimming), with the article's own repeats and places
#: (``recovered_mentions``), after the line rules (cuts at line breaks, nicknames, web-address
#: and Title Case lines: ``with_headline_names``), with the corpus's names
#: (``with_corpus_names``), and given an entity by resolution.
STAGES = ("ner", "cleaned", "recovered", "lines", "corpus", "resolved")
#: Labels of numbers and dates, which never name anything.
VALUE_LABELS = frozenset({"DATE", "TIME", "CARDINAL", "MONEY", "PERCENT", "QUANTITY", "ORDINAL"})


@dataclass(frozen=True)
class KgRun:
    """kg's mentions of each document, and the spans each of ``STAGES`` had."""

    found: Found
    #: stage -> document -> (begin, end, label or name)
    stages: dict[str, Found]
    #: entity key -> the entity resolution made (its class, fine class, label)
    entities: dict[str, Any] = field(default_factory=dict)


def kg_run(texts: dict[str, str], nlp: Any = None) -> KgRun:
    """Extract and resolve ``texts`` as ``kg build`` does, keeping each stage's spans."""
    from kg.extract import load_pipeline
    from kg.extract.collect import ChunkContext, extraction_from_chunks, mentions_of, sentences_of
    from kg.extract.frame import ChunkFrame
    from kg.extract.pipeline import chunk_bounds
    from kg.extract.recovery import recovered_mentions
    from kg.ingest.files import document_from_text
    from kg.resolve.corpus_names import with_corpus_names
    from kg.resolve.resolver import resolve_entities

    documents = [document_from_text(text, doc_id=doc) for doc, text in texts.items()]
    long = [d.doc_id for d in documents if len(chunk_bounds(d.text)) > 1]
    if long:
        raise SystemExit(f"ecb_eval: {long[0]} is longer than one chunk")
    stages: dict[str, Found] = {stage: {} for stage in STAGES}
    extractions = []
    pairs = [(d.text, ChunkContext(d, 0, True)) for d in documents]
    for doc, context in (nlp or load_pipeline()).pipe(pairs, as_tuples=True, batch_size=16):
        document = context.document
        key = document.doc_id
        stages["ner"][key] = [(e.start_char, e.end_char, e.label_) for e in doc.ents
                              if e.label_ not in VALUE_LABELS]
        sentences, starts = sentences_of(doc, 0, 0)
        cleaned = mentions_of(doc, ChunkFrame(document, 0, 0, starts or (0,)))
        recovered = [*cleaned, *recovered_mentions(document.text, sentences, cleaned)]
        extraction = extraction_from_chunks(document, [(doc, context)])
        for stage, mentions in (("cleaned", cleaned), ("recovered", recovered),
                                ("lines", extraction.mentions)):
            stages[stage][key] = [(m.begin, m.end, m.name) for m in mentions]
        extractions.append(extraction)
    extractions = with_corpus_names(extractions)
    resolution = resolve_entities(extractions)
    found: Found = {}
    for extraction in extractions:
        key = extraction.document.doc_id
        stages["corpus"][key] = [(m.begin, m.end, m.name) for m in extraction.mentions]
        found[key] = [(m.begin, m.end, resolution.assignments[key, m.begin, m.end])
                      for m in extraction.mentions
                      if (key, m.begin, m.end) in resolution.assignments]
    stages["resolved"] = found
    return KgRun(found, stages, {e.key: e for e in resolution.entities})


def system_clusters(texts: dict[str, str], nlp: Any = None) -> Found:
    """Per document, kg's mentions as (begin, end, entity key)."""
    return kg_run(texts, nlp).found


def overlapping(g: GoldMention, spans: Found) -> tuple[int, int, str] | None:
    """The span of ``spans`` that overlaps ``g`` most, if any."""
    best, overlap = None, 0
    for span in spans.get(g.doc, ()):
        shared = min(span[1], g.end) - max(span[0], g.begin)
        if shared > overlap:
            best, overlap = span, shared
    return best


def fate(seen: Sequence[bool]) -> str:
    """Where a gold mention went, from whether each of ``STAGES`` had it: ``kept``,
    ``lost:<stage>`` (the first step without it, after the tagger found it),
    ``recovered:<stage>`` (the first step with it, after the tagger missed it), ``missed``.

    >>> fate([True, True, True, False, False, False]), fate([False] * 5 + [True])
    ('lost:lines', 'recovered:resolved')
    """
    if seen[-1]:
        return "kept" if seen[0] else f"recovered:{STAGES[seen.index(True)]}"
    if not seen[0]:
        return "missed"
    return f"lost:{STAGES[seen.index(False)]}"


def losses(gold: Sequence[GoldMention], run: KgRun) -> list[tuple[GoldMention, str, list[str]]]:
    """Each gold mention, its ``fate`` and what each stage had over it ("" for nothing)."""
    rows = []
    for g in gold:
        spans = [overlapping(g, run.stages[stage]) for stage in STAGES]
        texts = ["" if s is None else s[2] for s in spans]
        rows.append((g, fate([s is not None for s in spans]), texts))
    return rows


def loss_table(rows: Sequence[tuple[GoldMention, str, list[str]]]) -> list[str]:
    """Counts of each fate, largest first."""
    counts = Counter(f for _g, f, _t in rows)
    lines = ["| fate | gold mentions |", "|---|---|"]
    lines += [f"| {f} | {n} |" for f, n in sorted(counts.items(), key=lambda i: (-i[1], i[0]))]
    return lines


def write_losses(path: Path, rows: Sequence[tuple[GoldMention, str, list[str]]]) -> None:
    """One row per gold mention: document, offsets, text, type, fate, each stage's span."""
    header = "\t".join(("doc", "begin", "end", "text", "type", "fate", *STAGES))
    body = ["\t".join((g.doc, str(g.begin), str(g.end), g.text, g.kind, f, *texts))
            for g, f, texts in rows]
    path.write_text("\n".join([header, *body]) + "\n", encoding="utf-8")


def align(gold: Sequence[GoldMention], system: Found) -> list[tuple[GoldMention, str | None]]:
    """Each gold mention with the entity of the system mention overlapping it most (or None)."""
    return [(g, span[2] if (span := overlapping(g, system)) else None) for g in gold]


def bcubed(scored: Sequence[Scored]) -> tuple[float, float, float]:
    """B-cubed precision, recall, F1 (the resolution evaluation's, kept in one place)."""
    from kg.resolve.evaluate import bcubed as score

    return score(scored)


def last_word(text: str) -> str:
    words = text.replace("'s", "").split()
    return words[-1].lower() if words else ""


@dataclass(frozen=True)
class EcbScores:
    gold: int
    detected: int
    system: tuple[float, float, float]
    baseline: tuple[float, float, float]
    topics: int
    #: B-cubed over every gold mention, a missed one counted as a cluster of its own: finding
    #: more mentions is not penalised, as it is over the detected ones alone
    overall: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def lines(self) -> list[str]:
        row = "{:<22} P {:.3f}  R {:.3f}  F1 {:.3f}"
        return [f"{self.topics} topics, {self.gold} gold named mentions, "
                f"{self.detected} detected ({self.detected / max(self.gold, 1):.1%})",
                row.format("kg B-cubed", *self.system),
                row.format("last-word baseline", *self.baseline),
                row.format("kg, missed as singletons", *self.overall)]


def score(aligned: Iterable[tuple[GoldMention, str | None]]) -> EcbScores:
    """Detection share and within-topic B-cubed of kg and of the last-word baseline."""
    rows = list(aligned)
    hits = [(g, e) for g, e in rows if e is not None]
    system = [(f"{g.topic}|{e}", f"{g.topic}|{g.cluster}", g.doc) for g, e in hits]
    baseline = [(f"{g.topic}|{last_word(g.text)}", f"{g.topic}|{g.cluster}", g.doc)
                for g, _e in hits]
    overall = [(f"{g.topic}|{e}" if e is not None else f"missed|{i}", f"{g.topic}|{g.cluster}",
                g.doc) for i, (g, e) in enumerate(rows)]
    return EcbScores(len(rows), len(hits), bcubed(system), bcubed(baseline),
                     len({g.topic for g, _e in rows}), bcubed(overall))


def evaluate(path: Path = DEV_SET, nlp: Any = None) -> EcbScores:
    texts, gold = load_documents(path)
    return score(align(gold, system_clusters(texts, nlp)))


def main(argv: Sequence[str] = ()) -> int:
    """``[PATH] [--ner news|small] [--losses FILE.tsv] [--half tune|check]``: the figures for
    kg's default NER (news) or the small model's, on every topic or one half's; with
    ``--losses``, where gold names were lost (``STAGES``)."""
    args = list(argv)
    options = {"--ner": "news", "--losses": "", "--half": ""}
    for option in options:
        if option in args:
            at = args.index(option)
            options[option] = args[at + 1] if at + 1 < len(args) else ""
            del args[at : at + 2]
    ner = options["--ner"]
    if ner not in ("news", "small"):
        print("ecb_eval: --ner expects 'news' or 'small'", file=sys.stderr)
        return 2
    if options["--half"] not in ("", "tune", "check"):
        print("ecb_eval: --half expects 'tune' or 'check'", file=sys.stderr)
        return 2
    path = Path(args[0]) if args else DEV_SET
    if not path.is_file():
        print(f"ecb_eval: {path} not found (ECB+ dev topics beside the project)", file=sys.stderr)
        return 2
    from kg.config import MODEL_PACKAGE, NEWS_NER_PART
    from kg.extract import load_pipeline

    nlp = load_pipeline(MODEL_PACKAGE + (NEWS_NER_PART if ner == "news" else ""))
    texts, gold = load_documents(path, options["--half"] or None)
    run = kg_run(texts, nlp)
    print("\n".join(score(align(gold, run.found)).lines()))
    if options["--losses"]:
        rows = losses(gold, run)
        print("\n".join(loss_table(rows)))
        write_losses(Path(options["--losses"]), rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
