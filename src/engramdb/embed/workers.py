"""Model worker processes for bulk writes: a batch's chunks embedded on every core.

A local model runs on one core per thread, and ``threads=2`` is slower than one on a
conversation's short texts (issue 28 measured 0.74-0.92x); a process per core is what scales.
``WorkerPool`` keeps up to ``count`` worker processes (embed/workerproc.py), each with its own
copy of the model built by the registry's factory, started on first use and reused until
``close`` (or IDLE_S unused). ``map`` hands each chunk to the next free worker, the calling
process taking chunks too (it holds a copy of the model already), and gives the results back in
the chunks' order, as they come. Each chunk is embedded exactly as the calling process embeds it
alone (the same texts in one ``embed_passages`` call), so the vectors are the same.

The workers are plain ``python -m`` processes, not ``multiprocessing`` ones: a worker does not
import the parent's ``__main__`` (a user's script without a ``__main__`` guard stays safe) and
is not a fork of a process that holds threads, locks and a database connection. A worker whose
input closes exits, so none outlives its parent.

How many model copies: ``workers_for`` (the setting, else the cores this process may use
divided by the model's threads, and no more than the memory available holds)."""

from __future__ import annotations

import logging
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..errors import EngramError

log = logging.getLogger("engramdb")

# a model copy's memory when the embedder does not say (``worker_bytes``). A worker's peak
# resident memory: 206 MB with the default model on conversation turns
# (bench/results/ingest_workers.md); 278 MB on 64 texts of ~3,200 characters, 158 MB with
# e5 alone and 158 MB with USE alone (measured once, VmHWM, on the 2026-12 machine)
WORKER_BYTES = 320 << 20
MEMORY_SHARE = 0.5   # of the memory available now, the most the workers may take together
# the workers start once a Memory's bulk embeds (two chunks or more each) have cost this
# much, in texts of up to PASSAGE_CHARS characters: at ~55 ms of model time a text, 64 texts
# take ~3.5 s on one core, about three times a worker's start-up (1.2-1.3 s of CPU,
# bench/results/ingest_workers.md), so a worker started for them still takes a good share;
# a run of smaller batches (a conversation ingested session by session) gets the workers
# from its third or fourth session on
POOL_MIN_WORK = 64
PASSAGE_CHARS = 500
IDLE_S = 120.0   # workers unused this long are stopped (started again when needed)

Chunk = tuple[Any, list[Any]]   # (vectors, parts) of one chunk: embed/pooled.Embedded's


@dataclass(frozen=True)
class WorkerSpec:
    """How a worker builds its embedder: a module-level ``factory`` (pickled by name, so a
    worker can import it) called with ``options``; ``threads``: the model's threads."""

    factory: Callable[..., Any]
    options: dict[str, Any] = field(default_factory=dict)
    threads: int = 1


class WorkerFailed(EngramError):
    """A model worker could not embed a chunk: the model raised, or the process died."""

    code = "embed_worker_failed"


class WorkerStartFailed(WorkerFailed):
    """A worker could not start (its embedder not built, the process gone before): the pool
    then leaves every chunk to the calling process."""


# ---------------------------------------------------------------- how many workers


def cores_available() -> int:
    """The cores this process may run on: its CPU affinity (Linux), else all, within the
    cgroup's CPU quota when one is set (a container)."""
    count = getattr(os, "process_cpu_count", None)
    if count is not None:
        cores = count() or 1
    elif hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0)) or 1
    else:
        cores = os.cpu_count() or 1
    quota = _read("/sys/fs/cgroup/cpu.max").split()
    if len(quota) == 2 and quota[0].isdigit() and quota[1].isdigit() and int(quota[1]) > 0:
        cores = min(cores, max(1, -(-int(quota[0]) // int(quota[1]))))
    return cores


def memory_available() -> int | None:
    """Bytes of memory available now (MemAvailable, within the cgroup's limit when one is
    set); None where neither can be read (not Linux)."""
    found = None
    for line in _read("/proc/meminfo").splitlines():
        if line.startswith("MemAvailable:"):
            found = int(line.split()[1]) * 1024
    limit, used = _read("/sys/fs/cgroup/memory.max").strip(), _read(
        "/sys/fs/cgroup/memory.current").strip()
    if limit.isdigit() and used.isdigit():
        room = max(0, int(limit) - int(used))
        found = room if found is None else min(found, room)
    return found


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return ""


def workers_for(setting: int | None, threads: int, worker_bytes: int) -> int:
    """How many copies of the model embed a bulk write, the calling process's one included:
    ``setting`` when given; else one per ``threads`` cores available, with no more new copies
    than MEMORY_SHARE of the available memory holds at ``worker_bytes`` each."""
    if setting is not None:
        return setting
    count = max(1, cores_available() // max(1, threads))
    memory = memory_available()
    if memory is not None:
        count = min(count, 1 + int(memory * MEMORY_SHARE) // max(1, worker_bytes))
    return count


def bulk_work(chunks: Sequence[Sequence[str]]) -> int:
    """What embedding ``chunks`` costs, in short texts: a text counts once per PASSAGE_CHARS
    characters begun (a long text is several passages, each about a short text's cost)."""
    return sum(1 + max(0, len(text) - 1) // PASSAGE_CHARS for chunk in chunks for text in chunk)


def pays(work: int) -> bool:
    return work >= POOL_MIN_WORK


def model_bytes(embedder: Any) -> int:
    """What one copy of ``embedder`` takes in a worker: its ``worker_bytes`` if it says."""
    given = getattr(embedder, "worker_bytes", None)
    return int(given) if isinstance(given, int) and given > 0 else WORKER_BYTES


# ---------------------------------------------------------------- the processes


class _Worker:
    """One worker process and its channel; ``call`` is used by one thread at a time."""

    def __init__(self, spec: WorkerSpec) -> None:
        env = dict(os.environ)
        package_root = str(Path(__file__).resolve().parents[2])   # where engramdb is imported
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH"))
                                            if p)
        for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            env[name] = str(spec.threads)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "engramdb.embed.workerproc"], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        except OSError as exc:
            raise WorkerFailed(f"cannot start a model worker: {exc}") from exc
        self.ready = False
        self.dead = False
        self._send(list(sys.path))
        self._send((spec.factory, spec.options))

    def call(self, texts: list[str], units: int) -> Chunk:
        if not self.ready:
            try:
                self._reply()   # the model is built (the spec's answer)
            except WorkerFailed as exc:
                raise WorkerStartFailed(f"{exc} (at its start)") from None
            self.ready = True
        self._send((texts, units))
        return self._reply()  # type: ignore[no-any-return]

    def _send(self, message: object) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        try:
            pickle.dump(message, stdin, protocol=pickle.HIGHEST_PROTOCOL)
            stdin.flush()
        except (OSError, ValueError) as exc:
            self._died(exc)
        except (pickle.PicklingError, AttributeError, TypeError) as exc:
            self.dead = True   # the spec's factory cannot be pickled: no worker can run it
            raise WorkerFailed(f"a model worker cannot build this embedder: {exc}") from exc

    def _reply(self) -> Any:
        stdout: IO[bytes] | None = self.proc.stdout
        assert stdout is not None
        try:
            kind, value = pickle.load(stdout)
        except (EOFError, OSError, pickle.UnpicklingError, ValueError) as exc:
            self._died(exc)
        if kind == "error":
            if not self.ready:
                self.dead = True
            raise WorkerFailed(f"a model worker failed: {value}")
        return value

    def _died(self, exc: BaseException) -> Any:
        self.dead = True
        try:
            code = self.proc.wait(2.0)
        except subprocess.TimeoutExpired:
            code = None
        raise WorkerFailed(f"a model worker died (exit code {code}): "
                           f"{type(exc).__name__}") from None

    def close(self, wait_s: float = 5.0) -> None:
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()   # the worker exits at the end of its input
        except OSError:
            pass
        try:
            self.proc.wait(wait_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()


Job = tuple[Future[Chunk], list[str], int]


class WorkerPool:
    """Up to ``count`` worker processes, each fed by a thread of this process from one queue
    of chunks; started as the batches need them, stopped after IDLE_S unused (started again
    when needed) and by ``close``. Thread-safe: concurrent ``map`` calls share the workers."""

    def __init__(self, spec: WorkerSpec, count: int, idle_s: float = IDLE_S) -> None:
        self.spec = spec
        self.count = count
        self.idle_s = idle_s
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._feeders: list[threading.Thread] = []
        self._workers: list[_Worker] = []    # the processes now (a dead one is replaced)
        self._lock = threading.Lock()
        self._closed = False
        self._busy = 0                      # map calls in flight
        self._last = time.monotonic()       # when the last one ended
        self._timer: threading.Timer | None = None
        self.broken = False                 # a worker could not start: none is started again

    @property
    def started(self) -> int:
        return len(self._workers)

    def map(self, chunks: Sequence[list[str]], units: int,
            here: Callable[[list[str]], Chunk] | None = None) -> Iterator[Chunk]:
        """Each chunk's (vectors, parts), in the chunks' order, as each is done. ``here``: the
        calling process embeds too (it is one of the model copies): while the chunk due next
        is in a worker's hands, it takes the first chunk no worker has begun, so no one waits
        for a worker to start. A chunk that fails raises at its turn; the chunks not begun
        then are dropped, and the ones in hand are finished before it returns (no worker is
        left busy)."""
        jobs = self._grow(max(1, min(self.count, len(chunks) - (here is not None))))
        futures: list[Future[Chunk]] = [Future() for _ in chunks]
        mine: dict[int, Chunk] = {}
        scan = 0   # the chunks before it were begun by a worker or done here
        try:
            for future, chunk in zip(futures, chunks, strict=True):
                jobs.put((future, list(chunk), units))
            for i, future in enumerate(futures):
                while here is not None and i not in mine and not future.done():
                    scan = max(scan, i)
                    while scan < len(futures) and not futures[scan].cancel():
                        scan += 1
                    if scan == len(futures):
                        break   # every chunk left is in a worker's hands
                    mine[scan] = here(list(chunks[scan]))
                    scan += 1
                yield mine.pop(i) if i in mine else self._result(future, chunks[i], here)
        finally:
            for future in futures:
                future.cancel()
            wait(futures)
            with self._lock:
                self._busy -= 1
                self._last = time.monotonic()
                self._arm(self.idle_s)

    def _result(self, future: Future[Chunk], chunk: list[str],
                here: Callable[[list[str]], Chunk] | None) -> Chunk:
        """A worker's result; a chunk whose worker could not start is done here."""
        try:
            return future.result()
        except WorkerStartFailed as exc:
            if here is None:
                raise
            if not self.broken:
                log.warning("engramdb: the model workers cannot start (%s); bulk writes embed "
                            "in this process", exc)
            self.broken = True
            return here(list(chunk))

    def _grow(self, wanted: int) -> queue.SimpleQueue[Job | None]:
        with self._lock:
            if self._closed:
                raise WorkerFailed("the model workers are closed")
            while len(self._feeders) < wanted and not self.broken:
                try:
                    worker = _Worker(self.spec)
                except WorkerFailed as exc:   # no process, or a factory it cannot get
                    log.warning("engramdb: no model worker (%s); bulk writes embed in this "
                                "process", exc)
                    self.broken = True
                    break
                self._workers.append(worker)
                feeder = threading.Thread(target=self._feed, args=(worker, self._jobs),
                                          name="engramdb-embed", daemon=True)
                self._feeders.append(feeder)
                feeder.start()
            self._busy += 1
            return self._jobs

    def _feed(self, worker: _Worker, jobs: queue.SimpleQueue[Job | None]) -> None:
        """A feeder thread: the queue's chunks to its worker, until a None."""
        while (job := jobs.get()) is not None:
            future, texts, units = job
            if not future.set_running_or_notify_cancel():
                continue   # taken by the calling process, or dropped
            try:
                future.set_result(worker.call(texts, units))
            except WorkerStartFailed as exc:
                future.set_exception(exc)
                self.broken = True   # the chunks left go to the calling process (or fail)
                continue
            except BaseException as exc:
                future.set_exception(exc)
            if worker.dead:
                worker = self._replace(worker)
        worker.close()

    def _replace(self, worker: _Worker) -> _Worker:
        """A fresh worker for one that died, so the next chunks have all of them again."""
        worker.close(wait_s=1.0)
        with self._lock:
            try:
                fresh = _Worker(self.spec)
            except WorkerFailed:
                fresh = worker   # its next chunk fails as this one did
            self._workers = [fresh if w is worker else w for w in self._workers]
        return fresh

    def _arm(self, after: float) -> None:
        """(Under the lock.) Look for idleness ``after`` seconds from now."""
        if self._timer is None and not self._closed and self._feeders:
            self._timer = threading.Timer(after, self._stop_if_idle)
            self._timer.daemon = True
            self._timer.start()

    def _stop_if_idle(self) -> None:
        with self._lock:
            self._timer = None
            quiet = time.monotonic() - self._last
            if self._busy or quiet < self.idle_s:
                self._arm(self.idle_s - quiet if not self._busy else self.idle_s)
                return
            feeders = self._stop()
        for feeder in feeders:
            feeder.join()

    def _stop(self) -> list[threading.Thread]:
        """(Under the lock.) Tell the feeders to close their workers; a next ``map`` starts
        new ones on a new queue."""
        feeders, jobs = self._feeders, self._jobs
        for _ in feeders:
            jobs.put(None)
        self._feeders, self._workers, self._jobs = [], [], queue.SimpleQueue()
        return feeders

    def close(self) -> None:
        """Stop the workers after the chunks in hand; idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            timer = self._timer
            feeders = self._stop()
        if timer is not None:
            timer.cancel()
        for feeder in feeders:
            feeder.join()
