"""What the live standings message needs of python-telegram-bot's rate limiter: to know
whether a group has budget to spare, and to send a request that is never retried.

PTB's `AIORateLimiter` keeps a group's budget (20 messages a minute, edits counted) and,
on a 429, pauses every request of the bot while it retries one: a live message's edit
that met a 429 held a /standings in another group for 2.9 s. An edit sent `ONCE` is
limited like any request but not retried: its 429 is the live message's alone, and it
tries again at its next turn. (Two private names of PTB 22's limiter are read here, in
one place: `_group_max_rate` and `_get_group_limiter`.)
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Bot
from telegram.ext import AIORateLimiter

ONCE = -1  # rate_limit_args of a request made once, whatever the answer
JSON = bool | dict[str, Any] | list[dict[str, Any]]


class Outgoing(AIORateLimiter):
    """PTB's limiter; a request sent `ONCE` is limited but never retried."""

    async def process_request(self, callback: Callable[..., Coroutine[Any, Any, JSON]],
                              args: Any, kwargs: dict[str, Any], endpoint: str,
                              data: dict[str, Any], rate_limit_args: int | None) -> JSON:
        if rate_limit_args != ONCE:
            return await super().process_request(callback, args, kwargs, endpoint, data,
                                                 rate_limit_args)
        chat_id = data.get("chat_id")
        group = chat_id if isinstance(chat_id, int) and chat_id < 0 else False
        return await self._run_request(chat=chat_id is not None, group=group,
                                       allow_paid_broadcast=False, callback=callback,
                                       args=args, kwargs=kwargs)


def spare(bot: Bot, chat_id: int, amount: int) -> bool:
    """Whether the group `chat_id` has `amount` messages of its budget left now (True
    where no budget is kept: a private chat, a limiter without one)."""
    limiter = getattr(bot, "rate_limiter", None)
    if chat_id >= 0 or not isinstance(limiter, AIORateLimiter) or not limiter._group_max_rate:
        return True
    return bool(limiter._get_group_limiter(chat_id).has_capacity(amount))
