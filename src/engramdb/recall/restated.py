"""Does a newer statement say the older's fact again with another value, in words the value
test of recall/conflicts.py does not read? Values there are typed tokens (numbers, names,
codes); people change what they drink, take or use in plain words ("it's rooibos every evening
now", 换成了渴望猫粮, "put me on fexofenadine"). Here the value is what differs: the structure
of the two statements (write/reading.py, write/align.py) decides, with no list of phrasings:

- **one subject, one mood**: the write path's own reading (write/reading.py) does not set the
  two apart (another subject: "my daughter" / "I"), and neither is in a mood the other is not
  (a plan, a past story, a passing exception, one more item, a question);
- **a change said**: the newer names again what the older said of its subject, beside a
  new value ("Traded the Yaris in for a Kia EV6", "Loratadine stopped working so my doctor
  put me on fexofenadine", "it's in room Kilimanjaro, not Everest", 输入法换成微信输入法了),
  or has an arrow the older has not ("vpn endpoint -> vpn-ams"). Between two remembered
  statements (the write path has judged the pair already, a value marked former included:
  write/tripledecide.py "triple_former_value") the words named again must come with a
  change word the older has not (write/align.py ``CUE``: "now", 换成): "I usually take the
  bus to work" / "Tomorrow I'm driving to work because of the bus strike" names the bus
  again and changes nothing. In a conversation (a turn, or a memory extracted from turns:
  what the write path never supersedes) the words named again are enough;
- **a new value**: the newer says content words the older does not, and some of the older's
  are not in the newer;
- **one frame**: they share a content word (the subject's or the predicate's).

The conflict is only read between two of the top hits of one question (recall/conflicts.py
``order_conflicts``): both already answer it."""

from __future__ import annotations

from ..write.align import CUE, NEG, VALUE, WORD, Tok, only_done, typed_tokens
from ..write.reading import Reading, read
from ..write.tripledecide import OTHER_MOODS

ARROWS = frozenset({"->", "→", ">"})
REPEATED = True   # a change said by naming the older's value again (a switch to measure it)


def restated(old: str, new: str, chat: bool = True) -> bool:
    """Does ``new`` (said later) state ``old``'s fact with another value? ``chat``: one of
    them was said in a conversation (a turn, or extracted from turns); else both were
    remembered, and the write path has judged them already."""
    a, b = read(old), read(new)
    if "question" in a.moods | b.moods or (a.moods ^ b.moods) & OTHER_MOODS:
        return False
    if b.subject.differs(a.subject):
        return False
    ta, tb = typed_tokens(old), typed_tokens(new)
    mine, theirs = _content(ta), _content(tb)
    cues = _cues(tb) - _cues(ta)
    said = (_arrow(tb) and not _arrow(ta)) \
        or (REPEATED and bool(_repeated(a, mine, tb)) and (chat or bool(cues)
                                                            and not only_done(cues, new)))
    if not said or not theirs - mine:
        return False
    return bool(mine - theirs) and bool(mine & theirs)


def _repeated(a: Reading, mine: set[str], tb: tuple[Tok, ...]) -> set[str]:
    """The older's words past its subject (what it says of it: "loratadine", "Yaris") that
    the newer names again."""
    heads = {t.norm for t in a.clause[:a.start]} | set(a.subject.words)
    return {t.norm for t in tb if t.type in (VALUE, WORD) and t.norm in mine - heads}


def _content(toks: tuple[Tok, ...]) -> set[str]:
    return {t.norm for t in toks if t.type in (VALUE, WORD)}


def _cues(toks: tuple[Tok, ...]) -> set[str]:
    """Its change words, not those negated ("no longer" is a negation)."""
    return {t.norm for i, t in enumerate(toks)
            if t.type == CUE and not (i and toks[i - 1].type == NEG)}


def _arrow(toks: tuple[Tok, ...]) -> bool:
    return any(t.surface in ARROWS for t in toks)
