"""LoCoMo evidence retrieval through engramdb's public API (the scorer lives in ../shared/bench).

One user scope per conversation. Two ways in, as a user would write them:

- ``--api remember_many`` (the default): each turn is remembered as an event with its speaker,
  its session's date as ``at``, its neighbouring turns as ``context`` and
  ``metadata={"dia_id": ...}``; hits map back to turns by that metadata.
- ``--api ingest``: each session goes through ``Memory.ingest`` as the messages of a chat
  (role "user", the speaker's name, the session's date; extraction on). A hit is a turn event
  or a memory extracted from turns (``metadata["source_events"]``): it maps back to those
  turns, each turn counted once, in the order the hits name them.

Questions are recalled with ``track=False``.

    python bench/locomo.py                       # dev split, default embedder and preset
    python bench/locomo.py --api ingest          # the conversation path
    python bench/locomo.py --embedder hashing --preset lexical --max-questions 20

Embeddings are cached under bench/.cache (keyed by model id and text) so reruns are fast; the
cache stores exactly what the model returns, so figures are the same with or without it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

import engramdb
from engramdb import Draft
from engramdb.embed.routed import RoutedEmbedder
from engramdb.registry import make_embedder

HERE = Path(__file__).resolve().parent
SHARED = Path(os.environ.get("ENGRAMDB_LOCOMO_DIR", HERE.parent.parent / "shared" / "bench"))
CACHE = HERE / ".cache"


class CachedEmbedder:
    """Wraps an embedder with an on-disk cache of its vectors (bench speed only)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dimensions = inner.dimensions
        CACHE.mkdir(exist_ok=True)
        safe = hashlib.sha1(self.model_id.encode()).hexdigest()[:12]
        self.path = CACHE / f"emb-{safe}.npz"
        self.table: dict[str, np.ndarray] = {}
        if self.path.exists():
            data = np.load(self.path)
            self.table = {k: data[k] for k in data.files}
        self.dirty = False

    @staticmethod
    def _key(text: str, query: bool) -> str:
        return ("q" if query else "p") + hashlib.sha1(text.encode()).hexdigest()

    def embed_batch(self, texts: Sequence[str], *, query: bool = False) -> np.ndarray:
        keys = [self._key(t, query) for t in texts]
        missing = [i for i, k in enumerate(keys) if k not in self.table]
        if missing:
            fresh = self.inner.embed_batch([texts[i] for i in missing], query=query)
            for i, row in zip(missing, fresh, strict=True):
                self.table[keys[i]] = row
            self.dirty = True
        if not keys:
            return np.zeros((0, self.dimensions), dtype=np.float32)
        return np.vstack([self.table[k] for k in keys]).astype(np.float32)

    def save(self) -> None:
        if self.dirty:
            np.savez(self.path, **self.table)
            self.dirty = False


def turn_content(turn: Any) -> str:
    return f"{turn.speaker}: {_said(turn)}"


def _said(turn: Any) -> str:
    """What a chat message holds: the words, and a shared photo's caption."""
    if turn.image_caption:
        return f"{turn.text} [shares a photo: {turn.image_caption}]"
    return turn.text


def turn_time(turn: Any) -> datetime | None:
    if not turn.session_datetime_iso:
        return None
    return datetime.fromisoformat(turn.session_datetime_iso).replace(tzinfo=UTC)


def cached_embedder(name: str) -> tuple[Any, list[CachedEmbedder]]:
    """The named embedder with an on-disk cache around each model it runs."""
    if name == "default":
        parts = [CachedEmbedder(make_embedder("e5")), CachedEmbedder(make_embedder("use"))]
        return RoutedEmbedder(*parts), parts
    model = CachedEmbedder(make_embedder(name))
    return model, [model]


class EngramRetriever:
    def __init__(self, embedder: str = "default", preset: str = "default",
                 db: str | None = None, cache: bool = True, context: str = "both",
                 assoc_slots: int = 2, api: str = "remember_many") -> None:
        self.context = context
        self.api = api
        self.turn_of: dict[str, str] = {}   # --api ingest: turn event id -> dia_id
        self.caches: list[CachedEmbedder] = []
        if cache:
            self.model, self.caches = cached_embedder(embedder)
        else:
            self.model = make_embedder(embedder)
        self.dir = tempfile.TemporaryDirectory(prefix="engramdb-locomo-")
        self.mem = engramdb.open(db or os.path.join(self.dir.name, "locomo.db"),
                                 embedder=self.model, assoc_slots=assoc_slots)
        self.preset = None if preset == "auto" else preset

    def index(self, conversation_id: str, turns: Sequence[Any]) -> None:
        if self.api == "ingest":
            self._ingest(conversation_id, turns)
        else:
            self._remember_many(conversation_id, turns)
        self.mem.flush()  # vectors left pending by ENGRAMDB_EMBED=deferred (none when sync)
        for cache in self.caches:
            cache.save()

    def _ingest(self, conversation_id: str, turns: Sequence[Any]) -> None:
        sessions: dict[int, list[Any]] = {}
        for t in turns:
            sessions.setdefault(t.session, []).append(t)
        for number, said in sessions.items():
            messages = [{"role": "user", "speaker": t.speaker, "content": _said(t),
                         "at": turn_time(t)} for t in said]
            report = self.mem.ingest(messages, session=f"{conversation_id}:S{number}",
                                     user=conversation_id, agent="locomo")
            for t, result in zip(said, report.events, strict=True):
                self.turn_of[result.memory.id] = t.dia_id

    def _remember_many(self, conversation_id: str, turns: Sequence[Any]) -> None:
        drafts = [
            Draft(content=turn_content(t), kind="event", at=turn_time(t), people=[t.speaker],
                  metadata={"dia_id": t.dia_id}, session=f"{conversation_id}:S{t.session}",
                  turn=str(t.turn_index), context=self._context(turns, i))
            for i, t in enumerate(turns)
        ]
        self.mem.remember_many(drafts, user=conversation_id, agent="locomo")

    def _context(self, turns: Sequence[Any], i: int) -> str | None:
        """The neighbouring turns of the same session: what a turn answers or reacts to."""
        if self.context == "none":
            return None
        near = [i - 1, i + 1] if self.context == "both" else [i - 1]
        parts = [turn_content(turns[j]) for j in near
                 if 0 <= j < len(turns) and turns[j].session == turns[i].session]
        return "\n".join(parts) or None

    def search(self, conversation_id: str, query: str, k: int) -> list[str]:
        hits = self.mem.recall(query, k=k, track=False, preset=self.preset,
                               user=conversation_id, agent="locomo")
        if self.api != "ingest":
            return [h.memory.metadata["dia_id"] for h in hits]
        found: list[str] = []
        for hit in hits:
            ids = hit.memory.metadata.get("source_events") or [hit.memory.id]
            found += [self.turn_of[i] for i in ids
                      if i in self.turn_of and self.turn_of[i] not in found]
        return found

    def close(self) -> None:
        for cache in self.caches:
            cache.save()
        self.mem.close()
        self.dir.cleanup()


def make(**kwargs: Any) -> EngramRetriever:
    return EngramRetriever(**kwargs)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--embedder", default="default")
    ap.add_argument("--preset", default="default",
                    help='a recall preset, or "auto": the one the question\'s intent picks')
    ap.add_argument("--assoc-slots", type=int, default=2,
                    help="at most this many of k hits come by association (0: association off)")
    ap.add_argument("--split", default="dev")
    ap.add_argument("--max-questions", type=int, default=None)
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--context", default="both", choices=["prev", "both", "none"],
                    help="index each turn with its neighbouring turns, the previous one, or "
                         "none given (the engine then gives each event its session's previous "
                         "turn, as ingest does: write/turncontext.py)")
    ap.add_argument("--api", default="remember_many", choices=["remember_many", "ingest"],
                    help="how turns go in: remember_many (events with context) or ingest "
                         "(each session as a chat, with extraction)")
    ap.add_argument("--out", default=None, help="full results JSON (with per-question rankings)")
    ap.add_argument("--backend", default="sqlite", choices=["sqlite", "postgres"],
                    help="postgres: a fresh database on bench/pg_server.py's server")
    args = ap.parse_args(argv)
    if not (SHARED / "locomo_retrieval.py").exists():
        print(f"LoCoMo scorer not found in {SHARED} (set ENGRAMDB_LOCOMO_DIR)", file=sys.stderr)
        return 2
    sys.path.insert(0, str(SHARED))
    import locomo_retrieval  # type: ignore[import-not-found]

    kwargs = {"embedder": args.embedder, "preset": args.preset, "cache": not args.no_cache,
              "context": args.context, "assoc_slots": args.assoc_slots, "api": args.api}
    if args.backend == "postgres":
        import pg_server

        kwargs["db"] = pg_server.database(pg_server.start(), "locomo", fresh=True)
    scorer_args = ["--retriever", f"{Path(__file__).resolve()}:make", "--split", args.split,
                   "--retriever-kwargs", json.dumps(kwargs), "--markdown"]
    if args.max_questions:
        scorer_args += ["--max-questions", str(args.max_questions)]
    if args.out:
        scorer_args += ["--out", args.out, "--per-question"]
    return int(locomo_retrieval.main(scorer_args))


if __name__ == "__main__":
    sys.exit(main())
