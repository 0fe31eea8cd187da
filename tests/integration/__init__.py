"""Integration tests: the core over a store (features on the in-memory twin; the
storage contract on SQLite, PostgreSQL and the twin)."""
