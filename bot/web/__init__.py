"""The web: public ladder pages and the server that carries them (aiohttp)."""
