"""The PostgreSQL store: its sessions, its wire, its migrations."""
