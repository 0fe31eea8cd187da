"""The schema's versions: each store's numbered migrations, and the refusal of a
database written by a newer Ladderbot."""

from __future__ import annotations

from importlib import resources


class SchemaTooNew(Exception):
    """The database was written by a newer Ladderbot."""


def migrations(store: str = "sqlite") -> list[tuple[int, str]]:
    """(version, SQL) of every numbered migration of a store (storage/STORE/migrations),
    in order."""
    found = []
    for entry in (resources.files(f"storage.{store}") / "migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found.append((int(name[:4]), entry.read_text()))
    return sorted(found)


def refuse_newer(version: int, latest: int) -> None:
    """Raise SchemaTooNew for a database written by a newer Ladderbot."""
    if version > latest:
        raise SchemaTooNew(
            f"This database has schema version {version}, but this Ladderbot knows versions "
            f"up to {latest}. Upgrade Ladderbot to use it; the database was not changed."
        )
