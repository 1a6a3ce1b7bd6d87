"""Word lists for the fact rules: speech cues, event triggers, ranks, counted things.

General English news vocabulary, compared by lemma (lower-cased); nothing here is about any
particular story.

>>> trigger_type("besiege", "VERB")
<EventType.SIEGE: 'Siege'>
"""

from __future__ import annotations

from kg.model import EventType

#: Verbs that report speech or a stated position; their subject is the speaker.
SPEECH_VERBS = frozenset(
    """
    say tell state claim declare announce add estimate report insist warn deny confirm argue
    allege acknowledge admit write tweet note explain suggest predict reply respond assert
    maintain contend stress emphasise emphasize reveal concede indicate testify complain boast
    vow promise pledge recall observe remark comment conclude disclose signal hint forecast
    calculate reckon believe think told
    """.split()
)
#: Nouns that introduce a claim with a "that" clause ("Russia's claims that …").
CLAIM_NOUNS = frozenset(
    "claim claims statement assertion allegation warning estimate announcement assurance".split()
)
#: Verbs that accuse someone "of" doing something; the "of" clause is the claim.
ACCUSE_VERBS = frozenset({"accuse", "blame", "condemn", "criticise", "criticize"})

_T = EventType
#: Event type → (verb lemmas, noun lemmas). Phrasal verbs are "lemma particle".
TRIGGERS: dict[EventType, tuple[frozenset[str], frozenset[str]]] = {
    _T.ATTACK: (
        frozenset("attack strike bomb shell bombard raid storm assault ambush".split()),
        frozenset(
            "attack assault airstrike bombardment bombing shelling raid offensive storming "
            "battle counteroffensive counter-offensive".split()
        ),
    ),
    _T.SIEGE: (
        frozenset("besiege encircle blockade".split()),
        frozenset("siege blockade encirclement".split()),
    ),
    _T.INVASION: (frozenset({"invade"}), frozenset({"invasion", "incursion"})),
    _T.CAPTURE: (
        frozenset("capture seize occupy annex overrun conquer recapture retake".split()),
        frozenset("capture seizure occupation annexation recapture".split()),
    ),
    _T.SURRENDER: (
        frozenset({"surrender", "capitulate", "give up", "lay down"}),
        frozenset({"surrender", "capitulation"}),
    ),
    _T.WITHDRAWAL: (
        frozenset({"withdraw", "retreat", "pull out", "pull back", "abandon"}),
        frozenset({"withdrawal", "retreat", "pullout"}),
    ),
    _T.KILLING: (
        frozenset("kill murder execute assassinate massacre die".split()),
        frozenset("killing murder execution assassination massacre death".split()),
    ),
    _T.LAUNCH: (frozenset({"launch", "test-fire"}), frozenset({"launch", "test"})),
    _T.EVACUATION: (frozenset({"evacuate"}), frozenset({"evacuation"})),
    _T.DISPLACEMENT: (
        frozenset({"flee", "deport", "displace", "expel"}),
        frozenset({"deportation", "displacement", "exodus", "expulsion"}),
    ),
    _T.NEGOTIATION: (
        frozenset({"negotiate", "mediate"}),
        frozenset({"talks", "negotiation", "negotiations", "mediation"}),
    ),
    _T.AGREEMENT: (
        frozenset(),
        frozenset("agreement deal treaty ceasefire truce accord".split()),
    ),
    _T.MEETING: (frozenset({"meet", "visit"}), frozenset({"meeting", "summit", "visit"})),
    _T.STATEMENT: (
        frozenset(),
        frozenset("statement announcement speech communique declaration".split()),
    ),
    _T.ELECTION: (
        frozenset({"elect", "re-elect"}),
        frozenset({"election", "referendum", "ballot", "vote"}),
    ),
    _T.APPOINTMENT: (
        frozenset({"appoint", "nominate"}),
        frozenset({"appointment", "nomination"}),
    ),
    _T.RESIGNATION: (frozenset({"resign", "quit", "step down"}), frozenset({"resignation"})),
    _T.PROTEST: (
        frozenset({"protest", "demonstrate", "rally"}),
        frozenset({"protest", "demonstration", "rally", "riot", "walkout"}),
    ),
    _T.ARREST: (
        frozenset({"arrest", "detain", "jail", "imprison"}),
        frozenset({"arrest", "detention"}),
    ),
    _T.TRIAL: (
        frozenset({"convict", "sentence", "prosecute", "indict", "acquit", "sue"}),
        frozenset({"trial", "conviction", "lawsuit", "indictment", "prosecution"}),
    ),
    _T.ACQUISITION: (
        frozenset({"acquire", "buy", "purchase", "merge", "take over"}),
        frozenset({"acquisition", "takeover", "merger", "purchase", "buyout"}),
    ),
}

#: Modifiers that make a "strike" military; otherwise a strike is a walkout (protest).
MILITARY_MODIFIERS = frozenset(
    "air missile drone rocket military artillery nuclear aerial naval precision".split()
)
#: Events that need a named participant to be kept ("meet the same fate" is no meeting).
NEEDS_ENTITY = frozenset(
    {EventType.MEETING, EventType.STATEMENT, EventType.LAUNCH, EventType.ACQUISITION}
)

#: Verbs whose object names an event their subject carries out ("launched an offensive").
SUPPORT_VERBS = frozenset(
    """
    launch begin start order carry conduct stage mount hold lead resume continue complete make
    undertake organise organize call win lose sign announce plan stage approve authorise
    authorize
    """.split()
)
#: Verbs under which an event has not (yet) happened ("failed to capture", "plans to invade").
IRREALIS_VERBS = frozenset(
    """
    fail refuse threaten plan try attempt seek want intend aim hope vow prepare propose
    decline avoid prevent need expect consider demand urge call let keen ready able eager
    willing likely set due poised close offer bid proposal attempt threat without
    """.split()
)

#: Prepositions that introduce where something happens.
LOCATIVE_PREPS = frozenset(
    "in at inside near outside around into within across throughout through on from".split()
)
#: Nouns that refer back to the article's current city ("the city", "the town").
CITY_NOUNS = frozenset({"city", "town", "port", "capital", "village"})
#: Nouns that name a settlement or area; "<demonym> city of X" places X in a country.
PLACE_NOUNS = CITY_NOUNS | frozenset(
    "region province district county state area island peninsula oblast territory".split()
)
#: Nouns for facilities that sit in a town ("the X plant in Y").
FACILITY_NOUNS = frozenset(
    """
    plant works steelworks factory airport station prison colony camp stadium hospital school
    university base port mine refinery mill terminal bridge dam
    """.split()
)

#: Ranks and honorifics: kept apart from posts ("spokesman Maj. Gen." holds post spokesman).
RANKS = {
    "maj": "Major", "major": "Major", "gen": "General", "general": "General",
    "lt": "Lieutenant", "lieutenant": "Lieutenant", "col": "Colonel", "colonel": "Colonel",
    "capt": "Captain", "captain": "Captain", "sgt": "Sergeant", "sergeant": "Sergeant",
    "adm": "Admiral", "admiral": "Admiral", "brig": "Brigadier", "brigadier": "Brigadier",
    "cpl": "Corporal", "corporal": "Corporal", "marshal": "Marshal",
}
HONORIFICS = frozenset("mr mrs ms miss dr prof sir dame lord lady rev fr hon mx".split())
#: Occupations, not offices: a demonym before them is a nationality ("British director"),
#: not the country whose post it is ("Russian President").
OCCUPATIONS = frozenset(
    """
    director producer analyst economist correspondent reporter editor coach manager boss
    executive ceo cfo coo founder co-founder owner professor prof doctor dr lawyer actor
    actress singer writer author artist player
    """.split()
)
#: Words in front of a post that say it is no longer held.
FORMER_WORDS = frozenset({"former", "ex", "late", "ex-"})
#: Spelling variants folded together in role labels.
ROLE_SPELLINGS = {"defense": "defence", "labor": "labour", "advisor": "adviser"}

#: Counted nouns grouped into classes, so "959 troops" and "1,000 fighters" measure one thing.
COUNTED_CLASSES = {
    "fighters": frozenset(
        """
        fighter soldier troop defender combatant serviceman servicemen militant marine
        paratrooper personnel guerrilla rebel insurgent
        """.split()
    ),
    "people": frozenset("people person resident civilian inhabitant citizen".split()),
    "refugees": frozenset({"refugee", "evacuee", "migrant"}),
    "prisoners": frozenset({"prisoner", "detainee", "captive", "hostage", "pow"}),
    "children": frozenset({"child", "children", "kid"}),
}
#: Verbs of staying put, grouped: "remained", "were holed up", "held out" measure one thing.
REMAIN_VERBS = frozenset({"remain", "stay", "hole up", "hold out", "shelter", "trap"})
#: Verbs of believing or reporting that a figure's own verb hangs from ("were believed to").
EPISTEMIC_VERBS = SPEECH_VERBS | frozenset({"believe", "think", "expect", "fear", "know"})
#: Nouns whose "that number" a fraction refers to ("half that number").
ANAPHORIC_AMOUNTS = frozenset({"number", "figure", "total", "amount", "tally", "count"})
#: Verbs that give an amount its value ("the number … surged past N", "the toll rose to N").
AMOUNT_VERBS = frozenset(
    "surge rise reach climb exceed pass hit top stand grow increase jump fall drop total".split()
)
#: Words that scale a previous figure ("twice that number").
RELATIVE_FACTORS = {
    "half": 0.5, "third": 1 / 3, "quarter": 0.25, "twice": 2.0, "double": 2.0,
    "triple": 3.0, "thrice": 3.0,
}

_VERB_TRIGGERS = {lemma: kind for kind, (verbs, _) in TRIGGERS.items() for lemma in verbs}
_NOUN_TRIGGERS = {lemma: kind for kind, (_, nouns) in TRIGGERS.items() for lemma in nouns}


def trigger_type(lemma: str, pos: str) -> EventType | None:
    """The event type a word triggers as a ``pos`` ("VERB" or "NOUN"), if any.

    >>> trigger_type("talks", "NOUN")
    <EventType.NEGOTIATION: 'Negotiation'>
    """
    table = _VERB_TRIGGERS if pos == "VERB" else _NOUN_TRIGGERS
    return table.get(lemma.lower())


def counted_class(lemma: str | None) -> str | None:
    """The class of a counted noun ("troop" → "fighters"), or the lemma itself.

    >>> counted_class("civilian"), counted_class("tank")
    ('people', 'tank')
    """
    if lemma is None:
        return None
    for name, lemmas in COUNTED_CLASSES.items():
        if lemma.lower() in lemmas:
            return name
    return lemma.lower()
