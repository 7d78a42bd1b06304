"""Where memories live. ``protocol`` is the Store contract (typing.Protocol) and its value
types; ``sqlite/`` (the embedded default) and ``postgres/`` (scale-out) implement it, each as
a ``store.py`` class composed of mix-ins; ``common`` holds what both backends share;
``contract`` is the behaviour test kit every backend runs (``engramdb.testing.StoreContract``).
Nothing here imports from the engine or above it."""
