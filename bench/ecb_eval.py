"""Cross-document coreference on the ECB+ development topics, as ../shared/data/README.md scores it.

    python bench/ecb_eval.py [../shared/data/ecbplus-dev/ecbplus_dev.jsonl] [--ner news|small]

Gold: the mentions of types PER/ORG/GPE/LOC_* that have a cluster, start with a capital
letter and are not pronouns. Each document is its sentences joined by newlines, extracted and
resolved by kg (all documents at once, as ``kg build`` does); each gold mention is aligned to
the system mention that overlaps it most. Reported: the share of gold mentions detected, and
B-cubed P/R/F1 of kg's entities against the gold clusters within each topic (a mention's
cluster is only compared with mentions of its own topic), over the detected mentions — beside a
baseline that puts the same mentions with the same last word in one cluster, per topic.

>>> is_gold_named({"type": "HUMAN_PART_PER", "cluster": "HUM1", "text": "Tara Reid"})
True
>>> is_gold_named({"type": "HUMAN_PART_PER", "cluster": "HUM1", "text": "She"})
False
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROJECT_ROOT = Path(__file__).resolve().parents[1]
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


def load_documents(path: Path = DEV_SET) -> tuple[dict[str, str], list[GoldMention]]:
    """Document texts by id and the named gold mentions, with offsets into those texts."""
    texts, gold = {}, []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            record = json.loads(line)
            doc, starts, offset = record["doc"], [], 0
            for sentence in record["sentences"]:
                starts.append(offset)
                offset += len(sentence) + 1
            texts[doc] = "\n".join(record["sentences"])
            gold += [GoldMention(doc, record["topic"], starts[m["sent"]] + m["char_start"],
                                 starts[m["sent"]] + m["char_end"], m["text"], m["cluster"])
                     for m in record["mentions"] if is_gold_named(m)]
        except (ValueError, KeyError, IndexError) as e:
            raise SystemExit(f"{path}:{number}: not an ECB+ record ({e!r})") from e
    return texts, gold


Found = dict[str, list[tuple[int, int, str]]]  # document -> (begin, end, entity key)


def system_clusters(texts: dict[str, str], nlp: Any = None) -> Found:
    """Per document, kg's mentions as (begin, end, entity key)."""
    from kg.extract import extract_documents, load_pipeline
    from kg.ingest.files import document_from_text
    from kg.resolve.corpus_names import with_corpus_names
    from kg.resolve.resolver import resolve_entities

    documents = [document_from_text(text, doc_id=doc) for doc, text in texts.items()]
    extractions = with_corpus_names(list(extract_documents(nlp or load_pipeline(), documents)))
    resolution = resolve_entities(extractions)
    found: Found = {}
    for extraction in extractions:
        doc = extraction.document.doc_id
        found[doc] = [(m.begin, m.end, resolution.assignments[doc, m.begin, m.end])
                      for m in extraction.mentions]
    return found


def align(gold: Sequence[GoldMention], system: Found) -> list[tuple[GoldMention, str | None]]:
    """Each gold mention with the entity of the system mention overlapping it most (or None)."""
    aligned = []
    for g in gold:
        best, overlap = None, 0
        for begin, end, entity in system.get(g.doc, ()):
            shared = min(end, g.end) - max(begin, g.begin)
            if shared > overlap:
                best, overlap = entity, shared
        aligned.append((g, best))
    return aligned


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
    """``[PATH] [--ner news|small]``: the figures for kg's default NER (news) or the small
    model's."""
    args = list(argv)
    ner = "news"
    if "--ner" in args:
        at = args.index("--ner")
        ner = args[at + 1] if at + 1 < len(args) else ""
        del args[at : at + 2]
    if ner not in ("news", "small"):
        print("ecb_eval: --ner expects 'news' or 'small'", file=sys.stderr)
        return 2
    path = Path(args[0]) if args else DEV_SET
    if not path.is_file():
        print(f"ecb_eval: {path} not found (ECB+ dev topics beside the project)", file=sys.stderr)
        return 2
    from kg.config import MODEL_PACKAGE, NEWS_NER_PART
    from kg.extract import load_pipeline

    nlp = load_pipeline(MODEL_PACKAGE + (NEWS_NER_PART if ner == "news" else ""))
    print("\n".join(evaluate(path, nlp).lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
