"""Draw event triggers to judge on their factuality alone: of unjudged tune-half BBC articles.

    .venv/bin/python bench/draw_event_factuality.py [--articles 300] [--seed 3512] [--wider]
    .venv/bin/python bench/draw_event_factuality.py --judged FILE     # append judgements

The draw (issue 35, item 5: the learned factuality model needs judged not-happened events)
reuses ``bench/draw_trigger_senses.py``'s machinery:

* articles: BBC articles of the *tune* half that no judged row names but the trigger-sense
  draw's (its words judged on their sense alone; without them about a hundred articles are
  left, with 2 events), that no pinned first look names, not in kg's own seed-16 sample;
  ``--articles`` of them drawn with ``--seed``; an article that is an exact copy of one a
  judged row names is never judged again (the first draws let 26 such rows in: they were taken
  out before training, ``copies_of_named``);
* triggers: every event kg builds with every heuristic as shipped but the factuality model
  off, that is not already written as planned or generic.

The set judged on 4 December 2026 (``tests/eval/precision/event-factuality.jsonl``, 201
triggers) came of four draws: ``--articles 400`` (the trigger-sense draw's 248 articles, 141
events), then ``--wider --articles 150`` with seeds 3513, 3514 and 3515, each with
``--exclude`` the articles drawn before (36, 44 and 7 events: the pool is spent); 26 rows of
copies of judged articles were taken out (one drawn trigger, "charged with testing the
game", was left unjudged: no event in any sense).

Each is judged on factuality alone — *does the sentence state that this event happened?*
``yes`` (it happened, or is happening), ``no`` (still to come, agreed but not completed,
speculated, hoped, generic or habitual, negated, hypothetical) — whatever its sense or
participants, and appended to ``tests/eval/precision/event-factuality.jsonl`` (kind
``event-factuality``; ``correct`` and the field ``happened`` are true for ``yes``; the fields
``type`` and ``trigger`` are taken as given, not judged). ``--judged`` reads
``id<TAB>yes|no<TAB>why`` lines against the candidates.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import precision  # noqa: E402
from bench.draw_trigger_senses import SAMPLE as SENSE_SAMPLE  # noqa: E402
from bench.draw_trigger_senses import candidates, draw_articles, write_rows  # noqa: E402
from bench.halves import half  # noqa: E402
from kg.atomic import atomic_write_bytes  # noqa: E402

OUT = ROOT / "bench" / "work" / "event-factuality" / "candidates.jsonl"
JUDGED = ROOT / "tests" / "eval" / "precision" / "event-factuality.jsonl"
SAMPLE = "event-factuality-3512"
RULE = "event.learned-factuality"


def wider_articles(n: int, seed: int, extra: Sequence[Path]) -> list[Path]:
    """``n`` tune-half BBC articles no judged event row, no pinned first look and no ``extra``
    list names, drawn with ``seed``."""
    named = set()
    for path in sorted(ROOT.glob("tests/eval/precision*/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            if row.get("kind") in ("events", "event-factuality"):
                named.update(row["article"].split(","))
    for path in [*sorted(precision.SAMPLES_DIR.glob("*.txt")), *extra]:
        named.update(path.read_text(encoding="utf-8").split())
    seen = [precision.article_path(a) for a in sorted(named) if a.startswith("bbc-")]
    pool = [p for p in precision.choose_articles(  # no exact copy of a named article either
        precision.CORPUS, 10_000, seed, exclude=[p for p in seen if p.is_file()])
        if half(precision.article_id(p)) == "tune" and precision.article_id(p) not in named]
    return sorted(random.Random(seed).sample(pool, min(n, len(pool))))


def copies_of_named() -> set[str]:
    """The BBC articles that are exact copies of an article another judged row (not of this
    draw) or a pinned first look names: their events are judged already, or measured."""
    named = set()
    for path in sorted(ROOT.glob("tests/eval/precision*/*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line) if line.strip() else {}
            if row and row.get("sample") != SAMPLE:
                named.update(row["article"].split(","))
    for path in sorted(precision.SAMPLES_DIR.glob("*.txt")):
        named.update(path.read_text(encoding="utf-8").split())
    digests = {precision._digest_of(p) for a in named if a.startswith("bbc-")
               and (p := precision.article_path(a)).is_file()}
    return {precision.article_id(p) for p in sorted(precision.CORPUS.glob("*.txt"))
            if precision.article_id(p) not in named and precision._digest_of(p) in digests}


def judged_rows(candidates_file: Path, judgements: Path) -> list[dict[str, Any]]:
    """The judged file's rows for the ``id<TAB>yes|no<TAB>why`` lines of ``judgements``; a
    line that is not one stops the run with its file and line."""
    rows = {r["id"]: r for r in map(json.loads, candidates_file.read_text(
        encoding="utf-8").splitlines())}
    found = []
    for number, line in enumerate(judgements.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split("\t")
        if len(parts) != 3 or parts[1] not in ("yes", "no") or not parts[0].isdigit() \
                or int(parts[0]) not in rows:
            raise SystemExit(f"{judgements}:{number}: not 'id<TAB>yes|no<TAB>why'")
        row = rows[int(parts[0])]
        output = {"type": row["type"], "trigger": row["trigger"], "happened": "yes"}
        found.append({
            "key": precision.row_key("event-factuality", row["article"], row["sentence"],
                                     {**output, "offset": str(row["offset"])}),
            "kind": "event-factuality", "article": row["article"], "sentence": row["sentence"],
            "output": output, "fields": {"type": True, "trigger": True,
                                         "happened": parts[1] == "yes"},
            "correct": parts[1] == "yes",
            "label": "happened" if parts[1] == "yes" else "not-happened",
            "offset": row["offset"], "in_sentence": row["in_sentence"], "lemma": row["lemma"],
            "why": parts[2].strip(), "sample": SAMPLE})
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--articles", type=int, default=300)
    parser.add_argument("--seed", type=int, default=3512)
    parser.add_argument("--exclude", type=Path, action="append", default=[])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--wider", action="store_true",
                        help="draw from the tune half's articles no judged *event* row and no "
                             "pinned first look names (kg's own sample and articles judged for "
                             "other kinds included)")
    parser.add_argument("--judged", type=Path, help="append these judgements to " + str(JUDGED))
    args = parser.parse_args(argv)
    if args.judged:
        rows = judged_rows(args.out, args.judged)
        have = {json.loads(line)["key"] for line in JUDGED.read_text(
            encoding="utf-8").splitlines()} if JUDGED.exists() else set()
        old = JUDGED.read_bytes() if JUDGED.exists() else b""
        copies = copies_of_named()
        fresh = [r for r in rows if r["key"] not in have and r["article"] not in copies]
        atomic_write_bytes(JUDGED, old + "".join(
            json.dumps(r, ensure_ascii=False) + "\n" for r in fresh).encode("utf-8"))
        print(f"{len(fresh)} judged triggers appended to {JUDGED}")
        return 0
    # the tune half's unjudged articles number about a hundred (2 events): the articles of the
    # trigger-sense draw, whose words were judged on their sense alone, are drawn from too
    paths = (wider_articles(args.articles, args.seed, args.exclude) if args.wider
             else draw_articles(args.articles, args.seed, args.exclude, (SAMPLE, SENSE_SAMPLE)))
    found = candidates(paths, ROOT / "bench" / "work" / "parses" / "event-factuality",
                       frozenset({RULE}))
    kept = [{"id": i, **row} for i, row in enumerate(
        r for r in found if r["produced"] and not r["unreal"])]
    write_rows(args.out, kept)
    atomic_write_bytes(args.out.parent / "articles.txt", "".join(
        f"{precision.article_id(p)}\n" for p in paths).encode("utf-8"))
    print(f"{len(paths)} articles, {len(found)} trigger words; {len(kept)} events drawn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
