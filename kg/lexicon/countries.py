"""Countries as English news names them: short names, acronyms and demonyms → ISO 3166 code.

GeoNames (``kg.resolve.geo``) holds each country's official short name ("United Kingdom",
"Russia"); news also writes "Britain", "the U.S.", "Russian" and "Russia's". This table
maps those general English forms to the ISO code, which both the extractor (a demonym is
not a place) and the resolver (a "Russian" ministry is Russia's) need. It is a plain word
list: no imports, nothing loaded.

>>> country_code("Russian"), country_code("the U.S."), country_code("Mariupol")
('RU', 'US', None)
"""

from __future__ import annotations

import re
from functools import lru_cache

#: ISO code → other names and acronyms of the country (GeoNames' own name is added by
#: kg.resolve.geo).
_ALIASES = """
US: United States, United States of America, USA, US, America
GB: United Kingdom, UK, Britain, Great Britain
RU: Russia, Russian Federation
NL: Netherlands, The Netherlands, Holland
CZ: Czechia, Czech Republic
MM: Myanmar, Burma
CI: Ivory Coast, Cote d'Ivoire, Côte d'Ivoire
CD: Democratic Republic of the Congo, DR Congo, DRC
CG: Republic of the Congo, Congo-Brazzaville
KP: North Korea
KR: South Korea
AE: United Arab Emirates, UAE
MK: North Macedonia, Macedonia
SZ: Eswatini, Swaziland
TL: East Timor, Timor-Leste
CV: Cape Verde, Cabo Verde
VA: Vatican, Vatican City, Holy See
PS: Palestine, Palestinian Territories
TR: Turkey, Turkiye, Türkiye
"""

#: ISO code → demonyms and nationality adjectives.
_DEMONYMS = """
AF: Afghan; AL: Albanian; DZ: Algerian; AO: Angolan; AR: Argentine, Argentinian;
AM: Armenian; AU: Australian; AT: Austrian; AZ: Azerbaijani, Azeri; BH: Bahraini;
BD: Bangladeshi; BY: Belarusian, Belarussian; BE: Belgian; BJ: Beninese; BT: Bhutanese;
BO: Bolivian; BA: Bosnian; BW: Botswanan; BR: Brazilian; BN: Bruneian; BG: Bulgarian;
BF: Burkinabe; BI: Burundian; KH: Cambodian; CM: Cameroonian; CA: Canadian; TD: Chadian;
CL: Chilean; CN: Chinese; CO: Colombian; CD: Congolese; CR: Costa Rican; HR: Croatian;
CU: Cuban; CY: Cypriot; CZ: Czech; DK: Danish; DJ: Djiboutian; DO: Dominican;
EC: Ecuadorian, Ecuadorean; EG: Egyptian; SV: Salvadoran; ER: Eritrean; EE: Estonian;
ET: Ethiopian; FJ: Fijian; FI: Finnish; FR: French; GA: Gabonese; GM: Gambian;
GE: Georgian; DE: German; GH: Ghanaian; GR: Greek; GT: Guatemalan; GN: Guinean;
GY: Guyanese; HT: Haitian; HN: Honduran; HU: Hungarian; IS: Icelandic; IN: Indian;
ID: Indonesian; IR: Iranian; IQ: Iraqi; IE: Irish; IL: Israeli; IT: Italian;
CI: Ivorian; JM: Jamaican; JP: Japanese; JO: Jordanian; KZ: Kazakh, Kazakhstani;
KE: Kenyan; XK: Kosovan, Kosovar; KW: Kuwaiti; KG: Kyrgyz; LA: Laotian; LV: Latvian;
LB: Lebanese; LR: Liberian; LY: Libyan; LT: Lithuanian; LU: Luxembourgish;
MG: Malagasy; MW: Malawian; MY: Malaysian; MV: Maldivian; ML: Malian; MT: Maltese;
MR: Mauritanian; MU: Mauritian; MX: Mexican; MD: Moldovan; MN: Mongolian;
ME: Montenegrin; MA: Moroccan; MZ: Mozambican; MM: Burmese; NA: Namibian; NP: Nepalese,
Nepali; NL: Dutch; NZ: New Zealander; NI: Nicaraguan; NE: Nigerien; NG: Nigerian;
KP: North Korean; MK: Macedonian; NO: Norwegian; OM: Omani; PK: Pakistani;
PS: Palestinian; PA: Panamanian; PG: Papua New Guinean; PY: Paraguayan; PE: Peruvian;
PH: Filipino, Philippine; PL: Polish; PT: Portuguese; QA: Qatari; RO: Romanian;
RU: Russian; RW: Rwandan; SA: Saudi, Saudi Arabian; SN: Senegalese; RS: Serbian;
SL: Sierra Leonean; SG: Singaporean; SK: Slovak, Slovakian; SI: Slovenian, Slovene;
SO: Somali; ZA: South African; KR: South Korean; SS: South Sudanese; ES: Spanish;
LK: Sri Lankan; SD: Sudanese; SR: Surinamese; SE: Swedish; CH: Swiss; SY: Syrian;
TW: Taiwanese; TJ: Tajik; TZ: Tanzanian; TH: Thai; TG: Togolese; TN: Tunisian;
TR: Turkish; TM: Turkmen; UG: Ugandan; UA: Ukrainian; AE: Emirati; GB: British;
US: American; UY: Uruguayan; UZ: Uzbek; VE: Venezuelan; VN: Vietnamese; YE: Yemeni;
ZM: Zambian; ZW: Zimbabwean
"""


@lru_cache(maxsize=1 << 16)
def name_key(text: str) -> str:
    """How country names and demonyms are compared: case-folded, dots, a leading "the" and a
    possessive dropped.

    >>> name_key("the U.S.'s")
    'us'
    """
    folded = " ".join(text.replace("’", "'").replace(".", "").casefold().split())
    folded = re.sub(r"^the\s+", "", folded)
    return re.sub(r"'s?$", "", folded)


def _entries(text: str, separator: str) -> list[tuple[str, str]]:
    """(name as written, ISO code) pairs of one of the tables above."""
    pairs = []
    for entry in text.replace("\n", " ").split(separator):
        if entry.strip():
            code, names = entry.split(":", 1)
            pairs += [(name.strip(), code.strip()) for name in names.split(",")]
    return pairs


def _table(text: str, separator: str) -> dict[str, str]:
    return {name_key(name): code for name, code in _entries(text, separator)}


def written_forms() -> list[str]:
    """Every alias and demonym as written ("U.S.", "Britain", "Russian").

    >>> "Russian" in written_forms()
    True
    """
    pairs = _entries(_ALIASES.replace("\n", ";"), ";") + _entries(_DEMONYMS, ";")
    return [name for name, _code in pairs]


@lru_cache(maxsize=1)
def demonyms() -> dict[str, str]:
    """Demonym (compared form) → ISO code.

    >>> demonyms()["ukrainian"]
    'UA'
    """
    return _table(_DEMONYMS, ";")


@lru_cache(maxsize=1)
def country_aliases() -> dict[str, str]:
    """Country name or acronym (compared form) → ISO code, beyond GeoNames' own names."""
    return _table(_ALIASES.replace("\n", ";"), ";")


def demonym_code(word: str) -> str | None:
    """The ISO code a demonym denotes ("Russian" → "RU"), else ``None``.

    >>> demonym_code("Swiss"), demonym_code("Swiss-based")
    ('CH', None)
    """
    return demonyms().get(name_key(word))


def country_code(text: str) -> str | None:
    """The ISO code of a country named, abbreviated or qualified by ``text``, else ``None``.

    Only this module's table is consulted; ``kg.resolve.geo.country_by_name`` adds GeoNames' names.

    >>> country_code("Britain"), country_code("Russia's")
    ('GB', 'RU')
    """
    key = name_key(text)
    return country_aliases().get(key) or demonyms().get(key)
