"""kg export --format ftm: Follow-the-Money entities, checked by followthemoney's own model."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from followthemoney import model
from followthemoney.types import registry
from typer.testing import CliRunner

from kg.cli import app
from kg.views.ftm import organization_schema


@pytest.fixture(scope="module")
def ftm_lines(seed_build: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    target = tmp_path_factory.mktemp("ftm") / "entities.ftm.jsonl"
    result = CliRunner().invoke(app, ["export", "-g", str(seed_build / "graph.trig"),
                                      "-f", "ftm", "-o", str(target)])
    assert result.exit_code == 0, result.output
    return target.read_text(encoding="utf-8").splitlines()


def test_every_entity_is_valid_ftm(ftm_lines: list[str]) -> None:
    entities = [json.loads(line) for line in ftm_lines]
    for entity in entities:
        schema = model.get(entity["schema"])
        assert schema is not None and not schema.abstract, entity
        schema.validate(entity)  # raises InvalidData on a bad property or value
        assert model.get_proxy(entity, cleaned=False).id == entity["id"]
    ids = {e["id"] for e in entities}
    for entity in entities:  # every reference (proof, member, involved …) resolves
        proxy = model.get_proxy(entity)
        for prop, value in proxy.itervalues():
            if prop.type == registry.entity:
                assert value in ids, (entity["schema"], prop.name, value)


def test_kinds_and_proof(ftm_lines: list[str]) -> None:
    entities = [json.loads(line) for line in ftm_lines]
    by_schema: dict[str, list[dict]] = {}
    for entity in entities:
        by_schema.setdefault(entity["schema"], []).append(entity)
    assert {"Document", "Person", "Address", "Event"} <= by_schema.keys()
    assert by_schema.keys() & {"Organization", "Company", "PublicBody"}
    documents = {d["id"] for d in by_schema["Document"]}
    assert len(documents) == len(list(Path("seeds").glob("*.txt")))
    for entity in by_schema["Person"] + by_schema["Address"]:
        assert set(entity["properties"]["proof"]) <= documents
        assert entity["properties"]["proof"]
    assert all(d["properties"]["bodyText"][0].strip() for d in by_schema["Document"])
    names = {n for p in by_schema["Person"] for n in p["properties"]["name"]}
    assert "Vladimir Putin" in names


def test_ids_are_stable_across_builds(ftm_lines: list[str], seed_build: Path,
                                      tmp_path: Path) -> None:
    copy = tmp_path / "graph.trig"
    shutil.copy(seed_build / "graph.trig", copy)
    target = tmp_path / "again.jsonl"
    CliRunner().invoke(app, ["export", "-g", str(copy), "-f", "ftm", "-o", str(target)])
    assert target.read_text(encoding="utf-8").splitlines() == ftm_lines


@pytest.mark.parametrize(("name", "schema"), [
    ("Gazprom Neft PJSC Holding", "Company"), ("Barclays Bank", "Company"),
    ("Russian Defence Ministry", "PublicBody"), ("Ministry of Defence", "PublicBody"),
    ("Azov Regiment", "Organization"), ("Reuters", "Organization"),
])
def test_organization_schema(name: str, schema: str) -> None:
    assert organization_schema(name) == schema
