"""Hostile text in names, sentences and metadata: every format stays valid and says exactly
what was written, IRIs never carry text, and SPARQL parameters are bound, never pasted.

Names are put straight into mentions (so each hostile string is certainly a label), and a
real spaCy build covers the same characters in running text.
"""

from __future__ import annotations

import codecs
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rdflib import Dataset
from typer.testing import CliRunner

from kg.build.corpus import Corpus, build_corpus, corpus_from_extractions, write_outputs
from kg.cli import app
from kg.config import Settings
from kg.ingest.characters import UNREPRESENTABLE
from kg.ingest.files import Skipped, document_from_text, read_documents
from kg.model import ArticleMeta, EntityKind, Extraction, Mention, Sentence
from kg.rdf.namespaces import RDFS, SDO, SKOS
from kg.rdf.serialize import FORMATS
from tests.graph_checks import anchor_problems, loose_iris, read_quads, vocabulary_triples

RDFLIB_FORMATS = {"ttl": "turtle", "nt": "nt", "nq": "nquads", "trig": "trig", "jsonld": "json-ld"}
C0 = "".join(chr(c) for c in range(0x20) if chr(c) not in "\t\n\r")

#: Names that break a serialiser, a parser or an IRI minted from text if anything is pasted.
HOSTILE_NAMES = {
    "double-quotes": 'Joe "The Boss" Biden',
    "single-quotes": "Sinéad O'Connor",
    "triple-quotes": 'Tom """Triple""" \'\'\'Smith\'\'\'',
    "backslashes": "C:\\Users\\Putin\\",
    "escape-lookalikes": "Kyiv \\u0022 \\n \\\" Lviv",
    "angle-brackets": "<script>alert('x')</script> Ltd",
    "iri-lookalike": "<https://evil.example/> Group",
    "newline": "Anna\nNetrebko",
    "tab": "Tab\tCorp",
    "c0-controls": f"Ctl{C0}Inc",
    "del-and-c1": "Del\x7f Nel\x85 Ltd",
    "line-separators": "Line\u2028Para\u2029Sep",
    "turtle-syntax": "@prefix x: <y> . _:b0 a [] ; , } {",
    "sparql-syntax": "} ; DROP ALL ; # { ?s ?p ?o",
    "json-ld-syntax": '{"@id": "x", "@context": null}',
    "html-entities": "AT&amp;T &lt;b&gt; &#0;",
    "right-to-left": "עברית العربية \u202eevil\u202c",
    "emoji": "🇺🇦 👩\u200d👩\u200d👧 Group",
    "combining": "Jose\u0301 Zan\u0303o",
    "zero-width-and-bom": "Zero\u200bWidth\ufeffJoiner",
    "non-characters": "Non\ufffe\uffffChar",
    "lone-surrogate": "Half\ud83dPair",
}
HOSTILE_META = ArticleMeta(title='He said "no" <b>\\ \n', source="Reuters\\\" } #",
                           url='https://example.org/a"><script>', identifier='id "><x>')


def hostile_corpus() -> Corpus:
    """One document whose mentions are exactly the hostile names (made safe by ingest)."""
    raw = "".join(f"{name} said.\n" for name in HOSTILE_NAMES.values())
    document = document_from_text(raw, meta=HOSTILE_META, on_warning=lambda *_: None)
    mentions, begin = [], 0
    for index, name in enumerate(HOSTILE_NAMES.values()):
        end = begin + len(name)
        text = document.text[begin:end]
        kind = list(EntityKind)[index % 3]
        mentions.append(Mention(begin, end, text, text, kind, kind.value.upper(), index))
        begin = end + len(" said.\n")
    sentences = tuple(Sentence(m.sentence, m.begin, m.end + len(" said.")) for m in mentions)
    extraction = Extraction(document, sentences, tuple(mentions))
    return corpus_from_extractions([extraction], Settings())


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Corpus, Path]:
    corpus, out = hostile_corpus(), tmp_path_factory.mktemp("escaping")
    write_outputs(corpus, out, tuple(FORMATS))
    return corpus, out


def _lexical(quads: Any) -> set[tuple[str, str, str]]:
    return {(str(q[0]), str(q[1]), str(q[2])) for q in quads}


def _expected(corpus: Corpus) -> set[tuple[str, str, str]]:
    return _lexical(corpus.quads)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_parses_back_to_exactly_what_was_written(
        written: tuple[Corpus, Path], fmt: str) -> None:
    corpus, out = written
    path = out / f"graph.{FORMATS[fmt][2]}"
    by_oxigraph = {(q.subject.value, q.predicate.value, q.object.value) for q in read_quads(path)}
    by_rdflib = Dataset().parse(path, format=RDFLIB_FORMATS[fmt])
    assert by_oxigraph == _expected(corpus)
    assert _lexical(by_rdflib.quads((None, None, None, None))) == _expected(corpus)


@pytest.mark.parametrize("case", sorted(HOSTILE_NAMES))
def test_each_hostile_name_is_a_label_as_ingest_left_it(written: tuple[Corpus, Path],
                                                        case: str) -> None:
    corpus, out = written
    labels = {q.object.value for q in read_quads(out / "graph.nt")
              if q.predicate.value in (str(RDFS.label), str(SKOS.altLabel))}
    expected = UNREPRESENTABLE.sub("\ufffd", HOSTILE_NAMES[case])
    assert expected in labels
    assert not UNREPRESENTABLE.search("".join(labels))


def test_no_iri_carries_text_and_a_bad_url_is_dropped(written: tuple[Corpus, Path]) -> None:
    _, out = written
    quads = read_quads(out / "graph.nq")
    assert loose_iris(quads) == []
    assert not [q for q in quads if q.predicate.value == str(SDO.url)]
    assert anchor_problems(quads)[1] == []


def test_sentences_with_hostile_text_build_through_spacy(tmp_path: Path, nlp: Any) -> None:
    article = tmp_path / "in" / "hostile.txt"
    article.parent.mkdir()
    # A file cannot hold a lone surrogate, and many control bytes make it binary: a few stay.
    names = [n for case, n in HOSTILE_NAMES.items() if case not in ("c0-controls",
                                                                    "lone-surrogate")]
    article.write_text(f'President "Joe" Biden met <b>Emmanuel Macron</b> in Paris\\Lyon '
                       f"on Monday.\n{' and '.join(names)} met Angela\x01 Merkel\x1b in "
                       "Berlin.\n", "utf-8")
    report = build_corpus([article.parent], Settings(out_dir=tmp_path / "out"),
                          formats=tuple(FORMATS), nlp=nlp)
    assert report.documents == 1
    vocabulary = vocabulary_triples(read_quads(tmp_path / "out" / "graph.trig"))
    for fmt in FORMATS:
        quads = read_quads(tmp_path / "out" / f"graph.{FORMATS[fmt][2]}")
        count, problems = anchor_problems(quads)
        assert count >= 5 and problems == [] and loose_iris(quads, vocabulary) == []


# --- characters that cannot be in a graph -------------------------------------------------


def test_controls_and_lone_surrogates_become_one_replacement_character_each() -> None:
    warnings: list[str] = []
    raw = f"Kyiv{C0}\x7f\u2028\ud800\udfff\ufffe\tLviv\n"
    document = document_from_text(raw, on_warning=lambda _path, message: warnings.append(message))
    assert len(document.text) == len(raw)  # 1:1, so offsets computed on it stay exact
    assert document.text == raw.translate({ord(c): "\ufffd" for c in UNREPRESENTABLE.findall(raw)})
    assert document.text.count("\ufffd") == len(C0) + 3 and "\x7f\u2028" in document.text
    assert warnings == [f"{len(C0) + 3} control character(s) or lone surrogate(s) replaced with "
                        "U+FFFD"]


@pytest.mark.parametrize(("case", "data"), [
    ("utf8-encoded-surrogate", b"Kyiv \xed\xa0\x80 Lviv."),
    ("cesu8-pair", b"Kyiv \xed\xa0\xbd\xed\xb8\x80 Lviv."),
    ("utf16le-lone-high", codecs.BOM_UTF16_LE + "Kyiv ".encode("utf-16-le") + b"\x3d\xd8"
     + " Lviv.".encode("utf-16-le")),
    ("utf16be-lone-low", codecs.BOM_UTF16_BE + "Kyiv ".encode("utf-16-be") + b"\xdc\x00"
     + " Lviv.".encode("utf-16-be")),
    ("utf32-surrogate", codecs.BOM_UTF32_LE + "Kyiv ".encode("utf-32-le") + b"\x00\xd8\x00\x00"),
    ("utf32-beyond-unicode", codecs.BOM_UTF32_LE + b"\x00\x00\x11\x00"),
])
def test_decoding_never_yields_lone_surrogates(tmp_path: Path, case: str, data: bytes) -> None:
    (tmp_path / f"{case}.txt").write_bytes(data)
    skipped: list[Skipped] = []
    documents = list(read_documents([tmp_path], on_skip=skipped.append,
                                    on_warning=lambda *_: None))
    assert len(documents) + len(skipped) == 1
    assert not any(re.search("[\ud800-\udfff]", d.text) for d in documents)


def test_sidecar_escapes_for_controls_and_surrogates_are_replaced(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("Kyiv.")
    (tmp_path / "a.meta.json").write_text(json.dumps({"title": "A\u0000B\ud800C\u2028D"}))
    warnings: list[str] = []
    (document,) = read_documents([tmp_path], on_warning=lambda _p, m: warnings.append(m))
    assert document.meta.title == "A\ufffdB\ufffdC\u2028D"
    assert any("2 control character(s) replaced" in w for w in warnings)


# --- SPARQL parameters ---------------------------------------------------------------------

QUERY = "SELECT ?entity ?label WHERE { ?entity rdfs:label ?label }"


@pytest.mark.parametrize("case", ["double-quotes", "backslashes", "escape-lookalikes",
                                  "sparql-syntax", "newline", "turtle-syntax", "angle-brackets",
                                  "json-ld-syntax", "right-to-left"])
def test_query_parameter_with_hostile_text_selects_exactly_its_entity(
        written: tuple[Corpus, Path], case: str) -> None:
    corpus, out = written
    label = UNREPRESENTABLE.sub("\ufffd", HOSTILE_NAMES[case])
    result = CliRunner().invoke(app, ["query", QUERY, "--graph", str(out / "graph.trig"),
                                      "--format", "json", "--param", f"label={label}"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["results"]["bindings"]
    expected = {e.key for e in corpus.resolution.entities if e.label == label}
    assert len(expected) == 1
    assert {row["entity"]["value"].rsplit("/id/", 1)[1] for row in rows} == expected
    assert {row["label"]["value"] for row in rows} == {label}


@pytest.mark.parametrize("base", ["https://ex.org/a b/", "https://ex.org/<x>/", "ftp://ex.org/",
                                  'https://ex.org/"q"/', "https://ex.org/id", "not an iri/"])
def test_a_base_that_is_not_a_valid_iri_is_refused_before_any_work(tmp_path: Path,
                                                                   base: str) -> None:
    result = CliRunner().invoke(app, ["build", str(tmp_path), "--out", str(tmp_path / "out"),
                                      "--base", base])
    assert result.exit_code == 2
    assert "Invalid value for '--base'" in result.stderr
    assert not (tmp_path / "out").exists()
