"""Missed names recovered from the article's own text (kg/extract/recovery.py, issue 12.3)."""

from __future__ import annotations

from typing import Any

import pytest

from kg.extract.recovery import is_known_place, recovered_mentions, with_headline_names
from kg.model import EntityKind, Mention, Sentence


def mention(text: str, name: str, kind: EntityKind = EntityKind.PERSON,
            label: str = "PERSON") -> Mention:
    begin = text.index(name)
    return Mention(begin, begin + len(name), name, name, kind, label, 0)


def sentences(text: str) -> list[Sentence]:
    found, begin = [], 0
    for part in text.split(". "):
        found.append(Sentence(len(found), begin, begin + len(part) + 1))
        begin += len(part) + 2
    return found


def recover(text: str, *found: Mention) -> list[tuple[str, str, int, tuple[str, ...]]]:
    return [(m.name, m.kind.value, m.sentence, m.titles)
            for m in recovered_mentions(text, sentences(text), list(found))]


def test_a_surname_found_once_is_found_everywhere() -> None:
    text = "Wladimir Klitschko won. Later Klitschko said it was hard. Fans cheered Klitschko."
    assert recover(text, mention(text, "Wladimir Klitschko")) == [
        ("Klitschko", "Person", 1, ()), ("Klitschko", "Person", 2, ())]


def test_a_name_after_a_word_opening_a_quotation_is_recovered() -> None:
    text = "Red Sox fans waited. He wrote, “ The Red Sox are keen . ”"
    found = mention(text, "Red Sox", EntityKind.ORGANIZATION, "ORG")
    assert recover(text, found) == [("Red Sox", "Organization", 1, ())]


def test_a_title_before_a_recovered_name_stays_with_it() -> None:
    text = "Michael Howard spoke. Then Mrs Howard said no."
    assert recover(text, mention(text, "Michael Howard")) == [("Howard", "Person", 1, ("Mrs",))]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        pytest.param("Harrison Ford smiled. Ford Motor fell.", "Harrison Ford",
                     id="part-of-a-longer-name"),
        pytest.param("Neil Young sang. Young people cheered the young singer.", "Neil Young",
                     id="a-word-also-written-in-lower-case"),
        pytest.param("Tony Blair spoke. The Tony Blair Foundation met.", "Tony Blair",
                     id="inside-a-longer-name"),
    ],
)
def test_no_recovery_where_the_text_is_not_clear(text: str, name: str) -> None:
    assert recover(text, mention(text, name)) == []


def test_places_in_a_list_and_after_a_place_word_are_recovered() -> None:
    text = "Shelling hit the cities of Sumy and Chernihiv. Aid arrived in Kharkiv in March."
    assert [(n, k) for n, k, _s, _t in recover(text)] == [
        ("Sumy", "Place"), ("Chernihiv", "Place"), ("Kharkiv", "Place")]


def test_nothing_found_twice() -> None:
    text = "Aid arrived in Kharkiv. Kharkiv was shelled. People left Kharkiv."
    first = mention(text, "Kharkiv", EntityKind.PLACE, "GPE")
    second = Mention(24, 31, "Kharkiv", "Kharkiv", EntityKind.PLACE, "GPE", 1)
    assert recover(text, first, second) == [("Kharkiv", "Place", 2, ())]


def test_a_one_word_place_found_once_is_not_repeated() -> None:
    text = "An Olympic champion ran. The Olympic record fell. Olympic officials met."
    olympic = mention(text, "Olympic", EntityKind.PLACE, "GPE")
    assert recover(text, olympic) == []


@pytest.mark.parametrize(("name", "known"), [("Chernihiv", True), ("France", True),
                                             ("March", False), ("Tuesday", False)])
def test_known_places(name: str, known: bool) -> None:
    assert is_known_place(name) is known


def test_the_pipeline_finds_a_surname_the_tagger_missed(nlp: Any) -> None:
    from kg.extract import extract_documents
    from kg.ingest.files import document_from_text

    text = ("Boxer Wladimir Klitschko defended his title on Saturday.\n\n"
            "Klitschko's trainer said the win was Klitschko's best.")
    extraction = next(iter(extract_documents(nlp, [document_from_text(text, doc_id="k")])))
    names = [m.name for m in extraction.mentions]
    assert names.count("Klitschko") == 2, names


def test_headline_names_are_those_the_article_gives() -> None:
    from kg.extract.recovery import with_headline_names

    text = ("http : / / www . example . com / obama - bush\nObama Overturns Bush Species Rules\n"
            "Barack Obama reversed a rule of George Bush on Tuesday.")
    url_line, headline = len(text.split("\n")[0]) + 1, text.index("Obama Overturns")
    body = text.index("Barack")
    found = [
        Mention(40, 45, "obama", "obama", EntityKind.PERSON, "PERSON", 0),  # in the URL line
        Mention(headline, headline + 20, "Obama Overturns Bush", "Obama Overturns Bush",
                EntityKind.ORGANIZATION, "ORG", 1),
        Mention(body, body + 12, "Barack Obama", "Barack Obama", EntityKind.PERSON, "PERSON", 2),
        Mention(text.index("George"), text.index("George") + 12, "George Bush", "George Bush",
                EntityKind.PERSON, "PERSON", 2),
    ]
    sentences = [Sentence(0, 0, url_line - 1), Sentence(1, url_line, body - 1),
                 Sentence(2, body, len(text))]
    kept = with_headline_names(text, sentences, found)
    assert [(m.name, m.kind, m.sentence) for m in kept] == [
        ("Obama", EntityKind.PERSON, 1), ("Bush", EntityKind.PERSON, 1),
        ("Barack Obama", EntityKind.PERSON, 2), ("George Bush", EntityKind.PERSON, 2)]
    # an article that is all headline keeps what the tagger found
    alone = [Mention(0, 20, "Obama Overturns Bush", "Obama Overturns Bush",
                     EntityKind.ORGANIZATION, "ORG", 0)]
    assert with_headline_names("Obama Overturns Bush Rules", [], alone) == alone


@pytest.mark.parametrize(
    ("top", "row_kept"),
    [
        pytest.param("Lions Beat Sharks In Final\n", False, id="above-the-body-a-headline"),
        pytest.param("April 28 , 2009\nLions Beat Sharks In Final\n", False,
                     id="below-a-date-line-still-a-headline"),
        pytest.param("Lions beat the Sharks by four points in the final on Saturday .\n", True,
                     id="below-the-body-a-row"),
    ],
)
def test_a_title_case_line_is_a_headline_only_above_the_body(top: str, row_kept: bool) -> None:
    """A Title Case line in the body ("Conversion : Henry Honiball .") is a row of the
    article, whose names the tagger found as they are; only a headline's must be names the
    rest of the article gives."""
    text = top + "Conversion : Henry Honiball .\nMark Smith scored twice ."
    found = [mention(text, "Henry Honiball"), mention(text, "Mark Smith")]
    kept = [m.name for m in with_headline_names(text, sentences(text), found)]
    assert ("Henry Honiball" in kept) is row_kept, kept


def test_a_line_in_capitals_is_a_headline_anywhere() -> None:
    text = ("Prices rose on Monday as traders bought the shares of Barclays again .\n"
            "STOCKS SINK AS BOND RATES JUMP\nShares fell on Tuesday .")
    found = [mention(text, "Barclays", EntityKind.ORGANIZATION, "ORG"),
             mention(text, "STOCKS SINK", EntityKind.ORGANIZATION, "ORG")]
    assert [m.name for m in with_headline_names(text, sentences(text), found)] == ["Barclays"]


@pytest.mark.parametrize(
    ("line", "people"),
    [
        pytest.param("Replacements: Gotting, McKenzie, Lock, Hart, Biljon, Brooks.",
                     ["Gotting", "McKenzie", "Lock", "Hart", "Biljon", "Brooks"],
                     id="a-team-sheet-of-people"),
        pytest.param("Wood, Curnier (Powell 60); Eustace, Brown and Buxton.",
                     ["Wood", "Curnier", "Powell", "Eustace", "Brown", "Buxton"],
                     id="brackets-figures-semicolons-and"),
        pytest.param("Gotting, McKenzie, Biljon, Brooks.", ["Gotting", "McKenzie"],
                     id="half-of-them-people-no-list-of-people"),
        pytest.param("Replacements: Gotting, McKenzie, Lock, Hart, Biljon, Brooks, Hoadley.",
                     ["Gotting", "McKenzie", "Hart", "Biljon", "Brooks", "Hoadley"],
                     id="a-name-the-tagger-did-not-find-breaks-no-list"),
        pytest.param("Gotting met McKenzie, Lock, Biljon and Brooks.",
                     ["Gotting", "McKenzie", "Lock"], id="a-verb-ends-the-list"),
    ],
)
def test_a_list_of_people_makes_its_other_one_word_names_people(line: str,
                                                                people: list[str]) -> None:
    from kg.extract.recovery import with_agreeing_lists

    others = {"Biljon": EntityKind.PLACE, "Brooks": EntityKind.ORGANIZATION,
              "Buxton": EntityKind.PLACE}
    words = [w.strip(",.;()") for w in line.split(":")[-1].split()]
    missed = "Lock" if "Hoadley" in line else ""  # a name the tagger did not find
    found = [mention(line, w, others.get(w, EntityKind.PERSON), "X") for w in words
             if w[:1].isupper() and w != missed]
    agreed = with_agreeing_lists(line, found)
    assert [m.name for m in agreed if m.kind is EntityKind.PERSON] == people


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        pytest.param("The Obama administration said in Washington it would act.", True,
                     id="the-body-writes-it-with-its-head-in-lower-case"),
        pytest.param("Barack Obama said on Tuesday he would act.", True,
                     id="the-body-names-the-rest-of-it"),
        pytest.param("Officials in Texas said the rules were weak.", False,
                     id="the-body-says-nothing-of-it"),
    ],
)
def test_a_headline_institution_the_body_confirms_stays(body: str, kept: bool) -> None:
    from kg.extract.recovery import with_headline_names

    text = f"Obama Administration Restores Species Protections\n{body}"
    found = [Mention(0, 20, "Obama Administration", "Obama Administration",
                     EntityKind.ORGANIZATION, "ORG", 0)]
    for name, kind in (("Barack Obama", EntityKind.PERSON), ("Texas", EntityKind.PLACE),
                       ("Washington", EntityKind.PLACE)):
        if name in body:
            found.append(Mention(text.index(name), text.index(name) + len(name), name, name,
                                 kind, "PERSON" if kind is EntityKind.PERSON else "GPE", 1))
    sentences = [Sentence(0, 0, 50), Sentence(1, 51, len(text))]
    names = [m.name for m in with_headline_names(text, sentences, found)]
    assert ("Obama Administration" in names) is kept


def test_a_headline_in_capitals_gives_the_body_names_in_capitals() -> None:
    from kg.extract.recovery import with_headline_names

    text = "REPORT : RED SOX MAKE HUGE OFFER TO TEIXEIRA\nThe Red Sox bid for Mark Teixeira ."
    body, mark = text.index("Red Sox"), text.index("Mark")
    found = [Mention(9, 16, "RED SOX", "RED SOX", EntityKind.ORGANIZATION, "ORG", 0),
             Mention(body, body + 7, "Red Sox", "Red Sox", EntityKind.ORGANIZATION, "ORG", 1),
             Mention(mark, mark + 13, "Mark Teixeira", "Mark Teixeira", EntityKind.PERSON,
                     "PERSON", 1)]
    sentences = [Sentence(0, 0, 44), Sentence(1, 45, len(text))]
    kept = with_headline_names(text, sentences, sorted(found, key=lambda m: m.begin))
    assert [(m.text, m.name, m.sentence) for m in kept if m.sentence == 0] == [
        ("RED SOX", "Red Sox", 0), ("TEIXEIRA", "Teixeira", 0)]


@pytest.mark.parametrize(
    ("headline", "place_kept"),
    [
        pytest.param("GOLF - LEADING SCORES AT GREATER MILWAUKEE OPEN .", False,
                     id="an-open-in-capitals"),
        pytest.param("Leading Scores at the Milwaukee Grand Prix", False, id="a-grand-prix"),
        pytest.param("Henke Takes Lead in Milwaukee , Woods Makes Debut", True,
                     id="the-place-itself"),
        pytest.param("Milwaukee Opens New Stadium", True, id="a-verb-after-it"),
    ],
)
def test_a_competition_named_by_a_place_is_no_mention_of_the_place(
        headline: str, place_kept: bool) -> None:
    """The body's place is no headline mention where a competition's word follows it: the
    Greater Milwaukee Open is a tournament, not Milwaukee (CoNLL-2003 has no place there)."""
    cut = len(headline) + 1
    text = f"{headline}\nThe leaders in Milwaukee were level on Thursday ."
    at = text.index("Milwaukee", cut)
    found = [Mention(at, at + 9, "Milwaukee", "Milwaukee", EntityKind.PLACE, "GPE", 1)]
    kept = with_headline_names(text, [Sentence(0, 0, cut - 1), Sentence(1, cut, len(text))],
                               found)
    assert any(m.begin < cut for m in kept) is place_kept
    # nor does the article's own recovery repeat it inside a competition's name
    repeated = [m.begin for m in recovered_mentions(text, sentences(text), found)]
    assert (repeated == []) if not place_kept else (repeated in ([], [text.index("Milwaukee")]))


def _article(doc: str, text: str, *found: str) -> Any:
    from kg.model import ArticleMeta, Document, Extraction

    return Extraction(Document(doc, f"{doc}.txt", text, ArticleMeta(), ""), tuple(sentences(text)),
                      tuple(mention(text, name) for name in found))


@pytest.mark.parametrize(
    ("first", "found", "second", "expected"),
    [
        pytest.param("Wladimir Klitschko won the fight.", "Wladimir Klitschko",
                     "In 2008, Klitschko stopped him.", ["Klitschko"],
                     id="a-surname-another-article-found"),
        pytest.param("Lindsay Lohan left rehab.", "Lindsay Lohan",
                     "http : / / x . com / lindsay - lohan\nLindsay Lohan Checks Into Rehab\nShe "
                     "left.", ["Lindsay Lohan"], id="a-headline-name-not-its-url-spelling"),
        pytest.param("Mark Teixeira signed.", "Mark Teixeira",
                     "REPORT : SOX MAKE OFFER TO MARK TEIXEIRA\nThe talks went on.",
                     ["Mark Teixeira"], id="a-name-in-a-line-set-in-capitals"),
        pytest.param("Neil Young sang.", "Neil Young", "Crowds cheered. Young people danced at "
                     "the young festival. Later Young waved.", [],
                     id="a-word-the-corpus-writes-in-lower-case"),
        pytest.param("Sgt Smith spoke.", "Sgt", "It was late. Sgt Jones left.", [],
                     id="a-one-word-person-is-no-surname"),
        pytest.param("The critic Philip French spoke.", "Philip French",
                     "It was late. French operators left.", [],
                     id="a-surname-that-is-a-nationality"),
    ],
)
def test_names_other_articles_found_are_recovered(first: str, found: str, second: str,
                                                  expected: list[str]) -> None:
    from kg.resolve.corpus_names import with_corpus_names

    twice = [_article("a", first, found), _article("a2", first, found)]  # found in two articles
    corpus = with_corpus_names([*twice, _article("b", second)])
    assert [m.name for m in corpus[2].mentions] == expected
    assert corpus[0].mentions == _article("a", first, found).mentions


def _org_article(doc: str, text: str, *found: str) -> Any:
    from kg.model import ArticleMeta, Document, Extraction

    mentions, at = [], 0
    for name in found:
        begin = text.index(name, at)
        at = begin + len(name)
        mentions.append(Mention(begin, at, name, name, EntityKind.ORGANIZATION, "ORG", 0))
    return Extraction(Document(doc, f"{doc}.txt", text, ArticleMeta(), ""),
                      tuple(sentences(text)), tuple(mentions))


@pytest.mark.parametrize(
    ("found", "second", "expected"),
    [
        pytest.param([("a", "The Sox won. The Sox left.", "Sox", "Sox"),
                      ("a2", "Fans of the Sox cheered.", "Sox")],
                     "It was late and the Sox lost.", ["Sox"],
                     id="a-one-word-team-found-three-times-in-two-articles"),
        pytest.param([("a", "The Sox won. The Sox left. The Sox lost.", "Sox", "Sox", "Sox")],
                     "It was late and the Sox lost.", [],
                     id="a-one-word-name-found-in-one-article-only"),
        pytest.param([("a", "The Red Sox won in red shirts.", "Red Sox")],
                     "It was late and the Red Sox lost.", ["Red Sox"],
                     id="a-name-that-opens-with-a-word"),
        pytest.param([("a", "Biologists Overturn Bush Rules\nThey said the rules were bad.",
                       "Overturn Bush Rules")],
                     "It was late and Overturn Bush Rules was read.", [],
                     id="a-name-that-ends-with-a-word"),
    ],
)
def test_corpus_names_of_organisations(found: list[tuple[str, ...]], second: str,
                                       expected: list[str]) -> None:
    from kg.resolve.corpus_names import with_corpus_names

    corpus = with_corpus_names([*(_org_article(*a) for a in found),
                                _org_article("b", second)])
    assert [m.name for m in corpus[-1].mentions] == expected


@pytest.mark.parametrize(
    ("text", "glued", "expected"),
    [
        pytest.param("Red Sox bid for Teixeira\nBoston looks on.\nIt rained.\nHe left.",
                     "Teixeira\nBoston",
                     ["Teixeira"], id="a-name-glued-across-a-headline-break"),
        pytest.param("The talks with Vladimir\nPutin ended and\nthen he left.", "Vladimir\nPutin",
                     ["Vladimir\nPutin"], id="a-wrapped-article-keeps-its-names"),
        pytest.param("Officials at the International Monetary\nFund in Washington disagreed.",
                     "International Monetary\nFund", ["International Monetary\nFund"],
                     id="a-line-that-is-no-sentence-keeps-its-names"),
        pytest.param("Results of league\nmatches on Saturday :\nShrewsbury 0 Brentford 3\n"
                     "Postponed : Walsall v Wrexham", "Brentford 3\nPostponed",
                     ["Brentford 3"], id="a-table-row-ends-its-line-in-a-wrapped-article"),
        pytest.param("Results of league\nmatches on Saturday :\nPlaying Sunday : Leeds v Bolton\n"
                     "Division two\nHull 2 York 1", "Bolton\nDivision",
                     ["Bolton"], id="a-short-heading-opens-its-own-line"),
    ],
)
def test_names_are_cut_at_line_breaks(text: str, glued: str, expected: list[str]) -> None:
    from kg.extract.recovery import cut_at_line_breaks

    found = cut_at_line_breaks(text, [mention(text, glued, EntityKind.PLACE, "GPE")])
    assert [text[m.begin : m.end] for m in found] == expected


def test_a_name_after_a_line_break_stays_when_the_article_names_it_elsewhere() -> None:
    from kg.extract.recovery import cut_at_line_breaks

    text = "Red Sox bid for Teixeira\nBoston looks on.\nIt rained in Boston.\nHe left."
    glued = mention(text, "Teixeira\nBoston", EntityKind.PERSON, "PERSON")
    later = text.rindex("Boston")
    boston = Mention(later, later + 6, "Boston", "Boston", EntityKind.PLACE, "GPE", 2)
    found = cut_at_line_breaks(text, [glued, boston])
    assert [(text[m.begin : m.end], m.kind) for m in found] == [
        ("Teixeira", EntityKind.PERSON), ("Boston", EntityKind.PLACE),
        ("Boston", EntityKind.PLACE)]


@pytest.mark.parametrize(
    ("text", "found", "expected"),
    [
        pytest.param("Deputy Luis Gerardo ( Jerry ) Ortiz died.", "Luis Gerardo",
                     "Luis Gerardo ( Jerry ) Ortiz", id="nickname-in-brackets"),
        pytest.param('Deputy Luis Gerardo "Jerry" Ortiz, 35, died.', "Luis Gerardo",
                     'Luis Gerardo "Jerry" Ortiz', id="nickname-in-quotes"),
        pytest.param("Luis Gerardo (LAPD) said so.", "Luis Gerardo", "Luis Gerardo",
                     id="brackets-without-a-surname-after"),
    ],
)
def test_a_nickname_carries_a_name_on_to_its_surname(text: str, found: str,
                                                     expected: str) -> None:
    from kg.extract.recovery import with_nicknames

    assert [m.name for m in with_nicknames(text, [mention(text, found)])] == [expected]


def test_a_place_in_brackets_is_no_nickname() -> None:
    from kg.extract.recovery import with_nicknames

    text = "1. Olaf Ludwig ( Germany ) Telekom 4:01"
    found = [mention(text, "Olaf Ludwig"), mention(text, "Germany", EntityKind.PLACE, "GPE")]
    assert [m.name for m in with_nicknames(text, found)] == ["Olaf Ludwig", "Germany"]


def _line_mentions(text: str, names: list[tuple[str, EntityKind]]) -> list[Mention]:
    return sorted((mention(text, name, kind, "PERSON" if kind is EntityKind.PERSON else "ORG")
                   for name, kind in names), key=lambda m: m.begin)


PERSON, ORG, PLACE = EntityKind.PERSON, EntityKind.ORGANIZATION, EntityKind.PLACE
BODY = "\nThe meeting ended on Friday .\nOfficials said it went well ."


@pytest.mark.parametrize(
    ("line", "names", "kept"),
    [
        pytest.param("2. Norberto Tellez ( Cuba ) 1:44.58",
                     [("Norberto Tellez", PERSON), ("Cuba", PLACE)],
                     ["Norberto Tellez", "Cuba"], id="a-row-of-results"),
        pytest.param("Huddersfield 1 Crystal Palace 1",
                     [("Huddersfield", ORG), ("Crystal Palace", ORG)],
                     ["Huddersfield", "Crystal Palace"], id="a-score-line"),
        pytest.param("Scorers : Romania - Cosmin Contra ( 31st ) , Mihai Tararache ( 75th )",
                     [("Romania", PLACE), ("Cosmin Contra", PERSON), ("Mihai Tararache", PERSON)],
                     ["Romania", "Cosmin Contra", "Mihai Tararache"],
                     id="a-heading-before-a-colon"),
        pytest.param("Mike Hulbert , Brian Henninger , Tiger Woods , Steve Jurgenson",
                     [("Mike Hulbert", PERSON), ("Brian Henninger", PERSON),
                      ("Tiger Woods", PERSON), ("Steve Jurgenson", PERSON)],
                     ["Mike Hulbert", "Brian Henninger", "Tiger Woods", "Steve Jurgenson"],
                     id="a-list-of-names"),
        pytest.param("Esther Williams Dies At 91", [("Esther Williams", PERSON)], [],
                     id="a-headline-with-a-figure-and-a-verb"),
        pytest.param("Philadelphia 76ers Fire Coach Jim Brennan , Hire Mo Cheeks",
                     [("Philadelphia 76ers Fire", ORG), ("Jim Brennan", PERSON),
                      ("Mo Cheeks", PERSON)], [], id="a-digit-inside-a-word-is-no-figure"),
        pytest.param("Woman Killed In Queens Hit , Driver Charged",
                     [("Woman Killed", PERSON), ("Queens Hit", ORG), ("Driver Charged", PERSON)],
                     [], id="a-headline-of-glued-words-is-no-list"),
        pytest.param("Postponed : Walsall v Wrexham , Hull v York",
                     [("Walsall", ORG), ("Wrexham", ORG), ("Hull", ORG), ("York", ORG)],
                     ["Walsall", "Wrexham", "Hull", "York"], id="fixtures"),
        pytest.param("Lyon Bids Farewell To Nantes", [("Lyon", ORG), ("Nantes", ORG)], [],
                     id="a-headline-with-two-names-is-no-fixture"),
    ],
)
def test_rows_and_lists_keep_their_names_where_headlines_do_not(
        line: str, names: list[tuple[str, EntityKind]], kept: list[str]) -> None:
    """A Title Case line is a headline, whose names count only when the body gives them, unless
    it is a row of results or a list of names: there every capitalised word is a name found."""
    from kg.extract.recovery import with_headline_names

    text = line + BODY
    body = Sentence(1, len(line) + 1, len(text))
    found = [*_line_mentions(text, names),
             mention(text, "Friday", PLACE, "GPE")]  # the body names none of the line's names
    result = with_headline_names(text, [Sentence(0, 0, len(line)), body], found)
    assert [m.name for m in result if m.end <= len(line)] == kept


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Reid told People she was a social drinker.", ["People"]),
        ("The lawyer said in a statement to Access that she was well.", ["Access"]),
        ("A neighbour told The Canadian Press he heard shots.", ["Canadian Press"]),
        ("The minister told MPs the plan would work.", []),
        ("The governor told Iranian media that tents were ready.", []),
        ("He told Mr Smith to leave.", []),
        ("She told us she was fine.", []),
    ],
)
def test_an_outlet_a_speaker_told_is_an_organisation(text: str, expected: list[str]) -> None:
    found = recovered_mentions(text, [Sentence(0, 0, len(text))], [])
    assert [m.name for m in found] == expected
    assert all(m.kind is EntityKind.ORGANIZATION and m.ner_label == "ORG" for m in found)


STANDINGS = ("Stoke 4 3 1 0 7 4 10\nBarnsley 3 3 0 0 8 2 9\nNorwich 4 3 0 1 5 3 9\n"
             "Tranmere 4 2 1 1 6 4 7\nBolton 3 2 1 0 5 2 7")


@pytest.mark.parametrize(
    ("text", "found", "expected"),
    [
        pytest.param(STANDINGS, ["Barnsley", "Norwich", "Bolton"], ["Stoke", "Tranmere"],
                     id="standings"),
        pytest.param("Sale 31 Wasps 33\nBath 56 Orrell 13\nLeicester 21 Harlequins 10",
                     ["Bath", "Orrell", "Leicester", "Harlequins"], ["Sale", "Wasps"],
                     id="results"),
        pytest.param(STANDINGS, ["Barnsley", "Norwich"], [], id="too-few-found"),
        pytest.param(STANDINGS + "\nTotal 7 5 2 3 4 5 6\nThe total is new.",
                     ["Barnsley", "Norwich", "Bolton"], ["Stoke", "Tranmere"],
                     id="a-word-the-article-writes-in-lower-case"),
        pytest.param("Stoke scored 4 3 1 times.\nBarnsley 3 3 0 0 8 2 9\n"
                     "Norwich 4 3 0 1 5 3 9\nBolton 3 2 1 0 5 2 7",
                     ["Barnsley", "Norwich", "Bolton"], [], id="prose-is-no-row"),
    ],
)
def test_the_sides_of_a_table_the_tagger_missed(text: str, found: list[str],
                                                 expected: list[str]) -> None:
    mentions = [mention(text, name, EntityKind.ORGANIZATION, "ORG") for name in found]
    recovered = recovered_mentions(text, [Sentence(0, 0, len(text))], mentions)
    assert [m.name for m in recovered] == expected
    assert all(m.kind is EntityKind.ORGANIZATION for m in recovered)


def test_the_sides_of_a_table_of_mixed_classes_are_left() -> None:
    mentions = [mention(STANDINGS, "Barnsley", EntityKind.ORGANIZATION, "ORG"),
                mention(STANDINGS, "Norwich", EntityKind.PLACE, "GPE"),
                mention(STANDINGS, "Bolton", EntityKind.PERSON, "PERSON")]
    assert recovered_mentions(STANDINGS, [Sentence(0, 0, len(STANDINGS))], mentions) == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("OTTAWA 1996-08-30\nThe government fell.", ["OTTAWA"]),
        ("TAVILDARA , Tajikistan 1996-08-30\nTroops took the town.", ["TAVILDARA", "Tajikistan"]),
        ("KYIV, May 18 (Reuters) - Nearly 1,000 left.", ["KYIV"]),
        ("WASHINGTON , Aug 29 ( Reuters ) - Nearly 1,000 left .", ["WASHINGTON"]),
        ("Talks ( Geneva ) - a summary of the day .", []),
        ("Talks (Geneva) - a summary of the day .", []),  # main read "Talks" as the place
        ("SOCCER - JAPAN BEAT SYRIA\nJapan won.", []),
        ("JAPAN - Yield for the benchmark bond fell.", ["JAPAN"]),
        ("NOTE - the figures are provisional.", []),
    ],
)
def test_the_place_of_a_dateline(text: str, expected: list[str]) -> None:
    found = recovered_mentions(text, [Sentence(0, 0, len(text))], [])
    assert [m.name for m in found] == expected
    assert all(m.kind is EntityKind.PLACE for m in found)


def test_a_byline_glued_to_the_dateline_leaves_the_place() -> None:
    text = "Deborah Charles\nRANGOON 1996-08-31\nBurma's leader spoke.\nShe left.\nIt rained."
    glued = mention(text, "Deborah Charles\nRANGOON")
    found = with_headline_names(text, sentences(text),
                                [glued, *recovered_mentions(text, sentences(text), [glued])])
    assert [(m.text, m.kind) for m in found] == [
        ("Deborah Charles", EntityKind.PERSON), ("RANGOON", EntityKind.PLACE)]


@pytest.mark.parametrize(
    ("text", "glued", "expected"),
    [
        pytest.param("Atlanta 5 PITTSBURGH 1", "Atlanta 5 PITTSBURGH 1", ["Atlanta", "PITTSBURGH"],
                     id="a-results-row"),
        pytest.param("Stenhousemuir 0 Stranraer 1", "Stranraer 1", ["Stranraer"],
                     id="a-score-after-a-side"),
        pytest.param("He drove a Formula 1 car 2 times .", "Formula 1", ["Formula 1"],
                     id="a-sentence-with-figures-is-no-row"),
        pytest.param("Channel 4 News at 7", "Channel 4 News", ["Channel 4 News"],
                     id="a-headline-with-figures-is-no-row"),
    ],
)
def test_names_are_cut_at_a_rows_figures(text: str, glued: str, expected: list[str]) -> None:
    from kg.extract.recovery import cut_at_figures

    found = cut_at_figures(text, [mention(text, glued, EntityKind.ORGANIZATION, "ORG")])
    assert [m.name for m in found] == expected


def test_names_inside_a_tables_side_grow_to_the_side() -> None:
    from kg.extract.recovery import with_agreeing_sides

    text = "\n".join(["Greenock Morton 3 2 0 1 5 2 6", "Clyde 3 2 0 1 4 2 6",
                      "Falkirk 3 1 1 1 3 3 4", "Dundee 3 0 1 2 1 4 1"])
    found = [mention(text, name, EntityKind.ORGANIZATION, "ORG")
             for name in ("Greenock", "Morton", "Clyde", "Falkirk", "Dundee")]
    assert [m.name for m in with_agreeing_sides(text, found)] == [
        "Greenock Morton", "Clyde", "Falkirk", "Dundee"]
    people = [mention(text, name) for name in ("Greenock", "Morton", "Clyde", "Falkirk")]
    assert [m.name for m in with_agreeing_sides(text, people)] == [
        "Greenock", "Morton", "Clyde", "Falkirk"]  # a table of people is left alone


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Hove : Sussex 363 ( W. Athey 111 )", ["Hove"]),
        ("At Leicester : Leicestershire beat Somerset by 39 runs .", ["Leicester"]),
        ("Scorers : Romania 2 Wales 1", []),
        ("Paris : a city of light .", []),
    ],
)
def test_a_venue_heading_a_result_is_a_place(text: str, expected: list[str]) -> None:
    assert [m[0] for m in recover(text) if m[0] in {"Hove", "Leicester", "Scorers", "Paris"}] \
        == expected


@pytest.mark.parametrize(
    ("text", "glued", "expected"),
    [
        pytest.param("BALTIMORE AT SEATTLE", "BALTIMORE AT SEATTLE",
                     [("BALTIMORE", "Organization"), ("SEATTLE", "Place")], id="a-fixture"),
        pytest.param("He met Smith at Leeds on Monday.", "Smith at Leeds",
                     [("Smith at Leeds", "Organization")], id="no-fixture-in-a-sentence"),
    ],
)
def test_a_fixture_the_tagger_ran_together_is_cut(text: str, glued: str,
                                                  expected: list[tuple[str, str]]) -> None:
    from kg.extract.recovery import cut_at_fixtures

    found = cut_at_fixtures(text, [mention(text, glued, EntityKind.ORGANIZATION, "ORG")])
    assert [(m.name, m.kind.value) for m in found] == expected


def test_a_countrys_other_name_is_a_known_place() -> None:
    assert is_known_place("Britain") and is_known_place("Holland")
    assert [m[0] for m in recover("BRITAIN - Gilts ended lower on the day .")] == ["BRITAIN"]


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        pytest.param(EntityKind.PERSON, "Mushtaq Ahmed", id="a-person-ends-in-no-count"),
        pytest.param(EntityKind.ORGANIZATION, "Mushtaq Ahmed 1", id="a-name-of-a-thing-may"),
    ],
)
def test_a_count_after_a_persons_name_is_cut(kind: EntityKind, name: str) -> None:
    from kg.extract.recovery import cut_at_figures

    text = "M. Atherton lbw b Mushtaq Ahmed 1"
    found = mention(text, "Mushtaq Ahmed 1", kind, "X")
    [cut] = cut_at_figures(text, [found])
    assert (cut.name, text[cut.begin:cut.end]) == (name, name)


@pytest.mark.parametrize(
    ("text", "name", "kept"),
    [
        pytest.param("Millions of workers will lose their jobs. The rules start in May",
                     "Millions", False, id="a-common-word-opening-a-sentence"),
        pytest.param('He added: "Plenty has been done. It is not enough"', "Plenty", False,
                     id="a-common-word-opening-a-quotation"),
        pytest.param("Next said sales fell. Its shares rose", "Next", True,
                     id="a-word-another-article-capitalises-inside-a-sentence"),
        pytest.param("Shares fell. Officials said millions of workers were affected",
                     "Officials", True, id="a-word-no-article-writes-in-lower-case"),
    ],
)
def test_a_sentence_opener_the_corpus_writes_in_lower_case_is_no_name(
        text: str, name: str, kept: bool) -> None:
    from kg.model import ArticleMeta, Document, Extraction
    from kg.resolve.corpus_names import with_corpus_names

    other = "There was plenty to do and millions of jobs went next week. Shares in Next fell"
    split = sentences(text)
    begin = text.index(name)
    [sentence] = [s.index for s in split if s.begin <= begin < s.end]
    found = Mention(begin, begin + len(name), name, name, EntityKind.ORGANIZATION, "ORG",
                    sentence)
    article = Extraction(Document("a", "a.txt", text, ArticleMeta(), ""), tuple(split),
                         (found,))
    corpus = with_corpus_names([article, _article("b", other)])
    assert [m.name for m in corpus[0].mentions] == ([name] if kept else [])


@pytest.mark.parametrize(
    ("text", "name", "kept"),
    [
        pytest.param("He starred in Finding Neverland last year", "Finding", False,
                     id="a-common-word-before-the-rest-of-a-title"),
        pytest.param("said Ann Lee of the Economist Intelligence Unit on Monday", "Unit", False,
                     id="a-common-word-ending-a-longer-name"),
        pytest.param("he told The Times on Monday", "Times", True, id="after-the-article-the"),
        pytest.param("the rebels met George Bush on Monday", "Bush", True,
                     id="a-word-capitalised-more-often-than-written"),
        pytest.param("the unit was sold on Monday to Unit for $5m", "Unit", True,
                     id="no-capitalised-word-beside-it"),
    ],
)
def test_a_common_word_cut_from_a_longer_name_is_no_name(text: str, name: str,
                                                          kept: bool) -> None:
    from kg.model import ArticleMeta, Document, Extraction
    from kg.resolve.corpus_names import with_corpus_names

    begin = text.rindex(name)
    found = Mention(begin, begin + len(name), name, name, EntityKind.ORGANIZATION, "ORG", 0)
    article = Extraction(Document("a", "a.txt", text, ArticleMeta(), ""),
                         (Sentence(0, 0, len(text)),), (found,))
    others = [_article(f"o{i}", "The finding of the unit was in the times, and bush fires. "
                                "President Bush spoke")
              for i in range(3)]
    corpus = with_corpus_names([article, *others])
    assert [m.name for m in corpus[0].mentions] == ([name] if kept else [])
