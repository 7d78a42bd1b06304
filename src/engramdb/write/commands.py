"""Memory commands said in conversation: "remember that ..." / "记住：..." and "forget that ..."
/ "忘掉 ..." / "不用记 ...", honoured wherever a conversation is read (``Memory.ingest``, the
mem0 facade's ``add``, the agent, which ingests its turns).

A remember command keeps the rest of the sentence as the memory the user asked for, of the
kind the extractor reads in it, at ASKED_IMPORTANCE. A forget command finds the current memory
the rest of the sentence names and forgets it (softly: it can be restored); the ingest report
lists it in ``forgotten``. The memory named is the best recall hit that holds at least
MIN_COVER of the command's own content words (a paraphrase that shares none is not enough to
forget anything on the user's behalf), or where the two share most of their words counted both
ways (the harmonic mean of the two shares at least MIN_COVER: "忘掉我住在杭州这件事" holds every
word of "我住在杭州" and half its own words are the memory's, where a short memory leaves the
command's framing words, 这件事, "the bit about", as most of its words); never the turn that
said the command. The turns it was read from are forgotten with it, and so is the turn that said
the command."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..model import Draft, Kind, Record
from ..text import tokenize

if TYPE_CHECKING:
    from ..facade import Facade

ASKED_IMPORTANCE = 0.9
MIN_COVER = 0.6
COMMAND = "command"     # the metadata key a draft carries a command under

# a command word whole ("notebook", "remembered" are no commands), not "remember to ..." (a
# pending item, write/patterns.py); 忘记 is left out: "忘记带钥匙了" says what was forgotten
REMEMBER = re.compile(r"^(?:please\s+)?(?:remember|note|keep in mind|make a note)\b(?!\s+to\b)"
                      r"\s*(?:that\b|:|,)?\s*(?=\S)"
                      r"|^(?:请|你)?(?:帮我)?(?:记住|记一下|记下)(?:了|吧)?[：:，,\s]*(?=\S)",
                      re.IGNORECASE)
FORGET = re.compile(r"^(?:please\s+)?(?:forget|disregard)\b\s*(?:that\b|about\b|:)?\s*(?=\S)"
                    r"|^(?:请|你)?(?:帮我)?(?:忘掉|不用记|别记|删掉)(?:住)?[：:，,\s]*(?=\S)",
                    re.IGNORECASE)


def command_of(sentence: str) -> tuple[str, str] | None:
    """("remember" | "forget", the rest of the sentence), or None."""
    for name, pattern in (("forget", FORGET), ("remember", REMEMBER)):
        m = pattern.match(sentence)
        if m:
            rest = sentence[m.end():].strip(" ：:，,")
            if tokenize(rest):
                return name, rest
    return None


def forget_draft(rest: str, metadata: dict[str, object]) -> Draft:
    return Draft(content=rest, kind=Kind.FACT, metadata={**metadata, COMMAND: "forget"})


def split_forgets(drafts: list[Draft]) -> tuple[list[Draft], list[Draft]]:
    """(the drafts to write, the forget commands)."""
    keep = [d for d in drafts if (d.metadata or {}).get(COMMAND) != "forget"]
    return keep, [d for d in drafts if (d.metadata or {}).get(COMMAND) == "forget"]


def apply_forgets(memory: Facade, commands: list[Draft], user: str | None,
                  agent: str | None, said: frozenset[str] = frozenset()) -> list[Record]:
    """Forget the memory each command names (see the module's docstring); what was forgotten.
    ``said``: the ids of the turn events that said the commands (never the memory named)."""
    done: list[Record] = []
    for cmd in commands:
        words = set(tokenize(cmd.content))
        hits = memory.recall(cmd.content, k=5, track=False, user=user, agent=agent)
        for hit in hits:
            rec = hit.memory
            if rec.id in said:
                continue
            held = set(tokenize(" ".join([rec.content, *rec.people, *rec.places])))
            if names(words, held):
                reason = f"asked in conversation: {cmd.content[:80]}"
                done.append(memory.forget(rec.id, reason=reason, user=user, agent=agent))
                # the turns it was read from say it too
                for source in rec.metadata.get("source_events") or []:
                    _forget_quietly(memory, source, reason, user, agent)
                break
    return done


def names(words: set[str], held: set[str]) -> bool:
    """Does a forget command of content words ``words`` name a memory holding ``held``: the
    memory holds MIN_COVER of the command's words, or the two shares' harmonic mean is at
    least MIN_COVER?"""
    if not words or not held:
        return False
    shared = len(words & held)
    said, whole = shared / len(words), shared / len(held)
    return said >= MIN_COVER or (shared > 0 and 2 * said * whole / (said + whole) >= MIN_COVER)


def command_events(commands: list[Draft], events: dict[int, str]) -> frozenset[str]:
    """The ids of the turn events that said ``commands`` (``events``: turn -> event id)."""
    turns = [(cmd.metadata or {}).get("turn") for cmd in commands]
    return frozenset(events[t] for t in turns if isinstance(t, int) and t in events)


def forget_turns(memory: Facade, said: frozenset[str], user: str | None,
                 agent: str | None) -> None:
    """Forget the turn events that said forget commands (``said``: ``command_events``):
    "forget that I live in Hangzhou" kept as a turn would be found for "where do I live?"."""
    for event in said:
        _forget_quietly(memory, event, "a forget command", user, agent)


def _forget_quietly(memory: Facade, memory_id: str, reason: str, user: str | None,
                    agent: str | None) -> None:
    rec = memory.get(memory_id, user=user, agent=agent)
    if rec is not None and rec.layer.value != "deleted":
        memory.forget(memory_id, reason=reason, user=user, agent=agent)
