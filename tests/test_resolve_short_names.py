"""Short names of people (``kg.resolve.short_names``): each rule fires where it should, and
switched off the join it refuses is made as before."""

from __future__ import annotations

import pytest

import tests.test_resolve_rules as rules
from kg.heuristics import firing, switched_off
from kg.resolve.short_names import NAME_ENDS, REGNAL, SHARED_SHORT_NAME
from tests.test_resolve_rules import Article, key_of, resolve

#: The wife named last: with ``first-named`` alone the bare surname is the husband's.
BREWERS: Article = (
    "Anthony Brewer was charged. Brewer fired at Riva. Brewer is married, but his wife, "
    "Michele Brewer, declined to comment.",
    [("Anthony Brewer", "PERSON"), ("Brewer", "PERSON"), ("Brewer", "PERSON"),
     ("Michele Brewer", "PERSON")])
#: A player written in full and by his initial on the team sheet: one person, one surname.
BARKLEY: Article = (
    "Olly Barkley kicked well. Barkley scored. England: O Barkley, J Lewsey.",
    [("Olly Barkley", "PERSON"), ("Barkley", "PERSON"), ("O Barkley", "PERSON"),
     ("J Lewsey", "PERSON")])
PRINCE: Article = (
    "Prince Harry apologised to Michael Howard. Harry wore the uniform.",
    [("Harry", "PERSON"), ("Michael Howard", "PERSON"), ("Harry", "PERSON")])
#: Shares Michael Howard with ``PRINCE``: only the regnal rule keeps the two Harrys apart.
ELLIS: Article = ("Harry Ellis scored for England, Michael Howard said.",
                  [("Harry Ellis", "PERSON"), ("England", "GPE"), ("Michael Howard", "PERSON")])
LINE_UP: Article = ("Foster scored twice for Hearts.", [("Foster", "PERSON"), ("Hearts", "ORG")])
BREWER_FOSTER: Article = ("Aaron Foster set up the blog for Wired.",
                          [("Aaron Foster", "PERSON"), ("Wired", "ORG")])
BLOG: Article = ("The blog Wired praised was shut. Foster said he would appeal.",
                 [("Wired", "ORG"), ("Foster", "PERSON")])


def test_a_surname_two_people_of_the_article_end_with_is_left_alone() -> None:
    with firing() as log:
        resolution = resolve(BREWERS)
    keys = {key_of(resolution, 0, s) for s in ("Anthony Brewer", "Brewer", "Michele Brewer")}
    assert len(keys) == 3 and NAME_ENDS.id in log
    with switched_off({NAME_ENDS.id}):  # the first named owns it
        resolution = resolve(BREWERS)
    assert key_of(resolution, 0, "Brewer") == key_of(resolution, 0, "Anthony Brewer")


def test_a_name_and_its_initial_are_one_owner_of_the_surname() -> None:
    resolution = resolve(BARKLEY)
    assert key_of(resolution, 0, "Barkley") == key_of(resolution, 0, "Olly Barkley")


def test_a_shorter_name_stopping_at_a_middle_word_joins_nothing() -> None:
    grandson: Article = ("Malcolm X Attallah Shabazz was jailed. Malcolm X was his grandfather.",
                         [("Malcolm X Attallah Shabazz", "PERSON"), ("Malcolm X", "PERSON")])
    resolution = resolve(grandson)
    assert key_of(resolution, 0, "Malcolm X") != key_of(resolution, 0, "Malcolm X Attallah Shabazz")
    with switched_off({NAME_ENDS.id}):
        resolution = resolve(grandson)
    assert key_of(resolution, 0, "Malcolm X") == key_of(resolution, 0, "Malcolm X Attallah Shabazz")


def test_the_whole_given_name_joins_its_full_name() -> None:
    ferrero: Article = ("Juan Carlos Ferrero lost. Juan Carlos played well, Arrese said.",
                        [("Juan Carlos Ferrero", "PERSON"), ("Juan Carlos", "PERSON"),
                         ("Arrese", "PERSON")])
    resolution = resolve(ferrero)
    assert key_of(resolution, 0, "Juan Carlos") == key_of(resolution, 0, "Juan Carlos Ferrero")


@pytest.fixture
def princes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand-made extractions read "Prince" as a title, as ``ner.mention.titles`` does."""
    monkeypatch.setattr(rules, "TITLES", rules.TITLES | {"Prince"})


@pytest.mark.usefixtures("princes")
def test_a_prince_is_no_namesake_of_his_given_name() -> None:
    with firing() as log:
        resolution = resolve(PRINCE, ELLIS)
    assert REGNAL.id in log
    prince = key_of(resolution, 0, "Harry")
    assert prince != key_of(resolution, 1, "Harry Ellis")
    assert sum(1 for k in resolution.assignments.values() if k == prince) == 2  # both "Harry"
    with switched_off({REGNAL.id}):
        resolution = resolve(PRINCE, ELLIS)
    assert key_of(resolution, 0, "Harry") == key_of(resolution, 1, "Harry Ellis")


@pytest.mark.usefixtures("princes")
def test_a_prince_is_found_again_as_himself() -> None:
    resolution = resolve(PRINCE, ("Prince Harry visited Sandhurst.", [("Harry", "PERSON")]))
    assert key_of(resolution, 0, "Harry") == key_of(resolution, 1, "Harry")


def test_a_bare_surname_joins_only_a_candidate_whose_articles_share_a_name() -> None:
    with firing() as log:
        resolution = resolve(BREWER_FOSTER, LINE_UP)
    assert key_of(resolution, 1, "Foster") != key_of(resolution, 0, "Aaron Foster")
    assert SHARED_SHORT_NAME.id in log
    refused = [d for d in resolution.decisions if not d.merged]
    assert ("Foster", "short-name-without-context") in {(d.left, d.rule) for d in refused}
    resolution = resolve(BREWER_FOSTER, BLOG)  # both articles name Wired
    assert key_of(resolution, 1, "Foster") == key_of(resolution, 0, "Aaron Foster")
    with switched_off({SHARED_SHORT_NAME.id}):
        resolution = resolve(BREWER_FOSTER, LINE_UP)
    assert key_of(resolution, 1, "Foster") == key_of(resolution, 0, "Aaron Foster")
