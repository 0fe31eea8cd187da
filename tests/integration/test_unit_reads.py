"""What a unit of work of the SQL stores reads once: a ladder's settings, read with its
row under its lock, are not read again, unless the unit changes them or rolls back."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from core.domain.events import SettingsChanged
from core.domain.records import Context
from core.service.dispatch import handle
from tests.support.chat import T0, Chat, user
from tests.support.sql_stores import SQL_STORES, sql_store


def _set(repo: Any, text: str) -> None:
    ctx = Context("console", user("mod"), T0 + 60, moderator=True)
    reply = handle(repo, ctx, text, user)
    assert reply is not None and not reply.error, reply


@SQL_STORES
async def test_settings_follow_the_units_own_changes(kind: str, tmp_path: Path,
                                                     request: pytest.FixtureRequest) -> None:
    async with await sql_store(kind, tmp_path / "ladder.db", request) as store:
        await Chat(store).ladder("warlight", "k=32")

        def work(repo: Any) -> list[float]:
            ladder = repo.ladder("console", None)
            seen = [repo._ladder_settings(ladder.id).k]
            _set(repo, "/ladder set k=20")
            seen.append(repo._ladder_settings(ladder.id).k)
            # (the command reads the ladder again after its change; the log alone:)
            repo.append(ladder.id, [SettingsChanged(T0 + 120, (("k", 16.0),), "mod")])
            seen.append(repo._ladder_settings(ladder.id).k)
            with contextlib.suppress(RuntimeError), repo.savepoint():
                _set(repo, "/ladder set k=25")
                seen.append(repo._ladder_settings(ladder.id).k)
                raise RuntimeError("undone")
            seen.append(repo._ladder_settings(ladder.id).k)
            return seen

        assert await store.run(work) == [32, 20, 16, 25, 16]
        def k_read_again(repo: Any) -> float:
            return float(repo._ladder_settings(repo.ladder("console", None).id).k)

        assert await store.run(k_read_again) == 16
