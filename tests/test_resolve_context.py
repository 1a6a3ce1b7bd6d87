"""Resolution by context (issue 36): the shipped model, the candidates blocked by name keys,
the clustering's constraints, and joins a build makes and logs with their score."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from kg.errors import ModelError
from kg.heuristics import switched_off
from kg.ingest.files import document_from_text
from kg.model import EntityKind
from kg.resolve import context as context_module
from kg.resolve.blocks import candidate_pairs
from kg.resolve.context import ContextModel, embed, load_context_model
from kg.resolve.groups import Group, Merger
from kg.resolve.linking import may_join

PERSON, ORG, PLACE = EntityKind.PERSON, EntityKind.ORGANIZATION, EntityKind.PLACE
CONTEXT = {"resolve.corpus.context-joins"}


def test_the_shipped_model_is_the_one_hashed() -> None:
    data = context_module.MODEL_FILE.read_bytes()
    assert context_module.HASH_FILE.read_text().split()[0] == hashlib.sha256(data).hexdigest()
    model = load_context_model()
    assert model is not None and 0 < model.threshold < 1
    assert {"ctx", "art", "names"} <= set(model.weights)


def test_an_altered_model_is_refused(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "context.json").write_text('{"bias": 0, "weights": {}, "threshold": 0.5}')
    (tmp_path / "context.sha256").write_text("0" * 64 + "  context.json\n")
    monkeypatch.setattr(context_module, "MODEL_FILE", tmp_path / "context.json")
    monkeypatch.setattr(context_module, "HASH_FILE", tmp_path / "context.sha256")
    load_context_model.cache_clear()
    try:
        with pytest.raises(ModelError, match="SHA-256"):
            load_context_model()
    finally:
        load_context_model.cache_clear()


def test_the_embedding_table_loads_offline_and_reads_context() -> None:
    vectors = embed(["The striker scored twice in the cup final.",
                     "The forward hit two goals in the league match.",
                     "The central bank raised interest rates again.", ""])
    assert vectors.shape == (4, 256) and not vectors[3].any()
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


def test_a_text_embeds_the_same_whatever_its_batch() -> None:
    """Batches are small to keep resolution's memory down (``EMBED_BATCH``); a text's vector must
    not depend on the texts padded beside it, so the scores stay those the model was fitted on."""
    texts = [f"Sentence {k} about the match." + " The crowd cheered." * k for k in range(20)]
    together = embed(texts)
    alone = [embed([text])[0] for text in texts]
    assert len(texts) > context_module.EMBED_BATCH
    for pair in zip(together, alone, strict=True):
        assert abs(float(pair[0] @ pair[1]) - 1.0) < 1e-5


def test_a_model_reads_its_weights() -> None:
    model = ContextModel.from_json(ContextModel(-1.0, {"ctx": 2.0}, 0.6).to_json())
    assert model.probability({"ctx": 1.0}) > 0.7 > model.probability({})


def _groups(*names: tuple[str, EntityKind]) -> list[Group]:
    return [Group(f"d{k}", anchor=name, kind=kind, refs=[(f"d{k}", 0, len(name))])
            for k, (name, kind) in enumerate(names)]


@pytest.mark.parametrize(("left", "right", "relation"), [
    (("AP", ORG), ("Associated Press", ORG), "acronym"),
    (("Lib Dems", ORG), ("Liberal Democrats", ORG), "abbreviation"),
    (("Oscar", ORG), ("Oscars", ORG), "plural"),
    (("G Henson", PERSON), ("Gavin Henson", PERSON), "initial"),
    (("Rafa Benitez", PERSON), ("Rafael Benitez", PERSON), "given-variant"),
    (("Labour", PERSON), ("Labour", ORG), "same-name"),
])
def test_names_that_may_be_one_thing_are_candidates(left: Any, right: Any,
                                                    relation: str) -> None:
    pairs = list(candidate_pairs(_groups(left, right), Merger(2)))
    assert [r for _i, _j, r in pairs] == [relation]


@pytest.mark.parametrize(("left", "right"), [
    (("Leeds", PLACE), ("Leeds United", ORG)),  # a city is no part of its club
    (("Martyn Williams", PERSON), ("Matt Williams", PERSON)),  # two given names
    (("Library", ORG), ("British Library", ORG)),  # a part of a name is the rules' business
    (("Gordon Brown", PERSON), ("Craig Gordon", PERSON)),
])
def test_names_of_different_things_are_no_candidates(left: Any, right: Any) -> None:
    assert list(candidate_pairs(_groups(left, right), Merger(2))) == []


@pytest.mark.parametrize(("left", "right", "relation", "allowed"), [
    (("Leeds", PLACE), ("Leeds", ORG), "same-name", False),
    (("Labour", PERSON), ("Labour", ORG), "same-name", True),
    (("Henson", PERSON), ("Henson Trust", ORG), "part", False),
    (("Gavin Henson", PERSON), ("G Henson", PERSON), "initial", True),
    (("Gavin Henson", PERSON), ("Tony Henson", PERSON), "given-variant", False),
])
def test_what_may_never_be_joined(left: Any, right: Any, relation: str, allowed: bool) -> None:
    a, b = _groups(left, right)
    assert may_join([a], [b], relation) is allowed


def _resolve(nlp: Any, *texts: str) -> Any:
    from kg.extract import extract_document
    from kg.resolve.corpus_names import with_corpus_names
    from kg.resolve.resolver import resolve_entities

    extractions = [extract_document(nlp, document_from_text(text, doc_id=f"a{k}"))
                   for k, text in enumerate(texts)]
    return resolve_entities(with_corpus_names(extractions))


TEAM_SHEETS = (
    "Wales beat England 11-9 in the Six Nations at the Millennium Stadium. Gavin Henson "
    "kicked the winning penalty for Wales, and Shane Williams and Dwayne Peel ran England "
    "ragged.",
    "Six Nations: Wales v England, Millennium Stadium. Wales: G Thomas, H Luscombe, "
    "T Shanklin, G Henson, S Williams; S Jones, D Peel. England: J Robinson, M Cueto.",
)


def test_an_initial_joins_the_one_full_name_of_the_corpus(nlp: Any) -> None:
    resolution = _resolve(nlp, *TEAM_SHEETS)
    henson = [e for e in resolution.entities if "Henson" in e.label]
    assert len(henson) == 1 and henson[0].label == "Gavin Henson"
    decision = next(d for d in resolution.decisions
                    if d.rule == "context-initial" and "G Henson" in (d.left, d.right))
    assert {decision.left, decision.right} == {"G Henson", "Gavin Henson"}
    assert 0.5 < decision.score <= 1.0 and decision.merged


def test_switched_off_the_context_joins_nothing(nlp: Any) -> None:
    with switched_off(CONTEXT):
        resolution = _resolve(nlp, *TEAM_SHEETS)
    assert len([e for e in resolution.entities if "Henson" in e.label]) == 2
    assert not any(d.rule.startswith("context") for d in resolution.decisions)
