"""Tournaments on a ladder (RULES.md, "Tournaments on a ladder"): the pairings of each
format and the standings their results give, as pure functions of the seeds and the
results. What a round's games were is a stored fact once announced; who won them is read
from the ladder's matches, so a correction on the ladder re-derives the tournament."""
