"""Which event a trigger word names here, and whether it happened (see ``events``).

A word triggers its type only in its event sense: "struck a deal", "a heart attack", "a
25-yard strike", "on trial with Celtic", "named best director" are none. An event under
negation, a modal, a denial or a verb of intention has not happened; one under "will" is
planned. The cues of ``is_hypothetical`` (heuristics ``event.factuality.*``, words in
``factuality-words.toml``) find more: "can", a conditional, what is dodged or beyond one;
``is_planned`` also reads "going to" and an event noun that "will be held" or "is scheduled".

>>> from kg.model import EventType
>>> sorted(k.value for k in JOINT_EVENTS)
['Agreement', 'Meeting', 'Negotiation', 'Protest']
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from kg.extract.rules.context import RELATIVE_PRONOUNS, FactContext
from kg.extract.rules.figures import phrasal_lemma as _particle_lemma
from kg.heuristics import applies, declare
from kg.lexicon import table, word_list
from kg.lexicon.fact_words import (
    COUNTED_CLASSES,
    IRREALIS_VERBS,
    MILITARY_MODIFIERS,
    OCCUPATIONS,
    SUPPORT_VERBS,
    trigger_type,
)
from kg.lexicon.words import ORG_HEAD_WORDS, PLACE_HEAD_WORDS, TITLE_NOUNS
from kg.model import EventType

if TYPE_CHECKING:
    from spacy.tokens import Token

_GRAMMAR = table("grammar-words")
MODALS = word_list("modal-verbs")
CHAIN_DEPS = frozenset(
    {"xcomp", "ccomp", "dobj", "pobj", "prep", "pcomp", "acl", "acomp", "conj", "advmod"}
)
NOUN_PATIENT_PREPS = frozenset(_GRAMMAR["event_patient_prepositions"])
QUANTIFIERS = word_list("quantifiers")
_WORDS = table("event-words")
#: What an attack can hit: named things (by NER label), places, facilities, institutions
#: (their buildings), people, targets.
ATTACK_TARGETS = (
    frozenset(_WORDS["attack_targets"]) | PLACE_HEAD_WORDS | ORG_HEAD_WORDS
    | frozenset().union(*COUNTED_CLASSES.values())
)
NAMED_LABELS = frozenset({"PERSON", "NORP", "ORG", "GPE", "LOC", "FAC", "PRODUCT"})
CRITICISM_PREPS = frozenset(_WORDS["criticism_prepositions"])
NON_VIOLENT_ATTACKS = frozenset(_WORDS["non_violent_attack_modifiers"])
WALKOUT_MODIFIERS = frozenset(_WORDS["walkout_modifiers"])
WALKOUT_PREPS = frozenset(_WORDS["walkout_prepositions"])
WALKOUT_VERBS = frozenset(_WORDS["walkout_verbs"])
LAUNCH_OBJECTS = frozenset(_WORDS["launch_objects"])
PEAK_NOUNS = frozenset(_WORDS["peak_nouns"])
NEGATIVE_DETERMINERS = frozenset(_WORDS["negative_determiners"])
FUTURE_AUXILIARIES = frozenset(_WORDS["future_auxiliaries"])
#: An office one takes over or takes up ("the chairmanship", "the helm"): no acquisition.
OFFICE_NOUNS = word_list("office-nouns")
#: Words that make an event general or habitual ("usually", "every"): ``generic-words.txt``.
GENERIC_WORDS = word_list("generic-words")
CONDITIONAL_MARKS = frozenset(_WORDS["conditional_marks"])
CAUSE_PREPS = frozenset(_WORDS["death_cause_prepositions"])
TERRITORY_VERBS = frozenset(_WORDS["territory_verbs"])
CAPTURE_OBJECTS = frozenset(_WORDS["capture_objects"])
#: A described group that buys as a business ("the firm", "the brewer"), not as shoppers.
POSITION_NOUNS = frozenset(_WORDS["position_nouns"])
ON_VERBS = frozenset(_WORDS["carrier_on_verbs"])
PURPOSE_VERBS = frozenset(_WORDS["carrier_purpose_verbs"])
PEOPLE_MET = frozenset(_WORDS["people_met"])
ACCOLADE_PERIODS = frozenset(_WORDS["accolade_periods"])
NON_COURT_TRIALS = frozenset(_WORDS["non_court_trial_modifiers"])
DENIAL_VERBS = frozenset(_WORDS["denial_verbs"])
DENIED_DEPS = frozenset({"ccomp", "xcomp", "pcomp"})  # what is denied, not "after his arrest"
CLUB_WORDS = frozenset(_WORDS["club_words"])
WITHDRAWING_FORCES = frozenset(_WORDS["withdrawing_forces"])
PREPOSITIONAL_TRIGGERS: dict[str, list[str]] = _WORDS["verbs_needing_prepositions"]
UNREAL_MODIFIERS = frozenset(_WORDS["unreal_modifiers"])
QUANTITY_IDIOMS = frozenset(_WORDS["quantity_idioms"])
BALLOT_PLURALS = frozenset(_WORDS["ballot_plurals"])
AWARD_WORDS = frozenset(_WORDS["award_words"])
NOMINATIONS = frozenset(_WORDS["nomination_words"])
POST_PREPS = frozenset(_WORDS["post_prepositions"])
#: Owners that undergo the event: "his arrest", "Smith's conviction", "Wilson's death".
JOINT_EVENTS = frozenset(EventType(k) for k in _WORDS["joint_events"])
#: Locative prepositions that also introduce a topic ("talks on the future of X").
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass"})
#: Dependencies under which a verb without a subject of its own takes its governor's.
INHERITING_DEPS = frozenset({"conj", "xcomp", "advcl"})
_FACTUALITY = table("factuality-words")
ABILITY_MODALS = frozenset(_FACTUALITY["ability_modals"])
AVOIDANCE_WORDS = frozenset(_FACTUALITY["avoidance_words"])
SCHEDULE_WORDS = frozenset(_FACTUALITY["schedule_words"])
OCCURRENCE_VERBS = frozenset(_FACTUALITY["occurrence_verbs"])
AWAITING_VERBS = frozenset(_FACTUALITY["awaiting_verbs"])
AHEAD_WORDS = frozenset(_FACTUALITY["ahead_words"])


def event_type(token: Token) -> EventType | None:
    """The type of event ``token`` triggers, if it is a trigger here."""
    if token.pos_ == "VERB" and token.dep_ not in {"amod", "compound"}:
        if token.text[:1].isupper() and token.i != token.sent.start:
            return None  # part of a title or name: "Meet the Fockers"
        kind = trigger_type(phrasal_lemma(token), "VERB") or trigger_type(token.lemma_, "VERB")
        if kind is None and _to_death(token):
            kind = EventType.KILLING  # "stabbed to death", "beaten to death"
        if token.lemma_ == "charge" and any(c.lower_ == "with" for c in token.children):
            kind = EventType.TRIAL  # "charged with 34 counts"
        if token.lemma_ == "name" and _names_a_post(token):
            kind = EventType.APPOINTMENT  # "was named chief executive"
        if kind is EventType.ACQUISITION and any(c.lower_ == "as" for c in token.children):
            kind = EventType.APPOINTMENT  # "took over as chief executive"
        if kind is EventType.ACQUISITION and phrasal_lemma(token) != token.lemma_.lower() \
                and not objects(token) and token.dep_ != "relcl":
            return None  # "takes over from Max Jones": a successor, nothing bought
        if kind is EventType.ACQUISITION and any(o.lemma_.lower() in OFFICE_NOUNS
                                                 for o in objects(token)):
            return None  # "took over the chairmanship of the EU": an office, nothing bought
        if kind is EventType.APPOINTMENT and _for_an_award(token):
            return None  # "nominated for an Oscar"
        if kind is EventType.LAUNCH and any(_is_noun_trigger(c) for c in objects(token)):
            return None  # "launched an offensive": the offensive is the event
        if token.dep_ == "acl" and event_type(token.head) is kind:
            return None  # "talks mediated by Qatar": one event, the noun's
        return _verb_sense(token, kind)
    if token.pos_ == "NOUN" and token.dep_ != "compound":
        if token.lemma_.lower() == "strike":
            if any(c.lower_ in MILITARY_MODIFIERS for c in token.lefts):
                return EventType.ATTACK
            return EventType.PROTEST if _is_walkout(token) else None  # "a 25-yard strike"
        kind = trigger_type(token.lower_, "NOUN") or trigger_type(token.lemma_, "NOUN")
        if kind is None or not _noun_sense(token, kind):
            return None
        if kind is EventType.DEATH and token.dep_ == "pobj" and token.head.lower_ == "to" \
                and token.head.head.pos_ == "VERB":
            return None  # "stabbed to death": the verb's killing, not a second event
        needed = PREPOSITIONAL_TRIGGERS.get(token.lemma_.lower())
        if needed and not any(c.dep_ == "prep" and c.lower_ in needed for c in token.children):
            return None  # "a part in the rally" of share prices; "a rally in London" is one
        if token.lower_ in BALLOT_PLURALS or any(c.dep_ == "nummod" for c in token.children) \
                or token.tag_ == "NNS" and token.dep_ == "pobj" and token.head.lower_ == "of" \
                and (token.head.head.pos_ == "NUM" or token.head.head.lower_ in QUANTIFIERS):
            return None  # "a million votes more", "the last six elections": no one event
        if kind is EventType.APPOINTMENT and _for_an_award(token):
            return None  # "an Oscar nomination"
        modifiers = [_noun_type(c) for c in token.lefts if c.dep_ == "compound"]
        return next((m for m in modifiers if m is not None), kind)  # "a takeover battle"
    return None


def phrasal_lemma(verb: Token) -> str:
    """The verb's lemma with its particle, also when the parser reads the particle of a
    phrasal trigger as an adverb ("stepped down as chairman": "down" is an advmod).

    The particle of the parser comes first; an adverb only makes a known phrasal trigger."""
    lemma = _particle_lemma(verb)
    if lemma != verb.lemma_.lower():
        return lemma
    after = verb.doc[verb.i + 1] if verb.i + 1 < len(verb.doc) else None
    if after is not None and after.head.i == verb.i and after.dep_ == "advmod":
        phrasal = f"{lemma} {after.lower_}"
        if trigger_type(phrasal, "VERB") is not None:
            return phrasal
    return lemma


def _names_a_post(verb: Token) -> bool:
    """Whether "name" gives someone a post ("was named chief executive", "named him as
    captain"); not "named after", "named in the squad", "named player of the year"."""
    return bool(posts(verb))


def posts(verb: Token) -> list[Token]:
    complements = [c for c in verb.children if c.dep_ in {"oprd", "attr"}]
    complements += [o for c in verb.children if c.dep_ == "prep" and c.lower_ == "as"
                    for o in c.children if o.dep_ == "pobj"]
    return [c for c in complements if c.lemma_.lower() in TITLE_NOUNS and not _an_accolade(c)]


def _an_accolade(post: Token) -> bool:
    """ "best director", "top publisher of the year": a title won, not a post held."""
    return any(c.tag_ == "JJS" or c.lower_ == "top" for c in post.lefts) or any(
        o.lower_ in ACCOLADE_PERIODS for p in post.children if p.lower_ == "of"
        for o in p.children)


def _to_death(verb: Token) -> bool:
    return any(c.dep_ == "prep" and c.lower_ == "to" and any(
        o.dep_ == "pobj" and o.lemma_.lower() == "death" for o in c.children)
        for c in verb.children)


def _verb_sense(verb: Token, kind: EventType | None) -> EventType | None:
    """The event a trigger verb names here, if any: "struck a deal", "striking oil" and
    "attacked the government over Iraq" attack nothing; "launched a campaign" launches no
    missile; "died in an air strike" is a killing."""
    objects = [c for c in verb.children if c.dep_ in {"dobj", "nsubjpass"}]
    if verb.dep_ == "acl" and not objects:
        objects = [verb.head]  # "the deal, struck at the summit": the deal was struck
    if kind is EventType.ATTACK:
        if any(c.dep_ == "prep" and c.lower_ in CRITICISM_PREPS for c in verb.children):
            return None
        through = PREPOSITIONAL_TRIGGERS.get(verb.lemma_.lower(), [])
        into = [o for c in verb.children if c.dep_ == "prep" and c.lower_ in through
                for o in c.children if o.dep_ == "pobj"]  # "stormed into the compound"
        hit = objects or into
        if hit and not (_can_be_hit(hit[0]) or _is_territory(hit[0])):
            return None  # "struck a deal", "stormed into a 4-0 lead"
    if verb.lemma_.lower() in TERRITORY_VERBS and objects and not _is_territory(
            _antecedent(objects[0])):
        return None  # "fans invaded the pitch", "the voters he abandoned"
    if kind is EventType.CAPTURE and objects and not _can_be_taken(_antecedent(objects[0])):
        return None  # "seized the top spot", "captured the imagination"
    if kind is EventType.LAUNCH:
        launched = objects or [c for c in verb.children if c.dep_ == "nsubj"]  # "X launched"
        if not launched or not _launches(launched[0]):
            return None
    needed = PREPOSITIONAL_TRIGGERS.get(verb.lemma_.lower())
    if needed and not any(c.dep_ == "prep" and c.lower_ in needed for c in verb.children) \
            and not ("OBJECT" in needed and objects):
        return None  # "the side rallied to win", "shares rallied": no rally
    if kind is EventType.PROTEST and any(c.dep_ in {"ccomp", "dobj"} for c in verb.children):
        return None  # "protested that he was innocent", "to demonstrate why it pays"
    if kind is EventType.WITHDRAWAL and not _forces_withdraw(
            verb, [t for s in subjects(verb) for t in s.subtree]):
        return None  # "withdrew from the Australian Open", "has withdrawn the video"
    if kind is EventType.DEATH and any(_violent(o) for c in verb.children
                                       if c.dep_ == "prep" and c.lower_ in CAUSE_PREPS
                                       for o in c.children if o.dep_ == "pobj"):
        return EventType.KILLING
    return kind


def _for_an_award(trigger: Token) -> bool:
    """Whether a nomination is for an award ("nominated for an Oscar", "a Bafta nomination"),
    or names no post at all."""
    words = [*trigger.lefts, *(t for c in trigger.children if c.dep_ == "prep"
                                 for t in c.subtree)]
    if trigger.lemma_.lower() in NOMINATIONS and not any(
            c.dep_ == "prep" and c.lower_ in POST_PREPS for c in trigger.children):
        return True  # "nominated for best actress": no post named
    return any(w.lower_ in AWARD_WORDS for w in words)


def _can_be_hit(noun: Token) -> bool:
    named = noun.ent_type_ in NAMED_LABELS or noun.pos_ in {"PROPN", "PRON"}
    return named or noun.lemma_.lower() in ATTACK_TARGETS or noun.lower_ in ATTACK_TARGETS


def _is_territory(noun: Token) -> bool:
    """Whether ``noun`` can be invaded or abandoned as ground: a named place or country, a
    place, facility or position noun, or a pronoun."""
    return noun.ent_type_ in {"GPE", "LOC", "NORP", "FAC"} or noun.pos_ in {"PROPN", "PRON"} \
        or noun.lemma_.lower() in PLACE_HEAD_WORDS | POSITION_NOUNS


def _can_be_taken(noun: Token) -> bool:
    """Whether a capture can take ``noun``: ground, someone, something that can be hit, or
    control ("seized control of the city")."""
    lemma = noun.lemma_.lower()
    return _is_territory(noun) or _can_be_hit(noun) or lemma in CAPTURE_OBJECTS \
        or lemma in TITLE_NOUNS or lemma in OCCUPATIONS  # "captured two rebel commanders"


def _antecedent(word: Token) -> Token:
    """The noun a relative pronoun stands for ("the voters who he abandoned" → voters)."""
    if word.lower_ in RELATIVE_PRONOUNS and word.head.dep_ == "relcl":
        return word.head.head
    return word


def _launches(noun: Token) -> bool:
    words = [noun, *noun.lefts]
    return noun.ent_type_ == "PRODUCT" or any(w.lower_ in LAUNCH_OBJECTS for w in words)


def _violent(noun: Token) -> bool:
    return noun.pos_ == "NOUN" and event_type(noun) in {EventType.ATTACK, EventType.KILLING}


def _noun_sense(noun: Token, kind: EventType) -> bool:
    """Whether a trigger noun names its event here: "a heart attack" is no attack, "the
    launch of a programme" and "a drugs test" launch nothing."""
    modifiers = [c for c in noun.lefts if c.dep_ in {"compound", "amod"}]
    if kind is EventType.AGREEMENT and any(c.lower_ in QUANTITY_IDIOMS for c in modifiers) \
            and any(c.dep_ == "prep" and c.lower_ == "of" for c in noun.children):
        return False  # "a great deal of argument"
    if kind is EventType.ATTACK:
        targets = [o for p in noun.children if p.lower_ in NOUN_PATIENT_PREPS | {"with"}
                   for o in p.children if o.dep_ == "pobj"]
        if targets and not _can_be_hit(targets[0]):
            return False  # "an attack on the cost of …", "a long battle with cancer"
        return not any(c.lower_ in NON_VIOLENT_ATTACKS for c in modifiers)
    if kind is EventType.LAUNCH:
        of = [o for p in noun.children if p.lower_ == "of" for o in p.children
              if o.dep_ == "pobj"]
        return any(_launches(t) for t in [*modifiers, *of])
    if kind is EventType.TRIAL:
        return not (any(c.lower_ in NON_COURT_TRIALS for c in modifiers) or _with_a_club(noun))
    if kind is EventType.WITHDRAWAL:
        return _forces_withdraw(noun, [])
    if kind is EventType.MEETING and noun.lemma_.lower() in PEAK_NOUNS:
        return not any(_a_peak(o) for p in noun.children if p.lower_ == "of"
                       for o in p.children if o.dep_ == "pobj")
    return True


def _a_peak(noun: Token) -> bool:
    """Whether "the summit of ``noun``" is a top: of one thing no name, no group ("of the
    chart", "of Everest" is a name but a mountain's), not of leaders or of the G8."""
    return noun.tag_ == "NN" and not noun.ent_type_


def subjects(verb: Token) -> list[Token]:
    """The verb's subjects, or its governor's when it has none ("forced to withdraw")."""
    own = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
    if own:
        return own
    governor = verb.head
    if verb.dep_ == "pcomp" and governor.dep_ == "prep" and governor.head.pos_ == "VERB":
        # "the FA is to start the search after appointing X": the FA appoints
        return [s for s in subjects(governor.head) if s.dep_ == "nsubj"]
    infinitive = verb.dep_ in {"acl", "relcl"} \
        and any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)
    if infinitive and (owners := [c for c in governor.children if c.dep_ == "poss"]):
        return owners  # "Oracle's fight to acquire Peoplesoft": Oracle acquires
    if infinitive and governor.dep_ == "dobj" and governor.head.lemma_ in SUPPORT_VERBS:
        # "the firm announced a deal to buy X": the firm buys
        return [s for s in subjects(governor.head) if s.dep_ == "nsubj"]
    if verb.dep_ not in INHERITING_DEPS or governor.i == verb.i:
        return own
    if verb.dep_ == "xcomp" and governor.dep_ == "acomp":
        governor = governor.head  # "X is about to start", "is set to buy"
    objects = [c for c in governor.children if c.dep_ == "dobj"]
    if verb.dep_ == "xcomp" and objects:
        return objects  # "forced the minister to flee": the minister flees
    # "she was forced to pull out": she pulls out; "was arrested and charged": both are hers
    inherited = {"nsubj", "nsubjpass"} if verb.dep_ == "xcomp" or participle_conj(verb) \
        else {"nsubj"}
    return [s for s in subjects(governor) if s.dep_ in inherited]


def participle_conj(verb: Token) -> bool:
    """A bare participle joined to a passive verb ("was arrested and charged")."""
    return verb.dep_ == "conj" and verb.tag_ == "VBN" \
        and not any(c.dep_ in {"aux", "auxpass", "nsubj"} for c in verb.children)


def _forces_withdraw(trigger: Token, subject: list[Token]) -> bool:
    """Whether a withdrawal is forces pulling out (``kg:Withdrawal``): a force word in the
    trigger's phrase or its subject ("troops withdrew", "the withdrawal of 3,000 soldiers"), or
    a country pulling out of a named place ("Israel's withdrawal from Gaza")."""
    words = [*trigger.subtree, *subject]
    if any(t.lemma_.lower() in WITHDRAWING_FORCES for t in words):
        return True
    countries = [t for t in [*subject, *(c for c in trigger.children if c.dep_ == "poss")]
                 if t.ent_type_ in {"GPE", "NORP"}]
    places = [o for c in trigger.children if c.dep_ == "prep" and c.lower_ in {"from", "out"}
              for o in c.subtree if o.ent_type_ in {"GPE", "LOC", "FAC"}]
    return bool(countries and places)


def _with_a_club(noun: Token) -> bool:
    """ "on trial with Celtic", "had a trial with a Spanish club": a player's trial, which
    is "with" an organisation; a court tries someone "with" co-defendants."""
    carrier = carrier_of(noun)
    holders = [noun] if carrier is None else [noun, carrier]
    partners = [o for h in holders for c in h.children if c.dep_ == "prep" and c.lower_ == "with"
                for o in c.children if o.dep_ == "pobj"]
    return any(o.ent_type_ == "ORG" or o.lemma_.lower() in CLUB_WORDS for o in partners)


def _is_walkout(noun: Token) -> bool:
    """A "strike" that is a walkout: "on strike", "a strike by teachers", "a rail strike",
    "called a strike"."""
    governor = noun.head
    return (
        governor.lower_ == "on" and noun.dep_ == "pobj"
        or any(c.dep_ == "prep" and c.lower_ in WALKOUT_PREPS for c in noun.children)
        or any(c.lower_ in WALKOUT_MODIFIERS or c.dep_ == "compound" and c.ent_type_ == "ORG"
               for c in noun.lefts)
        or noun.dep_ == "dobj" and governor.lemma_.lower() in WALKOUT_VERBS
    )


def met(verb: Token) -> bool:
    """Whether the verb names what is met: an object, or a passive subject ("was met")."""
    return any(c.dep_ in {"dobj", "nsubjpass"} for c in verb.children)


def names_whom(ctx: FactContext, verb: Token) -> bool:
    """Whether the verb's object names someone or somewhere ("visited Kenya's capital"), or
    is people by their post or trade ("will meet union leaders", "met his counterpart")."""
    heads = [c for c in verb.children if c.dep_ == "dobj"]
    if any(h.lemma_.lower() in TITLE_NOUNS | OCCUPATIONS | PEOPLE_MET for h in heads):
        return True
    return bool(ctx.mentions_in([t for h in heads for t in h.subtree]))


def _noun_type(token: Token) -> EventType | None:
    if token.pos_ != "NOUN":
        return None
    return trigger_type(token.lower_, "NOUN") or trigger_type(token.lemma_, "NOUN")


def _is_noun_trigger(token: Token) -> bool:
    return token.pos_ == "NOUN" and event_type(token) is not None


def objects(verb: Token) -> list[Token]:
    return [c for c in verb.children if c.dep_ in {"dobj", "nsubjpass"}]


def is_irrealis(token: Token) -> bool:
    """Whether the event is negated, hypothetical or only intended."""
    current = token
    for _ in range(5):
        if any(_cancels(c) for c in current.children):
            return True
        governor = current.head
        if current.dep_ in SUBJECT_DEPS and governor.i != current.i:
            # "A merger … would be the fifth deal", "if a May election is called", "the
            # talks would not resume", "the election is expected on 5 May"
            return any(_cancels(c) or c.dep_ in {"acomp", "xcomp"}
                       and c.lemma_.lower() in IRREALIS_VERBS for c in governor.children) \
                or governor.lemma_.lower() in IRREALIS_VERBS  # "is due to be held"
        if current.dep_ not in CHAIN_DEPS and not _infinitive_of_noun(current) \
                or governor.i == current.i:
            return False
        if governor.lemma_.lower() in IRREALIS_VERBS:
            return True
        if governor.lemma_.lower() in DENIAL_VERBS and current.dep_ in DENIED_DEPS:
            return True  # "denied that troops had attacked", "denies murdering his wife"
        current = governor
    return False


def is_generic(token: Token) -> bool:
    """Whether the event is what generally or habitually happens, no one occasion: a
    frequency adverb ("usually", "often", "every") on the trigger or the clause above it, or a
    trigger noun under "every"/"each" ("every attack")."""
    current = token
    for _ in range(3):
        if any(c.lower_ in GENERIC_WORDS and c.dep_ in {"advmod", "det", "npadvmod"}
               for c in current.children) \
                or applies("event.generic.frequency-phrase", partial(_every_period, current)):
            return True
        if current.dep_ not in CHAIN_DEPS or current.head.i == current.i:
            return False
        current = current.head
    return False


def _every_period(verb: Token) -> bool:
    """A phrase of frequency on the clause: "visit Cuba every year", "meets each month"."""
    return any(c.dep_ in {"npadvmod", "advmod"} and any(
        d.dep_ == "det" and d.lower_ in GENERIC_WORDS for d in c.children) for c in verb.children)


def is_frequency(text: str) -> bool:
    """Whether a time expression says how often, not when ("every year", "each week").

    >>> is_frequency("every year"), is_frequency("last year")
    (True, False)
    """
    words = text.lower().split()
    return bool(words) and words[0] in GENERIC_WORDS


def _infinitive_of_noun(token: Token) -> bool:
    """ "an approach to buy", parsed as a relative clause: the infinitive of a noun, read like
    the ``acl`` of "a bid to buy"."""
    return token.dep_ == "relcl" and any(c.dep_ == "aux" and c.lower_ == "to"
                                         for c in token.children)


def is_planned(token: Token) -> bool:
    """Whether the event is announced for the future ("will visit", "talks will begin", "are
    going to hold a vote", "the election is scheduled for 15 December")."""
    current = token
    for _ in range(5):
        if any(c.dep_ == "aux" and c.lower_ in FUTURE_AUXILIARIES for c in current.children) \
                or applies("event.factuality.going-to", partial(_going_to, current)):
            return True
        governor = current.head
        if current.dep_ in SUBJECT_DEPS and governor.i != current.i:
            # "the elections will be held", "the election widely predicted for May"
            return applies("event.factuality.future-subject", partial(_comes, governor))
        if current.dep_ not in CHAIN_DEPS or governor.i == current.i:
            return False
        current = governor
    return False


def is_awaited(token: Token) -> bool:
    """Whether the event lies ahead of the clause that names it: a noun one faces or awaits,
    in the present or still to come ("faces trial", "while awaiting trial", "faces Dole in the
    November 5 election"), or an event in "ahead of …", "on the eve of …", "in the run-up to
    …" ("campaigned ahead of Sunday's election", "ahead of signing his new deal"). The caller
    keeps an event its own date puts before the report."""
    def awaited() -> bool:
        words = (token, carrier_of(token)) if token.pos_ == "NOUN" else (token,)
        return any(t is not None and _awaited(t) for t in words)

    return applies(AWAITED, awaited)


def _awaited(token: Token) -> bool:
    governor = token.head
    if governor.i == token.i:
        return False
    if token.dep_ == "pobj" and governor.dep_ == "prep":  # "faces Dole in the election"
        if governor.head.lemma_.lower() in AWAITING_VERBS and governor.lower_ == "in":
            return _facing(governor.head)
        return _ahead_phrase(governor.head)
    if token.dep_ == "pcomp":  # "ahead of signing his new deal"
        return _ahead_phrase(governor.head)
    return token.dep_ == "dobj" and token.pos_ == "NOUN" \
        and governor.lemma_.lower() in AWAITING_VERBS and _facing(governor)


def _facing(verb: Token) -> bool:
    """ "faces", "is facing", "will face", "to face": not "faced trial in 1990"."""
    return verb.tag_ in {"VBZ", "VBP", "VBG", "VB"} and not any(
        c.dep_ in {"aux", "auxpass"} and c.tag_ in {"VBD", "VBN"} and c.lemma_ == "have"
        for c in verb.children)


def _ahead_phrase(head: Token) -> bool:
    """ "ahead" of "ahead of", "eve" of "on the eve of", the "up" of "run-up" (parsed as
    "run" compound on "up")."""
    words = [c.lower_ for c in head.children if c.dep_ == "compound" and c.i < head.i]
    return "-".join([*words, head.lower_]) in AHEAD_WORDS or head.lower_ in AHEAD_WORDS


def _to_infinitive(verb: Token) -> bool:
    return any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)


def _going_to(current: Token) -> bool:
    """ "are going to be detained", "we are going to have a vote": the infinitive under a
    "going" that has its "be"."""
    governor = current.head
    return current.dep_ == "xcomp" and _to_infinitive(current) and governor.lemma_ == "go" \
        and governor.tag_ == "VBG" and any(c.dep_ == "aux" for c in governor.children)


def _schedules(word: Token) -> bool:
    return word.lemma_.lower() in SCHEDULE_WORDS or word.lower_ in SCHEDULE_WORDS


def _comes(governor: Token) -> bool:
    """Whether the verb an event noun is the subject of says it is still to come: a verb of
    occurring under "will" or "going to" ("the talks will begin", "the elections will be
    held"), or a participle of scheduling ("the election is scheduled for May")."""
    if _schedules(governor) and (governor.tag_ == "VBN" or not any(
            c.dep_ == "dobj" for c in governor.children)):  # not "the meeting set a date"
        return True
    if governor.lemma_.lower() not in OCCURRENCE_VERBS:
        return False
    return any(c.dep_ == "aux" and c.lower_ in FUTURE_AUXILIARIES for c in governor.children) \
        or _going_to(governor)


def is_hypothetical(token: Token) -> bool:
    """Whether a cue besides ``is_irrealis``'s says the event has not happened: "can" ("suspects
    can be detained") or a conditional ("if they have none they are going to be detained") on
    its clause or one above it; what is dodged or beyond one ("dodging arrest", "unable to
    visit"), said of the trigger's own verb or of the verb that carries a trigger noun ("unable
    to hold talks").
    The walk up stops at a reported clause ("police can confirm that he was killed" states the
    killing) and at a noun's participle ("the embargo imposed after the massacre" is another
    event)."""
    if token.pos_ == "NOUN" and applies("event.factuality.avoidance", partial(_avoided, token)):
        return True  # "dodging arrest"
    verb = token if token.pos_ == "VERB" else carrier_of(token)
    if verb is not None and applies("event.factuality.avoidance", partial(_avoided, verb)):
        return True
    current = token
    for _ in range(5):
        if _clause_cue(current):
            return True
        governor = current.head
        if governor.i == current.i:
            return False
        if current.dep_ in SUBJECT_DEPS:
            return _clause_cue(governor)  # "an attack can happen at any time"
        infinitive = _to_infinitive(current) or _infinitive_of_noun(current)
        if current.dep_ not in CHAIN_DEPS - {"ccomp", "acl"} and not infinitive:
            return False
        current = governor
    return False


def _clause_cue(verb: Token) -> bool:
    return applies("event.factuality.can", partial(_can, verb)) \
        or applies("event.factuality.conditional", partial(_conditional, verb))


def _can(verb: Token) -> bool:
    return any(c.dep_ in {"aux", "auxpass"} and c.lower_ in ABILITY_MODALS
               for c in verb.children)


def _conditional(verb: Token) -> bool:
    """A clause with an "if"/"unless" clause of its own: what it says holds only then."""
    return any(c.dep_ == "advcl" and any(m.dep_ == "mark" and m.lower_ in CONDITIONAL_MARKS
                                         for m in c.children) for c in verb.children)


def _avoided(current: Token) -> bool:
    return current.dep_ in {"dobj", "xcomp"} and current.head.lemma_.lower() in AVOIDANCE_WORDS


def _cancels(child: Token) -> bool:
    """A negation, a modal, or "proposed"/"planned" in front of a noun."""
    return (
        child.dep_ == "neg"
        or child.dep_ == "aux" and child.lower_ in MODALS
        or child.dep_ == "amod" and child.lemma_ in {"propose", "plan"}
        or child.dep_ in {"amod", "compound"} and child.lower_ in UNREAL_MODIFIERS
        or child.dep_ == "det" and child.lower_ in NEGATIVE_DETERMINERS  # "no treaty"
        or child.dep_ == "mark" and child.lower_ in CONDITIONAL_MARKS  # "if Russia invades"
    )


def carrier_of(noun: Token) -> Token | None:
    """The verb that carries out a noun's event: "held talks", "went on strike", "is on trial"."""
    governor = noun.head
    if noun.dep_ == "dobj" and governor.lemma_ in SUPPORT_VERBS:
        return governor
    if noun.dep_ == "pobj" and governor.lower_ == "on" and governor.head.lemma_ in ON_VERBS:
        return governor.head
    if noun.dep_ == "pobj" and applies(PURPOSE_CARRIER.id, lambda: (  # "came for talks"
            governor.lower_ in {"for", "into"} and governor.head.lemma_ in PURPOSE_VERBS
            and governor.head.dep_ != "pcomp"  # "barred X from flying in for talks"
            and event_type(noun) in JOINT_EVENTS)):
        return governor.head
    return None


PURPOSE_CARRIER = declare(
    "event.party.purpose-carrier", "facts.event",
    reads="the verb of going or gathering a joint event noun is the \"for\"/\"into\" "
          "phrase of",
    writes="Event.agents, Event.places, Event.time",
    description="Whoever arrives, meets or goes somewhere \"for talks\" or \"into talks\" "
                "takes part in them, where and when they went (\"commanders met in X on "
                "Tuesday for talks\", \"went into talks with Y\").",
    example="Tom Baker arrived in Oslo on Monday for talks with Norway's foreign minister.",
)


def _declare_cue(id: str, reads: str, writes: str, description: str, example: str) -> None:
    declare(f"event.{id}", "facts.event", reads=reads, writes=writes, description=description,
            example=example)


_NOT_WRITTEN = "drops the event (not stated as happened; not written)"
_PLANNED = "Event.planned (kg:factuality kg:Planned)"
_declare_cue("factuality.can", "\"can\" on the trigger's clause or one above it", _NOT_WRITTEN,
             "What \"can\" happen has not happened.",
             "Under the act, police can detain Tom Baker in Belmarsh prison.")
_declare_cue("factuality.conditional", "an \"if\"/\"unless\" clause on the trigger's clause",
             _NOT_WRITTEN, "An event that holds only if something else does is hypothetical.",
             "If Kovac wins, the party holds a leadership election in Riga.")
_declare_cue("factuality.avoidance", "the trigger as what is dodged or beyond one",
             _NOT_WRITTEN, "What one dodged, averted or was unable to do did not happen.",
             "Police in Lagos said the banker Omar Reyes evaded arrest on Monday.")
_declare_cue("factuality.going-to", "\"be going to\" above the trigger", _PLANNED,
             "An event someone is going to carry out is still to come.",
             "The unions are going to hold talks with John Prescott in Gateshead.")
_declare_cue("factuality.future-subject", "the verb a trigger noun is the subject of",
             _PLANNED, "An event noun that \"will be held\", \"will begin\" or is "
             "\"scheduled for 15 December\" is still to come.",
             "The elections in Turkmenistan will be held on 15 December.")
AWAITED = "event.factuality.awaited"
_declare_cue("factuality.awaited", "the verb or phrase an event noun is the object of: "
             "\"face\", \"await\", \"ahead of\", \"on the eve of\", \"in the run-up to\"",
             _PLANNED, "An event one faces or awaits, or one the clause is ahead of, is still "
             "to come (unless its own date is before the report).",
             "Tom Baker, who faces trial in Leeds, campaigned ahead of the party election.")
_declare_cue("generic.frequency-phrase", "\"every year\", \"each month\" on the clause",
             "Event.generic (kg:factuality kg:Generic)",
             "A phrase of frequency makes the event habitual, no one occasion.",
             "Senator Tom Baker visits Cuba every year.")
