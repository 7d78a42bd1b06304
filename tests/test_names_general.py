"""People and places in a sentence (write/names.py): a verb that opens a sentence is no name,
a title is not part of one, a language is no person, a kinship word names no one; names that
open a sentence as its subject stay names. English and Chinese."""

from __future__ import annotations

import pytest

from engramdb.write.names import anchors


@pytest.mark.parametrize(("sentence", "people", "places"), [
    ("Went to the cinema with Jake", ["Jake"], []),
    ("Spent the weekend in the Alps with Priya", ["Priya"], ["Alps"]),
    ("Thanks for the tip about the train", [], []),
    ("Booked a table for Friday", [], []),
    ("Drove up to the lake house", [], []),
    ("Talked to my landlord about the heating", [], []),
    ("I met Dr. Okafor in Lagos", ["Okafor"], ["Lagos"]),
    ("Mrs Patel from next door fed the cat", ["Patel"], []),
    ("I pair with Rust and Kotlin at work", [], []),
    ("Anna and I went hiking", ["Anna"], []),
    ("Maria in accounting quit", ["Maria"], []),
    ("Tom's dog is sick", ["Tom"], []),
    ("Li works at a bank", ["Li"], []),
    ("我姐姐在成都开了一家店", [], ["成都"]),
    ("我爸爸下周去广州", [], ["广州"]),
    ("和同事王芳去了西安", ["王芳"], ["西安"]),
])
def test_people_and_places(sentence: str, people: list[str], places: list[str]) -> None:
    assert anchors(sentence) == (people, places)
