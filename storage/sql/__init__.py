"""The SQL repository both databases share, in parts, with its units of work."""
