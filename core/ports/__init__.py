"""What core asks of storage (the repository's protocol) and the hints of what it will
read; storage implements it, core's service types against it."""
