"""Unit tests: the rules, the parsers, the words and the house's own checks, no database."""
