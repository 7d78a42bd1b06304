"""Bad items in an import. By default an import is all or nothing: the first bad item stops
it, naming the item and what is wrong, and nothing is written. With ``skip_bad`` the bad items
are set aside, each with its place and reason, and the good ones are written."""

from __future__ import annotations

from typing import Any

from ..errors import Invalid

HINT = ("nothing was imported; fix it, or skip the bad items and keep the good ones "
        "(skip_bad=True, or --skip-bad at the command line)")


class Bad:
    """The bad items found so far; ``where`` names an item's place: "line" or "item"."""

    def __init__(self, skip: bool, where: str = "line") -> None:
        self.skip = skip is True
        self.where = where
        self.items: list[dict[str, Any]] = []

    def refuse(self, number: int, reason: str) -> None:
        """Set item ``number`` aside (skip_bad), or stop the import with an Invalid."""
        if not self.skip:
            raise Invalid(f"{self.where} {number}: {reason}; {HINT}")
        self.items.append({self.where: number, "reason": reason})

    def report(self, counts: dict[str, Any]) -> dict[str, Any]:
        """``counts`` with ``bad`` (the items set aside, in file order) when skipping."""
        if not self.skip:
            return counts
        return {**counts, "bad": sorted(self.items, key=lambda item: item[self.where])}


def reason(exc: BaseException) -> str:
    """What an exception met while reading an item says, in words (no exception names)."""
    if isinstance(exc, KeyError):
        return f"the field {exc.args[0]!r} is missing" if exc.args else "a field is missing"
    if isinstance(exc, AttributeError | TypeError):
        return f"a field has the wrong type ({exc})"
    text = str(exc).strip()
    return text or type(exc).__name__
