"""Word lists for English news, shared by the extractors (general, never per article).

>>> "minister" in TITLE_NOUNS
True
"""

from __future__ import annotations

#: Nouns that name a post or rank; compared lower-cased with any trailing "." removed.
TITLE_NOUNS = frozenset(
    """
    president vice-president premier chancellor minister secretary king queen prince princess
    emperor pope cardinal archbishop bishop rabbi imam sheikh sultan emir governor mayor senator
    congressman congresswoman rep representative speaker lawmaker mp deputy ambassador envoy
    negotiator adviser advisor aide spokesman spokeswoman spokesperson commander commander-in-chief
    chief head leader chairman chairwoman chair chairperson director general gen maj major col
    colonel lt lieutenant capt captain sgt sergeant adm admiral marshal brig brigadier cpl corporal
    officer inspector superintendent commissioner judge justice attorney prosecutor dr doctor prof
    professor mr mrs ms miss sir dame lord lady baron baroness executive ceo cfo coo founder
    co-founder owner manager coach boss editor correspondent reporter analyst economist
    ombudsman mediator ayatollah patriarch metropolitan
    """.split()
)

#: Words that qualify a post ("Deputy Prime Minister", "Foreign Secretary", "chief executive").
TITLE_MODIFIERS = frozenset(
    """
    prime deputy vice acting interim former ex first second senior junior assistant associate
    executive managing general foreign defence defense interior home finance economy economic
    justice health education trade energy environment agriculture culture transport labour labor
    treasury state security intelligence military police press chief supreme foreign-affairs
    national regional district federal shadow
    """.split()
)

#: Portfolio words the small model tags as ORG in "Defence Minister X"; part of the title.
PORTFOLIO_WORDS = frozenset(
    """
    defence defense foreign interior home finance economy justice health education trade energy
    environment agriculture culture transport labour labor treasury security intelligence
    """.split()
)

#: A name whose last word is one of these denotes an organisation.
ORG_HEAD_WORDS = frozenset(
    """
    ministry committee regiment brigade battalion division army navy guard guards council party
    agency bank company corporation corp inc ltd plc llc group university college school
    association union organisation organization commission office service services department
    institute court parliament assembly congress senate front movement police forces force press
    network club fc team foundation fund trust society alliance coalition authority board bureau
    administration government cabinet directorate federation league church channel agency
    """.split()
)

#: An organisation whose name ends in one of these is a company (FtM Company).
COMPANY_HEAD_WORDS = frozenset(
    """
    company corporation corp inc incorporated ltd limited plc llc llp gmbh ag sa nv bv ab asa
    holdings holding group bank airlines airline motors industries
    """.split()
)

#: An organisation whose name ends in one of these is a public body (FtM PublicBody).
PUBLIC_BODY_HEAD_WORDS = frozenset(
    """
    ministry department agency commission council parliament assembly congress senate court
    police army navy government cabinet directorate authority administration office bureau
    municipality prosecutor prosecutors tribunal
    """.split()
)

#: A name whose last word is one of these denotes a place.
PLACE_HEAD_WORDS = frozenset(
    """
    city town village sea river ocean mountains mountain island islands bay gulf lake province
    region oblast county state republic district valley peninsula strait street square avenue
    airport port harbour harbor plant steelworks works factory bridge station base prison
    colony camp stadium park coast
    """.split()
)

#: Determiners dropped from the front of a name.
LEADING_DETERMINERS = frozenset({"the", "a", "an"})

#: Words that approximate or bound a number, mapped to a qualifier.
NUMBER_QUALIFIERS = {
    "nearly": "approximately", "almost": "approximately", "about": "approximately",
    "around": "approximately", "some": "approximately", "roughly": "approximately",
    "approximately": "approximately", "approx": "approximately", "circa": "approximately",
    "estimated": "approximately", "up": "at most", "under": "less than", "below": "less than",
    "over": "more than", "above": "more than", "exceeding": "more than", "least": "at least",
    "most": "at most", "than": "comparative", "past": "more than", "only": "exactly",
    "just": "approximately",
}
