"""What a figure measures — the quantity, of what, when, a forecast or not — and the kinds of
disagreement the ledger names (issue 39): conflict, update, differing forecasts, revision, with
the order of the reports. Sentences written for these tests (general English, from no seed or
dev article); the ledger's judged groups on everyday news are in tests/eval/ledger/.
"""

from __future__ import annotations

import doctest
import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from kg.extract import extract_document
from kg.ingest.files import document_from_text
from kg.model import Figure, Measure


def measured(nlp: Any, text: str) -> list[tuple[Figure, Measure]]:
    extraction = extract_document(nlp, document_from_text(text, doc_id="t"))
    return [(f, f.measure) for f in extraction.facts
            if isinstance(f, Figure) and f.measure is not None]


def ledger(nlp: Any, tmp_path: Path, articles: dict[str, tuple[str, str | None]]) -> list[dict]:
    """The conflicting-figures rows of articles name → (text, publication date or None)."""
    import kg

    tmp_path.mkdir(parents=True, exist_ok=True)
    for name, (text, day) in articles.items():
        (tmp_path / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
        if day:
            (tmp_path / f"{name}.meta.json").write_text(json.dumps({"date": day}))
    graph = kg.build_graph(tmp_path, nlp=nlp)
    return [{k: "" if v is None else str(v) for k, v in row.items()}
            for row in kg.query(graph, "conflicting-figures")]


# -- the key: the quantity and its owner, not the verb ------------------------------------------


@pytest.mark.parametrize(("text", "key"), [
    ("US exports rose 12.3% in January.", ("export rise", "percent", "US", "january")),
    ("Acme Motors' revenue rose 10% last year.", ("revenue rise", "percent", "Acme Motors",
                                                  "last year")),
    ("The fund approved a $1.6bn loan for Norland.", ("loan", "USD", "Norland", None)),
    ("Ford said it was cutting production by 3%.", ("production fall", "percent", None, None)),
    ("Profits jumped to $1.1bn in the fourth quarter.", ("profit", "USD", None,
                                                         "fourth quarter")),
])
def test_an_amount_is_keyed_by_the_quantity_it_is_of(nlp: Any, text: str,
                                                     key: tuple[Any, ...]) -> None:
    (figure, measure), = measured(nlp, text)
    anchor = measure.anchor.text if measure.anchor is not None else None
    assert (measure.predicate, measure.counted, anchor, measure.period) == key
    assert not measure.forecast and figure.wording


@pytest.mark.parametrize("text", [
    "The economy would grow by 2.5% this year.",
    "Growth is expected to reach 2.5% this year.",
    "The central bank forecast growth of 2.5% this year.",
])
def test_a_prediction_is_a_forecast_of_growth(nlp: Any, text: str) -> None:
    (_, measure), = measured(nlp, text)
    assert (measure.predicate, measure.period, measure.forecast) == ("growth", "this year", True)


@pytest.mark.parametrize(("text", "measures"), [
    ("The bodies of two more victims were found.", 0),  # an addition, not the toll
    ("A further 300 jobs will go.", 0),
    ("Analysts said 63% of voters disagreed.", 0),  # a share of people: a poll, not a quantity
    ("It rose 5%.", 0),  # a rise of nothing named
])
def test_additions_and_amounts_of_nothing_named_measure_nothing(nlp: Any, text: str,
                                                               measures: int) -> None:
    assert len(measured(nlp, text)) == measures


def test_a_tolls_period_is_a_month_or_a_year_not_its_day(nlp: Any) -> None:
    found = [m.period for _, m in measured(nlp, (
        "An earthquake killed 40 people on Sunday. In February, another earthquake killed "
        "600 people. It also injured more than 1,400."))]
    assert found == [None, "february", "february"]


def test_a_count_bounded_to_a_days_event_has_that_day_for_period(nlp: Any) -> None:
    (_, arrests), = measured(nlp, "Police made 86 arrests over the course of Saturday's "
                                  "protests.")
    assert (arrests.predicate, arrests.period) == ("arrested", "saturday")


def test_a_participle_clause_counts_for_the_event_it_hangs_from(nlp: Any) -> None:
    (_, attack), = measured(nlp, "Rioters attacked a bus, injuring at least two people.")
    (_, quake), = measured(nlp, "An earthquake hit the island, injuring five people.")
    assert (attack.cause, quake.cause) == ("attack", "earthquake")


def test_a_dateline_and_a_headline_are_not_a_figures_period(nlp: Any) -> None:
    (_, measure), = measured(nlp, "Quake hits island\nNov 28, 2005\n"
                                  "Ten people were killed when an earthquake hit the island.")
    assert measure.period is None and measure.cause == "earthquake"


# -- the kinds of disagreement ----------------------------------------------------------------


def test_two_sources_forecasts_that_differ(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (
        "The finance minister, Anna Berg, said the economy would grow by an estimated 2.5% this "
        "year, while the International Monetary Fund forecast growth of 1.8% this year.", None)})
    assert {(r["status"], r["order"], float(r["value"]), r["source"]) for r in rows} == {
        ("differing forecasts", "one report", 2.5, "Anna Berg"),
        ("differing forecasts", "one report", 1.8, "International Monetary Fund")}
    assert all("growth" in r["measure"] and "forecast" in r["measure"] for r in rows)


def test_a_sentence_that_revises_a_forecast_is_a_revision(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (
        "Growth would slow to 3.3% next year, from a previous estimate of 3.7%, the OECD said.",
        None)})
    assert {(r["status"], r["figure"], r["source"]) for r in rows} == {
        ("revision", "3.3%", "OECD"), ("revision", "3.7%", "OECD")}


@pytest.mark.parametrize(("text", "before", "after", "source"), [
    ("The Office for National Statistics revised the 2024 rate of inflation down from 4.1% to "
     "3.6%.", "4.1%", "3.6%", "Office for National Statistics"),
    ("The number of homes built in March was revised up from 12,000 to 14,500.",
     "12,000", "14,500", ""),
    ("An earlier estimate of 0.4% growth in the second quarter was downgraded to a 0.2% "
     "decline.", "0.4%", "0.2%", ""),
    ("The Bank of Tarvik will cut its growth estimate for the region from 2.4% to 1.9%.",
     "2.4%", "1.9%", "Bank of Tarvik"),
])
def test_a_revision_told_as_a_change_is_a_revision(nlp: Any, tmp_path: Path, text: str,
                                                    before: str, after: str,
                                                    source: str) -> None:
    rows = ledger(nlp, tmp_path, {"a": (text, None)})
    assert {(r["status"], r["order"], r["figure"]) for r in rows} == {
        ("revision", "one report", before), ("revision", "one report", after)}
    assert len({r["measure"] for r in rows}) == 1
    assert all(source in r["source"] for r in rows)


def test_two_revisions_in_one_sentence_are_two_groups(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (
        "The ministry revised up the number of homes built in the two previous months - to "
        "14,000 in May instead of 12,000, and to 15,500 in April instead of 11,000.", None)})
    groups: dict[str, set[str]] = {}
    for row in rows:
        groups.setdefault(row["measure"], set()).add(row["figure"])
    assert sorted(map(sorted, groups.values())) == [["11,000", "15,500"], ["12,000", "14,000"]]
    assert {r["status"] for r in rows} == {"revision"}


def test_a_change_over_time_is_no_revision(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (
        "The statistics office said inflation fell from 4.1% in 2023 to 3.6% in 2024.", None)})
    assert rows == []


def test_a_second_forecast_named_by_its_noun_differs_from_the_first(
        nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (
        "The Ridgeway Institute expects growth of 2% this year, below finance minister Anna "
        "Berg's forecast of 3% to 3.5%.", None)})
    assert {(r["status"], r["figure"], r["source"]) for r in rows} == {
        ("differing forecasts", "2%", "Ridgeway Institute"),
        ("differing forecasts", "3% to 3.5%", "Anna Berg")}


def test_an_outturn_against_an_old_plan_is_no_revision(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (
        "The ministry spent $59bn on subsidies in 2024, far above its original projection of "
        "$15bn.", None)})
    assert rows == []


def test_one_speaker_giving_another_value_later_is_a_revision(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {
        "a": ("Acme chief executive Joan Reyes said sales at Acme would rise 5% in 2025.",
              "2025-01-10"),
        "b": ("Acme chief executive Joan Reyes said sales at Acme would rise 9% in 2025.",
              "2025-03-10")})
    assert {(r["status"], r["order"], r["source"]) for r in rows} == {
        ("revision", "by date", "Joan Reyes")}


def test_different_quantities_of_one_country_are_never_grouped(nlp: Any, tmp_path: Path) -> None:
    """Issue 39's false groups: "US exports rose 12.3%" against Acme's revenue up 10%, a loan
    against a package."""
    rows = ledger(nlp, tmp_path, {
        "a": ("US exports rose 12.3% in 2024. The fund approved a $1.6bn loan for Norland in "
              "2024.", "2025-01-10"),
        "b": ("Acme's US revenue rose 10% in 2024. Norland received a $3bn package in 2024.",
              "2025-02-10")})
    assert rows == []


def test_an_undated_corpus_lists_a_moving_toll_with_its_order_unknown(
        nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {
        "a": ("Riots spread across Norland.\n\nMore than 200 people have been arrested in "
              "Oslo.", None),
        "b": ("The unrest continued.\n\nMore than 400 protesters have been arrested in Oslo.",
              None)})
    assert {(r["status"], r["order"], float(r["value"])) for r in rows} == {
        ("update", "unknown", 200.0), ("update", "unknown", 400.0)}
    assert {r["reported"] for r in rows} == {""}


def test_a_dateline_dates_an_undated_report(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {
        "a": ("Quake hits island\nPublished: Nov 27, 2005\n\nAt least three people were killed "
              "in the earthquake.", None),
        "b": ("Quake toll rises\nPublished: Nov 28, 2005\n\nThe earthquake killed 10 people.",
              None)})
    assert {(r["status"], r["order"], r["reported"]) for r in rows} == {
        ("update", "by date", "2005-11-27"), ("update", "by date", "2005-11-28")}


def test_a_dated_report_is_not_compared_with_an_undated_one(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {
        "a": ("Quake hits island\nPublished: Nov 27, 2005\n\nAt least three people were killed "
              "in the earthquake.", None),
        "b": ("The earthquake killed 10 people.", None)})
    assert rows == []


def test_people_who_did_something_in_undated_reports_are_not_compared(
        nlp: Any, tmp_path: Path) -> None:
    """20,000 at a concert and 5,000 at a rally in one city are two crowds."""
    rows = ledger(nlp, tmp_path, {
        "a": ("About 20,000 people attended the concert in Bergen.", None),
        "b": ("About 5,000 people attended the rally in Bergen.", None)})
    assert rows == []


def test_a_sentence_repeated_in_two_articles_is_one_report(nlp: Any, tmp_path: Path) -> None:
    """A syndicated paragraph: its two figures are not two sources' values of one thing."""
    sentence = "The champion fell to 36-3 with 24 knockouts after Saturday's defeat in Oslo."
    rows = ledger(nlp, tmp_path, {"a": (f"Boxing news.\n\n{sentence}", "2024-03-02"),
                                  "b": (f"Results.\n\n{sentence}", "2024-03-02")})
    assert rows == []


def test_a_number_in_a_web_address_is_no_figure(nlp: Any) -> None:
    found = measured(nlp, "http://news.example.com/2010/05/05/3-dead/423816\n"
                          "Three people died in the fire.")
    assert [f.value for f, _ in found] == [3.0]


@pytest.mark.parametrize("text", [
    "Standings after Monday 's games :\nNORLAND CITY 74 56 .569 -\nWESTPORT 69 62 .527 5",
    "Scores after the third round :\nAnna Berg 73 71 69 , Tom Reid 75 69 67",
])
def test_a_run_of_numbers_is_no_figure(nlp: Any, text: str) -> None:
    """``figure.long-span``: a table's row or a list of scores is no one quantity."""
    assert measured(nlp, text) == []


def test_a_list_the_parser_reads_as_one_sentence_is_no_figure(nlp: Any) -> None:
    found = measured(nlp, "The analyst cut his estimates on :\n-- Acme Oil to $ 0.38 from "
                          "$ 0.73 versus the consensus $ 0.63\n-- Norland Gas to $ 0.15 from "
                          "$ 0.85 versus the consensus $ 0.63\n-- Westport Fuel to $ 0.95 from "
                          "$ 1.03 versus the consensus $ 1.10")
    assert found == []


def test_a_range_is_still_one_figure(nlp: Any) -> None:
    """Two numbers with no word between them are a range, not a run."""
    (figure, _), = measured(nlp, "Between 2,000 - 3,000 workers lost their jobs in Detroit.")
    assert figure.value == 2000.0


def test_a_dateline_city_is_not_what_a_toll_is_about(nlp: Any) -> None:
    """``figure.dateline-city``: "OSLO 1996-08-26" says where the report was filed."""
    ((_, filed),) = measured(nlp, "Fighting in the north\nOSLO 1996-08-26\nHeavy fighting "
                                  "broke out in the north and at least 29 people were killed .")
    ((_, local),) = measured(nlp, "Fighting in the north\nHeavy fighting broke out in Oslo "
                                  "and at least 29 people were killed .")
    assert filed.anchor is None or filed.anchor.text != "OSLO"
    assert local.anchor is not None and local.anchor.text == "Oslo"


def test_dated_tolls_of_a_cause_in_two_places_are_kept_apart(nlp: Any, tmp_path: Path) -> None:
    """``ledger.dated-common-place``: two explosions, each near a place of its own."""
    rows = ledger(nlp, tmp_path, {
        "a": ("An explosion leveled a motel in Rochester , killing two people .", "1996-08-23"),
        "b": ("Bomb explosions have killed 140 civilians in Algeria , a watchdog said .",
              "1996-08-25")})
    assert rows == []


def test_dated_tolls_of_a_cause_near_one_place_are_compared(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {
        "a": ("An explosion hit a market in Bergen on Monday .\nThe explosion killed 15 "
              "people .", "2005-01-05"),
        "b": ("An explosion hit a market in Bergen on Monday .\nThe explosion has killed 40 "
              "people , police said .", "2005-01-07")})
    assert {(r["status"], float(r["value"])) for r in rows} == {("update", 15.0),
                                                                 ("update", 40.0)}


def test_the_articles_own_figures_are_not_a_disagreement(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (
        "At least 40 people were killed in the flood. Later the flood killed 60 people.", None)})
    assert rows == []


# -- the explorer ---------------------------------------------------------------------------


def test_the_conflicts_page_names_the_kind_order_and_wording(nlp: Any, tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from kg.build.corpus import build_corpus
    from kg.config import Settings
    from kg.serve import create_app

    source = tmp_path / "articles"
    source.mkdir()
    (source / "a.txt").write_text(
        "The finance minister, Anna Berg, said the economy would grow by 2.5% this year, while "
        "the International Monetary Fund forecast growth of 1.8% this year.\n", encoding="utf-8")
    out = tmp_path / "out"
    build_corpus([source], Settings(out_dir=out), formats=("trig",), nlp=nlp)
    with TestClient(create_app(out / "graph.trig", workers=1),
                    base_url="http://127.0.0.1:8000") as client:
        page = client.get("/conflicts").text
    assert "differing forecasts" in page and "order of reports: one report" in page
    assert "economy would grow" in page and "Anna Berg" in page
    assert page.count('<tr class="fact">') == 2


@pytest.mark.parametrize("name", ["kg.rdf.ledger", "kg.extract.rules.measures",
                                  "kg.extract.values", "kg.lexicon.measure_words"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted and not result.failed



@pytest.mark.parametrize("text", [
    "The hijackers released the hostages in batches of 10 at Stansted .",
    "Rebels released the prisoners in groups of 20 in Kabul .",
])
def test_the_size_of_a_batch_is_no_figure(nlp: Any, text: str) -> None:
    """``figure.batch-size``: "in batches of 10" is a size, not a count of the total."""
    from kg.heuristics import switched_off

    values = {f.value for f, _ in measured(nlp, text)}
    assert not values & {10.0, 20.0}
    with switched_off(["figure.batch-size"]):
        assert {f.value for f, _ in measured(nlp, text)} & {10.0, 20.0}


def test_a_count_beside_a_batch_is_a_figure(nlp: Any) -> None:
    values = {f.value for f, _ in measured(
        nlp, "The hijackers released 140 hostages at Stansted in three batches .")}
    assert 140.0 in values


_MARKET = "A bomb killed seven people at a market near Algiers on Friday ."
_RESTAURANT = "A bomb killed two people at a restaurant near Algiers on Friday ."


def test_tolls_of_two_fridays_are_two_incidents(nlp: Any, tmp_path: Path) -> None:
    """``ledger.event-day``: a bomb on Friday 23 and one on Friday 30, both near Algiers."""
    from kg.heuristics import switched_off

    articles = {"a": (_MARKET, "1996-08-24"), "b": (_RESTAURANT, "1996-08-31")}
    assert ledger(nlp, tmp_path / "on", articles) == []
    with switched_off(["ledger.event-day"]):
        rows = ledger(nlp, tmp_path / "off", articles)
    assert {float(r["value"]) for r in rows} == {7.0, 2.0}


def test_tolls_of_one_friday_are_compared(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (_MARKET, "1996-08-24"),
                                  "b": (_RESTAURANT, "1996-08-25")})
    assert {(r["status"], float(r["value"])) for r in rows} == {("update", 7.0),
                                                                 ("update", 2.0)}


def test_a_count_over_years_is_not_one_attacks_toll(nlp: Any) -> None:
    """``figure.years-span``: "in the past two years" makes the count a total over a period."""
    from kg.heuristics import switched_off

    text = ("About 1,400 civilians have died in bomb attacks in the past two years , a "
            "watchdog said .")
    periods = {m.period for f, m in measured(nlp, text) if f.value == 1400.0}
    assert periods == {"past two years"}
    with switched_off(["figure.years-span"]):
        assert {m.period for f, m in measured(nlp, text) if f.value == 1400.0} == {None}


_PART = ("Aid reached Indonesia . The Sri Lanka relief agency said the tsunami killed more "
         "than 30,000 people .")
_WHOLE = ("Aid reached Indonesia . Britain held a silence for the victims of the tsunami , "
          "which killed 150,000 people .")


def test_one_countrys_toll_is_not_the_whole_of_another(nlp: Any, tmp_path: Path) -> None:
    """``ledger.part-country``: sentences naming one country each, different ones."""
    from kg.heuristics import switched_off

    articles = {"a": (_PART, None), "b": (_WHOLE, None)}
    assert ledger(nlp, tmp_path / "on", articles) == []
    with switched_off(["ledger.part-country"]):
        rows = ledger(nlp, tmp_path / "off", articles)
    assert {float(r["value"]) for r in rows} == {30000.0, 150000.0}


def test_one_country_toll_is_compared_with_a_toll_naming_no_country(
        nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {
        "a": (_PART, None),
        "b": ("Aid reached Indonesia . The tsunami killed 150,000 people , officials said .",
              None)})
    assert {(r["status"], float(r["value"])) for r in rows} == {("update", 30000.0),
                                                                 ("update", 150000.0)}


def _undated_graph(tmp_path: Path, nlp: Any) -> Path:
    from kg.build.corpus import build_corpus
    from kg.config import Settings

    source = tmp_path / "articles"
    source.mkdir()
    (source / "a.txt").write_text("Riots spread across Norland.\n\nMore than 200 people have "
                                  "been arrested in Oslo.\n", encoding="utf-8")
    (source / "b.txt").write_text("The unrest continued.\n\nMore than 400 protesters have been "
                                  "arrested in Oslo.\n", encoding="utf-8")
    out = tmp_path / "out"
    build_corpus([source], Settings(out_dir=out), formats=("trig",), nlp=nlp)
    return out / "graph.trig"


def test_an_undated_disagreement_shows_its_order_unknown(nlp: Any, tmp_path: Path) -> None:
    """The /conflicts page and ``kg query --name conflicting-figures`` of an undated corpus:
    the kind, "unknown" order, the measure as worded, each figure's sentence and source."""
    from starlette.testclient import TestClient
    from typer.testing import CliRunner

    from kg.cli import app
    from kg.serve import create_app

    graph = _undated_graph(tmp_path, nlp)
    with TestClient(create_app(graph, workers=1), base_url="http://127.0.0.1:8000") as client:
        page = client.get("/conflicts").text
    assert "update" in page and "order of reports: unknown" in page
    assert "More than 200 people have been arrested in Oslo." in page
    assert "More than 400 protesters have been arrested in Oslo." in page
    assert page.count("<td>(the article)</td>") == 2 and page.count('<tr class="fact">') == 2
    result = CliRunner().invoke(app, ["query", "--name", "conflicting-figures", "--graph",
                                      str(graph), "--format", "json", "--no-cache"])
    assert result.exit_code == 0, result.output
    rows = [{k: v["value"] for k, v in b.items()}
            for b in json.loads(result.output)["results"]["bindings"]]
    assert {(r["status"], r["order"], r["source"]) for r in rows} == {
        ("update", "unknown", "(the article)")}
    assert {r["sentence"] for r in rows} == {
        "More than 200 people have been arrested in Oslo.",
        "More than 400 protesters have been arrested in Oslo."}
    assert all(r["wording"] for r in rows)


_SAID_FRIDAY = ("Police said on Friday that seven people were killed in a bomb explosion at a "
                "market .")
_NO_DAY = "Two people were killed in a bomb explosion at a restaurant ."


def test_a_toll_with_no_day_is_of_its_reports_day(nlp: Any, tmp_path: Path) -> None:
    """``ledger.incident-days``: one toll's day is only "said on Friday" (23 August), the
    other gives none and is reported a week later: two incidents."""
    from kg.heuristics import switched_off

    articles = {"a": (_SAID_FRIDAY, "1996-08-24"), "b": (_NO_DAY, "1996-08-31")}
    assert ledger(nlp, tmp_path / "on", articles) == []
    with switched_off(["ledger.incident-days"]):
        rows = ledger(nlp, tmp_path / "off", articles)
    assert {float(r["value"]) for r in rows} == {7.0, 2.0}


def test_tolls_of_reports_a_few_days_apart_are_compared(nlp: Any, tmp_path: Path) -> None:
    rows = ledger(nlp, tmp_path, {"a": (_SAID_FRIDAY, "1996-08-24"),
                                  "b": (_NO_DAY, "1996-08-26")})
    assert {(r["status"], float(r["value"])) for r in rows} == {("update", 7.0),
                                                                 ("update", 2.0)}


def test_a_later_report_naming_the_incidents_day_is_compared(nlp: Any,
                                                              tmp_path: Path) -> None:
    """A report a week later whose article names the first incident's day: one toll."""
    later = "Two people were killed in a bomb explosion at a market . It went off on August 23 ."
    rows = ledger(nlp, tmp_path, {"a": (_SAID_FRIDAY, "1996-08-24"), "b": (later, "1996-08-31")})
    assert {float(r["value"]) for r in rows} == {7.0, 2.0}
