"""A folder of hostile inputs for ingest and end-to-end tests, the same bytes on every run.

``make_hostile_corpus(folder)`` writes the files and returns, for each article path relative
to ``folder``, the outcome a build must have:

* ``"built"``    a document whose text is the file's text (line ends normalised),
* ``"decoded"``  a document, after a warning about how its bytes became text
                 (an encoding other than UTF-8, or HTML converted to text),
* ``"skipped"``  no document; the skip is reported with a reason.

Sidecar ``.meta.json`` files are written too but are not articles, so they are not listed.
An unreadable file is not part of the corpus: tests run as root, who can read anything.
"""

from __future__ import annotations

import codecs
import os
import random
from pathlib import Path

BUILT, DECODED, SKIPPED = "built", "decoded", "skipped"
#: An exact copy of an earlier input: built once, from the earlier, and named in a note.
COPY = "copy"

CP1252_TEXT = "The café’s “smart” deal — worth €5 million — was signed.\n"
LATIN1_TEXT = "Zürich und Genève: Ça va très bien, dit le maître naïf.\n"
UNICODE_TEXT = (
    "Kyiv (\u041a\u0438\u0457\u0432) and Jerusalem (\u05d9\u05e8\u05d5\u05e9\u05dc\u05d9\u05dd, "
    "\u0627\u0644\u0642\u062f\u0633) met \U0001f1fa\U0001f1e6 "
    "\U0001f469\u200d\U0001f469\u200d\U0001f467 Jose\u0301 Zelenskyy\u200b said.\n"
)
HTML_PAGE = (
    "<!DOCTYPE html>\n<html><head><title>Ignored title</title>"
    "<style>p { color: red }</style><script>var x = '<p>not text</p>';</script></head>\n"
    "<body><h1>Mariupol falls</h1>\n<p>Russian forces took the\n  Azovstal plant.</p>"
    "<p>Officials in Kyiv said 260 fighters were evacuated &amp; treated.</p></body></html>\n"
)
# trafilatura keeps the article's paragraphs; a heading outside the article is not text.
HTML_TEXT = (
    "Russian forces took the Azovstal plant.\n\n"
    "Officials in Kyiv said 260 fighters were evacuated & treated."
)
FRONT_MATTER_BODY = "NATO leaders met in Brussels on Friday.\n"


def article(n: int) -> str:
    """A short news-like text, different for every ``n`` (so no two cases are duplicates)."""
    return (f"Report {n}: Ukrainian President Volodymyr Zelenskiy met officials in Kyiv on "
            f"Monday, and {n + 2} ministers said talks with Russia would resume.\n")


#: Outcomes of the entries that are not plain files (written by ``_write_special_files``).
SPECIAL_OUTCOMES = {"broken.txt": SKIPPED, "self_loop.txt": SKIPPED, "loop/inside.txt": BUILT,
                    "loop/back": SKIPPED, "fifo.txt": SKIPPED}


def make_hostile_corpus(folder: Path) -> dict[str, str]:
    """Write the hostile corpus into ``folder`` and return article path -> expected outcome."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, (data, _) in _file_cases().items():
        (folder / name).write_bytes(data)
    (folder / "sidecar.meta.json").write_text('{"date": "2022-05-19", "source": "Reuters"}\n')
    (folder / "bad_sidecar.meta.json").write_text('{"date": "2022-05-19",\n')
    _write_special_files(folder)
    return expected_outcomes()


def expected_outcomes() -> dict[str, str]:
    """What ``make_hostile_corpus`` returns, without writing anything (for parametrising)."""
    return {name: outcome for name, (_, outcome) in _file_cases().items()} | SPECIAL_OUTCOMES


def make_big_article(path: Path, size: int = 10 * 1024 * 1024) -> str:
    """Write a valid article of about ``size`` bytes (paragraphs of ``article``); return text."""
    paragraphs, total, n = [], 0, 0
    while total < size:
        paragraphs.append(article(n))
        total, n = total + len(paragraphs[-1]) + 1, n + 1
    text = "\n".join(paragraphs)
    path.write_text(text, encoding="utf-8")
    return text


def _file_cases() -> dict[str, tuple[bytes, str]]:
    rng = random.Random(0)
    noise = bytes(rng.randrange(1, 256) for _ in range(4096))  # no NUL: caught as non-text
    long_line = " ".join(article(n).strip() for n in range(1500))  # one line, ~200 000 chars
    return {
        "empty.txt": (b"", SKIPPED),
        "blank.txt": (b" \n\t\r\n  \r", SKIPPED),
        "binary.txt": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), SKIPPED),
        "noise.txt": (noise, SKIPPED),
        "cp1252.txt": (CP1252_TEXT.encode("cp1252"), DECODED),
        "latin1.txt": (LATIN1_TEXT.encode("latin-1"), DECODED),
        "utf16.txt": (codecs.BOM_UTF16_LE + article(1).encode("utf-16-le"), DECODED),
        "bom.txt": (codecs.BOM_UTF8 + article(2).encode(), BUILT),
        "crlf.txt": (article(3).replace("\n", "\r\n").encode(), BUILT),
        "cr.txt": ((article(4) + article(5)).replace("\n", "\r").encode(), BUILT),
        "long_line.txt": (long_line.encode(), BUILT),
        "unicode.txt": (UNICODE_TEXT.encode(), BUILT),
        "page.txt": (HTML_PAGE.encode(), DECODED),
        "inline_html.md": (f"# Talks\n\n{article(6)}Line<br>break, H<sub>2</sub>O.\n".encode(),
                           BUILT),
        "dup_a.txt": (article(7).encode(), BUILT),
        "dup_b.txt": (article(7).encode(), COPY),
        "front_matter.md": (("---\ndate: 2022-05-20\ntitle: \"NATO meets\"\n---\n"
                             + FRONT_MATTER_BODY).encode(), BUILT),
        "markdown_rule.md": (f"---\n{article(8)}---\nMore text.\n".encode(), BUILT),
        "only_front_matter.md": (b"---\ntitle: Nothing here\n---\n\n", SKIPPED),
        "sidecar.txt": (article(9).encode(), BUILT),
        "bad_sidecar.txt": (article(10).encode(), BUILT),
    }


def _write_special_files(folder: Path) -> None:
    """Symlinks, a symlink loop and a FIFO: things that are not plain files."""
    (folder / "broken.txt").symlink_to("missing-target.txt")
    (folder / "self_loop.txt").symlink_to("self_loop.txt")
    (folder / "loop").mkdir()
    (folder / "loop" / "inside.txt").write_text(article(11))
    (folder / "loop" / "back").symlink_to("..", target_is_directory=True)
    os.mkfifo(folder / "fifo.txt")


# --- the bad-input corpus: inputs that once aborted a build or were mishandled silently ----

IGNORED = "ignored"  # not an article: left out of the build with a warning, not a skip
#: A sidecar nested this deep (400 KB) made json.loads raise RecursionError.
DEEP_JSON_LEVELS = 200_000
#: Text with relative dates, read against a publication date of 0001-01-01 (OverflowError).
RELATIVE_DATES_TEXT = ("Officials in Kyiv said on Monday that talks with Russia, which "
                       "stalled last year, would resume next month.\n")


def make_bad_input_corpus(folder: Path) -> dict[str, str]:
    """Write the bad-input cases into ``folder`` and return article path -> outcome
    (``BUILT``, ``SKIPPED`` or ``IGNORED``); each case also warns or skips with a reason."""
    folder.mkdir(parents=True, exist_ok=True)
    depth = DEEP_JSON_LEVELS
    sidecars = {
        "deep_meta": "[" * depth + "]" * depth,
        "zero_date": '{"date": "0001-01-01"}',
        "bad_url": '{"url": "https://example.org/a<b>\\"c", "title": "Kept"}',
        "same_id_a": '{"id": "Shared Id"}',
        "same_id_b": '{"id": "shared id"}',  # the same slug: one IRI for two articles
    }
    for n, stem in enumerate(sidecars, start=20):
        text = RELATIVE_DATES_TEXT if stem == "zero_date" else article(n)
        (folder / f"{stem}.txt").write_text(text)
        (folder / f"{stem}{'.meta.json'}").write_text(sidecars[stem])
    (folder / "README.TXT").write_text("This folder holds news articles, one per file.\n")
    (folder / "LICENSE.md").write_text("Articles are (c) their publishers.\n")
    return expected_bad_outcomes()


def expected_bad_outcomes() -> dict[str, str]:
    """What ``make_bad_input_corpus`` returns, without writing anything."""
    return {"deep_meta.txt": BUILT, "zero_date.txt": BUILT, "bad_url.txt": BUILT,
            "same_id_a.txt": BUILT, "same_id_b.txt": SKIPPED, "README.TXT": IGNORED,
            "LICENSE.md": IGNORED}


def make_deep_folders(folder: Path, depth: int = 1100) -> Path:
    """``depth`` nested folders under ``folder`` with an article at the bottom (a recursive
    walk fails near 1,000); returns the article's path. Remove with ``remove_deep_folders``:
    ``shutil.rmtree`` recurses too."""
    folder.mkdir(parents=True, exist_ok=True)
    deepest = str(folder)
    for _ in range(depth):  # Path.mkdir(parents=True) and os.makedirs recurse as well
        deepest = os.path.join(deepest, "d")
        os.mkdir(deepest)
    (Path(deepest) / "deep.txt").write_text(article(30))
    return Path(deepest) / "deep.txt"


def remove_deep_folders(folder: Path) -> None:
    import subprocess

    subprocess.run(["rm", "-rf", str(folder)], check=True)
