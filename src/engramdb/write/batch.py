"""A batch of drafts made into records: all-or-nothing (``on_error="raise"``, the default: one
bad draft rejects the batch, nothing is written) or ``on_error="skip"``: each bad draft is
reported as a REJECT result (rule "invalid_input", ``evidence["error"]`` says why, its record
a placeholder that names nothing in the store) and the others are written."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from ..errors import Invalid
from ..model import Action, Draft, Kind, Record, Scope, WriteResult
from .prepare import build_record

ON_ERROR = ("raise", "skip")


def check_on_error(value: object) -> str:
    if value not in ON_ERROR:
        raise Invalid(f"on_error must be raise or skip, got {value!r}")
    return str(value)


def build_records(drafts: list[object], scope: Scope, new_id: Callable[[], str], now: datetime,
                  max_bytes: int, on_error: str,
                  screen: Callable[[int, Draft], Draft] | None = None,
                  ) -> tuple[list[Record], dict[int, WriteResult]]:
    """The records of the good drafts, in order, and the REJECT result of each bad one by its
    index (only with ``on_error="skip"``; otherwise the first bad draft raises Invalid).
    ``screen`` (the PII policy, write/privacy.py) may rewrite a draft or refuse it (Invalid)."""
    records: list[Record] = []
    rejected: dict[int, WriteResult] = {}
    for i, draft in enumerate(drafts):
        try:
            if not isinstance(draft, Draft):
                raise Invalid(f"expected a Draft, got {type(draft).__name__}")
            if screen is not None:
                draft = screen(i, draft)
            records.append(build_record(draft, scope, new_id(), now, max_bytes))
        except Invalid as exc:
            if on_error == "raise":
                raise Invalid(f"item {i}: {exc}" if len(drafts) > 1 else str(exc)) from None
            placeholder = build_record(Draft(content=f"(item {i} was not stored)",
                                             kind=Kind.EVENT), scope, new_id(), now, max_bytes)
            rejected[i] = WriteResult(Action.REJECT, "invalid_input", placeholder,
                                      {"index": i, "error": str(exc)})
    return records, rejected


def with_rejected(results: list[WriteResult],
                  rejected: dict[int, WriteResult]) -> list[WriteResult]:
    """The results of the written drafts with each rejected one at its draft's place."""
    if not rejected:
        return results
    out: list[WriteResult] = []
    written = iter(results)
    for i in range(len(results) + len(rejected)):
        out.append(rejected[i] if i in rejected else next(written))
    return out
