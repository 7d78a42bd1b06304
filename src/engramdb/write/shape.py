"""Supersession by the shape of a fact, for the attributes no slot rule (write/slots.py) knows.

Two texts of one scope (fact, preference or procedure; never events) are compared token by
token (write/align.py). Rules, ids as in ``WriteResult.rule``, first match wins:
- "shape_negation": the new text says the old one no longer holds ("not", "no longer", 不)
  and nothing else changed -> SUPERSEDE
- "shape_value_changed": one span differs, after the subject, and on both sides it is a value
  (a number, time, date, quantity with its unit, code or host name, a capitalised name, a
  Chinese name, place or numeral), with the same plain words around it -> SUPERSEDE
- "shape_procedure_revised": two procedures with the same subject whose steps differ, the
  texts mostly shared -> SUPERSEDE
- "shape_cued_change": one short span of plain words differs after the subject and the new
  text announces a change ("now", "switched", "改成", "现在") -> SUPERSEDE
- "shape_extended": the old text's words all kept, details added after the subject, nothing
  changed -> UPDATE of the old memory (a new version; the old text stays in its history)
- only function or cue words differ: no shape decision (write/supersede.py's near-duplicate
  rule decides)
- "shape_older_value": a value change whose new text happened before the current one: kept
  as history, superseded at once.
What differs in the subject (a name before the predicate, a possessor: "Li's", 李雷的) or in
more than one place, or is a plain word without a cue, is another fact: both stay. Two cases
are "ambiguous": a plain word replaced without a cue ("Greta likes coffee" / "... tea"), and a
subject swapped whole, a short name with no digit and no possessor, predicate and object kept
("Sara manages the Berlin office" / "Tom manages the Berlin office"). Whether the object holds
one value at a time (an office has one manager; two people may like one city) is knowledge of
the predicate that the texts' shape does not hold, so the rules keep both; an LLM judge, when
one is configured (write/shapejudge.py), decides them.
The decision's evidence names the rule, the aligned difference and the cosine."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..model import Action, Kind, Record
from ..text.tokenize import is_cjk, only_cjk
from .align import (
    CUE,
    NEG,
    POSS,
    STOP,
    VALUE,
    WORD,
    Alignment,
    Region,
    align,
    clean,
    content_words,
    frame_words,
    predicate_index,
)

SHAPE_KINDS = frozenset({Kind.FACT, Kind.PREFERENCE, Kind.PROCEDURE})
SHAPE_MIN_COSINE = 0.15    # candidates less similar are not compared (hashing: ~0.2 for
#                            short Chinese pairs; the rules, not the cosine, decide)
MAX_VALUE_TOKENS = 6       # a value span longer than this is a clause, not a value
PROCEDURE_MIN_RATIO = 0.5  # share of tokens two versions of one procedure keep
AMBIGUOUS = "shape_ambiguous"


@dataclass
class Verdict:
    action: Action | None   # None: ambiguous (a judge may decide)
    rule: str
    regions: list[Region]
    detail: str = ""

    def evidence(self, old: Record, cosine: float) -> dict[str, Any]:
        out: dict[str, Any] = {"old_id": old.id, "shape_rule": self.rule,
                               "diff": [r.to_dict() for r in self.regions],
                               "cosine": round(cosine, 4)}
        if self.detail:
            out["detail"] = self.detail
        return out


Judge = Callable[[str, str], bool | None]   # (old text, new text) -> same slot? None: unsure


def compatible(a: Kind, b: Kind) -> bool:
    return a == b and a in SHAPE_KINDS


def compare(old: str, new: str, kind: Kind) -> Verdict | None:
    """How ``new`` relates to ``old``: a Verdict, or None (another fact: both stay)."""
    al = align(old, new)
    if not al.regions or al.shared_content() == 0:
        return None
    if _titled(al):
        return None  # "Note 3 about Berlin": a number naming its noun, in a text without verb
    kinds = [_region_kind(r) for r in al.regions]
    content = [k for k in kinds if k != "function"]
    if content in (["insert"], ["delete"]):
        region = al.regions[kinds.index(content[0])]
        if _value_edge(al, region):  # "8点半" -> "8点", "at 3" -> "at 3:15"
            return Verdict(Action.SUPERSEDE, "shape_value_changed", [region], "value edited")
    if "delete" in kinds:
        return None
    start = _subject_end(al)
    for region, rk in zip(al.regions, kinds, strict=True):
        if rk in ("replace", "insert") and _touches_subject(al, region, start):
            if len(content) == 1 and _subject_swap(al, region, start):
                return Verdict(None, AMBIGUOUS, [region], "only the subject differs")
            return None
    negated = [r for r in al.regions if _negation_flip(r)]
    replaces = [r for r, k in zip(al.regions, kinds, strict=True) if k == "replace"]
    inserts = [r for r, k in zip(al.regions, kinds, strict=True) if k == "insert"]
    if negated:
        if replaces:
            return None
        return Verdict(Action.SUPERSEDE, "shape_negation", negated)
    if len(replaces) > 1 or (replaces and kind == Kind.PROCEDURE):
        if kind == Kind.PROCEDURE and al.ratio >= PROCEDURE_MIN_RATIO:
            return Verdict(Action.SUPERSEDE, "shape_procedure_revised", al.regions)
        return None
    if replaces:
        return _replacement(al, replaces[0])
    if inserts:
        if sum(1 for t in al.old if t.type in (VALUE, WORD)) < 2:
            return None
        return Verdict(Action.UPDATE, "shape_extended", inserts)
    return None  # only function or cue words differ: the near-duplicate rule decides


def _replacement(al: Alignment, region: Region) -> Verdict | None:
    old_c, new_c = region.content("old"), region.content("new")
    old_v = [t for t in old_c if t.type == VALUE]
    new_v = [t for t in new_c if t.type == VALUE]
    old_rest = _rest(old_c, new_v)
    new_rest = _rest(new_c, old_v)
    short = len(old_c) <= MAX_VALUE_TOKENS and len(new_c) <= MAX_VALUE_TOKENS
    if old_v and new_v and old_rest == new_rest and short:
        kinds = f"{_value_kind(old_v)} -> {_value_kind(new_v)}"
        return Verdict(Action.SUPERSEDE, "shape_value_changed", [region], kinds)
    verb = _subject_end(al)
    if region.old_start <= verb < region.old_start + len(region.old) and \
            al.old[verb].type == WORD and len(old_c) == 1:
        return None  # only the verb differs ("lives in" / "works in"): another relation
    cued = any(t.type == CUE for r in al.regions for t in (*r.old, *r.new))
    if cued and len(old_c) <= 3 and len(new_c) <= 3:
        return Verdict(Action.SUPERSEDE, "shape_cued_change", al.regions)
    return Verdict(None, AMBIGUOUS, [region])


def _subject_swap(al: Alignment, region: Region, start: int) -> bool:
    """The one difference is the whole subject, a short name on both sides, and a predicate
    with its object follows ("Sara manages the Berlin office" / "Tom manages ..."): one
    office's manager changed, or two people's facts? Only a judge can say; the rules keep
    both. A possessor ("Li's", 李雷的) or a number ("Room 101") names another thing."""
    old_c, new_c = region.content("old"), region.content("new")
    first = next((i for i, t in enumerate(al.old) if t.type in (VALUE, WORD)), 0)
    after = region.old_start + len(region.old)
    rest = [t for t in al.old[after:] if t.type in (VALUE, WORD)]
    return (region.old_start <= first and after <= start and len(rest) >= 2
            and 0 < len(old_c) <= 3 and 0 < len(new_c) <= 3 and not region.has(POSS)
            and (after >= len(al.old) or al.old[after].type != POSS)
            and not any(c.isdigit() for t in (*old_c, *new_c) for c in t.surface))


def _value_edge(al: Alignment, region: Region) -> bool:
    """A region of values only, right after a value of the old text that holds a digit."""
    toks = region.content("old") or region.content("new")
    before = al.old[region.old_start - 1] if region.old_start else None
    return (all(t.type == VALUE for t in toks) and before is not None and before.type == VALUE
            and (before.time or any(c.isdigit() for c in before.surface)))


def _rest(toks: list[Any], other_values: list[Any]) -> list[str]:
    """The plain words of one side, less those written inside a value of the other side
    ("张 医生" / "李医生")."""
    return sorted(t.norm for t in toks if t.type == WORD
                  and not any(t.norm in v.norm for v in other_values))


def _value_kind(toks: list[Any]) -> str:
    text = " ".join(t.surface for t in toks)
    if any(c.isdigit() for c in text):
        return "number" if text.replace(".", "").replace(",", "").isdigit() else "code/time"
    return "name"


def _region_kind(region: Region) -> str:
    old_c, new_c = region.content("old"), region.content("new")
    if old_c and new_c:
        return "replace"
    if new_c:
        return "insert"
    if old_c:
        return "delete"
    return "function"


def _negation_flip(region: Region) -> bool:
    old_neg = sum(t.type == NEG for t in region.old)
    new_neg = sum(t.type == NEG for t in region.new)
    return old_neg != new_neg


def _titled(al: Alignment) -> bool:
    """No predicate is seen and a difference sits right after the first word: it names which
    one ("Note 3", "Room 101"), it is no value of it."""
    if predicate_index(al.old) is not None:
        return False
    first = next((i for i, t in enumerate(al.old) if t.type in (VALUE, WORD)), 0)
    return any(_first_content(r) <= first + 1 for r in al.regions)


def _first_content(region: Region) -> int:
    """The old index of the region's first word or value (cue and function words before it,
    "now is", "现在 是", do not move it into the subject)."""
    for i, tok in enumerate(region.old):
        if tok.type in (VALUE, WORD):
            return region.old_start + i
    return region.old_start + len(region.old)


def _chinese_time(al: Alignment, region: Region) -> bool:
    values = [t for t in (*region.old, *region.new) if t.type in (VALUE, WORD)]
    first = next((i for i, t in enumerate(al.old) if t.type in (VALUE, WORD)), 0)
    chinese = is_cjk("".join(t.surface for t in al.old))
    return chinese and region.old_start > first and bool(values) and all(
        t.time or any(c.isdigit() for c in t.surface) for t in values)


def _subject_end(al: Alignment) -> int:
    """The old text's index where its predicate starts (what comes before is the subject)."""
    found = predicate_index(al.old)
    if found is not None:
        return found
    content = [i for i, t in enumerate(al.old) if t.type in (VALUE, WORD)]
    return content[0] + 1 if content else 0


def _touches_subject(al: Alignment, region: Region, start: int) -> bool:
    """Does the region change who or what the text is about? Chinese puts times before the
    verb ("小明晚上9点睡觉"): a region of times after the subject's first word is not in it."""
    if _first_content(region) < start and not _chinese_time(al, region):
        return True
    if region.has(POSS):
        return True
    after = region.old_start + len(region.old)
    nxt = al.old[after] if after < len(al.old) else None
    if nxt is not None and nxt.type == POSS:
        return True
    before = al.old[region.old_start - 1] if region.old_start else None
    return before is not None and before.norm == "of" and before.type == STOP


def best_verdict(rec: Record, candidates: list[tuple[Record, float]],
                 judge: Judge | None = None) -> tuple[Verdict, Record, float] | None:
    """The decisive verdict against the most similar candidate, or None. Candidates are
    current stored memories with their cosine to ``rec``. The rules' verdicts come first;
    only when none is decisive is the judge asked, once, about the most similar ambiguous
    pair (one LLM call per write at most)."""
    found: list[tuple[int, float, Verdict, Record]] = []
    unsure: list[tuple[float, str, Verdict, Record]] = []
    for old, cosine in candidates:
        if cosine < SHAPE_MIN_COSINE or not compatible(old.kind, rec.kind):
            continue
        if not _may_align(old.content, rec.content):
            continue
        verdict = compare(old.content, rec.content, rec.kind)
        if verdict is None:
            continue
        if verdict.action is None:
            unsure.append((-cosine, old.id, verdict, old))
            continue
        rank = {Action.SUPERSEDE: 1, Action.UPDATE: 2}[verdict.action]
        found.append((rank, -cosine, verdict, old))
    if not found and unsure:
        neg_cos, _, verdict, old = min(unsure, key=lambda u: (u[0], u[1]))
        judged = _ask(judge, old, rec, verdict)
        if judged is not None:
            found.append((1, neg_cos, judged, old))
    if not found:
        return None
    _, neg_cos, verdict, old = min(found, key=lambda f: (f[0], f[1], f[3].id))
    return verdict, old, -neg_cos


def _may_align(a: str, b: str) -> bool:
    """Do the texts share at least half the words of the shorter one's frame (its content
    words less its values), or where either has no such word, of its content words? A cheap
    test before the alignment: one changed value leaves nearly all of the frame shared, and a
    value of several words ("Honda Civic" -> "Tesla Model 3") would outweigh a frame of one.
    Texts in two scripts that can share no word are told so before either is segmented."""
    if _apart_scripts(a, b):
        return False
    x, y = frame_words(a), frame_words(b)
    if not (x and y):
        x, y = content_words(a), content_words(b)
    return bool(x and y) and 2 * len(x & y) >= min(len(x), len(y))


def _apart_scripts(a: str, b: str) -> bool:
    """Can the two texts share no token at all: one holds no Chinese character and the other
    nothing but Chinese characters, spaces and punctuation (after NFKC, as their tokens are
    read)? Then every word of the one is Chinese and none of the other's is, so they align
    nowhere, and the Chinese one needs no segmenting."""
    if a.isascii() and b.isascii():
        return False   # neither holds a Chinese character: told without normalising
    a, b = clean(a), clean(b)
    return (not is_cjk(a) and only_cjk(b)) or (not is_cjk(b) and only_cjk(a))


def _ask(judge: Judge | None, old: Record, rec: Record, verdict: Verdict) -> Verdict | None:
    """An ambiguous pair: the judge's word when it gives one (write/shapejudge.py); none, a
    "no" or no usable answer leaves both memories (the rules' decision)."""
    if judge is None:
        return None
    said = judge(old.content, rec.content)
    if not said:
        return None
    detail = f"an LLM judged it ({verdict.detail})" if verdict.detail else "an LLM judged it"
    return Verdict(Action.SUPERSEDE, "shape_judged", verdict.regions, detail)


def _through_former(rec: Record, candidates: list[tuple[Record, float]],
                    former: list[tuple[Record, float]]) -> tuple[Verdict, Record, float] | None:
    """A new value worded like a FORMER value of a chain ("allows 100" -> "limit raised to
    250" -> "allows 500"): it supersedes the value that replaced that former one."""
    heads = {old.id: (old, cos) for old, cos in candidates}
    for was, cosine in sorted(former, key=lambda f: -f[1]):
        head = heads.get(was.superseded_by or "")
        if head is None or cosine < SHAPE_MIN_COSINE or not compatible(was.kind, rec.kind):
            continue
        verdict = compare(was.content, rec.content, rec.kind)
        if verdict is not None and verdict.action == Action.SUPERSEDE:
            verdict.detail = f"worded like the former value {was.id}"
            return verdict, head[0], head[1]
    return None


def shape_decision(rec: Record, candidates: list[tuple[Record, float]],
                   judge: Judge | None = None, former: list[tuple[Record, float]] | None = None
                   ) -> tuple[Action, str, Record, dict[str, Any]] | None:
    """The write decision the shape rules make for ``rec`` (action, rule, the old memory,
    evidence), or None. A value change whose new text happened before the old one's is
    "shape_older_value": stored as history, superseded at once by the current one."""
    if rec.kind not in SHAPE_KINDS or rec.uri is not None:
        return None
    best = best_verdict(rec, candidates, judge) or _through_former(rec, candidates, former or [])
    if best is None:
        return None
    verdict, old, cosine = best
    evidence = verdict.evidence(old, cosine)
    rule = verdict.rule
    if verdict.action == Action.SUPERSEDE and rec.at < old.at:
        rule = OLDER_VALUE
    assert verdict.action is not None
    return verdict.action, rule, old, evidence


OLDER_VALUE = "shape_older_value"
OLDER_VALUE_RULES = frozenset({"slot_older_value", OLDER_VALUE})
