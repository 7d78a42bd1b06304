"""Recall presets: which candidate legs run, how deep, and how they are fused and blended.

The pipeline reads these as data; adding a preset adds no code path."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..errors import Invalid


@dataclass(frozen=True)
class Leg:
    name: str          # bm25 | dense | anchors | uri
    weight: float = 1.0
    depth: int = 100   # candidates this leg contributes
    fields: tuple[tuple[str, float], ...] = ()   # text legs: FTS fields and their weights


@dataclass(frozen=True)
class Preset:
    name: str
    legs: tuple[Leg, ...]
    rrf_k: int = 60
    strength_weight: float = 0.1   # how much weak memories are pushed down (0 = not at all)
    anchor_boost: float = 0.0      # extra weight when the query names a hit's person/place/topic
    wake_slots: int = 2            # at most this many of the k hits may be woken from the archive
    options: dict[str, float] = field(default_factory=dict)
    # association (recall/associate.py): slots of k for associated hits, their score scale,
    # and weights by link relation
    assoc_slots: int = 2           # the engine sets it: Config.assoc_slots + assoc_extra
    assoc_extra: int = 0
    assoc_weight: float = 1.0
    relation_boost: tuple[tuple[str, float], ...] = ()
    recency_weight: float = 0.0    # x (1 + this * 2^(-age / 30 days)): recent memories first
    mmr: float = 0.0               # 0: off; else MMR's relevance weight (recall/diversify.py)

    def leg(self, name: str) -> Leg | None:
        return next((leg for leg in self.legs if leg.name == name), None)


# Measured on LoCoMo dev (bench/locomo.py): the words of a memory weigh most, its anchors and
# its context (e.g. the turn it answers) half as much; the dense leg (e5-small, 4-bit) adds
# paraphrase matches but, weighted equally, pushes exact word matches out of the top 10.
TEXT = (("body", 1.0), ("anchors", 0.5), ("context", 0.5))
PRESETS: dict[str, Preset] = {
    "default": Preset(
        "default",
        (Leg("bm25", 1.0, 100, TEXT), Leg("dense", 0.3, 100), Leg("uri", 1.0, 20)),
        anchor_boost=0.3,
    ),
    "lexical": Preset("lexical", (Leg("bm25", 1.0, 100, TEXT), Leg("uri", 1.0, 20)),
                      anchor_boost=0.3),
    "dense": Preset("dense", (Leg("dense", 1.0, 100),)),
}
# The presets a query's intent picks (recall/intent.py) when no preset is named: the default
# legs, blended for what the question asks. factual: stable, high-priority memories weigh more;
# temporal: recent ones do; causal: caused/evolved links count double in association;
# exploratory: diverse hits (MMR) and one more associated slot.
_DEFAULT = PRESETS["default"]
PRESETS.update({
    "factual": replace(_DEFAULT, name="factual", strength_weight=0.2),
    "temporal": replace(_DEFAULT, name="temporal", recency_weight=0.2),
    "causal": replace(_DEFAULT, name="causal",
                      relation_boost=(("caused", 2.0), ("evolved", 2.0))),
    "exploratory": replace(_DEFAULT, name="exploratory", assoc_extra=1, mmr=0.7),
})
PRESET_BY_INTENT = {"factual": "factual", "temporal": "temporal", "causal": "causal",
                    "exploratory": "exploratory"}


def get_preset(name: str) -> Preset:
    try:
        return PRESETS[name]
    except KeyError:
        raise Invalid(f"unknown recall preset {name!r} (known: {', '.join(PRESETS)})") from None
