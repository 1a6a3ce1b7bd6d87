"""Writes crawl.warc.gz and crawl-cut.warc, the WARC samples of tests/test_ingest_formats.py.

Run from the repository root: ``.venv/bin/python tests/samples/make_warc.py`` (needs warcio,
in the test extra). The pages are written here, not downloaded.
"""

from __future__ import annotations

import io
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

HERE = Path(__file__).parent
DATE = "2024-03-09T06:30:00Z"

STORY = """<html><head><title>{title}</title>
<link rel="canonical" href="{canonical}"></head>
<body><nav><a href="/">Home</a> <a href="/news">News</a></nav>
<article><h1>{title}</h1>{paragraphs}</article>
<footer>Copyright 2024 Harbour Times</footer></body></html>"""

PAGES = [
    ("https://times.example.com/news/bridge-reopens?ref=rss",
     "https://times.example.com/news/bridge-reopens", "Bridge reopens after repairs",
     ["The Storvik bridge reopened to traffic on Saturday after eight months of repairs, "
      "the roads agency said.",
      "Engineers replaced 40 steel cables. The agency's director, Nils Aune, said the work "
      "had cost 310 million crowns."]),
    ("https://times.example.com/news/school-fire",
     "https://times.example.com/news/school-fire", "Fire closes school in Lindby",
     ["A fire closed the primary school in Lindby on Friday night; firefighters said no one "
      "was inside when it started.",
      "Pupils will be taught in the town hall from Monday, the municipality said."]),
]


def story(title: str, canonical: str, paragraphs: list[str]) -> bytes:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return STORY.format(title=title, canonical=canonical, paragraphs=body).encode()


def response(writer: WARCWriter, url: str, status: str, content_type: str,
             body: bytes) -> None:
    headers = StatusAndHeaders(status, [("Content-Type", content_type),
                                        ("Content-Length", str(len(body)))],
                               protocol="HTTP/1.1")
    record = writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                       http_headers=headers,
                                       warc_headers_dict={"WARC-Date": DATE})
    writer.write_record(record)


def write(path: Path, gzip: bool) -> None:
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=gzip)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "kg tests"}))
        for url, canonical, title, paragraphs in PAGES:
            response(writer, url, "200 OK", "text/html; charset=utf-8",
                     story(title, canonical, paragraphs))
        response(writer, "https://times.example.com/logo.png", "200 OK", "image/png",
                 b"\x89PNG\r\n\x1a\n" + bytes(64))
        response(writer, "https://times.example.com/missing", "404 Not Found", "text/html",
                 b"<html><body><p>Not found</p></body></html>")


if __name__ == "__main__":
    write(HERE / "crawl.warc.gz", gzip=True)
    write(HERE / "crawl-cut.warc", gzip=False)
    whole = (HERE / "crawl-cut.warc").read_bytes()
    # Cut inside the second page's record: its first page stays whole.
    cut = whole.index(b"Pupils will be taught")
    (HERE / "crawl-cut.warc").write_bytes(whole[:cut])
