"""What reads a ladder: standings, history, profiles, charts, exports."""
