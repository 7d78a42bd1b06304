"""Two current statements among the top hits that the question's words weigh alike (their
lexical coverage, recall/relevance.py, within TIE of each other): near misses the write path
kept apart (two subjects, two attributes of one subject, a fact and a plan). Fusion and
re-ranking tie them, and the order falls to strength or recency. Which is the question about?
Three things decide, in this order:

- **subject**: the question read as a statement by the write path (write/reading.py; in
  English what follows its first auxiliary: "Where do my parents live?" -> "my parents
  live?"). When it is about the user or a person and so is each hit, the hit of its subject
  ranks above the hit of another ("我住在哪里？": "我住在杭州西湖区" above "我爸妈住在绍兴");
- **mood**: the question is in a mood (a plan, a past story, a passing exception, one more
  item: write/reading.py ``MOODS``, the grammar the write path sets statements apart by) that
  one hit is in and the other is not; a question in two moods, in either ("Which version are
  we considering?": the plan; "How am I going to get there this week?", a plan and a passing
  while: the exception for this week; a statement or a question that names a while around
  or ahead of when it was said or asked, "this week", 这周, "until Friday", "tomorrow", is in
  the passing mood whatever its words: the time parser's bounded window,
  recall/conflicts.py ``for_a_while``; one about what was asked, by a verb of asking,
  ``ASKING``, is about a question said); a question in none ranks a plain statement
  above one that is itself a question or a past story (``ASIDE``: "Where do I live?": "I live
  in Edinburgh" above "Back in 2015 I lived in Glasgow") or that names one occasion of a
  weekday ("next Tuesday standup moves to 11", text/timewindow.py ``occasion``), unless the
  question leans toward that one by meaning (below) by ASIDE_LEAN or more; a question
  about how things usually are (the habitual aspect, ``USUAL``: "normally", 平时, 一般) ranks
  a plain statement above a passing exception or a plan too ("How do I usually get to the office?":
  "I walk to work" above "This week I'm driving, my ankle is sprained"). A question in a mood,
  or about the usual, reads its mood in two statements that share a word besides their
  subjects' names (``same_frame``) even where its words weigh them apart: "How am I getting
  to the studio these days?" holds "studio" of the habit "I walk to the studio", not of the
  exception "This week I'm driving". Or that say one thing in other words, by meaning
  (recall/framemeaning.py, at ``FRAMED``): "I swim before work every day" and "Pool's shut
  this week, so I'm jogging instead" share no word;
- **meaning**: the two statements differ in a direction, x - y, their vectors in the
  question's own model (its half of a routed vector: e5 for English, USE for Chinese). How
  far the question leans toward x along that line, q . (x - y) / |x - y| (from -1 to 1),
  needs no background: the question's offset and what the two share cancel out, and what is
  left is what sets them apart ("在哪里" against "几点"). The one the question leans toward by
  MIN_LEAN or more ranks first, when the two share a word besides their subjects' names
  (recall/conflicts.py ``same_frame``) and the lift keeps time's order (the newer first; for
  a question about the past the older): two values said of one thing may be one fact
  changed, which time orders, not meaning. Where their values are of two kinds (a name and a
  quantity: "runs Ubuntu 22.04" / "has 64 GB of RAM") they are two attributes, and meaning
  decides whatever the order (an embedder with meaning only: hashed words lean by words, and
  a value misread, 一家 as a quantity, then cost one chain). (Letting meaning overrule time
  where the write path reads two subjects bought one held-out near miss and cost one
  held-out update chain: dropped.)

A pair is read only when both are facts, preferences, identities or plans kept as pending
items, current and in the question's script. A plan and a statement are a pair whatever the
question's words weigh, and only the mood orders them: "What colour are we going to paint
the hall?" is about the pending "We plan to repaint the hall yellow" even where "The hall is
painted grey" holds more of its words (past stories kept as events read so as well cost
update chains their order: bench/results/conflicts.md). Only the top TOP hits are read, with
one store read of their vectors when such a pair is there and no model call; a pair
recall/conflicts.py finds conflicting is ordered by it after this (the newer first for a
question about now).
bench/results/restated.md has what each part buys."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from functools import cache

import numpy as np

from ..model import Hit, Kind, Record
from ..text import is_cjk, tokenize
from ..text.timewindow import occasion
from ..write.align import COPULAS
from ..write.reading import Reading, read
from ..write.tripledecide import OTHER_MOODS
from .background import in_model, model_half
from .conflicts import for_a_while, same_frame
from .conflicts import read as statement

TOP = 4                  # hits read for near pairs
TIE = 0.05               # lexical coverages closer than this weigh the question's words alike
MIN_LEAN = 0.05          # the question's lean toward one of the two that decides
ASIDE_LEAN = 0.25        # a lean this far toward a question or a past story puts it first
#                          for a plain question too (design near misses, with fresh20: +1
#                          at 0.15 and at 0.25; the same override for a question in a mood
#                          cost 4 / 2 / 2 at 0.1 / 0.15 / 0.25)
FRAMED = 1.0             # two statements said in other words stand this far above the kind
#                          examples (recall/framemeaning.py) to be one frame for a question in
#                          a mood or about the usual (nineteenth session, design near misses:
#                          2.5 / 1.5 / 1.0 / no bar gave +2 / +3 / +4 / +4 of 430, nothing
#                          else changed; bench/results/update_reading.md)
KINDS = frozenset({Kind.FACT, Kind.PREFERENCE, Kind.IDENTITY})
PLANNED = Kind.PENDING   # a plan kept as one: paired with a statement by the mood alone
# the moods a question in none of them is not about: a question said, a past story (a plan and
# a passing exception are not here: their words also open a change that holds from now, "from
# today", 今天开始, "from next month"; with them, 5 of 361 update chains lost their order)
ASIDE = frozenset({"question", "past"})
PEOPLE = frozenset({"user", "person"})   # subjects the subject rule compares
NOTE = "near miss"
# the habitual aspect: a question about how things usually are ("How do I normally get to
# work?", 我平时几点睡？), from which a passing exception or a plan is aside as a past story is
USUAL = frozenset("""usually normally generally typically ordinarily regularly always
    平时 一般 通常 平常 往常 一向 向来 素来""".split())
_USUAL_ZH = tuple(w for w in USUAL if not w.isascii())
_NOT_NOW = frozenset({"passing", "plan"})
# a question about what the user asked ("What did I ask the plumber?", 那次我咨询的是哪家律所？) is
# in the mood of a question said: the verbs of asking, both languages (English ones as
# text/tokenize.py stems them: "asked", "wondering")
ASKING = frozenset("ask wonder 问 问过 请教 咨询".split())

Vectors = Callable[[Sequence[str]], dict[str, np.ndarray]]


def order_near(hits: list[Hit], query: str, mode: str, vector: np.ndarray | None,
               vectors: Vectors, meaning: bool = True, now: datetime | None = None,
               framed: Callable[[Record, Record], bool] | None = None
               ) -> list[tuple[Hit, Hit, str]]:
    """Move, within the top TOP hits, the one of each near pair the question ``query``
    (embedded as ``vector``) leans toward just above the other; ``vectors`` reads stored
    vectors by id; ``meaning``: the embedder reads meaning, not hashed words (only then does
    the lean order two kinds of value against time); ``now``: when it is asked (a question
    that names a while around it is in the passing mood); ``framed``: do two statements that
    share no word say one thing (by meaning; None: words alone). Returns (moved up, moved down, why:
    "subject", "mood" or "meaning") for each move; both hits say so in their notes, the one
    moved up with its ``near_lean``."""
    if vector is None or len(hits) < 2:
        return []
    top = hits[:TOP]
    asked = is_cjk(query)
    said = [h for h in top if h.memory.kind in KINDS | {PLANNED}
            and h.memory.invalid_at is None and is_cjk(h.memory.content) == asked]
    usual = usually(query)
    # the question's mood is read only where two statements of one frame may be there to
    # order, and once
    asked_mood = cache(lambda: _asked_mood(query, now))

    def in_mood() -> bool:   # the question in a mood or about the usual
        return usual or bool(asked_mood())

    pairs = [(x, y) for i, x in enumerate(said) for y in said[i + 1:]
             if _near(x, y) or _planned(x, y) or (_alike(x, y) and in_mood())
             or (framed is not None and in_mood() and framed(x.memory, y.memory))]
    if not pairs:
        return []
    mood = asked_mood()
    leans = _leans(vector, vectors(list({h.memory.id: 0 for p in pairs for h in p})))
    asks = asked_of(query)
    moved: list[tuple[Hit, Hit, str]] = []
    for _ in range(len(pairs)):
        swap = None
        for x, y in pairs:
            upper, lower = (x, y) if top.index(x) < top.index(y) else (y, x)
            lean = leans.get((lower.memory.id, upper.memory.id), 0.0)
            why = _lifts(asks, mood, lower, upper, lean, mode, meaning, usual)
            if why != "mood" and not _near(x, y):
                why = ""   # a plan and a statement the question's words set apart
            if why:
                swap = (lower, upper, why)
                break
        if swap is None:
            break
        lower, upper, _ = swap
        top.insert(top.index(upper), top.pop(top.index(lower)))
        moved.append(swap)
    hits[:TOP] = top
    for up, down, why in moved:
        lean = leans.get((up.memory.id, down.memory.id), 0.0)
        up.explanation.terms["near_lean"] = round(lean, 4)
        up.explanation.notes.append(f"{NOTE}: the question is about it rather than "
                                    f"[{down.memory.id}] (its {why}; lean {lean:.2f})")
        down.explanation.notes.append(f"{NOTE}: [{up.memory.id}] says something alike that "
                                      "the question is about")
    return moved


def asked_of(query: str) -> Reading | None:
    """The question read as a statement (write/reading.py), when its subject is the user or
    a person; in English what follows its first auxiliary ("Where do my parents live?" ->
    "my parents live?"), the words before it being what is asked."""
    if not is_cjk(query):
        toks = query.split()
        at = next((i for i, w in enumerate(toks) if w.lower() in COPULAS), None)
        if at is None:
            return None
        query = " ".join(toks[at + 1:])
    found = read(query)
    return found if found.subject.kind in PEOPLE else None


def _whose(asks: Reading, x: Hit, y: Hit) -> bool:
    """The question asks about ``x``'s subject and not ``y``'s, both people (the user, "my
    parents", 我女儿, a name): "我住在哪里？" is not about "我爸妈住在绍兴"."""
    rx, ry = read(x.memory.content), read(y.memory.content)
    if rx.subject.kind not in PEOPLE or ry.subject.kind not in PEOPLE:
        return False
    return not asks.subject.differs(rx.subject) and asks.subject.differs(ry.subject)


def _asked_mood(query: str, now: datetime | None) -> frozenset[str]:
    """The question's mood (write/reading.py, its reading kept): a question said aside, and
    the passing mood where it names a while around or ahead of ``now`` ("this week", 这周); a
    question about what was asked (``asking``) is in the mood of a question said alone."""
    if asking(query):   # its other moods are the asking's ("我问过": 过 is the asking's past)
        return frozenset({"question"})
    mood = read(query).moods & OTHER_MOODS - {"question"}
    return mood | {"passing"} if now is not None and for_a_while(query, now) else mood


def asking(query: str) -> bool:
    """Does the question ask about something asked (``ASKING``)? ("问一下，..." opens a
    question with the verb and is read so too.)"""
    return not ASKING.isdisjoint(tokenize(query))


def usually(query: str) -> bool:
    """Does the question ask how things usually are (``USUAL``)?"""
    return bool(USUAL & set(re.findall(r"[a-z]+", query.lower()))) \
        or any(w in query for w in _USUAL_ZH)


def _lifts(asks: Reading | None, mood: frozenset[str], lower: Hit, upper: Hit, lean: float,
           mode: str, meaning: bool = True, usual: bool = False) -> str:
    """Why the question ranks ``lower`` above ``upper`` ("" when it does not): its subject
    first, then its mood, then its lean."""
    if asks is not None:
        if _whose(asks, lower, upper):
            return "subject"
        if _whose(asks, upper, lower):
            return ""
    if mood:
        mine = bool(mood & _moods(lower.memory))
        theirs = bool(mood & _moods(upper.memory))
        if mine != theirs:
            return "mood" if mine else ""
    else:  # a plain question: a plain statement above a question, a past story or one day
        mine, theirs = _aside(lower.memory.content), _aside(upper.memory.content)
        if usual:   # a passing exception or a plan is aside from how things usually are
            mine = mine or bool(_moods(lower.memory) & _NOT_NOW)
            theirs = theirs or bool(_moods(upper.memory) & _NOT_NOW)
        if mine != theirs:  # unless it leans far to the one aside, by meaning
            far = meaning and not usual
            if mine:
                return "meaning" if far and lean >= ASIDE_LEAN else ""
            return "" if far and lean <= -ASIDE_LEAN else "mood"
    lifted = lean >= MIN_LEAN and _alike(lower, upper) \
        and (_in_time(lower, upper, mode) or (meaning and _two_kinds(lower, upper)))
    return "meaning" if lifted else ""


def _two_kinds(x: Hit, y: Hit) -> bool:
    """Each holds typed values and no kind of one is the other's (a name against a quantity:
    "runs Ubuntu 22.04" / "has 64 GB of RAM"): two attributes, not one value changed, so time
    does not order them (recall/conflicts.py ``values_conflict`` reads no change either)."""
    kx = set(statement(x.memory.content).values.values())
    ky = set(statement(y.memory.content).values.values())
    return bool(kx) and bool(ky) and kx.isdisjoint(ky)


def _moods(rec: Record) -> frozenset[str]:
    """A statement's moods (write/reading.py), and the passing mood where it names a while
    around when it was said ("this week", 这周, "until Friday": recall/conflicts.py)."""
    found = read(rec.content).moods
    return found | {"passing"} if for_a_while(rec.content, rec.at) else found


def _aside(text: str) -> bool:
    """Said aside from how things stand: a question, a past story (``ASIDE``) or one occasion
    of a weekday."""
    return bool(read(text).moods & ASIDE) or occasion(text)


def _in_time(up: Hit, down: Hit, mode: str) -> bool:
    """Lifting ``up`` over ``down`` keeps time's order: the newer first, or for a question
    about the past (recall/temporal.py's routing, ``mode``) the older."""
    newer = (up.memory.at, up.memory.id) > (down.memory.at, down.memory.id)
    return newer != (mode == "past")


def _near(x: Hit, y: Hit) -> bool:
    """Two statements that the question's words weigh alike."""
    cx, cy = x.explanation.terms.get("coverage"), y.explanation.terms.get("coverage")
    return cx is not None and cy is not None and abs(cx - cy) < TIE


def _planned(x: Hit, y: Hit) -> bool:
    """One is a plan kept as one (a pending item), the other a statement of how things
    stand: a question in the plan's mood is about the plan whatever words it shares with
    the statement ("What are we going to call the boat?" / "The boat is called ...")."""
    return (x.memory.kind == PLANNED) != (y.memory.kind == PLANNED)


def _alike(x: Hit, y: Hit) -> bool:
    """They share a word or value besides their subjects' names."""
    return same_frame(statement(x.memory.content), statement(y.memory.content))


def _leans(query: np.ndarray, found: dict[str, np.ndarray]) -> dict[tuple[str, str], float]:
    """For each two memories x, y: how far the question leans toward x along the line from y
    to x in the question's own model, q . (x - y) / |x - y|, from -1 to 1."""
    dims = model_half(query)
    if not len(dims) or len(found) < 2:
        return {}
    ids = list(found)
    rows = in_model(np.array([found[m] for m in ids]), dims)
    q = query[dims].astype(np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    out = {}
    for i, x in enumerate(ids):
        for j, y in enumerate(ids):
            gap = float(np.linalg.norm(rows[i] - rows[j]))
            if i != j and gap > 1e-6:
                out[(x, y)] = float(q @ (rows[i] - rows[j])) / gap
    return out
