"""Telegram: the platform (python-telegram-bot), its replies, live boards and pacing."""
