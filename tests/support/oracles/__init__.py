"""The rulebooks worked out again from RULES.md (tests/integration/test_rule_oracles.py)."""
