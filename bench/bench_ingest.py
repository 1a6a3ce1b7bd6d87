"""Ingestion benchmarks: syndicated-copy detection, and HTML/WARC ingestion next to extraction.

    .venv/bin/python bench/bench_ingest.py copies      [--corpus ../shared/corpora/bbc]
    .venv/bin/python bench/bench_ingest.py throughput  [--pages 200]
    .venv/bin/python bench/bench_ingest.py all         # both; writes bench/RESULTS-ingest.md

**copies**: the BBC corpus plus 2,000 synthetic near-copies of 2,000 of its articles (seeded):
each copy gets another first paragraph (the lede, rewritten), another last paragraph, and an
outlet's boilerplate (a header line, "Advertisement", share and newsletter lines, a footer).
``kg.ingest.copies.find_copy_pairs`` runs on all texts; a found pair is right when it joins an
article and its copy. Pairs found between two BBC articles are listed apart: the BBC corpus
holds real near-duplicates (the same story filed twice), which no synthetic truth knows about.
The time is measured at 25 %, 50 % and 100 % of the texts to show how it grows.

**throughput**: ``--pages`` BBC articles are written as HTML pages in a news site's template
(menus, cookie banner, related links, JSON-LD metadata, footer) and as one WARC archive of
them. Measured in this one process: reading the pages (trafilatura, htmldate), reading the
archive, and extraction of the same documents (the spaCy pipeline and kg's rules, then
resolution and RDF), each in pages per second; ingestion's share is its time over the time of
ingestion plus the rest of the build.
"""

from __future__ import annotations

import argparse
import html
import io
import json
import os
import platform
import random
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kg.ingest.copies import (  # noqa: E402
    COPY_CONTAINMENT,
    COPY_JACCARD,
    find_copy_pairs,
    shingles,
)
from kg.ingest.files import read_documents  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpora" / "bbc"
RESULTS = ROOT / "bench" / "RESULTS-ingest.md"
SEED = 13

OUTLETS = ["Harbour Times", "Northern Wire", "Valley Courier", "The Daily Ledger",
           "Coastal Post", "Metro Herald", "Evening Star", "Capital Observer"]
LEDES = [
    "{outlet} understands the announcement came after weeks of talks behind closed doors.",
    "Here is what we know so far, according to reports from agencies and officials.",
    "The news was confirmed late on {day}, in a statement seen by {outlet}.",
    "Readers have been following the story closely since it first broke this week.",
    "{outlet} has been covering the developments as they happened.",
]
ENDINGS = [
    "This story will be updated as more information becomes available.",
    "Additional reporting by the {outlet} news desk; edited by our staff.",
    "Contact the {outlet} newsroom with tips or corrections.",
    "A version of this report first appeared in our morning briefing on {day}.",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


# --- copies --------------------------------------------------------------------------------

def near_copy(text: str, rng: random.Random) -> str:
    """``text`` as another outlet republishes it: new lede and last paragraph, boilerplate."""
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    title, body = blocks[0], blocks[1:]
    outlet, day = rng.choice(OUTLETS), rng.choice(DAYS)
    lede = rng.choice(LEDES).format(outlet=outlet, day=day)
    ending = rng.choice(ENDINGS).format(outlet=outlet, day=day)
    if len(body) >= 3:
        body = [lede, *body[1:-1], ending]
    elif body:  # a short article: its one or two paragraphs lose their first and last sentence
        sentences = re.split(r"(?<=[.!?])\s+", " ".join(body))
        body = [lede, " ".join(sentences[1:-1] or sentences), ending]
    header = f"{outlet} | News | {day}"
    footer = (f"Share this article: Facebook Twitter Email\n\nAdvertisement\n\n"
              f"Sign up for the {outlet} newsletter. Copyright {outlet}.")
    return "\n\n".join([header, title, *body, footer])


def bench_copies(corpus: Path) -> dict:
    rng = random.Random(SEED)
    documents = [d for d in read_documents([corpus], on_skip=lambda s: None,
                                           on_warning=lambda p, m: None)
                 if Path(d.path).suffix == ".txt"]  # not the corpus's README.TXT
    import datasketch  # noqa: F401 (imported before timing: a build imports it once)
    originals = [d.text for d in documents]
    chosen = sorted(rng.sample(range(len(originals)), 2000))
    copies = [near_copy(originals[i], rng) for i in chosen]
    texts = originals + copies
    truth = {(i, len(originals) + k) for k, i in enumerate(chosen)}
    timings = {}
    for share in (0.25, 0.5, 1.0):
        n_orig, n_copy = int(len(originals) * share), int(len(copies) * share)
        subset = originals[:n_orig] + copies[:n_copy]
        started, cpu = time.perf_counter(), time.process_time()
        find_copy_pairs(subset)
        timings[len(subset)] = (round(time.perf_counter() - started, 2),
                                round(time.process_time() - cpu, 2))
    started, cpu = time.perf_counter(), time.process_time()
    pairs = find_copy_pairs(texts)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    found = {(int(p.first), int(p.second)) for p in pairs}
    synthetic = {p for p in found if p[1] >= len(originals)}
    within = sorted(p for p in found if p[1] < len(originals))
    bbc_twins = {frozenset(p) for p in within}

    sets = [shingles(text) for text in originals]

    def origin(index: int) -> int:
        return index if index < len(originals) else chosen[index - len(originals)]

    def same_story(pair: tuple[int, int]) -> bool:
        """Right when both texts come from one BBC article, or from two BBC articles that are
        themselves near-duplicates by the same measure (the corpus files some stories twice)."""
        a, b = origin(pair[0]), origin(pair[1])
        common = len(sets[a] & sets[b])
        return a == b or frozenset((a, b)) in bbc_twins or (
            common >= COPY_JACCARD * len(sets[a] | sets[b])
            or common >= COPY_CONTAINMENT * min(len(sets[a]), len(sets[b])))

    right = {p for p in synthetic if same_story(p)}
    missed = sorted(truth - found)
    jaccards = {(int(p.first), int(p.second)): p.jaccard for p in pairs}
    return {
        "originals": len(originals), "copies": len(copies), "texts": len(texts),
        "seconds": round(seconds, 2), "cpu_seconds": round(cpu_seconds, 2), "timings": timings,
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "recall": round(len(truth & found) / len(truth), 4),
        "precision": round(len(right) / len(synthetic), 4) if synthetic else 1.0,
        "found_with_copies": len(synthetic), "wrong": sorted(synthetic - right)[:10],
        "missed": len(missed),
        "missed_examples": [documents[chosen[c - len(originals)]].path for _, c in missed[:5]],
        "bbc_pairs": [(documents[a].path.rsplit("/", 1)[-1], documents[b].path.rsplit("/", 1)[-1],
                       jaccards[(a, b)]) for a, b in within],
    }


# --- throughput ----------------------------------------------------------------------------

PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title} | {outlet}</title>
<link rel="canonical" href="{url}">
<meta property="og:site_name" content="{outlet}"><meta property="og:title" content="{title}">
<meta name="author" content="{author}">
<script type="application/ld+json">{jsonld}</script>
<style>body {{ font-family: serif }} .menu li {{ display: inline }}</style>
<script>window.dataLayer = window.dataLayer || []; function gtag() {{}}</script></head>
<body><div class="cookie-banner">We use cookies to improve your experience. Accept all or manage
your preferences.</div>
<header><nav><ul class="menu"><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/business">Business</a></li><li><a href="/sport">Sport</a></li>
<li><a href="/weather">Weather</a></li></ul></nav></header>
<main><article><h1>{title}</h1><p class="byline">By {author}</p>
<time datetime="{date}">{date}</time>
{paragraphs}
</article>
<aside><h2>Related stories</h2><ul>{related}</ul></aside></main>
<footer><p>Copyright {outlet}. All rights reserved.</p><ul><li><a href="/terms">Terms</a></li>
<li><a href="/privacy">Privacy</a></li></ul></footer></body></html>"""


def page_of(text: str, index: int, rng: random.Random) -> tuple[str, bytes]:
    blocks = [b.strip() for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    title, body = blocks[0], blocks[1:]
    outlet = rng.choice(OUTLETS)
    url = f"https://news.example.org/story/{index:05d}"
    date = f"2005-0{rng.randint(1, 9)}-{rng.randint(10, 28)}"
    jsonld = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle",
                         "headline": title, "datePublished": date})
    related = "".join(f'<li><a href="/story/{rng.randint(0, 99999):05d}">Story {k}</a></li>'
                      for k in range(5))
    page = PAGE.format(title=html.escape(title), outlet=outlet, url=url, author="Staff reporter",
                       jsonld=jsonld, date=date, related=related,
                       paragraphs="\n".join(f"<p>{html.escape(p)}</p>" for p in body))
    return url, page.encode()


def write_warc(path: Path, pages: list[tuple[str, bytes]]) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=True)
        for url, body in pages:
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")],
                                       protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=io.BytesIO(body), http_headers=headers))


def bench_throughput(corpus: Path, count: int) -> dict:
    from kg.build.corpus import corpus_from_extractions, extract_corpus, write_outputs
    from kg.config import Settings
    from kg.extract import load_pipeline

    rng = random.Random(SEED)
    texts = sorted(corpus.glob("*.txt"))
    chosen = sorted(rng.sample(texts, count))
    pages = [page_of(p.read_text(encoding="utf-8"), i, rng) for i, p in enumerate(chosen)]
    with tempfile.TemporaryDirectory(prefix="kg-bench-ingest-") as work:
        folder = Path(work) / "pages"
        folder.mkdir()
        for k, (_url, body) in enumerate(pages):
            (folder / f"page{k:05d}.html").write_bytes(body)
        warc = Path(work) / "pages.warc.gz"
        write_warc(warc, pages)

        started = time.perf_counter()
        documents = list(read_documents([folder], on_skip=print))
        html_seconds = time.perf_counter() - started
        started = time.perf_counter()
        archived = list(read_documents([warc], on_skip=print))
        warc_seconds = time.perf_counter() - started

        settings = Settings(out_dir=Path(work) / "out")
        nlp = load_pipeline(settings.model)
        started = time.perf_counter()
        extractions = list(extract_corpus(documents, settings, nlp))
        extract_seconds = time.perf_counter() - started
        started = time.perf_counter()
        write_outputs(corpus_from_extractions(extractions, settings), settings.out_dir,
                      ("ttl", "trig"))
        rest_seconds = time.perf_counter() - started
    build = extract_seconds + rest_seconds
    return {
        "pages": count, "html_documents": len(documents), "warc_documents": len(archived),
        "html_seconds": round(html_seconds, 2), "warc_seconds": round(warc_seconds, 2),
        "extract_seconds": round(extract_seconds, 2), "rest_seconds": round(rest_seconds, 2),
        "html_pages_per_s": round(count / html_seconds, 1),
        "warc_pages_per_s": round(count / warc_seconds, 1),
        "extract_pages_per_s": round(count / extract_seconds, 1),
        "build_pages_per_s": round(count / build, 1),
        "html_share": round(html_seconds / (html_seconds + build), 3),
        "warc_share": round(warc_seconds / (warc_seconds + build), 3),
    }


# --- report --------------------------------------------------------------------------------

def report(copies: dict | None, throughput: dict | None) -> str:
    lines = ["# Ingestion benchmark", "",
             f"Machine: {platform.machine()}, Python {platform.python_version()}, "
             f"{platform.system()}; run `bench/bench_ingest.py all` (one process, seed {SEED}).",
             ""]
    if copies:
        c = copies
        lines += [
            "## Syndicated copies (MinHash/LSH, datasketch)", "",
            f"BBC corpus ({c['originals']} articles after exact duplicates are skipped) plus "
            f"{c['copies']} synthetic near-copies (new lede and last paragraph, another "
            "outlet's boilerplate): "
            f"{c['texts']} texts.", "",
            "| measure | result | target |", "|---|---|---|",
            f"| recall of copy pairs | {c['recall']:.4f} | ≥ 0.95 |",
            f"| precision of pairs involving a copy | {c['precision']:.4f} | ≥ 0.99 |",
            f"| time, {c['texts']} texts (wall clock) | {c['seconds']} s | < 10 s |",
            f"| time, {c['texts']} texts (CPU) | {c['cpu_seconds']} s | |", "",
            f"Load average during the run: {c['load_average']} (the machine is shared; CPU "
            "seconds are the fairer figure).", "",
            "Time against corpus size (about linear: LSH proposes candidates without "
            "comparing every pair):", "",
            "| texts | wall seconds | CPU seconds |", "|---|---|---|",
            *(f"| {n} | {w} | {cpu} |" for n, (w, cpu) in c["timings"].items()), "",
            f"Missed copies: {c['missed']} (e.g. {', '.join(c['missed_examples']) or 'none'}).",
            "",
            f"Pairs found between two BBC articles (real near-duplicates in the corpus, not "
            f"counted above): {len(c['bbc_pairs'])}.", "",
            "| article | article | Jaccard of 5-word shingles |", "|---|---|---|",
            *(f"| {a} | {b} | {j} |" for a, b, j in c["bbc_pairs"][:40]), "",
        ]
    if throughput:
        t = throughput
        lines += [
            "## HTML and WARC ingestion next to extraction", "",
            f"{t['pages']} BBC articles as HTML pages in a news-site template, and the same "
            "pages in one gzipped WARC archive.", "",
            "| stage | seconds | pages/s |", "|---|---|---|",
            f"| HTML pages → documents (trafilatura, htmldate) | {t['html_seconds']} | "
            f"{t['html_pages_per_s']} |",
            f"| WARC archive → documents (FastWARC + the same) | {t['warc_seconds']} | "
            f"{t['warc_pages_per_s']} |",
            f"| extraction (spaCy + rules) | {t['extract_seconds']} | "
            f"{t['extract_pages_per_s']} |",
            f"| resolution, RDF, graph files | {t['rest_seconds']} | |",
            f"| the build after ingestion | {t['extract_seconds'] + t['rest_seconds']:.2f} | "
            f"{t['build_pages_per_s']} |", "",
            f"Ingestion's share of a build: HTML {t['html_share']:.1%}, WARC "
            f"{t['warc_share']:.1%} (target ≤ 15 %).", "",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("what", choices=["copies", "throughput", "all"])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--pages", type=int, default=200)
    args = parser.parse_args()
    copies = bench_copies(args.corpus) if args.what in ("copies", "all") else None
    if copies:
        print(json.dumps(copies, indent=1))
    throughput = bench_throughput(args.corpus, args.pages) \
        if args.what in ("throughput", "all") else None
    if throughput:
        print(json.dumps(throughput, indent=1))
    if args.what == "all":
        RESULTS.write_text(report(copies, throughput), encoding="utf-8")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
