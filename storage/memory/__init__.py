"""The in-memory twin of the SQL stores, for tests: the same protocol, the same contract
tests, no database."""
