"""Team sheets (``kg.resolve.sheets``): which names are items of a line that lists players."""

from __future__ import annotations

import pytest

from kg.resolve.sheets import in_team_sheet

SHEETS = [
    pytest.param("Subs Not Used: Smith, Scott.\nIngham, Mulligan, Fenton, Morley, Priet "
                 "(Ryan 79), McIndoe. Subs Not Used: Warrington, Maloney.",
                 {"Warrington": True, "Maloney": True, "Ryan": False, "Ingham": True},
                 id="a-football-line-up-with-its-unused-substitutes"),
    pytest.param("J Robinson (capt); M Cueto, J Noon, O Barkley, J Lewsey; C Hodgson, H Ellis.",
                 {"J Robinson": True, "C Hodgson": True, "capt": False},
                 id="initials-and-semicolons"),
    pytest.param("Replacements: Everitt for Mapletoft (53), Hodgson for Edwards (77), Wheatley "
                 "for Hatley (71), Paice for van der Walt (60), Reid for Murphy (47)",
                 {"Hodgson": True, "Edwards": True, "Replacements": False},
                 id="substitutions"),
    pytest.param("Coyne (Burnley), Jones (Wolves), Roberts (Wrexham), Collins (Sunderland), "
                 "Fletcher (West Ham)", {"Fletcher": True, "Burnley": False, "West Ham": False},
                 id="a-squad-with-clubs-in-brackets"),
    pytest.param("The game went ahead after an inspection. Leeds: Balshaw; Rees, Bell, Doherty; "
                 "McMullen, Dickens.", {"Leeds": False, "Balshaw": True},
                 id="a-sides-label-before-its-colon"),
    pytest.param("The service will include Paris, Lille, Lyon, Nice and Toulouse.",
                 {"Lyon": False, "Paris": False}, id="places-listed-in-a-sentence"),
    pytest.param("Cairns, Lloyd and Broster played.", {"Cairns": False},
                 id="too-few-names-for-a-sheet"),
]


@pytest.mark.parametrize(("text", "expected"), SHEETS)
def test_in_team_sheet(text: str, expected: dict[str, bool]) -> None:
    found = {}
    for name in expected:
        begin = text.rindex(name)
        found[name] = in_team_sheet(text, begin, begin + len(name))
    assert found == expected
