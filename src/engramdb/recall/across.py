"""How far a hit in the other language than the question's stands out by meaning: the only
evidence of relevance such a memory has (it shares no word with the question, and the dense
leg's gap is measured against the question's own language).

Its standing is read as waking reads it (recall/background.py, recall/wakemeaning.py): per
model, its cosine above the question's mean over the scope's memories of its language, in
deviations of the cosines between the scope's own memories, averaged over the models; then
less what the best of the n memories of its language would reach by chance (the normal
quantile 1 - 1/(n + 1)). The background is the scope's, kept per model and language, so a
recall costs one product of each query vector with a sample of at most 400 rows."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..model import Hit, Scope
from ..store.protocol import Store
from ..text.lang import other, script
from .background import Backgrounds, averaged, chance


def across(store: Store, backgrounds: Backgrounds, scope: Scope, query: str,
           vectors: Sequence[np.ndarray], languages: dict[str, set[str]],
           hits: Sequence[Hit]) -> dict[str, float]:
    """Each hit in the other language than ``query``'s: its standing above chance (may be
    negative); none for a hit in the query's language or where no model has a background."""
    asked = script(query)
    lang = other(asked)
    theirs = [h.memory.id for h in hits if h.memory.id in languages.get(lang, ())]
    if not theirs:
        return {}
    found = store.vectors(scope, theirs)
    candidates = [(mid, lang, found[mid]) for mid in theirs if mid in found]
    base = chance(len(languages.get(lang, ())))
    return {mid: z - base for mid, z in
            averaged(backgrounds, scope, vectors, languages, asked, candidates).items()}
