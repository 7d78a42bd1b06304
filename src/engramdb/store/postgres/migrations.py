"""Ordered, named schema migrations for the PostgreSQL store. Append; never edit a landed one.

The numbers follow SQLite's list (sqlite/migrations.py) where a migration means the same thing,
so "schema version 3" names one state on both backends; PostgreSQL folds SQLite's 1-3 into its
first migration (it was written after them) and keeps 2 and 3 as named no-ops. Every table
leads its keys and indexes with the scope columns (user_id, agent_id), so it can be distributed
by user_id (docs/scale-out.md)."""

from __future__ import annotations

from ..common import Migration

_UPSERT_STATS = """
  INSERT INTO scope_stats AS s (user_id, agent_id, docs, tokens)
  SELECT user_id, agent_id, sum(d), sum(t) FROM ({rows}) AS delta
  GROUP BY user_id, agent_id HAVING sum(d) <> 0 OR sum(t) <> 0
  ON CONFLICT (user_id, agent_id) DO UPDATE
    SET docs = s.docs + excluded.docs, tokens = s.tokens + excluded.tokens;
"""
_NEW = "SELECT user_id, agent_id, 1 AS d, doc_len AS t FROM new_rows WHERE doc_len IS NOT NULL"
_OLD = "SELECT user_id, agent_id, -1 AS d, -doc_len AS t FROM old_rows WHERE doc_len IS NOT NULL"


def _stats_function(name: str, rows: str) -> str:
    """BM25 needs each scope's document count and total length (in tokens, as FTS5 counts
    them: its "scope" column adds one per row); kept per statement, so COPY pays once."""
    return (f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"{_UPSERT_STATS.format(rows=rows)} RETURN NULL; END $$")


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial", (
        "CREATE EXTENSION IF NOT EXISTS btree_gin",
        "CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)",
        """CREATE TABLE memories (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            id text COLLATE "C" NOT NULL,
            content text NOT NULL,
            content_hash text COLLATE "C" NOT NULL,
            kind text COLLATE "C" NOT NULL,
            uri text COLLATE "C",
            priority text COLLATE "C" NOT NULL,
            lifecycle text COLLATE "C" NOT NULL,
            importance double precision NOT NULL,
            at timestamptz NOT NULL,
            recorded_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            invalid_at timestamptz,
            superseded_by text COLLATE "C",
            expires_at timestamptz,
            due_at timestamptz,
            layer text COLLATE "C" NOT NULL,
            use_count integer NOT NULL DEFAULT 0,
            version integer NOT NULL DEFAULT 1,
            data text NOT NULL,
            body text,
            anchors text,
            context text,
            doc_len integer,
            -- body, anchors and context hold FTS5's tokens joined by single spaces (text.py),
            -- so the 'simple' parser reads back exactly those tokens
            tsv tsvector GENERATED ALWAYS AS (
                setweight(to_tsvector('simple'::regconfig, coalesce(body, '')), 'A')
                || setweight(to_tsvector('simple'::regconfig, coalesce(anchors, '')), 'B')
                || setweight(to_tsvector('simple'::regconfig, coalesce(context, '')), 'C')
            ) STORED,
            anchor_terms text[],
            embedding vector,
            PRIMARY KEY (user_id, agent_id, id)
        )""",
        "CREATE UNIQUE INDEX memories_uri ON memories(user_id, agent_id, uri) "
        "WHERE uri IS NOT NULL AND layer <> 'deleted'",
        "CREATE INDEX memories_at ON memories(user_id, agent_id, at, id)",
        "CREATE INDEX memories_kind ON memories(user_id, agent_id, kind, at)",
        "CREATE INDEX memories_hash ON memories(user_id, agent_id, content_hash)",
        "CREATE INDEX memories_layer ON memories(user_id, agent_id, layer, at)",
        "CREATE INDEX memories_tsv ON memories USING gin (user_id, agent_id, tsv)",
        "CREATE INDEX memories_anchors ON memories USING gin (user_id, agent_id, anchor_terms)",
        """CREATE TABLE events (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            seq bigint GENERATED ALWAYS AS IDENTITY,
            memory_id text COLLATE "C" NOT NULL,
            op text NOT NULL,
            version integer NOT NULL,
            at timestamptz NOT NULL,
            snapshot text,
            actor text,
            reason text,
            PRIMARY KEY (user_id, agent_id, seq)
        )""",
        "CREATE INDEX events_memory ON events(user_id, agent_id, memory_id, seq)",
        """CREATE TABLE scope_stats (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            docs bigint NOT NULL,
            tokens bigint NOT NULL,
            PRIMARY KEY (user_id, agent_id)
        )""",
        _stats_function("engramdb_stats_insert", _NEW),
        _stats_function("engramdb_stats_update", f"{_NEW} UNION ALL {_OLD}"),
        _stats_function("engramdb_stats_delete", _OLD),
        "CREATE TRIGGER memories_stats_insert AFTER INSERT ON memories "
        "REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT "
        "EXECUTE FUNCTION engramdb_stats_insert()",
        "CREATE TRIGGER memories_stats_update AFTER UPDATE ON memories "
        "REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT "
        "EXECUTE FUNCTION engramdb_stats_update()",
        "CREATE TRIGGER memories_stats_delete AFTER DELETE ON memories "
        "REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT "
        "EXECUTE FUNCTION engramdb_stats_delete()",
    )),
    Migration(2, "event_actor_reason", ()),   # in 1 already: actor and reason
    Migration(3, "memories_by_layer", ()),    # in 1 already: memories_layer
    Migration(4, "links", (
        # typed, directed edges between memories of one scope (links.py)
        """CREATE TABLE links (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            source text COLLATE "C" NOT NULL,
            target text COLLATE "C" NOT NULL,
            relation text COLLATE "C" NOT NULL,
            weight double precision NOT NULL,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            PRIMARY KEY (user_id, agent_id, source, target, relation)
        )""",
        "CREATE INDEX links_target ON links(user_id, agent_id, target)",
        "CREATE INDEX links_weight ON links(user_id, agent_id, relation, weight)",
    )),
    Migration(5, "working_memory", (
        # working memory's sessions, their turns, offloaded blobs (sessions.py)
        """CREATE TABLE wm_sessions (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            id text COLLATE "C" NOT NULL,
            settings text NOT NULL,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            ended_at timestamptz,
            summary text NOT NULL DEFAULT '',
            notes text NOT NULL DEFAULT '[]',
            PRIMARY KEY (user_id, agent_id, id)
        )""",
        """CREATE TABLE wm_turns (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            session_id text COLLATE "C" NOT NULL,
            seq integer NOT NULL,
            role text NOT NULL,
            content text NOT NULL,
            at timestamptz NOT NULL,
            tokens integer NOT NULL,
            pinned boolean NOT NULL DEFAULT false,
            ref text,
            folded boolean NOT NULL DEFAULT false,
            PRIMARY KEY (user_id, agent_id, session_id, seq)
        )""",
        """CREATE TABLE wm_blobs (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            ref text COLLATE "C" NOT NULL,
            session_id text COLLATE "C" NOT NULL,
            content text NOT NULL,
            tokens integer NOT NULL,
            at timestamptz NOT NULL,
            PRIMARY KEY (user_id, agent_id, ref)
        )""",
    )),
    Migration(6, "goals", (
        # each scope's goal stack (goals.py); lists are JSON arrays of text, as in SQLite
        """CREATE TABLE goals (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            id text COLLATE "C" NOT NULL,
            title text NOT NULL,
            status text COLLATE "C" NOT NULL,
            parent text COLLATE "C",
            constraints text NOT NULL,
            evidence text NOT NULL,
            open_loops text NOT NULL,
            created_at timestamptz NOT NULL,
            updated_at timestamptz NOT NULL,
            closed_at timestamptz,
            PRIMARY KEY (user_id, agent_id, id)
        )""",
        # at most one active goal per scope, whatever writes it
        "CREATE UNIQUE INDEX goals_one_active ON goals(user_id, agent_id) "
        "WHERE status = 'active'",
    )),
    Migration(7, "api_keys", (
        # HTTP API keys (goals.py). The one table not led by the scope: a request is
        # matched to its key by the secret's hash alone, before any scope is known, so key id
        # and hash are unique across the whole database (a small reference table)
        """CREATE TABLE api_keys (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            id text COLLATE "C" PRIMARY KEY,
            key_hash text COLLATE "C" NOT NULL UNIQUE,
            role text NOT NULL,
            name text NOT NULL,
            created_at timestamptz NOT NULL,
            revoked_at timestamptz
        )""",
        "CREATE INDEX api_keys_scope ON api_keys(user_id, agent_id, created_at, id)",
    )),
    Migration(9, "sleep_state", (
        # per scope: when the last sleep ran, the newest event it had seen, the decay settings
        # it ran with and the importance written since (dynamics/incremental.py, sleep.py)
        """CREATE TABLE sleep_state (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            last_at timestamptz,
            event_seq bigint NOT NULL DEFAULT 0,
            params text NOT NULL DEFAULT '',
            importance double precision NOT NULL DEFAULT 0,
            PRIMARY KEY (user_id, agent_id)
        )""",
        # per core memory: the earliest time a sleep could change it if nothing else happens
        """CREATE TABLE memory_due (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            memory_id text COLLATE "C" NOT NULL,
            due timestamptz NOT NULL,
            PRIMARY KEY (user_id, agent_id, memory_id)
        )""",
        "CREATE INDEX memory_due_at ON memory_due(user_id, agent_id, due)",
    )),
    Migration(10, "concepts", (
        # each memory's concept names (text/anchors.py), so that a concept's members are one index
        # range (recall/concepts.py); the store fills it for existing rows (pg_concepts.fill)
        """CREATE TABLE concepts (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            concept text COLLATE "C" NOT NULL,
            id text COLLATE "C" NOT NULL,
            PRIMARY KEY (user_id, agent_id, concept, id)
        )""",
        "CREATE INDEX concepts_memory ON concepts(user_id, agent_id, id)",
    )),
    Migration(11, "concepts_core_only", (
        "DELETE FROM concepts c USING memories m WHERE m.user_id = c.user_id "
        "AND m.agent_id = c.agent_id AND m.id = c.id AND m.layer <> 'core'",
    )),
    Migration(12, "memories_by_id", (
        # a memory found by its id alone (Store.locate: adapters that hold only the id, as
        # mem0's get does); SQLite's id column is UNIQUE, so indexed, since its first migration
        "CREATE INDEX IF NOT EXISTS memories_id ON memories(id)",
    )),
    Migration(13, "pending_vectors", (
        # memories written with Config.embed = "deferred" whose vector is still to be computed
        # (engine/deferred.py); ``judge``: the write decisions that need the vector are still to
        # run for it (a near-duplicate check)
        """CREATE TABLE IF NOT EXISTS pending_vectors (
            seq bigserial PRIMARY KEY,
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            memory_id text COLLATE "C" NOT NULL,
            judge boolean NOT NULL DEFAULT false,
            UNIQUE (user_id, agent_id, memory_id)
        )""",
        "CREATE INDEX IF NOT EXISTS pending_vectors_scope "
        "ON pending_vectors(user_id, agent_id, seq)",
    )),
    Migration(14, "pii_values", (
        # masked personal data (write/privacy.py), as SQLite keeps it
        """CREATE TABLE IF NOT EXISTS pii_values (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            memory_id text COLLATE "C" NOT NULL,
            placeholder text COLLATE "C" NOT NULL,
            kind text NOT NULL,
            value text NOT NULL,
            PRIMARY KEY (user_id, agent_id, memory_id, placeholder)
        )""",
    )),
    Migration(15, "passages", (
        # a long memory's passages (text/passages.py), each its own vector beside the memory's
        # pooled one: the dense search scores it by its best passage (postgres/passages.py);
        # the triggers delete them when the memory's embedding changes or the row goes
        """CREATE TABLE IF NOT EXISTS passages (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            memory_id text COLLATE "C" NOT NULL,
            part integer NOT NULL,
            embedding vector NOT NULL,
            PRIMARY KEY (user_id, agent_id, memory_id, part)
        )""",
        """CREATE OR REPLACE FUNCTION engramdb_passages_follow() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM passages WHERE user_id = OLD.user_id AND agent_id = OLD.agent_id
                AND memory_id = OLD.id;
            RETURN NULL;
        END $$""",
        "CREATE OR REPLACE TRIGGER passages_follow_update AFTER UPDATE OF embedding ON memories "
        "FOR EACH ROW WHEN (OLD.embedding IS DISTINCT FROM NEW.embedding) "
        "EXECUTE FUNCTION engramdb_passages_follow()",
        """CREATE OR REPLACE FUNCTION engramdb_passages_gone() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            DELETE FROM passages p USING gone g WHERE p.user_id = g.user_id
                AND p.agent_id = g.agent_id AND p.memory_id = g.id;
            RETURN NULL;
        END $$""",
        "CREATE OR REPLACE TRIGGER passages_follow_delete AFTER DELETE ON memories "
        "REFERENCING OLD TABLE AS gone FOR EACH STATEMENT "
        "EXECUTE FUNCTION engramdb_passages_gone()",
    )),
    Migration(16, "triples", (
        # each fact's subject-predicate-object triples (write/triples.py), written with its
        # index text; the store fills it for existing rows (postgres/triples.py ``fill``)
        """CREATE TABLE IF NOT EXISTS triples (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            memory_id text COLLATE "C" NOT NULL,
            n integer NOT NULL,
            subject text NOT NULL,
            predicate text NOT NULL,
            object text NOT NULL,
            PRIMARY KEY (user_id, agent_id, memory_id, n)
        )""",
        "CREATE INDEX IF NOT EXISTS triples_subject ON triples(user_id, agent_id, subject, "
        "predicate)",
    )),
    Migration(17, "cold_tier", (
        # a cold memory's text columns, embedding and passages (postgres/cold.py): its row in
        # memories holds none of them while its layer is "cold", so no hot index reads it
        """CREATE TABLE IF NOT EXISTS cold_index (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            id text COLLATE "C" NOT NULL,
            has_text boolean NOT NULL DEFAULT false,
            body text NOT NULL DEFAULT '',
            anchors text NOT NULL DEFAULT '',
            context text NOT NULL DEFAULT '',
            embedding vector,
            parts vector[],
            PRIMARY KEY (user_id, agent_id, id)
        )""",
        "CREATE INDEX IF NOT EXISTS memories_layer_updated "
        "ON memories(user_id, agent_id, layer, updated_at)",
    )),
    Migration(18, "stances", (
        # each statement's stance (write/stance.py), written and dropped with its triples;
        # a memory without one (stored before, or of another kind) is read from its text
        """CREATE TABLE IF NOT EXISTS stances (
            user_id text COLLATE "C" NOT NULL,
            agent_id text COLLATE "C" NOT NULL,
            memory_id text COLLATE "C" NOT NULL,
            stance text NOT NULL,
            PRIMARY KEY (user_id, agent_id, memory_id)
        )""",
    )),
)
