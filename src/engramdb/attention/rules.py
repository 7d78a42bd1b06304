"""Rules learned from mistakes, AGENTS.md style. ``learn`` keeps a rule once: a rule memory
(kind "rule", URI ``rule://learned/<slug>``, the mistake in its metadata) unless a current rule
already says the same (compared case-, width- and punctuation-insensitively, both languages).
``append_to_file`` adds the rule to an AGENTS.md-style file under "## Learned rules", once;
``render`` writes the whole file from the scope's rules."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import Invalid
from ..model import Kind, Record, Scope
from ..store.protocol import ListFilter
from ..text.tokenize import normalize
from .goals import clean_text
from .procedures import slug

if TYPE_CHECKING:
    from ..facade import Facade

HEADING = "## Learned rules"
_PUNCT = re.compile(r"[\s\W_]+", re.UNICODE)


@dataclass
class Learned:
    """What ``learn_from_mistake`` did: the rule memory, whether it was new, and whether the
    file (when one was given) got a new line."""

    memory: Record
    added: bool
    file_added: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"added": self.added, "file_added": self.file_added, "id": self.memory.id,
                "uri": self.memory.uri, "rule": self.memory.content,
                "mistake": self.memory.metadata.get("learned_from")}


def same_text(text: str) -> str:
    return _PUNCT.sub("", normalize(text))


def rules_of(mem: Facade, scope: Scope) -> list[Record]:
    flt = ListFilter(kinds=(Kind.RULE.value,), current_only=True)
    return list(mem.store.list(scope, flt))


def learn(mem: Facade, scope: Scope, mistake: str, rule: str) -> Learned:
    mistake, rule = clean_text("mistake", mistake), clean_text("rule", rule)
    key = same_text(rule)
    if not key:
        raise Invalid("rule must hold words, not only punctuation")
    for rec in rules_of(mem, scope):
        if same_text(rec.content) == key:
            return Learned(rec, added=False)
    uri = f"rule://learned/{slug(rule)}"
    if mem.store.get_by_uri(scope, uri) is not None:  # another rule that starts the same
        uri += "-" + hashlib.sha1(key.encode()).hexdigest()[:6]
    result = mem.remember(rule, kind=Kind.RULE, uri=uri,
                          metadata={"learned_from": mistake}, user=scope.user,
                          agent=scope.agent)
    return Learned(result.memory, added=result.action.value in ("add", "update", "supersede"))


def line(rec: Record) -> str:
    mistake = rec.metadata.get("learned_from")
    return f"- {rec.content}" + (f" (learned from: {mistake})" if mistake else "")


def append_to_file(path: str | Path, rec: Record) -> bool:
    """Add the rule's line to the file under HEADING unless the rule is there already.
    Returns whether the file changed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise Invalid(f"cannot read {path}: {exc}") from None
    key = same_text(rec.content)
    for existing in text.splitlines():
        body = existing.lstrip("-* ").split(" (learned from:")[0]
        if existing.lstrip().startswith(("-", "*")) and same_text(body) == key:
            return False
    if HEADING not in text:
        text = (text.rstrip() + "\n\n" if text.strip() else "# AGENTS.md\n\n") + HEADING + "\n"
    head, _, tail = text.partition(HEADING + "\n")
    block, sep, rest = tail.partition("\n## ")
    block = block.rstrip("\n") + ("\n" if block.strip() else "") + line(rec) + "\n"
    new = head + HEADING + "\n" + block + (("\n## " + rest) if sep else "")
    try:
        path.write_text(new, encoding="utf-8")
    except OSError as exc:
        raise Invalid(f"cannot write {path}: {exc.strerror or exc}") from None
    return True


def render(rules: list[Record]) -> str:
    learned = [r for r in rules if r.metadata.get("learned_from")]
    others = [r for r in rules if not r.metadata.get("learned_from")]
    parts = ["# AGENTS.md", ""]
    if others:
        parts += ["## Rules", *(line(r) for r in others), ""]
    parts += [HEADING, *(line(r) for r in learned), ""]
    return "\n".join(parts)
