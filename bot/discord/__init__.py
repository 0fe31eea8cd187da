"""Discord: the platform (discord.py), its slash commands, replies, live boards and roles."""
