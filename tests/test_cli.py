"""The build and validate commands, through typer's CliRunner."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kg.cli import EXIT_SKIPPED, app

from .conftest import SEEDS

runner = CliRunner()


@pytest.fixture()
def fast_pipeline(monkeypatch: pytest.MonkeyPatch, nlp: Any) -> None:
    """Commands reuse the session's loaded pipeline instead of loading their own."""
    monkeypatch.setattr("kg.build.corpus.load_pipeline", lambda _model=None: nlp)


def test_build_prints_a_summary_and_writes_turtle_and_trig(
    tmp_path: Path, fast_pipeline: None
) -> None:
    result = runner.invoke(app, ["build", str(SEEDS), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert re.search(
        r"^3 documents \(0 skipped\), \d+ entities \(.*Person.*\), \d+ mentions, [\d,]+ triples "
        r"in [\d.]+ s$",
        result.stdout,
        re.M,
    )
    assert {p.name for p in tmp_path.glob("graph.*")} == {"graph.ttl", "graph.trig"}


@pytest.mark.parametrize("fmt", ["nt", "nq", "jsonld"])
def test_build_writes_the_formats_asked_for(tmp_path: Path, fmt: str, fast_pipeline: None) -> None:
    article = tmp_path / "a.txt"
    article.write_text("Pope Francis met Joe Biden in Rome on Friday.\n")
    result = runner.invoke(app, ["build", str(article), "--out", str(tmp_path), "-f", fmt])
    assert result.exit_code == 0, result.output
    assert [p.name for p in tmp_path.glob("graph.*")] == [f"graph.{fmt}"]


def test_build_reads_stdin(tmp_path: Path, fast_pipeline: None) -> None:
    text = "Chancellor Olaf Scholz visited Warsaw on Monday.\n"
    result = runner.invoke(app, ["build", "-", "--out", str(tmp_path)], input=text)
    assert result.exit_code == 0, result.output
    assert "Olaf Scholz" in (tmp_path / "graph.ttl").read_text()


def test_build_of_a_missing_path_names_it(tmp_path: Path) -> None:
    result = runner.invoke(app, ["build", str(tmp_path / "nope"), "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert "nope" in result.stderr and result.stderr.startswith("error: ")


def test_build_reports_skipped_inputs_in_its_exit_code(tmp_path: Path, fast_pipeline: None) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "good.txt").write_text("Prime Minister Rishi Sunak spoke in London.\n")
    (folder / "empty.txt").write_text("   \n")
    result = runner.invoke(app, ["build", str(folder), "--out", str(tmp_path / "out")])
    assert result.exit_code == EXIT_SKIPPED
    assert "empty.txt" in result.stderr
    assert result.stdout.startswith("1 documents (1 skipped)")


def test_validate_accepts_the_seed_build(seed_build: Path) -> None:
    result = runner.invoke(app, ["validate", str(seed_build / "graph.ttl")])
    assert result.exit_code == 0 and "conforms" in result.stdout


def test_validate_rejects_a_mention_without_offsets(seed_build: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.ttl"
    text = (seed_build / "graph.ttl").read_text()
    offset = r"nif:beginIndex \"\d+\"\^\^xsd:nonNegativeInteger ;"
    broken.write_text(re.sub(offset, "", text, count=1))
    result = runner.invoke(app, ["validate", str(broken)])
    assert result.exit_code == 1
    assert "beginIndex" in result.stdout and "violate" in result.stderr


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [("missing.ttl", None, "no such graph file"), ("bad.ttl", "<a> <b> .", "cannot parse")],
)
def test_validate_explains_unusable_files(
    tmp_path: Path, name: str, content: str | None, message: str
) -> None:
    if content is not None:
        (tmp_path / name).write_text(content)
    result = runner.invoke(app, ["validate", str(tmp_path / name)])
    assert result.exit_code == 1 and message in result.stderr and name in result.stderr


def test_validate_names_the_line_of_a_syntax_error_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ttl"
    bad.write_text('@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nex:a ex:b "open .\n')
    result = runner.invoke(app, ["validate", str(bad)])
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        f"error: {bad}: line 3: cannot parse as turtle: newline found in string literal, "
        "near 'ex:a ex:b \"open .'"]


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "build" in result.stdout and "validate" in result.stdout


def test_progress_bar_shows_total_rate_and_time_left_on_a_terminal() -> None:
    import io

    from rich.console import Console

    from kg.cli import _progress

    screen = io.StringIO()
    console = Console(file=screen, force_terminal=True, width=120)
    with _progress("articles", console) as (start, tick):
        start(3)
        for item in range(3):
            tick(item)
        console.print(end="")  # keep the live display's last frame
    text = screen.getvalue()
    assert "articles" in text and "3/3" in text and "left" in text and "elapsed" in text


def test_build_progress_is_quiet_when_not_on_a_terminal(tmp_path: Path,
                                                        fast_pipeline: None) -> None:
    result = CliRunner().invoke(app, ["build", str(SEEDS), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "\r" not in result.output and "━" not in result.output and "/s" not in result.output
