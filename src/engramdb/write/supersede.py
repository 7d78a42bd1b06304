"""The write decisions past exact duplicates and URIs: slot-aware supersession, near-duplicates
and surprise-gated importance. ``judge`` is pure: it reads a new record and its stored
neighbours and names the action, the rule and the evidence; engine._write applies it.

Rules (ids as they appear in ``WriteResult.rule``), first match wins, for a fact, preference or
procedure whose slot (write/slots.py) is also the slot of a current stored one (the newest):
- "slot_number_changed": a number in the value changed ("port 8420" -> "9000") -> SUPERSEDE
- "slot_same_value": same value -> NOOP (the stored one is reinforced)
- "slot_refined": the old text is contained in the new one -> UPDATE of the old (version + 1)
- "slot_new_value": another value -> SUPERSEDE (the old gets invalid_at and superseded_by)
- "slot_older_value": a new value whose ``at`` is before the current one's: stored as history,
  superseded at once by the current one
Then, with a conflict function registered to judge writes (compare.py), "conflict_function": a
new fact, preference, identity or pending item (``STATING``) supersedes the nearest current one
of those kinds, said no later, that the function says it conflicts with. Then the shape rules
(write/shape.py), then the triple rule (write/tripledecide.py: "triple_former_value"), then
"ended_value" (write/ended.py): the new text says
a thing has ended ("I sold the Civic", "钢琴不学了") and a current fact, preference or procedure
near it names that thing -> SUPERSEDE of the closest one. Then "changed_value"
(``_changed_value``): the recall-time net's judgement (recall/conflicts.py ``conflict``) says
the new statement (``STATING``) states a new value of the current one nearest it ->
SUPERSEDE.
Otherwise, for any kind but events, "near_duplicate": a current memory of the same kind with
token Jaccard >= NEAR_DUP_JACCARD and cosine >= NEAR_DUP_COSINE, the same numbers and no
different slot -> NOOP. Otherwise "new_memory" -> ADD, with the surprise in the evidence.
Before any of these but the ended and near-duplicate checks, a stored memory about another
subject or said in another mood is set apart (write/tripledecide.py ``split_apart``; the ADD's
evidence names it under "kept_apart").
A memory with a URI is addressed by it: it neither supersedes nor merges, nor is merged into.
Every cosine here is the configured similarity function's (compare.py; the store's own cosine
by default)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..compare import DEFAULT, Compared, Comparers
from ..model import Action, Kind, Layer, Record, Scope
from ..recall.conflicts import KINDS as STATING  # what a conflict compares, here as at recall
from ..recall.conflicts import Statement, conflict, said_in_chat, subjects_clash, unmentioned
from ..recall.conflicts import read as statement
from ..store.protocol import Store
from ..store.vectors import cosines
from ..text import normalize, tokenize
from .align import DATE_WORDS, ZH_NUMERALS, typed_tokens
from .ended import ended, holds
from .prepare import slot_token
from .reading import read as reading
from .shape import SHAPE_KINDS, SHAPE_MIN_COSINE, shape_decision
from .shape import Judge as ShapeJudge
from .slots import Slot, slot_of
from .stance import KINDS as STANCE_KINDS
from .stance import Stance, decoded
from .tripledecide import former_values, split_apart, triple_decision

NEIGHBOURS = 10            # candidates read from each of vector and text search
NEAR_DUP_JACCARD = 0.8     # lexical: share of distinct tokens in common
NEAR_DUP_COSINE = 0.9      # semantic: cosine of the two vectors
SURPRISE_BASE = 0.7        # importance x (SURPRISE_BASE + SURPRISE_GAIN x surprise), clamped
SURPRISE_GAIN = 0.6


@dataclass
class Neighbour:
    record: Record
    cosine: float
    stance: Stance | None = None   # what the store kept of its statement (write/stance.py)


@dataclass
class Judgement:
    action: Action
    rule: str
    target: Record | None = None            # the stored memory the decision concerns
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass
class Nearby:
    """What a write is judged against: the candidates and the top-1 cosine in the scope."""

    candidates: list[Neighbour]
    top_cosine: float = 0.0
    # the stored memories at cosine >= NEAR_DUP_COSINE among the nearest CANDIDATES, or None
    # when all of those are that near (there may be more): what a sleep's merge pass would
    # search for again (dynamics/merge.py ``NearHints``)
    near: list[str] | None = None

    @property
    def surprise(self) -> float:
        """1 - the highest cosine to a stored memory of the scope, in [0, 1]."""
        return min(max(1.0 - self.top_cosine, 0.0), 1.0)


NEIGHBOUR_LAYERS = (Layer.CORE, Layer.ARCHIVED)  # an archived value can be woken: judge it
CANDIDATES = 2 * NEIGHBOURS  # vector candidates re-scored exactly before the cut to NEIGHBOURS
FORMER_WORD_CAP = 100  # a former value's word held by more memories is not searched for


def neighbours(store: Store, rec: Record, vector: np.ndarray,
               batch: BatchNeighbours | None = None, index: int = 0,
               compare: Comparers = DEFAULT) -> Nearby:
    """The scope's core memories ``rec`` must be judged against. A record with a slot: the
    nearest by vector, and the slot's current value found by its slot token (``slot_token``)
    however many look-alikes surround it. (A BM25 search over the content's words was a third
    leg: the slot token finds what it found for the judgement, and inside the write's
    transaction it ran as SQL over every matching row, ~30 ms a write at 100k memories.)
    Without a slot: only those close enough to be near-duplicates (loading fewer records keeps
    a batch of 10k writes fast). ``batch``: a batch of writes searched at once
    (``BatchNeighbours``), ``index`` this record's place in it. ``compare``: with a registered
    similarity or write-time conflict function (compare.py) all NEIGHBOURS are read, and the
    similarity re-scores each of them."""
    if batch is None:
        found = store.search_vector(rec.scope, vector, CANDIDATES, NEIGHBOUR_LAYERS)
    else:
        found = batch.candidates(index, vector)
    ranked = sorted(found, key=lambda item: (-item[1], item[0]))[:CANDIDATES]
    hits = ranked[:NEIGHBOURS]
    top = hits[0][1] if hits else 0.0
    crowded = len(ranked) == CANDIDATES and ranked[-1][1] >= NEAR_DUP_COSINE
    near = None if crowded or compare.custom_similarity else [
        mid for mid, cos in ranked if cos >= NEAR_DUP_COSINE]
    slotted = slot_of(rec.content, rec.kind) is not None and rec.uri is None
    shaped = rec.kind in SHAPE_KINDS and rec.uri is None  # write/shape.py compares them
    scored = {mid: cos for mid, cos in hits if slotted or compare.wide
              or cos >= NEAR_DUP_COSINE or (shaped and cos >= SHAPE_MIN_COSINE)}
    token = slot_token(rec) if slotted else None
    if token:  # the slot's current value, however many look-alikes crowd the other legs
        for mid, _ in store.search_text(rec.scope, [token], {"anchors": 1.0}, NEIGHBOURS,
                                        NEIGHBOUR_LAYERS):
            scored.setdefault(mid, float("nan"))
    if slotted or shaped:
        for mid in _structural_candidates(store, rec):
            scored.setdefault(mid, float("nan"))
    missing = [mid for mid, cos in scored.items() if cos != cos]
    found = store.vectors(rec.scope, missing)
    scored.update(zip(found, cosines(np.array(list(found.values())), vector).tolist(),
                      strict=True))
    records = store.get_many(rec.scope, list(scored)) if scored else {}
    if compare.custom_similarity and records:
        mine = Compared(rec, vector)
        theirs = store.vectors(rec.scope, list(records))
        scored.update({mid: compare.similar(mine, Compared(records[mid], theirs[mid]))
                       for mid in records if mid in theirs})
    kept = _stances(store, rec, records)
    return Nearby([Neighbour(records[mid], cos if cos == cos else 0.0, kept.get(mid))
                   for mid, cos in scored.items() if mid in records and mid != rec.id], top,
                  near)


def _stances(store: Store, rec: Record, records: dict[str, Record]) -> dict[str, Stance]:
    """The stored stances of the neighbours whose statements the decision reads (those of
    DECIDED_KINDS, for a record of those kinds without a URI: tripledecide.py)."""
    if rec.kind not in STANCE_KINDS or rec.uri is not None:
        return {}
    wanted = [mid for mid, r in records.items() if r.kind in STANCE_KINDS and mid != rec.id]
    read_stances = getattr(store, "stances", None)
    if not wanted or read_stances is None:
        return {}
    out: dict[str, Stance] = {}
    for mid, text in read_stances(rec.scope, wanted).items():
        found = decoded(text, records[mid])
        if found is not None:
            out[mid] = found
    return out


def _structural_candidates(store: Store, rec: Record) -> list[str]:
    """What the statement's structure points at, however far its vector is: the memories that
    say a value the statement marks as former ("..., not Everest", "from Jira to ...": found
    by the value's words in the text index). A word more than FORMER_WORD_CAP memories hold
    is left out of that search where the store counts words (the SQLite store's
    ``term_counts``): its ranking scored every holder, a cost that grew with the scope, and
    among more than a hundred holders the ten best by BM25 are the shortest texts, not the
    ones the value was said of."""
    found: list[str] = []
    counts = getattr(store, "term_counts", None)
    for value in former_values(rec.content):
        words = tokenize(value, keep_stopwords=True)
        if words and counts is not None:
            held = counts(rec.scope, list(dict.fromkeys(words)), FORMER_WORD_CAP + 1,
                          NEIGHBOUR_LAYERS)
            words = [w for w in words if held.get(w, 0) <= FORMER_WORD_CAP]
        if words:
            found += [mid for mid, _ in store.search_text(rec.scope, words, {"body": 1.0},
                                                          NEIGHBOURS, NEIGHBOUR_LAYERS)]
    return found


class BatchNeighbours:
    """The vector candidates of every write in a batch, found with one matrix product over the
    scope before the batch writes anything, plus what the batch itself writes on the way (a
    memory outside the scope's best CANDIDATES before the batch cannot be among the best
    NEIGHBOURS after it, unless the batch wrote it)."""

    def __init__(self, store: Store, scope: Scope, records: list[Record],
                 vectors: np.ndarray) -> None:
        wanted = [i for i, r in enumerate(records) if r.kind != Kind.EVENT]
        found = (store.search_vector_many(scope, vectors[wanted], CANDIDATES, NEIGHBOUR_LAYERS)
                 if wanted else [])
        self.before = dict(zip(wanted, found, strict=True))
        self.vectors = vectors
        self.row: dict[str, int] = {}  # memory id -> its row in ``mine``: what the batch wrote
        self.ids: list[str] = []
        self.mine = np.zeros_like(vectors)

    def candidates(self, i: int, vector: np.ndarray) -> list[tuple[str, float]]:
        """(id, cosine) of the stored memories nearest to write ``i`` now. Every cosine is
        computed one pair at a time, as the store computes the ones it returns."""
        scores = {mid: s for mid, s in self.before.get(i, []) if mid not in self.row}
        if self.ids:
            sims = self.mine[: len(self.ids)] @ vector
            best = np.argsort(-sims, kind="stable")[:CANDIDATES]
            scores.update(zip([self.ids[j] for j in best],
                              cosines(self.mine[best], vector).tolist(), strict=True))
        return list(scores.items())

    def written(self, memory_id: str, vector: np.ndarray) -> None:
        """``memory_id`` now has ``vector`` (added, or rewritten by an update)."""
        if memory_id not in self.row:
            self.row[memory_id] = len(self.ids)
            self.ids.append(memory_id)
        self.mine[self.row[memory_id]] = vector


def gated_importance(importance: float, surprise_: float) -> float:
    return min(max(importance * (SURPRISE_BASE + SURPRISE_GAIN * surprise_), 0.0), 1.0)


def judge(rec: Record, nearby: Nearby, shape_judge: ShapeJudge | None = None,
          compare: Comparers = DEFAULT) -> Judgement:
    """The write decision for ``rec``; what an LLM judge of ambiguous shapes was asked and
    answered (write/shapejudge.py) goes in the evidence as ``shape_judge``."""
    begin = getattr(shape_judge, "begin", None)
    if begin is not None:
        begin()
    out = _judge(rec, nearby, shape_judge, compare)
    notes = getattr(shape_judge, "notes", None)
    if notes:
        out.evidence = {**out.evidence, "shape_judge": list(notes)}
    return out


def _judge(rec: Record, nearby: Nearby, shape_judge: ShapeJudge | None,
           compare: Comparers) -> Judgement:
    slot = slot_of(rec.content, rec.kind) if rec.uri is None else None
    live = [n for n in nearby.candidates
            if n.record.current and not n.record.erased and n.record.uri is None]
    current, others, apart = split_apart(rec, live)  # another subject or mood: kept apart
    if slot is not None:
        same = [n.record for n in current
                if (s := slot_of(n.record.content, n.record.kind)) and s.key == slot.key]
        if same:
            old = max(same, key=lambda r: (r.at, r.recorded_at, r.id))
            return _by_slot(rec, slot, old)
    if compare.conflict_at_write:
        found = _conflicting(rec, current, compare)
        if found is not None:
            return found
    former = [(n.record, n.cosine) for n in nearby.candidates if n.record.superseded_by]
    same_slot = [n for n in current if not _other_slot(slot, n.record)]
    shaped = shape_decision(rec, [(n.record, n.cosine) for n in same_slot], shape_judge, former)
    if shaped is None and shape_judge is not None and others:  # a subject swapped: the judge's
        judged = shape_decision(rec, [(n.record, n.cosine) for n in others], shape_judge)
        shaped = judged if judged is not None and judged[1] == "shape_judged" else None
    if shaped is not None:
        return Judgement(*shaped)
    by_triple = triple_decision(rec, same_slot) if rec.uri is None else None
    if by_triple is not None:
        return Judgement(*by_triple)
    gone = _ended(rec, live)  # "我和周凯分手了" ends what "我男朋友叫周凯" said: its own check
    if gone is not None:
        return gone
    if CHANGED and rec.uri is None:
        changed = _changed_value(rec, live, same_slot)
        if changed is not None:
            return changed
    if rec.kind != Kind.EVENT and rec.uri is None:
        dup = _near_duplicate(rec, slot, live)  # "... too" is the same memory said again
        if dup is not None:
            return dup
    return Judgement(Action.ADD, "new_memory", evidence=apart)


def _ended(rec: Record, current: list[Neighbour]) -> Judgement | None:
    """"ended_value" (write/ended.py): the new text says a thing has ended, and the closest
    current fact, preference or procedure that names it is superseded."""
    if rec.kind not in SHAPE_KINDS or rec.uri is not None:
        return None
    objects = ended(rec.content)
    if not objects:
        return None
    for n in sorted(current, key=lambda n: (-n.cosine, n.record.id)):
        old = n.record
        if old.kind not in SHAPE_KINDS or old.at > rec.at:
            continue
        for words in objects:
            if holds(old.content, words):
                return Judgement(Action.SUPERSEDE, "ended_value", old,
                                 {"old_id": old.id, "ended": sorted(words),
                                  "cosine": round(n.cosine, 4)})
    return None


CHANGED = True     # "changed_value" (a switch to measure what it buys)
CHANGED_NEAREST = 1  # the current statements nearest the new one that it is judged against


def _changed_value(rec: Record, live: list[Neighbour],
                   current: list[Neighbour]) -> Judgement | None:
    """"changed_value": the recall-time net's judgement (recall/conflicts.py ``conflict``:
    values of one kind with a change said, or recall/restated.py: a value said again in plain
    words with a change word) finds that ``rec`` states a new value of one of the
    CHANGED_NEAREST current statements nearest to it (``live``, a memory set apart included),
    said before it: the nearest such one is superseded, unless either reading of the two
    subjects sets them apart: the write path's (``current`` holds those it did not set apart:
    another subject or mood, another slot) or the net's (recall/conflicts.py
    ``_two_subjects``: 我们家的宽带 / 公司的宽带, "My manager Rosalind ..." / "I report up to
    Tomasz ..."), which recall/restated.py does not ask. (A time the new one puts on its
    change, "every evening now", 上个月, is no exception: the check that made it one cost 9
    of the design sets' chains their supersession and kept no near miss apart,
    bench/results/rules.md.) Only between
    remembered statements: what was extracted from a conversation is judged by the net's
    looser test for chat (a value named again is enough), left to recall (on LoCoMo through
    ingest it moved all@5 by -0.001). And unless both state values and none of one kind
    (``value_kinds``): "The kitchen budget is 38,000 dollars including the new counters." says
    nothing new of "We're renovating the kitchen; the contractor is Nadia from Bellwood
    Builds.", whose values are names."""
    if rec.kind not in STATING or said_in_chat(rec):
        return None
    near = sorted((n for n in live if n.record.kind in STATING),
                  key=lambda n: (-n.cosine, n.record.id))[:CHANGED_NEAREST]
    judged = {id(n) for n in current}
    for n in near:
        old = n.record
        if id(n) in judged and not said_in_chat(old) and conflict(old, rec) \
                and not _two_subjects(statement(old.content), statement(rec.content)) \
                and not _other_kinds(old.content, rec.content):
            return Judgement(Action.SUPERSEDE, "changed_value", old,
                             {"old_id": old.id, "cosine": round(n.cosine, 4)})
    return None


def _two_subjects(old: Statement, new: Statement) -> bool:
    """Either reading of two subjects of recall/conflicts.py: a clash of possessors or
    names, or subjects neither text mentions of the other (``unmentioned``, which recall
    does not ask)."""
    return subjects_clash(old, new) or unmentioned(old, new)


def _other_kinds(old: str, new: str) -> bool:
    """Both state values, and no value of one is of a kind the other states."""
    a, b = value_kinds(old), value_kinds(new)
    return bool(a) and bool(b) and not a & b


def value_kinds(text: str) -> frozenset[str]:
    """The kinds of the values ``text`` states (write/reading.py): "quantity" for one with a
    digit (or a Chinese numeral) or a date word, "name" for any other (老周 is a name: jieba's
    time tag reads its 周 as "week"). A value changes into one of its kind:
    a price into a price, a contractor into a contractor."""
    out = set()
    for value in reading(text).values:
        toks = typed_tokens(value)
        out.add("quantity" if any(t.norm in DATE_WORDS or any(c.isdigit() or c in ZH_NUMERALS
                                                               for c in t.surface)
                                  for t in toks) else "name")
    return frozenset(out)



def _conflicting(rec: Record, current: list[Neighbour], compare: Comparers) -> Judgement | None:
    """"conflict_function": the nearest current statement (``STATING``), said no later,
    that the registered conflict function says ``rec`` conflicts with."""
    if rec.kind not in STATING or rec.uri is not None:
        return None
    for n in sorted(current, key=lambda n: (-n.cosine, n.record.id)):
        old = n.record
        if old.kind in STATING and old.at <= rec.at and compare.conflicts(old, rec):
            return Judgement(Action.SUPERSEDE, "conflict_function", old,
                             {"old_id": old.id, "conflict": compare.conflict_name,
                              "cosine": round(n.cosine, 4)})
    return None


def _other_slot(slot: Slot | None, other: Record) -> bool:
    """Both texts have slots of the slot table: one subject, two attributes ("Li lives in
    Oslo" / "Li works in Oslo"): the table knows them apart."""
    theirs = slot_of(other.content, other.kind)
    return (slot is not None and theirs is not None and theirs.subject == slot.subject
            and theirs.attribute != slot.attribute)


def _by_slot(rec: Record, slot: Slot, old: Record) -> Judgement:
    old_slot = slot_of(old.content, old.kind)
    assert old_slot is not None
    evidence: dict[str, Any] = {"old_id": old.id, "slot": slot.describe(),
                                "old_value": old_slot.value, "new_value": slot.value,
                                "slot_rule": slot.rule}
    if rec.at < old.at and normalize(old_slot.value) != normalize(slot.value):
        return Judgement(Action.SUPERSEDE, "slot_older_value", old, evidence)
    if old_slot.numbers != slot.numbers:
        return Judgement(Action.SUPERSEDE, "slot_number_changed", old, evidence)
    if normalize(old_slot.value) == normalize(slot.value):
        return Judgement(Action.NOOP, "slot_same_value", old, evidence)
    if normalize(old.content).rstrip(" .!?。！？") in normalize(rec.content):
        return Judgement(Action.UPDATE, "slot_refined", old, evidence)
    return Judgement(Action.SUPERSEDE, "slot_new_value", old, evidence)


def _near_duplicate(rec: Record, slot: Slot | None, current: list[Neighbour]) -> Judgement | None:
    words = set(tokenize(rec.content, keep_stopwords=True))
    best: tuple[float, float, Record] | None = None
    for n in current:
        other = n.record
        if other.kind != rec.kind or n.cosine < NEAR_DUP_COSINE or not _same_anchors(rec, other):
            continue
        other_slot = slot_of(other.content, other.kind)
        if slot and other_slot and slot.key != other_slot.key:
            continue  # "Li lives in Berlin" and "Li works in Berlin" are two facts
        if _numbers(other.content) != _numbers(rec.content):
            continue
        theirs = set(tokenize(other.content, keep_stopwords=True))
        jaccard = len(words & theirs) / len(words | theirs) if words | theirs else 0.0
        if jaccard >= NEAR_DUP_JACCARD and (best is None or (jaccard, n.cosine) > best[:2]):
            best = (jaccard, n.cosine, other)
    if best is None:
        return None
    return Judgement(Action.NOOP, "near_duplicate", best[2],
                     {"duplicate_of": best[2].id, "jaccard": round(best[0], 4),
                      "cosine": round(best[1], 4)})


def _same_anchors(a: Record, b: Record) -> bool:
    """The same text about other people or places is another memory."""
    return set(a.people) == set(b.people) and set(a.places) == set(b.places)


def _numbers(text: str) -> list[str]:
    return sorted(re.findall(r"\d+(?:\.\d+)*", normalize(text)))
