"""End to end: the seeds mixed with every kind of bad file build through the real command.

Each build (typer's CliRunner in-process, and ``python -m kg build`` in a subprocess) must put
every good article into the graph with its exact text, skip every bad file with a message that
names it and says why, exit with 3, print a summary, and keep every offset exact.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kg.build.corpus import build_corpus
from kg.cli import EXIT_SKIPPED, app
from kg.config import Settings
from kg.views.validate import validate_data
from tests.graph_checks import (
    anchor_problems,
    loose_iris,
    rdflib_graph,
    read_quads,
    texts_by_source,
)
from tests.hostile_corpus import (
    BUILT,
    COPY,
    CP1252_TEXT,
    DECODED,
    FRONT_MATTER_BODY,
    HTML_TEXT,
    IGNORED,
    LATIN1_TEXT,
    SKIPPED,
    article,
    expected_bad_outcomes,
    expected_outcomes,
    make_bad_input_corpus,
    make_big_article,
    make_deep_folders,
    make_hostile_corpus,
    remove_deep_folders,
)

from .conftest import SEEDS

#: Bad inputs beyond tests/hostile_corpus.py: control characters inside a text file (kept
#: as text, each replaced by U+FFFD) and a file name that is not UTF-8.
CONTROLS_BYTES = b"Angela Merkel\x01 met\x1b[2J Emmanuel Macron\x0c in Paris\x7f on Monday.\n"
CONTROLS_TEXT = "Angela Merkel\ufffd met\ufffd[2J Emmanuel Macron\ufffd in Paris\x7f on Monday.\n"
LATIN1_NAME = os.fsdecode(b"caf\xe9.txt")  # 'caf\udce9.txt': how Python sees such a name
#: Texts that are not simply the file's bytes as UTF-8 with line ends normalised.
EXACT_TEXTS = {
    "cp1252.txt": CP1252_TEXT, "latin1.txt": LATIN1_TEXT, "utf16.txt": article(1),
    "page.txt": HTML_TEXT, "front_matter.md": FRONT_MATTER_BODY, "controls.txt": CONTROLS_TEXT,
}
#: Documents whose offsets are the point: each must contribute mentions to the anchor check.
UNUSUAL_TEXTS = ("unicode.txt", "crlf.txt", "cr.txt", "bom.txt", "controls.txt", "page.txt",
                 "cp1252.txt", "utf16.txt", LATIN1_NAME)
OUTCOMES = (expected_outcomes() | expected_bad_outcomes()
            | {"controls.txt": BUILT, LATIN1_NAME: BUILT})
SKIPPED_NAMES = sorted(name for name, outcome in OUTCOMES.items() if outcome == SKIPPED)
#: Inputs that must be reported with a "warning:" line (how their bytes became text).
WARNED_NAMES = sorted({name for name, outcome in OUTCOMES.items() if outcome == DECODED}
                      | {"controls.txt", LATIN1_NAME, "bad_sidecar.txt", "deep_meta.txt",
                         "zero_date.txt", "bad_url.txt", "README.TXT", "LICENSE.md"})


@dataclass(frozen=True)
class BuildRun:
    """One build of the mixed folder: where, and what the command said."""

    root: Path
    out: Path
    code: int
    stdout: str
    stderr: str

    def path(self, name: str) -> str:
        return str(self.root / name)

    def lines(self, prefix: str) -> list[str]:
        return [line for line in self.stderr.splitlines() if line.startswith(prefix)]


def make_mixed_corpus(root: Path) -> None:
    """The hostile and bad-input corpora, the extra bad inputs above and the three seeds."""
    make_hostile_corpus(root)
    make_bad_input_corpus(root)
    (root / "controls.txt").write_bytes(CONTROLS_BYTES)
    (root / LATIN1_NAME).write_text(article(12))
    for seed in SEEDS.iterdir():
        shutil.copy(seed, root / seed.name)


def expected_texts(root: Path) -> dict[str, str]:
    """kg:sourcePath -> nif:isString that the graph must hold, for every good input."""
    names = [n for n, outcome in OUTCOMES.items() if outcome not in (SKIPPED, IGNORED, COPY)]
    names += [seed.name for seed in SEEDS.glob("*.txt")]
    return {recorded_path(root / n): EXACT_TEXTS.get(n) or _normalised(root / n) for n in names}


def recorded_path(path: Path) -> str:
    """The path as the graph records it: the build reads an absolute folder, so only the file
    name (kg:sourcePath is never absolute); a non-UTF-8 name's bytes become U+FFFD."""
    return re.sub("[\ud800-\udfff]", "\ufffd", path.name)


def _normalised(path: Path) -> str:
    text = path.read_bytes().decode("utf-8").removeprefix("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _build_in_process(root: Path, out: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["build", str(root), "--out", str(out)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def _build_in_subprocess(root: Path, out: Path) -> tuple[int, str, str]:
    command = [sys.executable, "-m", "kg", "build", str(root), "--out", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, errors="backslashreplace",
                          timeout=600)
    return done.returncode, done.stdout, done.stderr


def _build(factory: pytest.TempPathFactory, builder: Callable[[Path, Path], Any]) -> BuildRun:
    base = factory.mktemp("mixed")
    make_mixed_corpus(base / "in")
    code, stdout, stderr = builder(base / "in", base / "out")
    return BuildRun(base / "in", base / "out", code, stdout, stderr)


@pytest.fixture(scope="module")
def in_process(tmp_path_factory: pytest.TempPathFactory) -> BuildRun:
    return _build(tmp_path_factory, _build_in_process)


@pytest.fixture(scope="module")
def in_subprocess(tmp_path_factory: pytest.TempPathFactory) -> BuildRun:
    return _build(tmp_path_factory, _build_in_subprocess)


@pytest.fixture(params=["in_process", "in_subprocess"])
def run(request: pytest.FixtureRequest) -> BuildRun:
    """Each build, for what the command says; the graph checks below read the subprocess's."""
    return request.getfixturevalue(request.param)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def quads(in_subprocess: BuildRun) -> list[Any]:
    return read_quads(in_subprocess.out / "graph.trig")


def test_exit_code_and_summary_report_the_skips(run: BuildRun) -> None:
    built = len([o for o in OUTCOMES.values() if o not in (SKIPPED, IGNORED, COPY)]) + 3
    copies = [name for name, outcome in OUTCOMES.items() if outcome == COPY]
    assert run.code == EXIT_SKIPPED, run.stderr
    summary = re.search(r"^(\d+) documents \((\d+) skipped, (\d+) exact copies counted "
                        r"once\), \d+ entities", run.stdout, re.M)
    assert summary is not None, run.stdout
    assert (int(summary[1]), int(summary[2]), int(summary[3])) == (built, len(SKIPPED_NAMES),
                                                                  len(copies))
    for name in copies:
        assert run.lines(f"note: {run.path(name)}: exact copy of ")
    assert f"{len(SKIPPED_NAMES)} input(s) skipped" in run.stderr
    assert f"wrote {run.out / 'graph.ttl'}" in run.stdout


@pytest.mark.parametrize("name", SKIPPED_NAMES)
def test_each_bad_file_is_skipped_with_its_name_and_reason(run: BuildRun, name: str) -> None:
    (line,) = run.lines(f"skipped {run.path(name)}: ")
    assert len(line) > len(f"skipped {run.path(name)}: ") + 5  # a reason follows


@pytest.mark.parametrize("name", WARNED_NAMES)
def test_each_decoded_or_repaired_file_is_reported(run: BuildRun, name: str) -> None:
    printable = re.split("[\ud800-\udfff]", run.path(name))[0]  # how a bad byte shows varies
    assert run.lines(f"warning: {printable}")


def test_good_articles_are_in_the_graph_with_their_exact_text(run: BuildRun) -> None:
    quads = read_quads(run.out / "graph.trig")
    assert texts_by_source(quads) == expected_texts(run.root)


def test_every_anchor_is_exactly_its_slice_of_the_text(in_subprocess: BuildRun,
                                                       quads: list[Any]) -> None:
    count, problems = anchor_problems(quads)
    assert count > 1000 and problems == []
    contexts = {q.object.value for q in quads if q.predicate.value.endswith("#referenceContext")}
    sources = {q.subject.value: q.object.value for q in quads
               if q.predicate.value.endswith("#sourcePath")}
    anchored = {sources[c] for c in contexts}
    assert {recorded_path(in_subprocess.root / n) for n in UNUSUAL_TEXTS} <= anchored


def test_the_graph_conforms_and_mints_no_iri_from_text(quads: list[Any]) -> None:
    assert loose_iris(quads) == []
    # long_line.txt alone is 97 % of the graph and is article() text again, like the graphs
    # of dup_a.txt or crlf.txt: leaving it out takes pySHACL from a minute to seconds.
    kept = [q for q in quads if not q.graph_name.value.endswith("/article/long-line")]
    assert len(kept) < len(quads)
    report = validate_data(rdflib_graph(kept))
    assert report.conforms, report.text


def test_only_the_outputs_are_visible_and_no_temp_file_is_left(run: BuildRun) -> None:
    assert sorted(p.name for p in run.out.iterdir() if not p.name.startswith(".")) == [
        "graph.trig", "graph.ttl"]
    assert not list(run.out.rglob("*.tmp"))


def test_ten_megabyte_file_is_skipped_by_default(tmp_path: Path) -> None:
    # A 10 MB text is a dump or a book, not news: parsing it would hold the build for many
    # minutes, so the default limit (5 MB) skips it with a reason naming the option.
    (tmp_path / "in").mkdir()
    make_big_article(tmp_path / "in" / "big.txt")
    command = ["build", str(tmp_path / "in"), "--out", str(tmp_path / "o")]
    result = CliRunner().invoke(app, command)
    assert result.exit_code == EXIT_SKIPPED
    assert ("big.txt: larger than the limit of 5 MB (the max_article_bytes setting) "
            "(hint: kg build --max-article-mb raises it)") in result.stderr


@pytest.mark.slow
def test_a_long_article_builds_in_chunks_with_exact_offsets(tmp_path: Path, nlp: Any) -> None:
    (tmp_path / "in").mkdir()
    text = make_big_article(tmp_path / "in" / "big.txt", size=300_000)  # 15 spaCy chunks
    report = build_corpus([tmp_path / "in"], Settings(out_dir=tmp_path / "out"),
                          formats=("nq",), nlp=nlp)
    assert report.documents == 1 and not report.skipped
    quads = read_quads(tmp_path / "out" / "graph.nq")
    assert texts_by_source(quads) == {"big.txt": text}  # never an absolute path
    count, problems = anchor_problems(quads)
    assert count > 3_000 and problems == []


def test_hostile_file_names_cannot_drive_the_terminal(tmp_path: Path) -> None:
    names = ["\x1b]0;owned\x07.txt", "\x1b[2J\x1b[31mred.txt", "right\u202etxt.md", "\r.txt"]
    for name in names:
        (tmp_path / "in").mkdir(exist_ok=True)
        (tmp_path / "in" / name).write_bytes(b"")
    (tmp_path / "in" / LATIN1_NAME).write_bytes(CP1252_TEXT.encode("cp1252"))
    code, _, stderr = _build_in_subprocess(tmp_path / "in", tmp_path / "out")
    assert code == EXIT_SKIPPED
    assert len([line for line in stderr.splitlines() if line.startswith("skipped ")]) == 4
    assert "\\x1b]0;owned\\x07.txt: empty file" in stderr and "right\\u202etxt.md" in stderr
    assert all(c.isprintable() or c in " \n" for c in stderr), repr(stderr)


# --- the bad-input corpus: each case one clear line naming the file, the build goes on -----

@pytest.mark.parametrize(("name", "message"), [
    ("deep_meta.txt", "deep_meta.meta.json ignored: JSON nested 200000 deep (more than 200)"),
    ("zero_date.txt", "'date' ignored: '0001-01-01' is a placeholder for an unknown date"),
    ("bad_url.txt", "'url' ignored: 'https://example.org/a<b>\"c' holds '<'"),
    ("README.TXT", "not read: a folder's documentation file, not an article"),
])
def test_each_bad_input_is_named_with_its_problem(run: BuildRun, name: str,
                                                  message: str) -> None:
    (line,) = run.lines(f"warning: {run.path(name)}: ")
    assert message in line


def test_a_duplicate_id_skips_the_later_article_naming_both(run: BuildRun) -> None:
    (line,) = run.lines(f"skipped {run.path('same_id_b.txt')}: ")
    assert f"id 'shared-id' is already the id of {run.path('same_id_a.txt')}" in line
    graphs = {q.graph_name.value for q in read_quads(run.out / "graph.trig")}
    assert sum(g.endswith("/article/shared-id") for g in graphs) == 1


def test_article_ids_do_not_depend_on_the_other_files(tmp_path: Path) -> None:
    # Adding a file once renamed another ("same" -> "same-11cd0954"), so a later kg load
    # replaced one article's graph with another's text. Ids now come from each file alone.
    from kg.ingest.files import read_documents

    for folder in ("x", "y"):
        (tmp_path / "in" / folder).mkdir(parents=True)
        (tmp_path / "in" / folder / "story.txt").write_text(f"Story from {folder}.")
    (tmp_path / "in" / "same.txt").write_text(article(40))

    def ids() -> dict[str, str]:
        return {str(Path(d.path).relative_to(tmp_path / "in")): d.doc_id
                for d in read_documents([tmp_path / "in"])}

    assert ids() == {"same.txt": "same", "x/story.txt": "x-story", "y/story.txt": "y-story"}
    (tmp_path / "in" / "a.txt").write_text(article(41))  # an unrelated newcomer
    shutil.rmtree(tmp_path / "in" / "x")
    assert ids() == {"a.txt": "a", "same.txt": "same", "y/story.txt": "y-story"}


def test_folders_nested_deeper_than_the_recursion_limit_are_read(tmp_path: Path) -> None:
    deep = make_deep_folders(tmp_path / "in", depth=max(1100, sys.getrecursionlimit() + 100))
    try:
        (tmp_path / "in" / "top.txt").write_text(article(42))
        from kg.ingest.files import read_documents

        skipped: list[Any] = []
        paths = [d.path for d in read_documents([tmp_path / "in"], on_skip=skipped.append)]
        assert paths == [str(deep), str(tmp_path / "in" / "top.txt")] and not skipped
    finally:
        remove_deep_folders(tmp_path / "in")


@pytest.mark.parametrize(("expression", "reference"), [
    ("last year", (1, 1, 1)), ("next month", (9999, 12, 31)), ("Feb. 24", (1, 1, 3)),
])
def test_dates_relative_to_the_ends_of_the_calendar_are_left_unresolved(
        expression: str, reference: tuple[int, int, int]) -> None:
    from datetime import date

    from kg.extract.values import normalise_date

    value, _ = normalise_date(expression, date(*reference))
    assert value is None or date.min <= value <= date.max
