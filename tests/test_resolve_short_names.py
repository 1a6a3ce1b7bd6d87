"""Short names of people (``kg.resolve.short_names``): ``name-ends`` and
``two-surname-owners`` fire where they should, not where a name and its initial are one person;
switched off, the join each refuses is made as before."""

from __future__ import annotations

from kg.heuristics import firing, switched_off
from kg.resolve.short_names import NAME_ENDS, TWO_OWNERS
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


def test_a_surname_two_people_of_the_article_end_with_is_left_alone() -> None:
    with firing() as log:
        resolution = resolve(BREWERS)
    keys = {key_of(resolution, 0, s) for s in ("Anthony Brewer", "Brewer", "Michele Brewer")}
    assert len(keys) == 3 and TWO_OWNERS.id in log
    with switched_off({TWO_OWNERS.id}):  # the first named owns it
        resolution = resolve(BREWERS)
    assert key_of(resolution, 0, "Brewer") == key_of(resolution, 0, "Anthony Brewer")


def test_a_name_and_its_initial_are_one_owner_of_the_surname() -> None:
    with firing() as log:
        resolution = resolve(BARKLEY)
    assert key_of(resolution, 0, "Barkley") == key_of(resolution, 0, "Olly Barkley")
    assert TWO_OWNERS.id not in log


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
