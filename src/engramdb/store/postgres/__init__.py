"""The scale-out backend: PostgreSQL with pgvector. ``store.PostgresStore`` is the store."""
