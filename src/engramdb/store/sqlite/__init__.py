"""The embedded default backend: one SQLite file. ``store.SQLiteStore`` is the store."""
