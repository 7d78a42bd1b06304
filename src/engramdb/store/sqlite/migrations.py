"""Ordered, named schema migrations for the SQLite store. Append; never edit a landed one."""

from __future__ import annotations

from ..common import Migration

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "initial", (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE memories (
            rowid INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            content TEXT NOT NULL,
            content_hash TEXT NOT NULL,
            kind TEXT NOT NULL,
            uri TEXT,
            priority TEXT NOT NULL,
            lifecycle TEXT NOT NULL,
            importance REAL NOT NULL,
            at TEXT NOT NULL,
            recorded_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            invalid_at TEXT,
            superseded_by TEXT,
            expires_at TEXT,
            due_at TEXT,
            layer TEXT NOT NULL,
            use_count INTEGER NOT NULL DEFAULT 0,
            version INTEGER NOT NULL DEFAULT 1,
            data TEXT NOT NULL
        )""",
        "CREATE UNIQUE INDEX memories_uri ON memories(user, agent, uri) "
        "WHERE uri IS NOT NULL AND layer != 'deleted'",
        "CREATE INDEX memories_at ON memories(user, agent, at)",
        "CREATE INDEX memories_kind ON memories(user, agent, kind, at)",
        "CREATE INDEX memories_hash ON memories(user, agent, content_hash)",
        """CREATE TABLE events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            op TEXT NOT NULL,
            version INTEGER NOT NULL,
            at TEXT NOT NULL,
            snapshot TEXT
        )""",
        "CREATE INDEX events_memory ON events(user, agent, memory_id, seq)",
        """CREATE TABLE vectors (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            mem_rowid INTEGER NOT NULL UNIQUE REFERENCES memories(rowid) ON DELETE CASCADE,
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            vec BLOB NOT NULL
        )""",
        "CREATE INDEX vectors_scope ON vectors(user, agent, seq)",
        """CREATE TABLE scope_state (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            vec_seq INTEGER NOT NULL,
            vec_count INTEGER NOT NULL,
            PRIMARY KEY (user, agent)
        )""",
        "CREATE VIRTUAL TABLE memories_fts USING fts5(scope, body, anchors, context, "
        "tokenize = 'unicode61 remove_diacritics 0')",
    )),
    Migration(2, "event_actor_reason", (
        # who made a change ("user", "sleep", "import"...) and why, where known
        "ALTER TABLE events ADD COLUMN actor TEXT",
        "ALTER TABLE events ADD COLUMN reason TEXT",
    )),
    Migration(3, "memories_by_layer", (
        # a recall asks whether a scope has archived memories at all (to wake them) and lists
        # them by time: both are index lookups, never a scan of the scope
        "CREATE INDEX memories_layer ON memories(user, agent, layer, at)",
    )),
    Migration(4, "links", (
        # typed, directed edges between memories of one scope (user links, the system's own,
        # and co-activation "associated" edges); scope columns lead every key and index
        """CREATE TABLE links (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            source TEXT NOT NULL,
            target TEXT NOT NULL,
            relation TEXT NOT NULL,
            weight REAL NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (user, agent, source, target, relation)
        )""",
        "CREATE INDEX links_target ON links(user, agent, target)",
        "CREATE INDEX links_weight ON links(user, agent, relation, weight)",
    )),
    Migration(5, "working_memory", (
        # working memory (working/): a session's settings and running summary, its turns, and
        # the blobs heavy turns were offloaded to; scope columns first, like every table
        """CREATE TABLE wm_sessions (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            id TEXT NOT NULL,
            settings TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            ended_at TEXT,
            summary TEXT NOT NULL DEFAULT '',
            notes TEXT NOT NULL DEFAULT '[]',
            PRIMARY KEY (user, agent, id)
        )""",
        """CREATE TABLE wm_turns (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            session_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL,
            content TEXT NOT NULL,
            at TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            pinned INTEGER NOT NULL DEFAULT 0,
            ref TEXT,
            folded INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (user, agent, session_id, seq)
        )""",
        """CREATE TABLE wm_blobs (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            ref TEXT NOT NULL,
            session_id TEXT NOT NULL,
            content TEXT NOT NULL,
            tokens INTEGER NOT NULL,
            at TEXT NOT NULL,
            PRIMARY KEY (user, agent, ref)
        )""",
    )),
    Migration(6, "goals", (
        # the goal stack of each scope (attention/goals.py); lists are JSON arrays of text
        """CREATE TABLE goals (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            id TEXT NOT NULL,
            title TEXT NOT NULL,
            status TEXT NOT NULL,
            parent TEXT,
            constraints TEXT NOT NULL,
            evidence TEXT NOT NULL,
            open_loops TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            closed_at TEXT,
            PRIMARY KEY (user, agent, id)
        )""",
        # at most one active goal per scope, whatever writes it
        "CREATE UNIQUE INDEX goals_one_active ON goals(user, agent) WHERE status = 'active'",
    )),
    Migration(7, "api_keys", (
        # HTTP API keys: the scope a key is bound to, its role, and the SHA-256 of its secret
        # (the secret itself is shown once at creation and never stored)
        """CREATE TABLE api_keys (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            id TEXT PRIMARY KEY,
            key_hash TEXT NOT NULL UNIQUE,
            role TEXT NOT NULL,
            name TEXT NOT NULL,
            created_at TEXT NOT NULL,
            revoked_at TEXT
        )""",
        "CREATE INDEX api_keys_scope ON api_keys(user, agent)",
    )),
    Migration(9, "sleep_state", (
        # per scope: when the last sleep ran, the newest event it had seen, the decay settings
        # it ran with and the importance written since (dynamics/incremental.py)
        """CREATE TABLE sleep_state (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            last_at TEXT,
            event_seq INTEGER NOT NULL DEFAULT 0,
            params TEXT NOT NULL DEFAULT '',
            importance REAL NOT NULL DEFAULT 0,
            PRIMARY KEY (user, agent)
        )""",
        # per core memory: the earliest time a sleep could change it if nothing else happens
        """CREATE TABLE memory_due (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            due TEXT NOT NULL,
            PRIMARY KEY (user, agent, memory_id)
        )""",
        "CREATE INDEX memory_due_at ON memory_due(user, agent, due)",
    )),
    Migration(10, "concepts", (
        # each memory's concepts (text/anchors.py), so that a concept's members are one index range
        # (recall/concepts.py); engramdb_concepts is the store's Python function for text/anchors.py
        """CREATE TABLE concepts (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            concept TEXT NOT NULL,
            mem_rowid INTEGER NOT NULL,
            PRIMARY KEY (user, agent, concept, mem_rowid)
        ) WITHOUT ROWID""",
        "CREATE INDEX concepts_memory ON concepts(mem_rowid)",
        "INSERT OR IGNORE INTO concepts SELECT m.user, m.agent, c.value, m.rowid "
        "FROM memories m, json_each(engramdb_concepts(m.data)) c",
    )),
    Migration(11, "concepts_core_only", (
        # association spreads through core memories only: a store mostly archived made a
        # concept's lookup read past thousands of archived members
        "DELETE FROM concepts WHERE mem_rowid IN "
        "(SELECT rowid FROM memories WHERE layer != 'core')",
    )),
    Migration(12, "memories_by_id", ()),  # in 1 already: id is UNIQUE (PostgreSQL's 12)
    Migration(13, "pending_vectors", (
        # memories written with Config.embed = "deferred" whose vector is still to be computed
        # (engine/deferred.py); ``judge``: the write decisions that need the vector are still to
        # run for it (a near-duplicate check)
        """CREATE TABLE IF NOT EXISTS pending_vectors (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            memory_id TEXT NOT NULL UNIQUE,
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            judge INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX IF NOT EXISTS pending_vectors_scope ON pending_vectors(user, agent, seq)",
    )),
    Migration(14, "pii_values", (
        # masked personal data (write/privacy.py): each placeholder of a memory's text and the
        # kind and value it stands for; a hard forget deletes the memory's rows
        """CREATE TABLE IF NOT EXISTS pii_values (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            placeholder TEXT NOT NULL,
            kind TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (user, agent, memory_id, placeholder)
        ) WITHOUT ROWID""",
    )),
    Migration(15, "passages", (
        # a long memory's passages (text/passages.py), each its own vector beside the memory's
        # pooled one: the dense search scores it by its best passage (store/passages.py). The
        # triggers delete a memory's passages with its vector row and keep the scope's
        # passage sequence and count (passage_state) current for the in-memory cache.
        """CREATE TABLE IF NOT EXISTS passages (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            mem_rowid INTEGER NOT NULL REFERENCES memories(rowid) ON DELETE CASCADE,
            part INTEGER NOT NULL,
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            vec BLOB NOT NULL,
            UNIQUE (mem_rowid, part)
        )""",
        "CREATE INDEX IF NOT EXISTS passages_scope ON passages(user, agent, seq)",
        """CREATE TABLE IF NOT EXISTS passage_state (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            seq INTEGER NOT NULL,
            count INTEGER NOT NULL,
            PRIMARY KEY (user, agent)
        ) WITHOUT ROWID""",
        """CREATE TRIGGER IF NOT EXISTS passages_follow_vector AFTER DELETE ON vectors
        BEGIN DELETE FROM passages WHERE mem_rowid = old.mem_rowid; END""",
        """CREATE TRIGGER IF NOT EXISTS passages_added AFTER INSERT ON passages
        BEGIN INSERT INTO passage_state(user, agent, seq, count)
        VALUES (new.user, new.agent, new.seq, 1) ON CONFLICT(user, agent)
        DO UPDATE SET seq = excluded.seq, count = count + 1; END""",
        """CREATE TRIGGER IF NOT EXISTS passages_removed AFTER DELETE ON passages
        BEGIN UPDATE passage_state SET count = count - 1
        WHERE user = old.user AND agent = old.agent; END""",
    )),
    Migration(16, "triples", (
        # each fact's subject-predicate-object triples (write/triples.py), written with its
        # index text; engramdb_triples is the store's Python function for write/triples.py
        """CREATE TABLE IF NOT EXISTS triples (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            n INTEGER NOT NULL,
            subject TEXT NOT NULL,
            predicate TEXT NOT NULL,
            object TEXT NOT NULL,
            PRIMARY KEY (user, agent, memory_id, n)
        ) WITHOUT ROWID""",
        "CREATE INDEX IF NOT EXISTS triples_subject ON triples(user, agent, subject, predicate)",
        "INSERT OR IGNORE INTO triples SELECT m.user, m.agent, m.id, t.key, "
        "json_extract(t.value, '$[0]'), json_extract(t.value, '$[1]'), "
        "json_extract(t.value, '$[2]') FROM memories m, "
        "json_each(engramdb_triples(m.content, m.kind)) t "
        "WHERE m.kind IN ('identity', 'preference', 'fact') AND m.content != ''",
    )),
    Migration(17, "cold_tier", (
        # a cold memory's searchable text, vector and passage vectors (store/cold.py), out of
        # memories_fts, vectors and passages while its layer is "cold": hot searches never
        # read them; a recall that asks for the cold tier scans the scope's rows here
        """CREATE TABLE IF NOT EXISTS cold_index (
            mem_rowid INTEGER PRIMARY KEY REFERENCES memories(rowid) ON DELETE CASCADE,
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            has_text INTEGER NOT NULL DEFAULT 0,
            body TEXT NOT NULL DEFAULT '',
            anchors TEXT NOT NULL DEFAULT '',
            context TEXT NOT NULL DEFAULT '',
            vec BLOB,
            parts BLOB
        )""",
        "CREATE INDEX IF NOT EXISTS cold_index_scope ON cold_index(user, agent)",
        # the sleep's question "archived and unchanged since when?" is one index range
        "CREATE INDEX IF NOT EXISTS memories_layer_updated ON memories(user, agent, layer, "
        "updated_at)",
    )),
    Migration(18, "stances", (
        # each statement's stance (write/stance.py), written and dropped with its triples;
        # a memory without one (stored before, or of another kind) is read from its text
        """CREATE TABLE IF NOT EXISTS stances (
            user TEXT NOT NULL,
            agent TEXT NOT NULL,
            memory_id TEXT NOT NULL,
            stance TEXT NOT NULL,
            PRIMARY KEY (user, agent, memory_id)
        ) WITHOUT ROWID""",
    )),
)
