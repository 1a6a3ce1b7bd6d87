"""kg's own news NER as a build option: `kg build --ner news` (model "<package>+news-ner")."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kg.build.cache import extractor_fingerprint
from kg.cli import app
from kg.config import MODEL_PACKAGE, NEWS_NER_PART
from kg.errors import ModelError
from kg.extract import extract_document, load_pipeline
from kg.extract.pipeline import split_model
from kg.ingest import document_from_text

TEXT = ("Angela Merkel met Emmanuel Macron in Berlin on Monday, the German government said. "
        "Siemens shares rose 3 percent.")


@pytest.fixture(scope="module")
def news_pipeline():  # type: ignore[no-untyped-def]
    return load_pipeline(MODEL_PACKAGE + NEWS_NER_PART)


def test_the_news_ner_speaks_the_small_models_labels(news_pipeline) -> None:  # type: ignore[no-untyped-def]
    extraction = extract_document(news_pipeline, document_from_text(TEXT))
    labels = {m.name: m.ner_label for m in extraction.mentions}
    assert labels.get("Berlin") == "GPE" and labels.get("Emmanuel Macron") == "PERSON"
    assert set(labels.values()) <= {"PERSON", "ORG", "GPE", "LOC", "FAC", "EVENT"}
    assert extraction.times and extraction.quantities  # dates and numbers still come through
    assert news_pipeline.pipe_names[-1] == "kg_spacy_labels"


def test_every_mention_keeps_its_ner_label(nlp) -> None:  # type: ignore[no-untyped-def]
    # a name cut at a bracket or paragraph break is a new span: it must keep the label
    text = "Angela Merkel met Emmanuel Macron in Berlin.\n\nJ Lewsey (Wasps) played."
    labels = [m.ner_label for m in extract_document(nlp, document_from_text(text)).mentions]
    assert labels and all(labels), labels


def test_an_unknown_pipeline_part_is_refused() -> None:
    assert split_model(MODEL_PACKAGE) == (MODEL_PACKAGE, False)
    with pytest.raises(ModelError, match="unknown pipeline part"):
        split_model(MODEL_PACKAGE + "+trf")


def test_cached_extractions_of_one_ner_never_serve_the_other() -> None:
    assert extractor_fingerprint(MODEL_PACKAGE) != extractor_fingerprint(
        MODEL_PACKAGE + NEWS_NER_PART)


def test_kg_build_ner_option(tmp_path: Path) -> None:
    article = tmp_path / "a.txt"
    article.write_text(TEXT, encoding="utf-8")
    runner = CliRunner()
    news = runner.invoke(app, ["build", str(article), "--out", str(tmp_path / "n"),
                               "--ner", "news"])
    assert news.exit_code == 0, news.output
    assert "Angela Merkel" in (tmp_path / "n" / "graph.ttl").read_text(encoding="utf-8")
    wrong = runner.invoke(app, ["build", str(article), "--out", str(tmp_path / "w"),
                                "--ner", "large"])
    assert wrong.exit_code == 2 and "expected 'news' or 'small'" in wrong.output
