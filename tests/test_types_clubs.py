"""A city and its club apart (issue 16): an article that writes of the club gives its mentions
to an organisation of the same name, the city keeps the others. Invented names only, but for
GeoNames' own cities where a rule asks GeoNames."""

from __future__ import annotations

from kg.heuristics import switched_off
from kg.ingest.files import document_from_text
from kg.model import Entity, EntityKind, Extraction, GeoLink, Mention, Resolution, Sentence
from kg.rdf.namespaces import SDO
from kg.rdf.terms import classes_of
from kg.resolve.clubs import places_apart, split_clubs
from kg.resolve.types import role_cue, with_fine_types

CITY = GeoLink(1, "Dunmore", 1.0, 1.0, "XX")


def _extraction(doc_id: str, text: str, name: str) -> Extraction:
    document = document_from_text(text, path=f"{doc_id}.txt")
    mentions = []
    start = 0
    while (begin := text.find(name, start)) >= 0:
        mentions.append(Mention(begin, begin + len(name), name, name, EntityKind.PLACE, "GPE", 0))
        start = begin + len(name)
    return Extraction(document, (Sentence(0, 0, len(text)),), tuple(mentions))


def _resolution(extractions: list[Extraction], entities: tuple[Entity, ...]) -> Resolution:
    assignments = {(e.document.doc_id, m.begin, m.end): "place/dunmore"
                   for e in extractions for m in e.mentions}
    return Resolution(entities, assignments)


SPORT = "Dunmore striker Ian Roe scored as Dunmore beat Kelso 2-1. Dunmore fans sang."
CITY_TEXT = "Floods hit homes in Dunmore. The council in Dunmore said roads were shut."


def test_the_club_articles_move_to_an_organisation_and_the_city_keeps_the_rest() -> None:
    extractions = [_extraction("sport", SPORT, "Dunmore"), _extraction("news", CITY_TEXT,
                                                                       "Dunmore")]
    city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
    resolution = with_fine_types(split_clubs(_resolution(extractions, (city,)), extractions),
                                 extractions)
    by_key = {e.key: e for e in resolution.entities}
    club = by_key["organization/dunmore"]
    assert classes_of(club) == (SDO.Organization, SDO.SportsTeam)
    assert classes_of(by_key["place/dunmore"]) == (SDO.Place,)
    assert by_key["place/dunmore"].geo == CITY
    owners = {(doc, key) for (doc, _b, _e), key in resolution.assignments.items()}
    assert owners == {("sport", "organization/dunmore"), ("news", "place/dunmore")}


def test_an_existing_club_entity_takes_the_articles() -> None:
    extractions = [_extraction("sport", SPORT, "Dunmore"), _extraction("news", CITY_TEXT,
                                                                       "Dunmore")]
    city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
    club = Entity("organization/dunmore", EntityKind.ORGANIZATION, "Dunmore FC")
    split = split_clubs(_resolution(extractions, (city, club)), extractions)
    assert len(split.entities) == 2
    assert {k for (doc, _b, _e), k in split.assignments.items() if doc == "sport"} == {
        "organization/dunmore"}


def test_a_place_read_one_way_everywhere_is_left_whole() -> None:
    only_sport = [_extraction("a", SPORT, "Dunmore"), _extraction("b", SPORT, "Dunmore")]
    only_city = [_extraction("a", CITY_TEXT, "Dunmore"), _extraction("b", CITY_TEXT, "Dunmore")]
    for extractions in (only_sport, only_city):
        city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
        resolution = _resolution(extractions, (city,))
        assert split_clubs(resolution, extractions) is resolution


def test_a_country_keeps_its_team() -> None:
    extractions = [_extraction("sport", SPORT, "Dunmore"), _extraction("news", CITY_TEXT,
                                                                       "Dunmore")]
    country = Entity("place/dunmore", EntityKind.PLACE, "Dunmore",
                     geo=GeoLink(2, "Dunmore", 1.0, 1.0, "XX", feature="country"))
    resolution = _resolution(extractions, (country,))
    assert split_clubs(resolution, extractions) is resolution


def test_the_split_is_stable_when_the_registry_gives_the_club_key_to_the_place() -> None:
    extractions = [_extraction("sport", SPORT, "Dunmore"), _extraction("news", CITY_TEXT,
                                                                       "Dunmore")]
    city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore",
                  aliases=("organization/dunmore",), geo=CITY)
    split = split_clubs(_resolution(extractions, (city,)), extractions)
    by_key = {e.key: e for e in split.entities}
    assert by_key["place/dunmore"].aliases == ()
    assert "organization/dunmore" in by_key


def test_a_place_keyed_as_an_organisation_gives_its_club_a_second_key() -> None:
    extractions = [_extraction("sport", SPORT, "Dunmore"), _extraction("news", CITY_TEXT,
                                                                       "Dunmore")]
    city = Entity("organization/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
    resolution = _resolution(extractions, (city,))
    resolution = Resolution(resolution.entities, {
        ref: "organization/dunmore" for ref in resolution.assignments})
    split = split_clubs(resolution, extractions)
    assert {e.key for e in split.entities} == {"organization/dunmore", "organization/dunmore-2"}


def test_a_place_geonames_does_not_link_is_left_whole() -> None:
    extractions = [_extraction("sport", SPORT, "Dunmore"), _extraction("news", CITY_TEXT,
                                                                       "Dunmore")]
    nation = Entity("place/dunmore", EntityKind.PLACE, "Dunmore")
    resolution = _resolution(extractions, (nation,))
    assert split_clubs(resolution, extractions) is resolution


def test_a_market_in_a_city_is_no_company() -> None:
    market = "Trade was brisk: shares in Dunmore rose as shares in Dunmore banks fell."
    extractions = [_extraction("markets", market, "Dunmore"),
                   _extraction("news", CITY_TEXT, "Dunmore")]
    city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
    resolution = _resolution(extractions, (city,))
    begin = market.index("Dunmore")
    assert role_cue(market, begin, begin + 7) == "Corporation"  # a company cue, read right
    assert split_clubs(resolution, extractions) is resolution


def test_a_us_state_in_a_table_of_standings_gives_that_article_to_its_team() -> None:
    standings = "AMERICAN LEAGUE\nTexas 74 60 .552 -\nSeattle 70 63 .526 3 1/2"
    news = "Floods hit homes in Texas. The governor of Texas said roads were shut."
    extractions = [_extraction("table", standings, "Texas"), _extraction("news", news, "Texas")]
    state = Entity("place/dunmore", EntityKind.PLACE, "Texas")  # no GeoNames link
    split = split_clubs(_resolution(extractions, (state,)), extractions)
    owners = {(doc, key) for (doc, _b, _e), key in split.assignments.items()}
    assert owners == {("table", "organization/texas"), ("news", "place/dunmore")}


def test_a_dateline_stays_with_the_city_when_every_article_reads_as_the_club() -> None:
    text = "Dunmore 1996-08-30\n" + SPORT
    extractions = [_extraction("sport", text, "Dunmore")]
    city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
    split = split_clubs(_resolution(extractions, (city,)), extractions)
    owners = sorted((b, key) for (_doc, b, _e), key in split.assignments.items())
    assert owners[0] == (0, "place/dunmore")  # the dateline
    assert {key for _b, key in owners[1:]} == {"organization/dunmore"}


def _mentions(text: str, *names: str) -> tuple[Mention, ...]:
    found, start = [], 0
    for name in names:
        begin = text.index(name, start)
        found.append(Mention(begin, begin + len(name), name, name, EntityKind.ORGANIZATION,
                             "ORG", 0))
        start = begin + len(name)
    return tuple(found)


def _leeds_apart(text: str, *names: str) -> Resolution:
    """``places_apart`` over one article whose mentions of ``names`` (in order) are all the
    organisation "Leeds" — a city GeoNames knows: the rule asks GeoNames."""
    document = document_from_text(text, path="sport.txt")
    mentions = _mentions(text, *names)
    extraction = Extraction(document, (Sentence(0, 0, len(text)),), mentions)
    club = Entity("organization/leeds", EntityKind.ORGANIZATION, "Leeds")
    return places_apart(Resolution((club,), {
        (document.doc_id, m.begin, m.end): club.key for m in mentions}), [extraction])


def test_a_dateline_and_a_venue_leave_the_club_for_the_city() -> None:
    resolution = _leeds_apart("LEEDS 1996-08-30\nKELSO AT LEEDS\nAt Leeds : Kelso beat Dunmore "
                              "by 88 runs .\nLeeds beat Kelso 2-1.", "LEEDS", "LEEDS", "Leeds",
                              "Leeds")
    by_key = {e.key: e for e in resolution.entities}
    assert by_key["place/leeds"].kind is EntityKind.PLACE and by_key["place/leeds"].geo
    owners = [key for _ref, key in sorted(resolution.assignments.items())]
    assert owners == ["place/leeds", "place/leeds", "place/leeds", "organization/leeds"]


def test_an_organisation_named_only_in_datelines_is_left_whole() -> None:
    text = "LEEDS 1996-08-30\nRain fell."
    document = document_from_text(text, path="d.txt")
    mentions = _mentions(text, "LEEDS")
    extraction = Extraction(document, (Sentence(0, 0, len(text)),), mentions)
    club = Entity("organization/leeds", EntityKind.ORGANIZATION, "Leeds")
    resolution = Resolution((club,), {(document.doc_id, 0, 5): club.key})
    assert places_apart(resolution, [extraction]) is resolution


def test_where_something_happens_stays_with_the_city_in_a_club_article() -> None:
    text = SPORT + " Roe grew up in Dunmore."
    extractions = [_extraction("sport", text, "Dunmore"), _extraction("news", CITY_TEXT,
                                                                       "Dunmore")]
    city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
    split = split_clubs(_resolution(extractions, (city,)), extractions)
    sport = sorted((b, key) for (doc, b, _e), key in split.assignments.items() if doc == "sport")
    assert [key for _b, key in sport] == ["organization/dunmore"] * 3 + ["place/dunmore"]


def test_after_a_mid_sentence_in_an_organisation_named_like_a_town_stays_one() -> None:
    resolution = _leeds_apart("LEEDS 1996-08-30\nHe invested in Leeds last year.\nIn Leeds , "
                              "rain fell.\nLeeds won.", "LEEDS", "Leeds", "Leeds", "Leeds")
    owners = [key for _ref, key in sorted(resolution.assignments.items())]
    assert owners == ["place/leeds", "organization/leeds", "place/leeds", "organization/leeds"]


def test_after_a_mid_sentence_in_a_club_is_the_town() -> None:
    resolution = _leeds_apart("Leeds striker Ian Roe scored.\nRoe grew up in Leeds.", "Leeds",
                              "Leeds")
    owners = [key for _ref, key in sorted(resolution.assignments.items())]
    assert owners == ["organization/leeds", "place/leeds"]


def test_a_venue_heading_a_result_leaves_the_club_for_the_city() -> None:
    resolution = _leeds_apart("Leeds : Kelso 183 and 185-6 , Dunmore 190 .\nLeeds beat Kelso 2-1.",
                              "Leeds", "Leeds")
    owners = [key for _ref, key in sorted(resolution.assignments.items())]
    assert owners == ["place/leeds", "organization/leeds"]


def test_a_sides_record_after_a_name_is_a_team_cue() -> None:
    won = "Dunmore has won 16 of its last 22 games to close the gap."
    which = "He walked none for Dunmore , which won for only the fourth time in 15 games ."
    streak = "Dunmore have lost six straight at home."
    assert [role_cue(t, t.index("Dunmore"), t.index("Dunmore") + 7)
            for t in (won, which, streak)] == ["SportsTeam"] * 3
    for other in ("Dunmore has lost 3,000 jobs since May.", "Dunmore won the vote in 1997.",
                  "Dunmore has won two of the three awards."):
        assert role_cue(other, 0, 7) is None, other
    with switched_off(["resolve.class.record-cue"]):
        assert role_cue(won, 0, 7) is None


ROUNDUP = ("In Dunmore , Al Bee had four hits and a homer . "
           "Dunmore has won 16 of its last 22 games . Ed Cole hit his 22nd homer for Dunmore .")
PROFILE = ("Bee , who played eight seasons in Dunmore , was named manager . "
           "Dunmore has won seven of nine games .")


def test_a_city_mention_with_its_own_club_cue_goes_to_the_club() -> None:
    extractions = [_extraction("roundup", ROUNDUP, "Dunmore"),
                   _extraction("profile", PROFILE, "Dunmore"),
                   _extraction("news", CITY_TEXT, "Dunmore")]
    city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
    resolution = _resolution(extractions, (city,))
    split = split_clubs(resolution, extractions)
    owners = {(doc, ROUNDUP[b:] if doc == "roundup" else PROFILE[b:] if doc == "profile"
               else "", key) for (doc, b, _e), key in split.assignments.items()}
    moved = {(doc, text[:12]) for doc, text, key in owners if key == "organization/dunmore"}
    # the roundup: its one cue outweighs no place cue, its uncued "homer for" goes along;
    # "In Dunmore ," opening a sentence is where it was played. The profile ties ("in
    # Dunmore" against the record): only the cued mention moves.
    assert moved == {("roundup", "Dunmore has "), ("roundup", "Dunmore ."),
                     ("profile", "Dunmore has ")}
    with switched_off(["resolve.entities.club-cued-mention"]):
        kept = split_clubs(resolution, extractions)
    assert {doc for (doc, _b, _e), key in kept.assignments.items()
            if key == "organization/dunmore"} == {"roundup"}


def test_a_cued_mention_moves_nothing_where_the_place_would_keep_no_article() -> None:
    text = "Dunmore has won seven of nine games ."
    only_club = [_extraction("a", text, "Dunmore"), _extraction("b", text, "Dunmore")]
    city = Entity("place/dunmore", EntityKind.PLACE, "Dunmore", geo=CITY)
    resolution = _resolution(only_club, (city,))
    assert split_clubs(resolution, only_club) is resolution
