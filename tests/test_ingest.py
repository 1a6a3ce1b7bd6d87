"""Ingest: hostile files become documents or clear skips, text and offsets stay exact."""

from __future__ import annotations

import errno
import hashlib
import io
import random
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from kg.errors import InputError
from kg.ingest import files as ingest
from kg.ingest.files import Skipped, document_from_text, read_documents, slugify
from kg.model import ArticleMeta, Document
from tests.hostile_corpus import (
    BUILT,
    COPY,
    CP1252_TEXT,
    DECODED,
    FRONT_MATTER_BODY,
    HTML_TEXT,
    LATIN1_TEXT,
    SKIPPED,
    UNICODE_TEXT,
    article,
    expected_outcomes,
    make_big_article,
    make_hostile_corpus,
)

SEEDS = Path(__file__).resolve().parent.parent / "seeds"


class Run:
    """One ``read_documents`` call with its skips and warnings collected."""

    def __init__(self, paths: list[str | Path], **options: object) -> None:
        self.skipped: list[Skipped] = []
        self.warnings: list[tuple[str, str]] = []
        self.documents = list(read_documents(
            paths, on_skip=self.skipped.append,
            on_warning=lambda path, message: self.warnings.append((path, message)),
            **options,  # type: ignore[arg-type]
        ))

    def by_name(self, root: Path) -> dict[str, Document]:
        return {str(Path(d.path).relative_to(root)): d for d in self.documents}

    def reasons(self, root: Path) -> dict[str, str]:
        return {str(Path(s.path).relative_to(root)): s.reason for s in self.skipped}

    def warned(self, path: Path) -> list[str]:
        return [message for p, message in self.warnings if p == str(path)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Run]:
    root = tmp_path_factory.mktemp("hostile")
    expected = make_hostile_corpus(root)
    return root, expected, Run([root])


TOO_LARGE_100 = "larger than the limit of 100 bytes (the max_article_bytes setting)"


def test_corpus_is_deterministic(tmp_path: Path) -> None:
    first, second = make_hostile_corpus(tmp_path / "a"), make_hostile_corpus(tmp_path / "b")
    assert first == second
    for name in ("noise.txt", "long_line.txt", "cp1252.txt"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.parametrize("name", sorted(expected_outcomes()))
def test_every_hostile_input_has_its_outcome(corpus: tuple[Path, dict[str, str], Run],
                                             name: str) -> None:
    root, expected, run = corpus
    built, skipped = run.by_name(root), run.reasons(root)
    outcome = expected[name]
    assert (name in built) == (outcome in (BUILT, DECODED))
    assert (name in skipped) == (outcome in (SKIPPED, COPY))
    decoding_warnings = [m for m in run.warned(root / name) if "decoded" in m or "HTML" in m]
    assert bool(decoding_warnings) == (outcome == DECODED)


def test_corpus_order_is_sorted_and_recursive(corpus: tuple[Path, dict[str, str], Run]) -> None:
    root, _, run = corpus
    names = list(run.by_name(root))
    assert names == sorted(names)
    assert "loop/inside.txt" in names


@pytest.mark.parametrize(("name", "text"), [
    ("cp1252.txt", CP1252_TEXT),
    ("latin1.txt", LATIN1_TEXT),
    ("utf16.txt", article(1)),
    ("bom.txt", article(2)),
    ("crlf.txt", article(3)),
    ("cr.txt", article(4) + article(5)),
    ("unicode.txt", UNICODE_TEXT),
    ("page.txt", HTML_TEXT),
    ("front_matter.md", FRONT_MATTER_BODY),
    ("markdown_rule.md", f"---\n{article(8)}---\nMore text.\n"),
    ("inline_html.md", f"# Talks\n\n{article(6)}Line<br>break, H<sub>2</sub>O.\n"),
])
def test_text_is_exact(corpus: tuple[Path, dict[str, str], Run], name: str, text: str) -> None:
    root, _, run = corpus
    document = run.by_name(root)[name]
    assert document.text == text
    assert document.sha256 == hashlib.sha256(text.encode()).hexdigest()
    assert "\r" not in document.text and "\ufeff" not in document.text


def test_offsets_are_str_indices_in_unusual_text(
        corpus: tuple[Path, dict[str, str], Run]) -> None:
    root, _, run = corpus
    text = run.by_name(root)["unicode.txt"].text
    begin = text.index("Zelenskyy")
    assert text[begin:begin + 9] == "Zelenskyy"
    assert "e\u0301" in text and "\u200d" in text and "\u200b" in text  # not normalised away


def test_long_line_is_one_line(corpus: tuple[Path, dict[str, str], Run]) -> None:
    root, _, run = corpus
    text = run.by_name(root)["long_line.txt"].text
    assert len(text) > 150_000 and "\n" not in text


@pytest.mark.parametrize(("name", "reason"), [
    ("empty.txt", "empty file"),
    ("blank.txt", "blank file (white space only)"),
    ("binary.txt", "binary file"),
    ("noise.txt", "binary file"),
    ("dup_b.txt", "exact copy of {root}/dup_a.txt, counted once"),
    ("only_front_matter.md", "no text after the front matter"),
    ("broken.txt", "broken symlink (target missing-target.txt does not exist)"),
    ("self_loop.txt", "symlink loop"),
    ("loop/back", "symlink loop: folder already read as {root}"),
    ("fifo.txt", "not a regular file (a FIFO)"),
])
def test_skip_reasons(corpus: tuple[Path, dict[str, str], Run], name: str, reason: str) -> None:
    root, _, run = corpus
    assert run.reasons(root)[name] == reason.format(root=root)


def test_metadata_from_front_matter_and_sidecar(
        corpus: tuple[Path, dict[str, str], Run]) -> None:
    root, _, run = corpus
    built = run.by_name(root)
    assert built["front_matter.md"].meta == ArticleMeta(date(2022, 5, 20), "NATO meets")
    assert built["sidecar.txt"].meta == ArticleMeta(date(2022, 5, 19), source="Reuters")
    assert built["bad_sidecar.txt"].meta == ArticleMeta()
    assert any("bad_sidecar.meta.json ignored" in m for m in run.warned(root / "bad_sidecar.txt"))


def test_sidecar_wins_over_front_matter_key_by_key(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("---\ntitle: Old\nsource: AP\n---\nText.\n")
    (tmp_path / "a.meta.json").write_text('{"title": "New", "id": "Story 1"}')
    document = Run([tmp_path]).documents[0]
    assert document.meta == ArticleMeta(title="New", source="AP", identifier="Story 1")
    assert document.doc_id == "story-1"


@pytest.mark.parametrize(("sidecar", "warning"), [
    ('{"date": "19/05/2022", "title": "Kept"}', "'date' ignored: '19/05/2022' is not a date"),
    ('{"date": "2022-02-30", "title": "Kept"}',
     "'date' ignored: '2022-02-30' is not a date (day is out of range"),
    ('{"author": "X", "title": "Kept"}', "'author' ignored: unknown key"),
    ('{"source": 7, "title": "Kept"}', "'source' ignored: expected a string, got int"),
    ('{"url": "ftp://x", "title": "Kept"}', "'url' ignored: 'ftp://x' is not an http(s) URL"),
])
def test_bad_sidecar_key_is_dropped_with_a_warning(tmp_path: Path, sidecar: str,
                                                    warning: str) -> None:
    (tmp_path / "a.txt").write_text("Text.")
    (tmp_path / "a.meta.json").write_text(sidecar)
    run = Run([tmp_path])
    assert run.documents[0].meta == ArticleMeta(title="Kept")
    assert any(warning in message for message in run.warned(tmp_path / "a.txt"))


@pytest.mark.parametrize("sidecar", ["[1, 2]", "{not json", "\xff"])
def test_unusable_sidecar_is_ignored_with_a_warning(tmp_path: Path, sidecar: str) -> None:
    (tmp_path / "a.txt").write_text("Text.")
    (tmp_path / "a.meta.json").write_bytes(sidecar.encode("latin-1"))
    run = Run([tmp_path])
    assert run.documents[0].meta == ArticleMeta()
    assert run.warned(tmp_path / "a.txt")


def test_seed_sidecars() -> None:
    meta = {d.doc_id: d.meta for d in Run([SEEDS]).documents}
    assert meta == {
        "000-b23f1cc3a877bd22": ArticleMeta(date(2022, 5, 19)),
        "001-f2e2c4cce90f207d": ArticleMeta(date(2022, 4, 21),
                                            source="Australian Associated Press"),
        "002-95f12e525481c9aa": ArticleMeta(date(2022, 5, 18)),
    }


def test_ten_megabyte_article_builds(tmp_path: Path) -> None:
    text = make_big_article(tmp_path / "big.txt")
    run = Run([tmp_path / "big.txt"])
    assert len(text.encode()) >= 10 * 1024 * 1024
    assert [d.text for d in run.documents] == [text] and not run.skipped


def test_file_over_the_limit_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x" * 101)
    run = Run([tmp_path], max_bytes=100)
    assert run.skipped == [Skipped(str(tmp_path / "a.txt"), TOO_LARGE_100, "max_article_bytes")]


def test_undecodable_bytes_are_skipped(tmp_path: Path) -> None:
    rng = random.Random(1)
    (tmp_path / "a.txt").write_bytes(bytes(rng.randrange(0x80, 0x100) for _ in range(4096)))
    assert Run([tmp_path]).skipped[0].reason.startswith("undecodable")


def test_unreadable_file_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Tests run as root, who can read a chmod 000 file, so refuse the open itself.
    locked = tmp_path / "locked.txt"
    locked.write_text("Secret.")
    (tmp_path / "open.txt").write_text("Public.")

    real_read = ingest.read_file

    def refusing_read(path: str, limit: int, **options: Any) -> bytes:
        if str(path) == str(locked):
            raise PermissionError(errno.EACCES, "Permission denied", path)
        return real_read(path, limit, **options)

    monkeypatch.setattr(ingest, "read_file", refusing_read)
    run = Run([tmp_path])
    assert [d.text for d in run.documents] == ["Public."]
    assert run.skipped == [Skipped(str(locked), "unreadable: Permission denied")]


def test_folder_walk_ignores_other_and_hidden_files(tmp_path: Path) -> None:
    (tmp_path / "notes.pdf").write_text("a,b\n")
    (tmp_path / ".hidden.txt").write_text("Hidden.")
    (tmp_path / "x.txt").mkdir()  # a folder with an article name is a folder
    (tmp_path / "x.txt" / "inner.TXT").write_text("Inner.")
    run = Run([tmp_path])
    assert [Path(d.path).relative_to(tmp_path).as_posix() for d in run.documents] == [
        "x.txt/inner.TXT"]
    assert not run.skipped


def test_explicit_file_is_read_whatever_its_extension(tmp_path: Path) -> None:
    (tmp_path / "story.log").write_text("Putin spoke.")
    assert [d.text for d in Run([tmp_path / "story.log"]).documents] == ["Putin spoke."]


def test_second_link_to_a_folder_is_read_once(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.txt").write_text("Once.")
    (tmp_path / "zlink").symlink_to("real", target_is_directory=True)
    run = Run([tmp_path])
    assert len(run.documents) == 1
    assert run.skipped[0].reason.startswith("symlink loop: folder already read as")


def test_missing_path_raises_before_anything_is_read(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Text.")
    with pytest.raises(InputError, match="nope.txt: no such file or folder"):
        read_documents([tmp_path, tmp_path / "nope.txt"])


def test_documents_stream_one_file_at_a_time(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for n in range(3):
        (tmp_path / f"{n}.txt").write_text(article(n))
    reads: list[str] = []
    real_read = ingest._read_bytes

    def counting_read(path: str, max_bytes: int) -> bytes:
        reads.append(path)
        return real_read(path, max_bytes)

    monkeypatch.setattr(ingest, "_read_bytes", counting_read)
    documents = read_documents([tmp_path])
    assert reads == []
    next(documents)
    assert reads == [str(tmp_path / "0.txt")]


@pytest.mark.parametrize(("stream", "text"), [
    (io.StringIO("From a pipe.\r\n"), "From a pipe.\n"),
    (io.TextIOWrapper(io.BytesIO(CP1252_TEXT.encode("cp1252"))), CP1252_TEXT),
])
def test_stdin(stream: io.TextIOBase, text: str) -> None:
    run = Run(["-"], stdin=stream)
    (document,) = run.documents
    assert (document.path, document.text) == ("-", text)
    assert document.doc_id == "text-" + document.sha256[:12]


def test_same_stem_in_two_folders_gets_unique_ids(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "story.txt").write_text(f"Story from {folder}.")
    ids = [d.doc_id for d in Run([tmp_path]).documents]
    assert ids == ["a-story", "b-story"]  # the path under the folder read, not a rename


def test_document_from_text() -> None:
    document = document_from_text("---\ntitle: T\nsource: AP\n---\nKyiv.\r\n",
                                  meta=ArticleMeta(source="Reuters"))
    assert (document.text, document.path) == ("Kyiv.\n", "<string>")
    assert document.meta == ArticleMeta(title="T", source="Reuters")
    assert document.doc_id == "text-" + hashlib.sha256(b"Kyiv.\n").hexdigest()[:12]
    assert document_from_text("Kyiv.", path="x/My Story.txt").doc_id == "my-story"


@pytest.mark.parametrize("text", ["", " \n\t"])
def test_document_from_blank_text_raises(text: str) -> None:
    with pytest.raises(InputError, match="<string>: "):
        document_from_text(text)


@pytest.mark.parametrize(("text", "slug"), [
    ("Vladimir Putin", "vladimir-putin"),
    ("Zürich", "zurich"),
    ("  --Azov  Regiment!--", "azov-regiment"),
    ("北京", hashlib.sha256("北京".encode()).hexdigest()[:8]),
    ("", hashlib.sha256(b"").hexdigest()[:8]),
    ("Straße", "strae-" + hashlib.sha256("Straße".encode()).hexdigest()[:8]),
    ("Putin 🇷🇺", "putin-" + hashlib.sha256("Putin 🇷🇺".encode()).hexdigest()[:8]),
    ("a" * 61, "a" * 51 + "-" + hashlib.sha256(b"a" * 61).hexdigest()[:8]),
])
def test_slugify(text: str, slug: str) -> None:
    assert slugify(text) == slug
    assert len(slug) <= 60


def test_slugify_keeps_truncated_texts_apart() -> None:
    assert slugify("x" * 80 + "a") != slugify("x" * 80 + "b")


def test_front_matter_above_an_html_page(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("---\ntitle: Page\n---\n<html><body><p>Kyiv.</p></body></html>")
    run = Run([tmp_path])
    assert [(d.text, d.meta.title) for d in run.documents] == [("Kyiv.", "Page")]


def test_broken_symlink_named_explicitly_is_skipped_not_an_error(tmp_path: Path) -> None:
    (tmp_path / "link.txt").symlink_to("gone.txt")
    assert Run([tmp_path / "link.txt"]).skipped[0].reason.startswith("broken symlink")


def test_stdin_over_the_limit_is_skipped() -> None:
    run = Run(["-"], stdin=io.StringIO("x" * 101), max_bytes=100)
    assert run.skipped == [Skipped("-", TOO_LARGE_100, "max_article_bytes")]
