"""Conflicting values among the top hits: the safety net at recall time for what the write
path did not supersede (turn events are never superseded; a change said in other words than
the first statement is often stored beside it).

Two current memories among the top TOP hits conflict when the newer states a new value of what
the older states. Both must state how things are (a fact, preference, identity or pending
item, or a person's turn of a conversation; an episode happened and stays, an assistant's turn
echoes; a pending item said after a memory of another kind is what is to be done, not a new
value of it), but for an assistant's echo of the older value ("Noted, $40 a
month"), which a newer one outdates as much as the value it echoes: it is ordered as an older
one, never as a newer.
They are read sentence by sentence, the sentences that say a value (a turn's one: an opener
or an aside beside it, "Ugh, I had that wrong. ... we're playing April 11th"), and one
sentence of each that conflict are enough. Each test reads the sentences' typed tokens
(write/align.py: values, change words, negations, possessives, where the predicate starts):
- **values**: the newer holds a value the older lacks, of a kind the older holds one of (a
  quantity, time or date: a digit, a date word, a Chinese time or numeral; or a name, place or
  code, and a run holding a capitalised word that is no date word, a model or version: "Kia
  EV6", "Java 21"; adjacent value tokens are one value, 阿里云):
  "Standup is at 9:15" and "Standup is run by Olivia" are two facts, not two values of one;
  where no typed value tells two statements apart (码云 / 极狐, "black coffee" / "green tea")
  and they mean one thing (the meaning frame, below), the words that differ are the value,
  when the newer, not negated, has a change word the older has not (recall/untyped.py
  ``replaced``);
- **subject**: no clash. Two subjects are two possessors ("my car" / "my wife's car",
  "Today's lunch" / "our lunch"), one the other's possessor ("I" / "my boss"), two names
  ("Our dog Bruno" / "Our cat Tilly"), or "I" said by two speakers (subjects neither text
  mentions of the other are the write path's reading alone: ``unmentioned``);
- **frame**: they share a word or value besides their subjects' names ("Bob said the review
  was cold" / "Bob works at Tyrell" share only Bob), or the newer names the older's value
  (below), or, where they share no word, the two memories mean something alike, the newer
  is in no mood (a plan, a past story, a passing exception: write/reading.py) and it says a
  change in words (below): their cosine stands out against what the kind examples meet
  (recall/framemeaning.py; "I rent a flat in Shoreditch" / "Just moved into a house in
  Walthamstow"; an embedder with meaning only);
- **a changed object**: where no typed value tells the two apart, the newer names a thing the
  older holds, then a change word, then words the older lacks ("X换成Y": recall/untyped.py
  ``changed_object``);
- **a change said**: the newer has a change word the older has not ("now", "switched", 换成),
  denies a value of the older ("not the 14th", 不是孙磊), or names each value the older
  states, whole or in part, beside a new one of its kind ("switched from Jira to Linear";
  "Traded the Yaris in for a Kia EV6" after "I drive a Toyota Yaris"), or, with a value of a
  kind the older holds, reads as a change by its meaning and is in no mood ("Landlord renewed
  the lease at £1,575", 健身房续费时涨价，一年要两千四: recall/changemeaning.py; a turn of a
  conversation only as a correction, whose stories read as changes: on LoCoMo through ingest,
  reading turns as changes cost R@1 0.431 -> 0.427; an embedder with meaning only); so a plan, a
  second item of a list, a negation of something else ("We don't ship to Switzerland") is no
  new value;
- **not for a while**: a newer text that names a time around or ahead of when it was said
  ("this week", 今天, "this Thursday", 下周二, text/timewindow.py) is an exception or a plan for
  that time, not a new value; one said as where the value starts ("from today", 从今天起: an
  open-ended window) is a new value;
- neither is a question ("Should I move to Hamburg?").

A question about the present (and a neutral one) gets the newer of a conflicting pair just
above the older, and the best hit's newer value said in a conversation is looked for below
the top too (``_pull``); one about the past ("before", 以前: recall/temporal.py's routing),
the older just above the newer. A question that names a time is left to the window. Each hit
of a pair says so in its notes and terms (``earlier_value`` / ``newer_value``), which
recall/why.py reads; the plan lists the pairs (``stages["conflicts"]``). Only the top TOP
hits are read pair by pair, and no model call: the meaning frame reads two stored vectors,
only for a pair that passes every other test (bench/results/conflicts.md)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from itertools import islice

from ..model import Hit, Kind, Record
from ..text import is_cjk
from ..text.timewindow import LATEST, parse_window
from ..write.align import (
    CUE,
    DATE_WORDS,
    NEG,
    NUMBER_WORDS,
    POSS,
    PRONOUNS,
    VALUE,
    WORD,
    Tok,
    frozen,
    predicate_index,
    set_apart,
    typed_tokens,
)
from ..write.extract import marked_sentences
from ..write.reading import read as wread
from ..write.statement import clauses
from ..write.tripledecide import OTHER_MOODS
from .restated import restated
from .untyped import USER, changed_object, replaced

JUDGED = 3               # candidates below the top judged for the best hit's newer value
TOP = 5                  # hits read for conflicts: what a recall returns by default (k = 5)
RESTATED = True          # also recall/restated.py's test (a switch to measure what it buys)
KINDS = frozenset({Kind.FACT, Kind.PREFERENCE, Kind.IDENTITY, Kind.PENDING})
FIRST_PERSON = frozenset("i me my mine we us our ours 我 我们 咱们 咱".split())
EARLIER = "earlier_value"
NEWER = "newer_value"
_ID = re.compile(r"\[([^\]\s]+)\]")


@dataclass(frozen=True)
class Statement:
    """What a memory's text states."""

    values: dict[str, str]             # a value (a run of value tokens) -> its kind
    value_words: frozenset[str]        # the tokens of its values
    subject: frozenset[str] | None     # None: no predicate seen
    names: frozenset[str]              # the subject's names ("Bob Kowalski", 胡娜)
    possessor: str | None              # whose subject it is ("my" -> USER, "Li's" -> "li")
    mentions: frozenset[str]           # content words, and USER when the user is named
    stated: frozenset[str]             # the values after its subject
    changes: frozenset[str]            # its change words
    negated: bool                      # it holds a negation
    question: bool


@lru_cache(maxsize=4096)
def read(text: str) -> Statement:
    toks = typed_tokens(text)
    start = predicate_index(toks)
    if start is None:  # no predicate seen: the subject is the first word (write/shape.py)
        start = next((i + 1 for i, t in enumerate(toks) if t.type in (VALUE, WORD)), 0)
    head = toks[:start]
    subject: frozenset[str] | None = None
    words = [t.norm for t in head if t.type in (VALUE, WORD) and t.norm not in PRONOUNS]
    if words:
        subject = frozen(words)
    elif any(t.norm in FIRST_PERSON for t in head):
        subject = frozenset({USER})
    mentions = {t.norm for t in toks if t.type in (VALUE, WORD)}
    rest = toks[start:]
    if subject == {USER} or any(t.norm in FIRST_PERSON for t in rest):
        mentions.add(USER)
    runs = _runs(toks, set_apart(text))
    return Statement({norm: kind for _, norm, kind in runs},
                     frozen(t.norm for t in toks if t.type == VALUE), subject,
                     frozen(t.norm for i, t in enumerate(head) if _is_name(toks, i)),
                     _possessor(head), frozen(mentions),
                     frozen(norm for at, norm, _ in runs if at >= start),
                     frozen(t.norm for i, t in enumerate(toks) if t.type == CUE
                               and not (i and toks[i - 1].type == NEG)),  # "no longer": NEG
                     any(t.type == NEG for t in toks),
                     text.rstrip().endswith(("?", "？")))


def _is_name(toks: tuple[Tok, ...], i: int) -> bool:
    """A name: a value, or a capitalised word before one ("Bob" of "Bob Kowalski" opening
    a sentence, where every word is capitalised)."""
    tok = toks[i]
    return tok.type == VALUE or (tok.type == WORD and tok.surface[:1].isupper()
                                 and i + 1 < len(toks) and toks[i + 1].type == VALUE)


def _runs(toks: tuple[Tok, ...], apart: tuple[bool, ...]) -> list[tuple[int, str, str]]:
    """The values of a text: each run of value tokens no mark sets apart is one ("Earl Grey",
    "50 mg", 阿里云; "31 (12" two), with where it starts and its kind: a quantity when a
    token holds a digit, a date word or a Chinese time or numeral; else a name."""
    out: list[tuple[int, str, str]] = []
    i = 0
    while i < len(toks):
        if toks[i].type != VALUE:
            i += 1
            continue
        j = i + 1
        while j < len(toks) and toks[j].type == VALUE and not apart[j]:
            j += 1
        run = toks[i:j]
        quantity = any(t.time or t.norm in DATE_WORDS or t.norm in NUMBER_WORDS
                       or any(c.isdigit() for c in t.surface)
                       for t in run) and not any(_named_word(t) for t in run)
        out.append((i, " ".join(t.norm for t in run), "quantity" if quantity else "name"))
        i = j
    return out


def _named_word(tok: Tok) -> bool:
    """A capitalised Latin word holding no digit that is not a date word: "Kia EV6", "Java 21",
    "2012 Ford Focus" name a thing (a model, a version); "March 14" is a date."""
    return (tok.surface[:1].isupper() and tok.surface.isascii() and tok.norm not in DATE_WORDS
            and not any(c.isdigit() for c in tok.surface))


def _possessor(head: tuple[Tok, ...]) -> str | None:
    """Whose the subject is: the word before a possessive marker ("my wife's": the wife's),
    else the user's "my" / "our"."""
    for i, tok in enumerate(head):
        if i > 0 and (tok.type == POSS or tok.norm == "的"):  # "Li's", 老婆的, "Today's"
            before = head[i - 1]
            if before.norm in FIRST_PERSON:
                return USER
            if before.type in (VALUE, WORD, CUE):
                return before.norm
    return USER if any(t.norm in ("my", "our") for t in head) else None


def values_conflict(old: Statement, new: Statement) -> bool:
    """The newer states a value the older lacks, of a kind the older holds one of (the
    older's value may be named again, denied or replaced: "it's 8:05 not 6:50", "from X
    to Y")."""
    added = {v: k for v, k in new.values.items() if v not in old.values}
    return not set(added.values()).isdisjoint(old.values.values())


def says_change(old: Statement, new: Statement) -> bool:
    """The newer announces a change the older does not (a change word or a negation), or
    names an earlier value beside a new one of its kind after its subject ("on-call: Priya
    (swapped with Tomas)", "switched from Jira to Linear")."""
    if new.changes - old.changes:
        return True
    if new.negated and not old.negated and old.stated & new.stated:
        return True  # "not the 14th", 不是孙磊: the older's value denied
    return replaces(old, new)


def replaces(old: Statement, new: Statement) -> bool:
    """The newer names each value the older states, whole or in part ("Traded the Yaris in
    for a Kia EV6" after "I drive a Toyota Yaris"; "Rhea left" after "Rhea Castellano"), and
    states a new one of its kind: a change said, and a frame the two share (the value is what
    both are about), whatever else their words are."""
    if not old.stated or not all(_named_in(v, new.values) for v in old.stated):
        return False
    kept = {old.values[v] for v in old.stated}
    added = {new.values[v] for v in new.stated if not _named_in(v, old.values)}
    return not kept.isdisjoint(added)


def _named_in(value: str, values: dict[str, str]) -> bool:
    """``value`` is one of ``values``, or one holds every word of the other ("yaris" /
    "toyota yaris")."""
    if value in values:
        return True
    words = set(value.split())
    return any(words <= set(v.split()) or set(v.split()) <= words for v in values)


def same_frame(a: Statement, b: Statement) -> bool:
    """They say something alike: a word or value in common besides the names of their
    subjects ("Bob said the review was cold" / "Bob works at Tyrell" share only Bob; "wifi
    password: A" / "wifi password changed: B" share what the value is of)."""
    return bool(a.mentions & b.mentions - a.names - b.names - {USER})


def subjects_clash(a: Statement, b: Statement) -> bool:
    """Two subjects: their possessors differ ("my car" / "my wife's car"), each names a name
    the other does not mention, or one is the other's possessor ("I" / "my boss", "Li" /
    "Li's wife") and its own words are not in the other."""
    if (a.possessor is not None and b.possessor is not None and a.possessor != b.possessor
            and a.possessor not in b.mentions and b.possessor not in a.mentions):
        return True
    if a.subject is None or b.subject is None:
        return False
    if a.names - b.mentions and b.names - a.mentions:
        return True  # two names: "Our dog Bruno" / "Our cat Tilly", 上海办公室 / 深圳办公室
    for one, other in ((a, b), (b, a)):
        if other.possessor in one.subject and other.subject.isdisjoint(one.mentions):
            return True
    return False


def unmentioned(a: Statement, b: Statement) -> bool:
    """Neither subject, as read from the words before each text's predicate, is mentioned
    in the other text: the write path's last reading of two subjects before it supersedes
    (write/supersede.py). Recall does not ask it: a change is often said after an opener
    ("hang on, I misread the email, it's 10:20 not 8:45", 刚才说错了，其实组长是林珊, "Busy
    month. ... Gran got moved to Larchwood House"), which this reading takes for
    the subject; asked at recall it kept 8 of 361 update chains (the dev file and five fresh
    sets) in the wrong order and one near miss of 260 in the right one
    (bench/results/conflicts.md)."""
    if a.subject is None or b.subject is None:
        return False
    return a.subject.isdisjoint(b.mentions) and b.subject.isdisjoint(a.mentions)


def _speaker(rec: Record) -> str:
    who = rec.metadata.get("speaker") or rec.metadata.get("role") or ""
    return who.strip().lower() if isinstance(who, str) else ""


def conflict(old: Record, new: Record,
             alike: Callable[[Record, Record], bool] | None = None,
             told: Callable[[Record, Record], bool] | None = None) -> bool:
    """Does ``new`` (said later) state a new value of what ``old`` states? Both are
    ``stating`` (order_conflicts reads no other). Read sentence by sentence (``_said``): one
    sentence of each that conflict are enough ("Ugh, I had that wrong. The owner
    double-booked, so we're playing April 11th." after "Our first gig is on April 4th!")."""
    if not old.at < new.at or old.invalid_at is not None or new.invalid_at is not None:
        return False  # a superseded one is placed by the routing (recall/temporal.py)
    if for_a_while(new.content, new.at) and not for_a_while(old.content, old.at):
        return False  # "this week", 今天: an exception for that time, not a new value
    if new.kind == Kind.PENDING and old.kind != new.kind:
        return False  # a pending item ("thinking of replacing it with ..."): what is to be
        #               done, not how things are
    said_old, said_new = marked_sentences(old.content), marked_sentences(new.content)
    who = _speaker(old), _speaker(new)
    meant = (lambda: alike(old, new) and not wread(new.content).moods & OTHER_MOODS) \
        if alike is not None else None
    changed = (lambda: told(old, new) and not wread(new.content).moods & OTHER_MOODS) \
        if told is not None else None
    if any(_states_anew(x, y, who, meant, changed)
           for y in _said(new, said_new, parts=True) for x in _said(old, said_old)):
        return True
    # a value said in plain words, named again (recall/restated.py), by texts of one sentence:
    # only between turns of a conversation (or what was extracted from them), two remembered
    # facts being the write path's to set apart; read in the sentences of longer turns it
    # reordered LoCoMo's chit-chat (R@1 -0.005 through ingest)
    return RESTATED and len(said_old) <= 1 and len(said_new) <= 1 \
        and restated(old.content, new.content, said_in_chat(old) or said_in_chat(new))


def _said(rec: Record, found: list[tuple[str, bool]], parts: bool = False) -> list[str]:
    """The sentences (``found``: write/extract.py ``marked_sentences``) of a memory that say
    a value, not asking: a fact's each, and a turn's one, the rest being an opener or an
    aside ("Hi there! Quick thing, the swim class is every Monday at 6.", 我看错了，票上其实是7排),
    or values alone ("Evening!", 老王！), which say nothing of anything; a turn with values in
    several sentences tells a story, not a change, and is not read (on LoCoMo through ingest,
    reading every such sentence cost R@1 0.049).
    ``parts``: a fact's sentence of several clauses is read clause by clause too
    (write/statement.py ``clauses``, those holding a value), for the newer of two: a change
    said in one clause of a chatty sentence ("rough week, the boiler broke, and they moved my
    desk to D4") has its own subject, which the sentence's opening words are not. (Read so in
    the older too, a clause holding one of its values, "I'm learning the erhu", was read as
    replaced by a newer statement naming it beside a teacher's name.)"""
    if len(found) <= 1:
        said = [rec.content]
    else:
        held = [text for text, asked in found if not asked and read(text).values
                and {t.type for t in typed_tokens(text)} - {VALUE}]
        said = held if rec.kind in KINDS or len(held) == 1 else []
    if not parts or rec.kind not in KINDS:
        return said
    held = [part for text in said for part in clauses(text)
            if part != text.strip() and read(part).values]
    return said + [part for part in dict.fromkeys(held) if part not in said]


def _states_anew(x: str, y: str, who: tuple[str, str],
                 meant: Callable[[], bool] | None = None,
                 changed: Callable[[], bool] | None = None) -> bool:
    """Sentence ``y`` of ``new`` states a new value of what sentence ``x`` of ``old`` does;
    ``meant``: whether the two memories mean something alike (recall/framemeaning.py), a
    frame where they share no word; ``changed``: whether the newer memory says a change by its
    meaning (recall/changemeaning.py), where it holds no change word."""
    a, b = read(x), read(y)
    if b.question or a.question:
        return False
    if who[0] and who[1] and who[0] != who[1] and USER in a.mentions | b.mentions:
        return False  # "I" of two speakers
    worded = says_change(a, b)
    said = worded or (changed is not None and values_conflict(a, b) and changed())
    alike = worded and meant is not None and meant()  # a change said in words only
    moved = worded and changed_object(x, y)
    valued = values_conflict(a, b) or (alike and replaced(a, b, y)) or moved
    return valued and said and not subjects_clash(a, b) \
        and (same_frame(a, b) or replaces(a, b) or alike or moved)


def said_in_chat(rec: Record) -> bool:
    """A turn of a conversation, or a memory extracted from turns (write/ingest.py)."""
    return "role" in rec.metadata or "source_events" in rec.metadata


@lru_cache(maxsize=4096)
def for_a_while(text: str, at: datetime) -> bool:
    """Does ``text`` name a while that holds ``at`` (when said or asked: "today", 这周) or
    lies ahead of it ("this Saturday", 下周, "tomorrow"; text/timewindow.py)? Kept: the net
    and the near pairs ask it of the same top hits."""
    window = parse_window(text, at)
    return window is not None and not window.loose and window.end > at \
        and window.end != LATEST  # "from today", 今天起: a change that holds from then on


def stating(rec: Record) -> bool:
    """A memory that states how things are: one of KINDS, or a person's turn of a
    conversation (role "user", the turns write/extract.py reads too); not an episode, which
    happened and stays, nor an assistant's or a tool's turn, which answers or echoes what it
    was told ("Good call, plenty of people use that one")."""
    return rec.kind in KINDS or (rec.kind == Kind.EVENT and rec.metadata.get("role") == "user")


def echoes(rec: Record) -> bool:
    """An assistant's turn: it states nothing anew, but where it repeats a value ("Noted, $40
    a month") a newer statement changes, it is as old as that value, and is ordered as an
    older one (never as a newer)."""
    return rec.kind == Kind.EVENT and rec.metadata.get("role") == "assistant"


def order_conflicts(hits: list[Hit], mode: str, query: str,
                    judge: Callable[[Record, Record], bool] = conflict) -> list[tuple[Hit, Hit]]:
    """Place the newer of each conflicting pair among the top TOP hits just above the older
    (``mode`` "current"), or the older just above the newer ("past"); mark both. The older
    may be an assistant's echo of the value (``echoes``), the newer never. Returns the
    pairs (older, newer). Only memories in the question's script are read (a statement and
    its change compared word by word are in one language; a question in English segments no
    Chinese, so a recall that needs no jieba does not load it). ``judge``: the conflict
    function (compare.py; ``conflict`` here by default), asked of each current pair in the
    order they were said."""
    if mode not in ("current", "past") or len(hits) < 2:
        return []
    top = hits[:TOP]
    asked = is_cjk(query)
    if mode == "current":
        _pull(top, hits[TOP:], asked, judge)
    script = [h for h in top if is_cjk(h.memory.content) == asked]
    read = [h for h in script if stating(h.memory)]
    older = read + [h for h in script if echoes(h.memory)]
    pairs = [(x, y) for x in older for y in read
             if x.memory.at < y.memory.at and x.memory.invalid_at is None
             and y.memory.invalid_at is None and judge(x.memory, y.memory)]
    if not pairs:
        return []
    for _ in range(len(pairs) * len(top)):
        moved = False
        for older, newer in pairs:
            first, second = (newer, older) if mode == "current" else (older, newer)
            i, j = top.index(first), top.index(second)
            if i > j:
                top.insert(j, top.pop(i))
                moved = True
        if not moved:
            break
    kept = {id(h) for h in top}
    hits[:] = top + [h for h in hits if id(h) not in kept]
    for older, newer in pairs:
        _mark(older, newer)
    return pairs


def _pull(top: list[Hit], rest: list[Hit], asked: bool,
          judge: Callable[[Record, Record], bool]) -> None:
    """The best hit's newer value said in a conversation (a turn is never superseded), ranked
    below the top for saying the change in other words than the question's ("The Crown
    library shut for repairs, so we gather at Hartley's cafe now."), takes the top's last
    place; the ordering then sets it above the best. Only one with a typed value of a kind the
    best states, not that value (a word said again, read over every candidate, pulled "the
    teacher is strict" over "she loves the class"), standing above chance for the question
    where meaning is read (on LoCoMo, chit-chat turns with none were pulled: R@1 0.439 ->
    0.428 through ingest). The first JUDGED such are judged (its CPU: bench/results/speed.md)."""
    best = top[0].memory
    if not (stating(best) or echoes(best)) or best.invalid_at is not None \
            or is_cjk(best.content) != asked or not (stated := read(best.content)).values:
        return
    found = (y for y in rest if said_in_chat(y.memory) and stating(y.memory)
             and best.at < y.memory.at and y.memory.invalid_at is None
             and is_cjk(y.memory.content) == asked
             and y.explanation.terms.get("meaning", 1.0) > 0
             and values_conflict(stated, read(y.memory.content)))
    for y in islice(found, JUDGED):
        if judge(best, y.memory):
            top[-1] = y
            return


def _mark(older: Hit, newer: Hit) -> None:
    added = [v for v in read(newer.memory.content).values
             if v not in read(older.memory.content).values]
    older.explanation.terms[EARLIER] = 1.0
    older.explanation.notes.append(
        f"earlier value: [{newer.memory.id}] said later ({newer.memory.at.date()}) "
        f"states {', '.join(added) or 'another value'} instead")
    newer.explanation.terms[NEWER] = 1.0
    newer.explanation.notes.append(
        f"newer value: states what [{older.memory.id}] said earlier "
        f"({older.memory.at.date()}) with {', '.join(added) or 'another value'}")


def later_of(hit: Hit) -> str | None:
    """The id of the newer memory that states another value of this hit's, if any."""
    return _named(hit, "earlier value: ")


def earlier_of(hit: Hit) -> str | None:
    """The id of the older memory whose value this hit states anew, if any."""
    return _named(hit, "newer value: ")


def _named(hit: Hit, prefix: str) -> str | None:
    for note in hit.explanation.notes:
        if note.startswith(prefix):
            found = _ID.search(note)
            if found:
                return found.group(1)
    return None
