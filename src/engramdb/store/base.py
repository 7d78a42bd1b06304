"""Transitional: the Store protocol and its value types now live in ``store.protocol``.

Kept because textindex.py (edited on another branch) still reads ``SCOPE_EVENT`` from here,
and branches written before the layout change import ``store.base``. Import ``.protocol``; once
those have merged, delete this module."""

from __future__ import annotations

from .protocol import SCOPE_EVENT, Event, IndexText, ListFilter, SleepState, Store

__all__ = ["SCOPE_EVENT", "Event", "IndexText", "ListFilter", "SleepState", "Store"]
