"""The people and the first moves of the Telegram end-to-end tests: a moderator (an
administrator of the group) and four players, one of them without a username."""

from __future__ import annotations

from tests.support.adapters import TelegramHarness
from tests.support.telegram_fake import person

MOD = person(101, "Mo", "mod")
ALICE = person(102, "Alice", "alice")
BOB = person(103, "Bob", "bob")
CAROL = person(104, "Carol")  # no username
DAVE = person(105, "Dave", "dave")


async def ladder(tg: TelegramHarness, *options: str) -> None:
    """The moderator creates the duel ladder `main`; alice and bob join it."""
    await tg.say(MOD, "/ladder create main preset=duel " + " ".join(options))
    await tg.say(ALICE, "/join")
    await tg.say(BOB, "/join")
