"""The store contract: behaviour every Store backend must show, as pytest tests.

Subclass ``StoreContract`` in a test module and give it a ``store`` fixture yielding a fresh,
empty store (SQLite today, PostgreSQL later)."""

from __future__ import annotations

from .contract_cold import ColdContract
from .contract_kit import ALICE, BOB, T0, make_goal, make_link, make_record, unit
from .contract_log import LogContract
from .contract_passages import PassageContract
from .contract_pending import PendingContract
from .contract_records import RecordContract
from .contract_sessions import SessionContract
from .contract_tables import TableContract
from .contract_triples import TripleContract

__all__ = ["ALICE", "BOB", "T0", "StoreContract", "make_goal", "make_link", "make_record",
           "unit"]


class StoreContract(RecordContract, LogContract, TableContract, SessionContract,
                    PendingContract, PassageContract, TripleContract,
                    ColdContract):
    """Mix-in of tests; needs a ``store`` fixture."""
