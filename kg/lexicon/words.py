"""Word lists for English news, shared by the extractors and the resolver (general, never per
article). The words live in ``kg/lexicon/data/``; this module names them.

>>> "minister" in TITLE_NOUNS
True
"""

from __future__ import annotations

from kg.lexicon import table, word_list, word_sequence

#: Nouns that name a post or rank; compared lower-cased with any trailing "." removed.
TITLE_NOUNS = word_list("titles") | word_list("occupations-more")
#: Nouns relating a person to someone ("a neighbour of the victim"): posts in appositions.
RELATIONAL_NOUNS = word_list("relational-nouns")
#: Party words before a name ("Tory Dominic Grieve"): the party the person belongs to.
PARTY_WORDS = word_list("party-words")
#: Titles of nobility ("Baroness"): a rank, never a post.
NOBILITY = word_list("nobility")
#: Words that qualify a post ("Deputy Prime Minister", "Foreign Secretary", "chief executive").
TITLE_MODIFIERS = word_list("title-modifiers")
#: Portfolio words the small model tags as ORG in "Defence Minister X"; part of the title.
PORTFOLIO_WORDS = word_list("portfolio-words")
#: A name whose last word is one of these denotes an organisation.
ORG_HEAD_WORDS = word_list("organisation-heads")
#: Last words of institutions' and facilities' names that no person's name ends with.
INSTITUTION_HEAD_WORDS = word_list("institution-heads")
#: An organisation whose name ends in one of these is a company (the FtM export's Company).
COMPANY_HEAD_WORDS = word_list("company-words")
#: An organisation whose name ends in one of these is a public body (FtM's PublicBody).
PUBLIC_BODY_HEAD_WORDS = word_list("public-body-words")

_PLACES = table("places")
#: Settlements ("city", "town"): "the city" refers back to the article's current city.
CITY_NOUNS = frozenset(_PLACES["settlements"])
#: Every noun that names a kind of place ("city", "region", "peninsula"): the one list.
PLACE_NOUNS = CITY_NOUNS | frozenset(_PLACES["areas"])
#: Nouns for facilities that sit in a town ("the X plant in Y").
FACILITY_NOUNS = word_list("facility-nouns")
#: Places GeoNames' offline tables do not hold: the UK's nations, regions, plural ranges and
#: island groups ("England", "the Balkans"); compared lower-case.
REGION_NAMES = word_list("region-names")
#: Compass words: "West Bank" is a part of a land, whatever "Bank" names elsewhere.
COMPASS_WORDS = word_list("compass-words")
#: A name whose last word is one of these denotes a place: place nouns, natural and built
#: features, facilities.
PLACE_HEAD_WORDS = PLACE_NOUNS | FACILITY_NOUNS | word_list("geographic-features")
#: Last words of organisations' and places' names ("… Bank", "… Street"), never a person's.
NAME_HEAD_WORDS = ORG_HEAD_WORDS | COMPANY_HEAD_WORDS | PLACE_HEAD_WORDS
_GIVEN = table("given-names")
#: Common given names, men's and women's (``given-names.toml``).
GIVEN_NAMES = frozenset(_GIVEN["male"]) | frozenset(_GIVEN["female"])

#: Words skipped when spelling an acronym ("International Committee of the Red Cross").
ACRONYM_SKIP = word_list("acronym-skip")
#: Determiners dropped from the front of a name.
LEADING_DETERMINERS = word_list("determiners")
#: Words that stand only before a person's name ("Mr", "Dr", "Sir").
HONORIFICS = word_list("honorifics")
#: Tails naming what kind of works a proper name is ("Azovstal steel plant"), longest first.
FACILITY_TAILS = tuple(tuple(tail.split()) for tail in word_sequence("facility-tails"))

_NUMBERS = table("numbers")
#: Words that approximate or bound a number, mapped to a qualifier.
NUMBER_QUALIFIERS: dict[str, str] = _NUMBERS["qualifiers"]
#: Number words, scale words and fractions with their values.
NUMBER_UNITS: dict[str, int] = _NUMBERS["units"]
NUMBER_SCALES: dict[str, float] = {k: float(v) for k, v in _NUMBERS["scales"].items()}
FRACTIONS: dict[str, float] = _NUMBERS["fractions"]
#: "more"/"fewer" … before "than": the bound they give.
COMPARATIVES: dict[str, str] = _NUMBERS["comparatives"]
#: Currency symbols → ISO 4217 codes, longest first ("A$" before "$").
CURRENCY_SYMBOLS: dict[str, str] = _NUMBERS["currencies"]
#: Currency nouns ("naira") → ISO 4217 codes, and the codes themselves ("EUR").
CURRENCY_WORDS: dict[str, str] = _NUMBERS["currency_words"]
CURRENCY_CODES = frozenset(_NUMBERS["currency_codes"])
#: "percentage point(s)": a change in points.
PERCENTAGE_POINTS = frozenset(_NUMBERS["percentage_points"])
#: Words between two numbers that make them a range.
RANGE_WORDS = frozenset(_NUMBERS["range_words"])
#: Words that scale a previous figure ("half that number", "twice that number").
RELATIVE_FACTORS: dict[str, float] = {**FRACTIONS, **_NUMBERS["multipliers"]}

_SPELLINGS = table("spellings")
#: American → British spellings folded in compared names and in role labels.
SPELLINGS: dict[str, str] = _SPELLINGS["general"]
#: The same, plus those folded in role labels only ("labor" → "labour").
ROLE_SPELLINGS: dict[str, str] = {**SPELLINGS, **_SPELLINGS["roles"]}

_PUNCTUATION = table("punctuation")
DASHES = frozenset(_PUNCTUATION["dashes"])
POSSESSIVES = frozenset(_PUNCTUATION["possessives"])
QUOTE_PAIRS: dict[str, str] = _PUNCTUATION["quotes"]
TRIM_MARKS = frozenset(_PUNCTUATION["trim"])
#: Marks a name never runs across ("J Lewsey (Wasps)": a team sheet, not one name).
NAME_BREAKS = frozenset(_PUNCTUATION["name_breaks"])

_GRAMMAR = table("grammar-words")
#: Prepositions whose phrase belongs to the noun phrase before it ("the head of X").
PHRASE_PREPOSITIONS = frozenset(_GRAMMAR["phrase_prepositions"])
#: Determiners and quantifiers a noun phrase is written without ("some Ukrainian officials").
PHRASE_DETERMINERS = LEADING_DETERMINERS | frozenset(_GRAMMAR["phrase_determiners"])

_TIME = table("time-words")
DURATION_COUNTS: tuple[str, ...] = tuple(_TIME["duration_counts"])
TIME_UNITS: tuple[str, ...] = tuple(_TIME["time_units"])
RELATIVE_TIME_WORDS: tuple[str, ...] = tuple(_TIME["relative"])

_PERSON_TITLES = table("person-titles")
#: Titles only a woman carries, only a man carries, and titles of rank ("Baroness", "Lord").
FEMALE_TITLES = frozenset(_PERSON_TITLES["female"])
MALE_TITLES = frozenset(_PERSON_TITLES["male"])
RANK_TITLES = frozenset(_PERSON_TITLES["rank"])
#: Titles written before a given name alone: "Sir John" is Sir John Bourn, never a Mr John.
GIVEN_NAME_TITLES = frozenset(_PERSON_TITLES["given_name"])

#: "Jr", "Sr", "III" after a surname.
NAME_SUFFIXES = word_list("name-suffixes")

#: Month and day names ("in March" is a time, not the town).
CALENDAR_WORDS = word_list("calendar-words")

#: Months abbreviated ("Aug", "Sept"): a date only where one is expected ("NAIROBI, Aug 29 -"),
#: never on their own, as "Jan" is also a given name.
MONTH_ABBREVIATIONS = word_list("month-abbreviations")

#: Words before a name that put it in space ("in Mariupol", "near Kyiv").
PLACE_PREPOSITIONS = word_list("place-prepositions")

#: "Scottish", "Welsh", "Kurdish": nations that are not states ("the Scottish FA" is not "the FA").
NATION_DEMONYMS = word_list("nation-demonyms")
