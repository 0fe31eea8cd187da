"""The SQLite store: its file, its database thread, its migrations."""
