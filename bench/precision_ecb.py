"""Precision of what kg states on the ECB+ development documents, judged against the sentence.

The BBC sample (``bench/precision.py``) is one newspaper of 2004-05; ECB+ dev is 367 articles
of other sources and years (16 topics). Each document is its sentences joined by newlines, as
``bench/ecb_eval.py`` builds it, and the documents are built together with kg (cached under
``--out``); the rows of each named question are sampled in a seeded order and scored against
the judged set in tests/eval/precision-ecb/ (one file per kind, the row format of
tests/eval/precision/ plus ``"sample"``):

    python bench/precision_ecb.py [--rows 150] [--out bench/work/precision-ecb] [--write-unjudged]

A row's ``article`` is its ECB+ document id (``1_10ecb``) and its key is made from that id,
the sentence and the output (``precision.row_key``), so a judgement stays valid while the output
it judged is produced. Precision is reported over the judged rows per kind, overall and per
half: ECB+ halves are by topic (``half("ecb:5")``, ``bench/halves.py``). The ledger of figures
(conflicting-figures) is not sampled here.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import precision  # noqa: E402
from bench.ecb_eval import DEV_SET, load_documents  # noqa: E402
from bench.halves import Half, half  # noqa: E402

JUDGED_DIR = ROOT / "tests" / "eval" / "precision-ecb"
#: The sample a judged row was drawn in (a later first look draws another, with another seed).
SAMPLE = "ecb-dev-1"
SEED = 35
ROWS = 150
KINDS = ("people-roles", "claims", "events")
HALVES: tuple[Half, ...] = ("tune", "check")


def topics(path: Path = DEV_SET) -> dict[str, str]:
    """Each document's topic (``{"1_10ecb": "1"}``), from the dev set's records."""
    found = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        try:
            record = json.loads(line)
            found[record["doc"]] = str(record["topic"])
        except (ValueError, KeyError) as e:
            raise SystemExit(f"{path}:{number}: not an ECB+ record ({e!r})") from e
    return found


def records(texts: Mapping[str, str]) -> str:
    """The documents as one JSON Lines export kg builds (``id`` and ``text`` per line).

    >>> records({"1_10ecb": "Tara Reid checked in .\\nShe left ."})
    '{"id": "1_10ecb", "text": "Tara Reid checked in .\\\\nShe left ."}\\n'
    """
    return "".join(json.dumps({"id": doc, "text": text}, ensure_ascii=False) + "\n"
                   for doc, text in texts.items())


def write_if_changed(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` unless it already holds it (the build cache keys on it)."""
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return path


def build(texts: Mapping[str, str], out: Path, nlp: Any = None) -> Path:
    """Build the documents into ``out`` (cached) and return the graph file."""
    export = write_if_changed(out / "ecbplus-dev.jsonl", records(texts))
    return precision.build([export], out, nlp)


def doc_ids(docs: Iterable[str]) -> dict[str, str]:
    """The ECB+ document id of each id kg gives (kg slugs them: ``1_10ecb`` → ``1-10ecb``).

    >>> doc_ids(["1_10ecb"])
    {'1-10ecb': '1_10ecb'}
    """
    from kg.ingest.slugs import slugify

    return {slugify(doc): doc for doc in docs}


def as_ecb(rows: Iterable[dict[str, Any]], ids: Mapping[str, str]) -> list[dict[str, Any]]:
    """``precision.named_rows``'s rows with the ECB+ document id as article, keyed by it."""
    found = []
    for row in rows:
        article = ids.get(row["article"], row["article"])
        key = precision.row_key(row["kind"], article, row["sentence"], row["output"])
        found.append({**row, "key": key, "article": article})
    return found


def pick(rows: Iterable[dict[str, Any]], n: int = ROWS, seed: int = SEED) -> list[dict[str, Any]]:
    """The first ``n`` rows in ``precision.seeded_order`` (a random sample, stable as rows come
    and go)."""
    return sorted(rows, key=lambda r: precision.seeded_order(r["key"], seed))[:n]


def row_half(row: Mapping[str, Any], topic_of: Mapping[str, str]) -> Half:
    """The half of the row's document: by its topic."""
    return half(f"ecb:{topic_of[row['article']]}")


def scores(picked: Mapping[str, Sequence[dict[str, Any]]], judged: Mapping[str, dict[str, Any]],
           topic_of: Mapping[str, str]) -> dict[tuple[str, str], precision.KindScore]:
    """Per kind, over all rows (``"all"``) and per half: sampled, judged, correct."""
    found = {}
    for kind, rows in picked.items():
        for which in ("all", *HALVES):
            part = [r for r in rows if which == "all" or row_half(r, topic_of) == which]
            hits = [judged[r["key"]] for r in part if r["key"] in judged]
            label = kind if which == "all" else f"{kind} ({which})"
            found[kind, which] = precision.KindScore(
                label, len(part), len(hits), sum(1 for j in hits if j.get("correct")))
    return found


def table(found: Mapping[tuple[str, str], precision.KindScore]) -> list[str]:
    """A Markdown table: judged rows and precision per kind, overall and per half."""
    lines = ["| kind | judged (sampled) | all | tune topics | check topics |",
             "|---|---|---|---|---|"]
    for kind in dict.fromkeys(k for k, _w in found):
        cells = []
        for which in ("all", *HALVES):
            s = found[kind, which]
            cells.append(f"{s.precision:.1%} ({s.correct}/{s.judged})" if s.judged else "—")
        every = found[kind, "all"]
        lines.append(f"| {kind} | {every.judged} ({every.sampled}) | " + " | ".join(cells) + " |")
    return lines


def unjudged(picked: Mapping[str, Sequence[dict[str, Any]]],
             judged: Mapping[str, dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The sampled rows no judgement covers, blank and marked with this sample."""
    blank = precision.unjudged(dict(picked), dict(judged))
    return {kind: [{**r, "sample": SAMPLE} for r in rows] for kind, rows in blank.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dev", nargs="?", type=Path, default=DEV_SET)
    parser.add_argument("--rows", type=int, default=ROWS, help="rows sampled per kind")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "work" / "precision-ecb")
    parser.add_argument("--write-unjudged", action="store_true",
                        help="write the sampled rows no judgement covers to OUT/unjudged-*.jsonl")
    parser.add_argument("--graph", type=Path,
                        help="sample this graph file (an earlier build) instead of building")
    args = parser.parse_args(argv)
    if not args.dev.is_file():
        print(f"precision_ecb: {args.dev} not found (ECB+ dev topics beside the project)",
              file=sys.stderr)
        return 2
    texts, _gold = load_documents(args.dev)
    topic_of = topics(args.dev)
    graph = args.graph or build(texts, args.out)
    ids = doc_ids(texts)
    picked = {kind: pick(as_ecb(precision.named_rows(graph, kind), ids), args.rows)
              for kind in KINDS}
    judged = precision.load_judged(JUDGED_DIR)
    print(f"Precision on the {len(texts)} ECB+ dev documents (seed {SEED}, {args.rows} rows a "
          f"kind), judged set {JUDGED_DIR}:")
    print("\n".join(table(scores(picked, judged, topic_of))))
    for kind, rows in picked.items():
        spread = Counter(topic_of[r["article"]] for r in rows)
        print(f"  {kind}: {len(spread)} topics sampled")
    if args.write_unjudged:
        for kind, rows in unjudged(picked, judged).items():
            precision.write_jsonl(args.out / f"unjudged-{kind}.jsonl", rows)
        print(f"unjudged rows written to {args.out}/unjudged-*.jsonl")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
