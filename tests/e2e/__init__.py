"""End-to-end tests: through Discord's and Telegram's stand-ins, the console, the CLI,
processes and a browser."""
