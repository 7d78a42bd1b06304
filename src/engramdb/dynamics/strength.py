"""Strength: how much a memory weighs in ranking and whether it stays in the core layer.

One formula, three steps (ages in days; ``now`` comes from the injectable clock):

1. Activation (ACT-R base level) over the memory's traces: its creation and every use
   (a tracked recall that returned it, a confirmation, a wake-up, a restore)::

       B = ln( sum_j t_j ** -d_j )            t_j: age of trace j (at least one hour)

   The decay of a trace follows Pavlik & Anderson (2005): ``d_j = a + c * exp(m_j)``, capped
   at 1, where ``a`` is the kind's decay rate and ``m_j`` the activation just before use j.
   A use made while the memory is still fresh (massed) adds a trace that fades fast; a use
   after a gap (spaced) adds a lasting one. That is the spacing effect: four reviews 12 days
   apart beat four within minutes. The creation trace decays at ``a``. A record keeps only
   its last 8 use times and a count: those 8 and the creation are summed exactly, the older
   uses by Petrov's (2006) approximation (spread evenly between the creation and the oldest
   kept use, decaying like the kept ones).
   Retention, the ACT-R recall probability, is ``1 / (1 + exp(-(B - TAU) / SCALE))``.

2. Effective age: the age a memory used never would need to have the same activation,
   ``t_eff = exp(-B / a)``. For a memory never used it is exactly its age (since it was
   recorded, not since ``at``: learning of an old event today is a new memory); every use
   makes it younger, frequent and recent uses most.

3. Weight: a true half-life decay of the effective age, down to the priority's floor::

       weight = max(floor, 0.5 ** (t_eff / H))      P0: always 1 (never fades)
       H = half_life[priority] * importance_factor * emotion_factor * association_factor

   Half-lives (configurable): P1 365 days, P2 90, P3 14; floors P1 0.3, P2 0.1, P3 0. A memory
   never used weighs exactly 0.5 after one half-life, 0.25 after two, and so on until the
   floor. The factors slow (or, for importance below the default 0.5, speed up) the decay but
   never add a floor: importance 1 + (importance - 0.5), in [0.5, 1.5]; emotion
   1 + 0.5 * |intensity|, in [1, 1.5]; association 1 + 0.1 * (1 - exp(-links)), below 1.1
   (``links``: the summed weight of the memory's links, both ways: decay.link_weights).
   At their defaults all three are 1 and the half-life is exact.

A maintenance pass archives core memories whose weight falls below ``archive_below`` (0.15):
an unused P3 event after about 38 days, an unused P2 fact after about 246 days; P1's floor
(0.3) keeps it above the default threshold and P0 never moves.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime

from ..config import Config, parse_cold_after
from ..model import Kind, Layer, Priority, Record
from ..text.emotion import read_emotion

DECAY_BY_KIND = {
    Kind.PROCEDURE: 0.3, Kind.GIST: 0.35, Kind.RULE: 0.35, Kind.LESSON: 0.35,
    Kind.IDENTITY: 0.4, Kind.PREFERENCE: 0.45, Kind.FACT: 0.5, Kind.EMOTION: 0.45,
    Kind.PENDING: 0.5, Kind.EVENT: 0.6,
}
HALF_LIFE_DAYS = {Priority.P1: 365.0, Priority.P2: 90.0, Priority.P3: 14.0}
FLOOR = {Priority.P0: 1.0, Priority.P1: 0.3, Priority.P2: 0.1, Priority.P3: 0.0}
ARCHIVE_BELOW = 0.15
SPACING = 0.05      # c in d_j = a + c * exp(m_j)
MAX_DECAY = 1.0     # the cap on a trace's decay
TAU = -1.5          # activation where retention is 0.5
SCALE = 0.6         # logistic noise of retention
KEPT_USES = 8       # use times a record keeps (store.record_uses)
MIN_AGE_DAYS = 1.0 / 24  # a trace younger than an hour counts as an hour old
_DAY = 86400.0


@dataclass(frozen=True)
class DecayParams:
    """The knobs a user may set (Config): half-lives by priority, the archive threshold and the
    time-span rule of gists."""

    half_lives: Mapping[Priority, float] = field(default_factory=lambda: dict(HALF_LIFE_DAYS))
    archive_below: float = ARCHIVE_BELOW
    gist_gap_days: float = 30.0    # a gist's members: at most this far apart in turn
    gist_span_days: float = 92.0   # and all within this span (dynamics/periods.py)
    cold_after_s: float = 0.0      # archived and unchanged this long: to the cold tier (0: off)


DEFAULT_PARAMS = DecayParams()


@dataclass(frozen=True)
class Strength:
    """Every term of a memory's weight, as ``Memory.explain`` returns it."""

    id: str
    kind: str
    layer: str
    priority: str
    uses: int
    age_days: float               # since it was recorded
    since_last_use_days: float    # since the newest trace (creation or use)
    decay_rate: float             # a: the kind's ACT-R decay rate
    activation: float             # B
    retention: float              # logistic of B
    effective_age_days: float     # exp(-B / a); the age itself when never used
    half_life_days: float | None  # by priority (None: P0 never fades)
    importance_factor: float
    emotion_factor: float
    association_factor: float
    effective_half_life_days: float | None
    floor: float
    curve: float                  # 0.5 ** (effective age / effective half-life)
    weight: float                 # max(floor, curve); 1 for P0
    archive_below: float
    archivable: bool              # in core and below the threshold: the next decay pass moves it
    valence: float = 0.0          # as stored, in [-1, 1]
    intensity: float = 0.0        # as stored, in [0, 1]: the emotion factor reads it
    emotion_cues: str = ""        # what text/emotion.py reads in the content (word and score)

    def to_dict(self) -> dict[str, object]:
        return {k: round(v, 6) if isinstance(v, float) else v for k, v in asdict(self).items()}

    def __str__(self) -> str:
        half = "never fades" if self.half_life_days is None else (
            f"half-life {self.half_life_days:g} d x importance {self.importance_factor:.3g}"
            f" x emotion {self.emotion_factor:.3g} x association {self.association_factor:.3g}"
            f" = {self.effective_half_life_days:.4g} d")
        return (f"{self.id} {self.kind} {self.priority} layer={self.layer}: weight "
                f"{self.weight:.4f} = max(floor {self.floor:g}, 0.5^({self.effective_age_days:.4g}"
                f" d / H)); {half}; activation {self.activation:.3f}, retention "
                f"{self.retention:.3f}, decay rate {self.decay_rate:g}, {self.uses} use(s); "
                f"emotion valence {self.valence:+.2f} intensity {self.intensity:.2f} "
                f"(text reads: {self.emotion_cues or 'no emotion cue'})")


# ---------------------------------------------------------------- activation


def decay_rate(kind: Kind) -> float:
    return DECAY_BY_KIND.get(kind, 0.5)


def _days(later: datetime, earlier: datetime) -> float:
    return (later - earlier).total_seconds() / _DAY


def _power(age: float, d: float) -> float:
    return max(age, MIN_AGE_DAYS) ** -d


def _spread(n: int, young: float, old: float, d: float) -> float:
    """Petrov: n traces spread evenly over ages [young, old], each decaying at d."""
    young = max(young, MIN_AGE_DAYS)
    old = max(old, young)
    if old - young < 1e-9:
        return n * young ** -d
    if abs(1.0 - d) < 1e-9:
        return n * (math.log(old) - math.log(young)) / (old - young)
    return n * (old ** (1 - d) - young ** (1 - d)) / ((1 - d) * (old - young))


def _trace_decay(a: float, total: float) -> float:
    """Pavlik & Anderson: a use's decay grows with the activation (ln total) it meets."""
    return min(MAX_DECAY, a + SPACING * total)


def activation_exact(times: Sequence[datetime], now: datetime, a: float) -> float:
    """B over a full trace history (oldest first, the creation first): the reference that
    ``activation`` approximates from the last 8 uses and a count."""
    decays: list[float] = []
    for j, t in enumerate(times):
        if j == 0:
            decays.append(a)
            continue
        total = sum(_power(_days(t, times[i]), decays[i]) for i in range(j))
        decays.append(_trace_decay(a, total))
    return math.log(sum(_power(_days(now, t), d) for t, d in zip(times, decays, strict=True)))


def _uses(record: Record) -> tuple[int, list[datetime]]:
    """(how many uses are not kept, the kept use times oldest first)."""
    kept = sorted(t for t in record.last_uses[-KEPT_USES:])
    return max(record.use_count - len(kept), 0), kept


def activation(record: Record, now: datetime) -> float:
    """B: exact over the creation and the kept uses, Petrov's approximation for the rest."""
    a = decay_rate(record.kind)
    created = record.recorded_at
    dropped, kept = _uses(record)
    if not kept:
        return -a * math.log(max(_days(now, created), MIN_AGE_DAYS))
    decays: list[float] = []
    for j, t in enumerate(kept):
        total = _power(_days(t, created), a)
        if dropped:
            total += _dropped(dropped, _days(t, kept[0]), _days(t, created), decays or [a])
        total += sum(_power(_days(t, kept[i]), decays[i]) for i in range(j))
        decays.append(_trace_decay(a, total))
    total = _power(_days(now, created), a)
    total += sum(_power(_days(now, t), d) for t, d in zip(kept, decays, strict=True))
    if dropped:
        total += _dropped(dropped, _days(now, kept[0]), _days(now, created), decays)
    return math.log(total)


def _dropped(n: int, young: float, old: float, decays: list[float]) -> float:
    """The uses no longer kept: spread evenly in time, decaying like the kept ones do."""
    return sum(_spread(n, young, old, d) for d in decays) / len(decays)


def retention(record: Record, now: datetime) -> float:
    """ACT-R recall probability in (0, 1); P0 memories never fade."""
    if record.priority == Priority.P0:
        return 1.0
    return _logistic(activation(record, now))


def _logistic(b: float) -> float:
    x = max(min((b - TAU) / SCALE, 50.0), -50.0)
    return 1.0 / (1.0 + math.exp(-x))


# ---------------------------------------------------------------- weight


def importance_factor(importance: float) -> float:
    return 1.0 + (min(max(importance, 0.0), 1.0) - 0.5)


def emotion_factor(intensity: float) -> float:
    return 1.0 + 0.5 * min(abs(intensity), 1.0)


def association_factor(links: float) -> float:
    return 1.0 + 0.1 * (1.0 - math.exp(-max(links, 0.0)))


def effective_age(record: Record, now: datetime) -> float:
    """Days: the age itself for a memory never used, younger for one used."""
    if record.use_count <= 0 and not record.last_uses:
        return max(_days(now, record.recorded_at), 0.0)
    return math.exp(-activation(record, now) / decay_rate(record.kind))


def half_life(record: Record, params: DecayParams = DEFAULT_PARAMS, links: float = 0.0) -> float:
    """The effective half-life in days (infinite for P0)."""
    if record.priority == Priority.P0:
        return math.inf
    return (params.half_lives[record.priority] * importance_factor(record.importance)
            * emotion_factor(record.intensity) * association_factor(links))


def weight(record: Record, now: datetime, params: DecayParams = DEFAULT_PARAMS,
           links: float = 0.0) -> float:
    """The strength used for ranking and archiving, in [floor, 1]."""
    if record.priority == Priority.P0:
        return 1.0
    curve = 0.5 ** (effective_age(record, now) / half_life(record, params, links))
    return max(FLOOR[record.priority], curve)


def assess(record: Record, now: datetime, params: DecayParams = DEFAULT_PARAMS,
           links: float = 0.0) -> Strength:
    """``weight`` with every term shown."""
    a = decay_rate(record.kind)
    b = activation(record, now)
    p0 = record.priority == Priority.P0
    t_eff = effective_age(record, now)
    h = half_life(record, params, links)
    curve = 1.0 if p0 else 0.5 ** (t_eff / h)
    w = weight(record, now, params, links)
    newest = max([record.recorded_at, *record.last_uses])
    return Strength(
        id=record.id, kind=record.kind.value, layer=record.layer.value,
        priority=record.priority.value, uses=record.use_count,
        age_days=_days(now, record.recorded_at), since_last_use_days=_days(now, newest),
        decay_rate=a, activation=b, retention=1.0 if p0 else _logistic(b),
        effective_age_days=t_eff,
        half_life_days=None if p0 else params.half_lives[record.priority],
        importance_factor=importance_factor(record.importance),
        emotion_factor=emotion_factor(record.intensity),
        association_factor=association_factor(links),
        effective_half_life_days=None if p0 else h, floor=FLOOR[record.priority],
        curve=curve, weight=w, archive_below=params.archive_below,
        archivable=record.layer == Layer.CORE and not p0 and w < params.archive_below,
        valence=record.valence, intensity=record.intensity,
        emotion_cues=read_emotion(record.content).describe() if record.content else "",
    )


def params_from(config: Config) -> DecayParams:
    return DecayParams(
        half_lives={Priority.P1: config.half_life_p1_days, Priority.P2: config.half_life_p2_days,
                    Priority.P3: config.half_life_p3_days},
        archive_below=config.archive_below,
        gist_gap_days=config.gist_max_gap_days,
        gist_span_days=config.gist_max_span_days,
        cold_after_s=parse_cold_after(config.cold_after),
    )
