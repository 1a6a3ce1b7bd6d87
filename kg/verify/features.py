"""The features of a fact the verifier weighs: its signals and what resolution knows of it.

>>> from kg.model import Evidence, Membership, Party, PartyKind, Resolution
>>> person = Party(PartyKind.ENTITY, "Ann Lee", 0, 7, (0, 7))
>>> fact = Membership(person, "Minister", None, Evidence((0,), "role.x", 0.9, ("rule=role.x",)))
>>> fact_features(fact, "a1", Resolution((), {}))
['rule=role.x', 'person-class=none']
"""

from __future__ import annotations

from collections.abc import Iterator

from kg.model import Claim, Entity, Event, Fact, Membership, Party, Resolution

#: The kinds of fact the verifier scores, by the name its model files use.
KINDS: dict[type, str] = {Membership: "people-roles", Claim: "claims", Event: "events"}


def parties(fact: Fact) -> Iterator[tuple[str, Party | None]]:
    """The parts of a fact whose class resolution knows, by the name features give them."""
    if isinstance(fact, Membership):
        yield "person", fact.person
        if fact.organization is not None:
            yield "org", fact.organization
    elif isinstance(fact, Claim):
        yield "speaker", fact.speaker
    elif isinstance(fact, Event):
        yield "agent", fact.agents[0] if fact.agents else None
        yield "patient", fact.patients[0] if fact.patients else None
        yield "place", fact.places[0] if fact.places else None


def fact_features(fact: Fact, doc_id: str, resolution: Resolution) -> list[str]:
    """The fact's signals, then the class resolution gave each of its parts."""
    found = list(fact.evidence.signals)
    for name, party in parties(fact):
        if party is None:
            continue
        entity = entity_of(resolution, doc_id, party)
        kind = entity.kind.value if entity else "none"
        found.append(f"{name}-class={kind}")
        if entity is not None and entity.fine_type:
            found.append(f"{name}-fine={entity.fine_type}")
        pronoun = next((s for s in fact.evidence.signals if s.startswith(f"{name}=pronoun")), None)
        if pronoun is not None:
            found.append(f"{pronoun}|{kind}")
    return found


def entity_of(resolution: Resolution, doc_id: str, party: Party) -> Entity | None:
    """The entity resolution gave the mention a party denotes, if any."""
    key = resolution.assignments.get((doc_id, *party.mention)) if party.mention else None
    try:
        return resolution.entity(key) if key else None
    except KeyError:
        return None
