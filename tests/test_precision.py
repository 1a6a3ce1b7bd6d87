"""The judged precision set (tests/eval/precision/, issue 16.1) stays useful as outputs change.

bench/precision.py builds 400 seeded BBC articles and reports precision per kind over the rows
the judged set covers (`make eval`). This test re-runs the current code on the few judged
articles with most judged rows and checks that precision over the judged rows it still
produces stays above the floors (set just under the figures measured when they were set, see
docs/resolution.md#precision), that enough judged rows are still produced for that to mean
something, and that no judged-wrong output marked fixed has come back.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench import precision

ROOT = Path(__file__).resolve().parents[1]
JUDGED = ROOT / "tests" / "eval" / "precision"
ARTICLES = 15  # about 15 s of extraction: the re-run tests are marked slow
LEDGER = 12  # articles most judged conflicting-figures groups came from
#: Precision over the judged rows the re-run still produces, per kind; and how many judged
#: rows of that kind the re-run must still produce (so the figure is not over nothing).
#: Measured on the 15 articles: roles 8/14, claims 12/14, events 3/11.
# Re-set after the rules and resolution branches were merged and the new rows judged: the
# re-run articles then gave people-roles 7/9, claims 12/13, events 6/13 over judged rows.
# Events re-set after issue 16's event rules (branch events2): 8/12 judged event rows right on
# the re-run articles (65% of the 400-article sample).
# People-roles and claims raised after the roles and claims precision work (branch roles2), on
# the re-run articles: people-roles 12/13, claims 17/20 over judged rows.
# Re-set after the three branches and the news NER default were merged, with every row the
# re-run produces judged (82 people-roles and events rows, 110 claims rows judged then): the
# re-run articles (the densest judged ones, not a random sample) gave people-roles 41/55,
# claims 97/130, events 19/46.
# People-roles count lowered when a blank line started to end every sentence: the judged rows
# of one critics' list page came from sentences glued across lines and five are no longer
# produced (three judged wrong); 38/48 right on the re-run then.
# People-roles and claims raised after the third roles and claims round (branch roles3), every
# row the re-run produces judged: people-roles 43/46, claims 101/131.
# Events raised after this round's argument rules (branch events3; 80% of the 400-article
# sample): with every row the re-run produces judged, events 25/46 there.
# Merged (integ3: both fact branches, sentences ending at blank lines, no facts from a
# headline), every row the re-run produces judged: people-roles 43/46, claims 103/131, events
# 23/42 (headline events are gone, so the events count is 40).
# 1 December (second session): peers labelled "Lord X" and "Mr Cable" joined to "Vince Cable"
# re-keyed 18 judged rows of the re-run articles (the key holds the output); each was judged
# again with its sentence (the same judgements: 17 right, 1 wrong).
# 3 December (issue 35's round): the row keys the round's rules changed were judged again
# (42 rows); role.sentence-organisation went (it gave a critic's paper to a film's director,
# 7 of 9 new role rows wrong); events lost one row to factuality (a planned purchase):
# people-roles 46/50, claims 105/131, events 23/39 (the verifier cuts nothing by default);
# after ablation round 1 removed role.copula and role.verb, people-roles 45/48.
# 4 December (evfact12): the learned factuality model takes out 6 judged event rows of the
# re-run ("is to buy" ×3, "agreed to buy", "the purchase of the LSE"; 5 judged wrong, the
# deal of "is to buy … in a deal worth $1.8bn" judged right): events 24/41 → 23/35.
FLOORS = {"people-roles": (0.85, 45), "claims": (0.75, 125), "events": (0.5, 35)}
KINDS = ("people-roles", "claims", "events", "conflicting-figures", "entities-top",
         "entities-random", "split-entities", "entity-merges")




def test_the_judged_set_has_forty_rows_of_each_kind_each_with_a_reason() -> None:
    rows = [json.loads(line) for path in sorted(JUDGED.glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    counts = Counter(r["kind"] for r in rows)
    assert all(counts[kind] >= 40 for kind in KINDS if kind != "split-entities"), counts
    assert counts["split-entities"] >= 10
    for row in rows:
        verdict = row[precision.COUNTED.get(row["kind"], "correct")]
        reuters = row.get("corpus") == "conll"  # stored without its sentence (licence)
        assert isinstance(verdict, bool) and row["why"], row["key"]
        assert bool(row["sentence"]) != reuters, row["key"]
        assert isinstance(row.get("sample", precision.OWN_SAMPLE), str), row["key"]
        if row["kind"] not in precision.COUNTED:
            assert set(row["fields"]) == set(row["output"]), row["key"]
            assert row["correct"] == all(row["fields"].values()), row["key"]


def test_keys_name_article_sentence_and_output() -> None:
    key = precision.row_key("claims", "bbc-tech-1", "He said so.", {"speaker": "X"})
    assert key.startswith("claims|bbc-tech-1|")
    assert key != precision.row_key("claims", "bbc-tech-1", "He said so.", {"speaker": "Y"})


def test_score_counts_only_judged_rows() -> None:
    picked = {"claims": [{"key": "a"}, {"key": "b"}, {"key": "c"}]}
    judged = {"a": {"correct": True}, "b": {"correct": False}}
    score = precision.score(picked, judged)["claims"]
    assert (score.sampled, score.judged, score.correct) == (3, 2, 1)
    assert score.precision == 0.5


def test_entity_rows_no_entity_has_any_more_are_marked_fixed(tmp_path: Path) -> None:
    rows = [{"key": "entities-top|Organization|TV", "kind": "entities-top", "correct": False},
            {"key": "entities-top|Place|Oslo", "kind": "entities-top", "correct": False},
            {"key": "entities-random|Person|Ann", "kind": "entities-random", "correct": True}]
    precision.write_jsonl(tmp_path / "entities-top.jsonl", rows)
    still = precision.EntityStats("x", "Oslo", "Place", 1, set(), Counter(), {})
    judged = {r["key"]: r for r in rows}
    assert precision.mark_fixed_entities([still], judged, tmp_path) == 1
    text = (tmp_path / "entities-top.jsonl").read_text(encoding="utf-8")
    marked = [json.loads(line) for line in text.splitlines()]
    assert [r.get("fixed", False) for r in marked] == [True, False, False]


def test_the_docstring_examples_hold() -> None:
    """Split candidates: one name in two classes, plurals, short forms ("Lib Dems")."""
    import doctest

    result = doctest.testmod(precision)
    assert result.attempted >= 4 and result.failed == 0, result


def _corpus(folder: Path, n: int) -> list[Path]:
    folder.mkdir()
    paths = [folder / f"bbc_tech_{i:03d}.txt" for i in range(n)]
    for i, path in enumerate(paths):
        path.write_text(f"Article {i}.\n", encoding="utf-8")
    return paths


def test_a_fresh_sample_has_no_judged_article_none_of_the_own_sample_and_no_copy(
        tmp_path: Path) -> None:
    paths = _corpus(tmp_path / "bbc", 12)
    (tmp_path / "bbc" / "bbc_tech_100.txt").write_text("Article 1.\n", encoding="utf-8")
    judged = {"k": {"kind": "claims", "article": "bbc-tech-001"},
              "g": {"kind": "conflicting-figures", "article": "bbc-tech-002,bbc-tech-003"},
              "e": {"kind": "entities-top", "article": "3 articles"}}
    own = precision.choose_articles(tmp_path / "bbc", 4, precision.SEED)
    fresh = precision.fresh_articles(tmp_path / "bbc", 50, 3501, judged, own=4)
    assert len(fresh) == 12 - 3 - len(set(own) - set(paths[1:4]))
    assert not set(fresh) & (set(own) | set(paths[1:4]))
    assert tmp_path / "bbc" / "bbc_tech_100.txt" not in fresh  # the text of a judged one
    assert precision.fresh_articles(tmp_path / "bbc", 3, 3501, judged, own=4) == \
        precision.fresh_articles(tmp_path / "bbc", 3, 3501, judged, own=4)
    assert precision.choose_articles(tmp_path / "bbc", 5, 1) != \
        precision.choose_articles(tmp_path / "bbc", 5, 2)


def test_a_first_look_drawn_again_after_its_rows_were_judged_is_the_same_articles(
        tmp_path: Path) -> None:
    _corpus(tmp_path / "bbc", 30)
    first = precision.fresh_articles(tmp_path / "bbc", 6, 3501, {}, own=4)
    judged = {"k": {"kind": "claims", "article": precision.article_id(first[0]),
                    "sample": "first-look-1"}}
    again = precision.fresh_articles(tmp_path / "bbc", 6, 3501, judged, own=4,
                                     sample_tag="first-look-1")
    assert again == first
    # Another sample's first look leaves those articles out.
    other = precision.fresh_articles(tmp_path / "bbc", 6, 3501, judged, own=4,
                                     sample_tag="bbc-2")
    assert first[0] not in other and other != first


def _rows(kind: str, n: int) -> list[dict[str, Any]]:
    articles = [f"bbc-tech-{i:03d}" for i in range(n)]
    return [{"key": f"{kind}|{a}|s|o", "kind": kind, "article": a, "sentence": "S.",
             "output": {"x": a}} for a in articles]


@pytest.mark.parametrize("which", ["tune", "check"])
def test_a_half_is_sampled_from_its_own_articles_in_the_seeded_order(
        monkeypatch: pytest.MonkeyPatch, which: str) -> None:
    from bench.halves import half

    monkeypatch.setattr(precision, "named_rows", lambda graph, kind: _rows(kind, 60))
    monkeypatch.setattr(precision, "entity_stats", lambda graph, which=None: [])
    whole = precision.sample(None, 7, rows=60)["claims"]
    picked = precision.sample(None, 7, rows=10, which=which)["claims"]
    assert [r["key"] for r in picked] == [r["key"] for r in whole
                                          if half(r["article"]) == which][:10]
    assert precision.sample(None, 8, rows=60)["claims"] != whole  # the seed orders the rows
    assert "entity-merges" not in precision.sample(None, 7, which=which)  # whole sample only
    assert "entity-merges" in precision.sample(None, 7)


def test_entity_merges_show_every_form_and_are_counted_not_a_precision() -> None:
    forms = Counter({f"Form{i}": 10 - i for i in range(10)})
    entity = precision.EntityStats("x", "Edinburgh", "Place", 55, {"a"}, forms,
                                   {f: f"{f} here." for f in forms})
    merges, top = entity.row("entity-merges"), entity.row("entities-top")
    assert merges["key"] == "entity-merges|Place|Edinburgh"
    assert merges["output"]["forms"].count("×") == 10 and top["output"]["forms"].count("×") == 8
    assert merges["sentence"].count(" // ") == 9
    picked = {"entity-merges": [merges, {"key": "m2"}, {"key": "m3"}]}
    judged = {merges["key"]: {"merged": True}, "m2": {"merged": False}}
    score = precision.score(picked, judged)["entity-merges"]
    assert (score.sampled, score.judged, score.correct) == (3, 2, 1)
    assert "1 entities merge different things" in score.line()


def test_a_sample_tag_keeps_each_samples_judgements_apart(tmp_path: Path) -> None:
    rows = [{"key": "entities-top|Place|Oslo", "kind": "entities-top", "correct": True},
            {"key": "entities-top|Place|Oslo", "kind": "entities-top", "correct": False,
             "sample": "first-look-1"},
            {"key": "claims|a|b|c", "kind": "claims", "correct": True, "sample": "first-look-1"}]
    precision.write_jsonl(tmp_path / "entities-top.jsonl", rows)
    own = precision.load_judged(tmp_path, precision.OWN_SAMPLE)
    fresh = precision.load_judged(tmp_path, "first-look-1")
    assert own["entities-top|Place|Oslo"]["correct"] is True and len(own) == 1
    assert fresh["entities-top|Place|Oslo"]["correct"] is False and len(fresh) == 2
    # Untagged, the first sample to judge a key keeps it: a first look never moves kg's own
    # figures; a key judged again for the same sample keeps the later judgement.
    assert precision.load_judged(tmp_path)["entities-top|Place|Oslo"]["correct"] is True
    precision.write_jsonl(tmp_path / "entities-top.jsonl", [*rows, {**rows[0], "correct": False}])
    assert precision.load_judged(tmp_path)["entities-top|Place|Oslo"]["correct"] is False
    picked = {"claims": [{"key": "claims|x|y|z", "output": {"speaker": "A"}}],
              "entity-merges": [{"key": "entity-merges|Place|Oslo", "output": {}}]}
    blank = precision.unjudged(picked, fresh, "first-look-1")
    assert blank["claims"][0]["sample"] == "first-look-1"
    assert blank["claims"][0]["fields"] == {"speaker": None}
    assert blank["entity-merges"][0]["merged"] is None
    assert "sample" not in precision.unjudged(picked, own, precision.OWN_SAMPLE)["claims"][0]


@pytest.mark.slow
def test_the_command_reports_each_half_and_writes_tagged_unjudged_rows(
        tmp_path: Path, nlp: Any, capsys: pytest.CaptureFixture[str]) -> None:
    if not precision.CORPUS.is_dir():
        pytest.skip("the BBC corpus is not beside the project (../shared/corpora/bbc)")
    from bench.halves import half

    paths = precision.choose_articles(precision.CORPUS, 4, 3)
    assert {half(precision.article_id(p)) for p in paths} == {"tune", "check"}
    graph = precision.build(paths, tmp_path / "out", nlp=nlp)
    code = precision.main(["--graph", str(graph), "--seed", "3", "--half", "both", "--rows",
                           "5", "--sample", "test-tag", "--write-unjudged", "--out",
                           str(tmp_path / "out")])
    printed = capsys.readouterr().out
    assert code == 0
    assert "whole sample, judged" in printed and "tune half" in printed
    assert "check half" in printed and printed.count("entity-merges") == 1
    claims = [json.loads(line) for line in (tmp_path / "out" / "unjudged-claims.jsonl")
              .read_text(encoding="utf-8").splitlines()]
    assert claims and all(r["sample"] == "test-tag" and r["correct"] is None for r in claims)


@pytest.fixture(scope="module")
def rerun_graph(nlp: Any) -> Any:
    if not precision.CORPUS.is_dir():
        pytest.skip("the BBC corpus is not beside the project (../shared/corpora/bbc)")
    from kg.api import build_graph

    judged = precision.load_judged()
    articles = precision.judged_articles(judged, ARTICLES)
    return build_graph([precision.article_path(a) for a in articles], nlp=nlp)


@pytest.fixture(scope="module")
def rerun(rerun_graph: Any) -> dict[str, dict[str, Any]]:
    produced = {}
    for kind in FLOORS:
        for row in precision.named_rows(rerun_graph, kind):
            produced[row["key"]] = row
    return produced


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(FLOORS))
def test_precision_over_judged_rows_stays_above_the_floor(rerun: dict[str, Any],
                                                          kind: str) -> None:
    judged = precision.load_judged()
    hits = [judged[key] for key in rerun if key in judged and judged[key]["kind"] == kind]
    floor, at_least = FLOORS[kind]
    assert len(hits) >= at_least, f"only {len(hits)} judged {kind} rows still produced"
    correct = sum(1 for row in hits if row["correct"])
    assert correct / len(hits) >= floor, (kind, correct, len(hits))


#: Entity rows (top 60 and random 40 together; a row is keyed by class and label) that the
#: re-run's entities still match, and how many must match. Set on 1 December, after the
#: random-entity rules: 29 of 34 judged entity rows right on the re-run (85%; the 400-article
#: sample: top 60 96.7%, random 40 85.0%). Labels and classes are votes over the corpus, so a
#: small re-run matches the frequent entities best; a class or label rule that breaks shows.
ENTITY_FLOOR = (0.8, 30)


@pytest.mark.slow
def test_precision_over_judged_entities_stays_above_the_floor(rerun_graph: Any) -> None:
    judged = precision.load_judged(sample_tag=precision.OWN_SAMPLE)
    keys = {f"{kind}|{e.type}|{e.label}" for e in precision.entity_stats(rerun_graph)
            for kind in ("entities-top", "entities-random")}
    hits = [judged[key] for key in keys if key in judged]
    floor, at_least = ENTITY_FLOOR
    assert len(hits) >= at_least, f"only {len(hits)} judged entity rows still produced"
    correct = sum(1 for row in hits if row["correct"])
    assert correct / len(hits) >= floor, (correct, len(hits))


@pytest.mark.slow
def test_the_ledger_lists_no_false_conflict_where_it_listed_them(nlp: Any) -> None:
    """Most conflicting-figures groups judged so far were false (different things sharing a
    unit and a verb, another event's toll); on the articles most of them came from, the ledger
    lists only groups judged real (issue 16.2: a short ledger of real disagreements and
    revisions, not a long one of false ones)."""
    if not precision.CORPUS.is_dir():
        pytest.skip("the BBC corpus is not beside the project (../shared/corpora/bbc)")
    from kg.api import build_graph

    judged = {k: r for k, r in precision.load_judged().items()
              if r["kind"] == "conflicting-figures"}
    wrong = [r for r in judged.values() if not r["correct"]]
    assert wrong
    counts = Counter(a for r in wrong for a in r["article"].split(","))
    articles = [a for a, _n in sorted(counts.items(), key=lambda i: (-i[1], i[0]))[:LEDGER]]
    graph = build_graph([precision.article_path(a) for a in articles], nlp=nlp)
    listed = precision.named_rows(graph, "conflicting-figures")
    assert all(judged.get(g["key"], {}).get("correct") for g in listed), [
        g["output"] for g in listed]


@pytest.mark.slow
def test_outputs_judged_wrong_and_fixed_do_not_come_back(rerun: dict[str, Any]) -> None:
    judged = precision.load_judged()
    back = [judged[key]["why"] for key in rerun if judged.get(key, {}).get("fixed")]
    assert back == []


def test_a_first_look_drawn_again_reads_its_pinned_articles(tmp_path: Path) -> None:
    """A first look's articles are written when first drawn and read back after: a row judged
    later on an article no sample named would otherwise shift the seeded draw."""
    drawn = [tmp_path / "bbc_tech_002.txt", tmp_path / "bbc_sport_001.txt"]
    first = precision.pinned_articles("first-look-x", lambda: drawn, tmp_path, tmp_path / "pins")
    again = precision.pinned_articles("first-look-x", lambda: [], tmp_path, tmp_path / "pins")
    assert first == drawn and again == drawn
    assert (tmp_path / "pins" / "first-look-x.txt").read_text().split() == [
        "bbc-tech-002", "bbc-sport-001"]
    assert precision.pinned_articles(None, lambda: [], tmp_path, tmp_path / "pins") == []


def test_the_pinned_first_looks_are_articles_of_the_corpus() -> None:
    pins = sorted((JUDGED / "samples").glob("*.txt"))
    assert pins
    conll = (len(precision.conll_texts(precision.CONLL_TRAIN))
             if precision.CONLL_TRAIN.is_file() else None)
    for pin in pins:
        ids = pin.read_text(encoding="utf-8").split()
        assert len(ids) == len(set(ids)) == 400, pin.name
        bbc = [a for a in ids if not a.startswith("conll-train-")]
        assert all(precision.article_path(a).is_file() for a in bbc), pin.name
        if conll is not None:
            assert all(int(a.rsplit("-", 1)[1]) < conll for a in ids if a not in bbc), pin.name


def test_judged_rows_of_reuters_text_hold_none_of_it() -> None:
    """CoNLL-2003 is Reuters' text (data/README.md: evaluate with it, never ship it): its
    judged rows keep no sentence and no output field longer than six words, and their reasons
    quote at most six words at a time."""
    rows = [json.loads(line) for path in sorted(JUDGED.glob("*.jsonl"))
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for row in rows:
        if row.get("corpus") == "conll" or "conll-" in row.get("article", ""):
            assert row.get("corpus") == "conll" and row["sentence"] == "", row["key"]
            assert precision.redacted(row) == row, row["key"]
            quoted = re.findall(r'"([^"]*)"', row["why"])
            assert all(len(q.split()) <= precision.SHORT for q in quoted), row["key"]


def test_a_conll_document_is_halved_as_the_ledger_halves_it(tmp_path: Path) -> None:
    """precision's half of a CoNLL article (``conll-train-17``) is bench/halves.py's of its
    place in the file (``conll-train:17``), the key bench/ledger_eval.py builds its halves by."""
    from bench.halves import half

    for n in range(12):
        article, which = f"conll-train-{n}", half(f"conll-train:{n}")
        other = "check" if which == "tune" else "tune"
        assert precision._in_half({"article": article}, which), article
        assert not precision._in_half({"article": article}, other), article
    assert {half(f"conll-train:{n}") for n in range(12)} == {"tune", "check"}


def test_a_conll_sample_is_seeded_distinct_fresh_and_written_as_text(tmp_path: Path) -> None:
    texts = ["A .", "B .", "A .", "C .", "D ."]
    judged = {"k": {"article": "conll-train-3", "sample": "first-look-x"}}
    drawn = precision.conll_articles(tmp_path, 10, 1, judged, "other", texts)
    assert [p.name for p in drawn] == ["conll-train-0.txt", "conll-train-1.txt",
                                       "conll-train-4.txt"]
    assert precision.conll_articles(tmp_path, 2, 7, judged, "other", texts) == \
        precision.conll_articles(tmp_path, 2, 7, judged, "other", texts)
    mine = precision.conll_articles(tmp_path, 10, 1, judged, "first-look-x", texts)
    assert "conll-train-3.txt" in {p.name for p in mine}
    precision.materialise(drawn, texts)
    assert (tmp_path / "docs" / "conll-train-4.txt").read_text(encoding="utf-8") == "D .\n"


def test_a_fresh_draw_leaves_out_every_document_another_first_look_pinned(tmp_path: Path) -> None:
    """A document another first look drew is no longer unseen though no judged row names it
    (its rows were not sampled, or only entity rows were judged): a fresh draw leaves it out,
    a first look drawn again keeps its own."""
    texts = ["A .", "B .", "C .", "D .", "E ."]
    pins = tmp_path / "pins"
    pins.mkdir()
    (pins / "first-look-x.txt").write_text("conll-train-1\nconll-train-3\nbbc-tech-002\n",
                                           encoding="utf-8")
    drawn = precision.conll_articles(tmp_path, 10, 1, {}, "first-look-y", texts, pins)
    assert [p.name for p in drawn] == ["conll-train-0.txt", "conll-train-2.txt",
                                       "conll-train-4.txt"]
    again = precision.conll_articles(tmp_path, 10, 1, {}, "first-look-x", texts, pins)
    assert len(again) == 5
    paths = _corpus(tmp_path / "bbc", 8)
    fresh = precision.fresh_articles(tmp_path / "bbc", 50, 3501, {}, own=0,
                                     sample_tag="first-look-y", pins=pins)
    assert paths[2] not in fresh and len(fresh) == 7
