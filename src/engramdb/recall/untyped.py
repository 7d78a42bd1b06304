"""Two statements that no typed value tells apart (write/align.py types few of the words a
change is said in: a brand, a drink, a tool in plain words, 码云 / 极狐; jieba tags 得力 a verb,
冷酸灵 and 晨光 common nouns): what recall/conflicts.py reads as a new value there."""

from __future__ import annotations

from typing import Protocol

from ..write.align import CUE, NEG, VALUE, WORD, only_done, typed_tokens

USER = "\u0000user"      # the subject or possessor "I" / "my" / 我 (recall/conflicts.py)
# change words that are time adverbs only: they govern no object ("now", 现在, 了)
_ADVERBS = frozenset("now currently 现在 目前 如今 已经 了".split())


class Said(Protocol):
    """What ``replaced`` reads of a statement (recall/conflicts.py ``Statement``)."""

    @property
    def changes(self) -> frozenset[str]: ...
    @property
    def negated(self) -> bool: ...
    @property
    def mentions(self) -> frozenset[str]: ...


def replaced(old: Said, new: Said, said: str) -> bool:
    """Where no typed value tells (a brand, a drink, a tool in plain words: 码云 / 极狐, "black
    coffee" / "green tea"), what differs is the value: the newer (``said``), not negated, has a
    change word the older has not, words the older lacks, and lacks some of the older's. 了
    counts only at the end of a clause, where it says a new state (女儿上一年级了); after a verb
    inside one it says an act is done (我还订阅了《读者》, 我们挑了一张原木餐桌)."""
    changes = new.changes - old.changes
    if only_done(changes, said):
        return False
    return bool(changes) and not new.negated \
        and bool(new.mentions - old.mentions - {USER}) \
        and bool(old.mentions - new.mentions - {USER})


def changed_object(x: str, y: str) -> bool:
    """Sentence ``y`` names a thing sentence ``x`` holds, then a change word, then words ``x``
    lacks, not negated ("X换成Y", "X switched to Y"): what follows the change is the new value,
    whatever its part of speech (jieba tags few brands as names: 得力 a verb, 晨光 a
    common noun). A change word that is only a time adverb ("now", 现在, 了) governs no object
    and does not count. Known limit: a second attribute said with a change word ("the boiler
    moved to the loft" after "the boiler is serviced by ...") reads as a new value."""
    old = {t.norm for t in typed_tokens(x) if t.type in (WORD, VALUE)}
    toks = typed_tokens(y)
    if any(t.type == NEG for t in toks):
        return False
    at = next((i for i, t in enumerate(toks) if t.type == CUE and t.norm not in _ADVERBS),
              None)
    if at is None:
        return False
    before = {t.norm for t in toks[:at] if t.type in (WORD, VALUE)}
    after = {t.norm for t in toks[at + 1:] if t.type in (WORD, VALUE)}
    return bool(before & old) and bool(after - old)

