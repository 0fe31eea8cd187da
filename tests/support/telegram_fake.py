"""A stand-in for the Telegram Bot API: as a PTB `BaseRequest` for offline tests, and as
a loopback HTTP server for the end-to-end test of `ladderbot run`.

It answers with real Bot API JSON, so PTB's own serialization runs on both sides.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
from collections.abc import Callable
from typing import Any

from aiohttp import web
from telegram.request import BaseRequest, RequestData

from core.commands.registry import WORDS
from tests.support import platform_limits as limits

# (JSON as the Bot API sends it: a value of any type)
BOT: dict[str, Any] = {"id": 7000000001, "is_bot": True, "first_name": "Ladder",
                       "username": "LadderBot", "can_join_groups": True,
                       "can_read_all_group_messages": False, "supports_inline_queries": False}
GROUP: dict[str, Any] = {"id": -1001234567890, "type": "supergroup", "title": "Chess Club"}


GROUP_BUDGET, GROUP_MINUTE = 20, 60.0  # messages a group takes a minute (Bot API FAQ)
# The commands the bot's own words name: a reader may tap those.
COMMANDS = {word.lower() for word in WORDS}


def _people(update: dict[str, Any]) -> list[dict[str, Any]]:
    """Every user an update shows: its sender, the one it replies to, the ones it mentions."""
    body = update.get("message") or update.get("callback_query") or {}
    replied = body.get("reply_to_message") or {}
    return [u for u in (body.get("from"), replied.get("from"),
                        *(e.get("user") for e in body.get("entities") or [])) if u]


def person(uid: int, first: str, username: str | None = None) -> dict[str, Any]:
    user: dict[str, Any] = {"id": uid, "is_bot": False, "first_name": first}
    if username:
        user["username"] = username
    return user


class FakeTelegram:
    """The Bot API's answers, and a record of every call."""

    def __init__(self, admins: dict[int, list[dict[str, Any]]] | None = None) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.admins = admins or {}
        self.updates: list[dict[str, Any]] = []
        self.update_id = 0
        self.message_id = 5000
        self.new_update = asyncio.Event()
        self.answered = asyncio.Event()  # set on every sendMessage or answerCallbackQuery
        self.failures: dict[str, int] = {}  # endpoint -> how many calls fail first
        self.refused: list[tuple[str, str]] = []  # method, the Bot API's description
        self.links: list[str] = []  # what readers could click in the bot's messages
        self.slow: dict[str, int] = {}  # method -> event loop turns its answer takes
        self.messages: dict[tuple[int, int], str] = {}  # (chat, message id) -> its text
        self.deleted: set[tuple[int, int]] = set()  # messages someone deleted
        self.started: set[int] = set()  # users who opened a private chat with the bot
        self.usernames = {BOT["username"].lower()}  # the bot and everyone it has seen
        self.forbidden: set[int] = set()  # groups where the bot may not write now (403)
        self.ids: dict[int, int] = {}  # a sendMessage call's parameters -> its message id
        self.files: dict[str, bytes] = {}  # what users sent as documents, by file id
        self.downloads: list[str] = []  # the files the bot downloaded, by file id
        # Telegram's budget of a group, about 20 messages a minute, edits counted: kept
        # when a test gives the clock it runs on (its event loop's), answered with 429s.
        self.clock: Callable[[], float] | None = None
        self.spent: dict[int, tuple[float, float]] = {}  # group -> its level, and when
        self.undelivered: list[dict[str, Any]] = []  # messages refused with a 403

    def sent(self, chat_id: int | None = None) -> list[dict[str, Any]]:
        """sendMessage calls (to one chat), in order."""
        return [p for m, p in self.calls if m == "sendMessage"
                and (chat_id is None or int(p["chat_id"]) == chat_id)
                and not any(p is u for u in self.undelivered)]

    async def wait_sent(self, count: int) -> None:
        """Wait until at least `count` messages have been sent (fail after 20 s)."""
        async def enough() -> None:
            while len(self.sent()) < count:
                self.answered.clear()
                await self.answered.wait()

        try:
            await asyncio.wait_for(enough(), 20)
        except TimeoutError:
            raise AssertionError(f"{len(self.sent())} of {count} messages sent: "
                                 f"{self.texts()}") from None

    def texts(self, chat_id: int | None = None) -> list[str]:
        return [p["text"] for p in self.sent(chat_id)]

    def push(self, update: dict[str, Any]) -> dict[str, Any]:
        self.update_id += 1
        update = {"update_id": self.update_id, **update}
        for user in _people(update):  # (the accounts a mention of the bot's may name)
            if user.get("username"):
                self.usernames.add(user["username"].lower())
        chat = (update.get("message") or {}).get("chat") or {}
        if chat.get("type") == "private":  # (writing to the bot starts it)
            self.started.add(int(chat["id"]))
        self.updates.append(update)
        self.new_update.set()
        return update

    def answer(self, method: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        self.calls.append((method, params))
        if method in ("sendMessage", "editMessageText", "answerCallbackQuery"):
            said = str(params.get("text") or "")
            self.links += limits.telegram_links(said)
            self.links += limits.telegram_entities(said, COMMANDS, self.usernames)
        refused = self._refused(method, params)
        if refused is not None:
            return refused
        if method in ("sendMessage", "answerCallbackQuery"):
            self.answered.set()
        if self.failures.get(method, 0) > 0:
            self.failures[method] -= 1
            return 429, {"ok": False, "error_code": 429,
                         "description": "Too Many Requests: retry after 3",
                         "parameters": {"retry_after": 3}}
        if method == "editMessageText":
            return self.edit(params)
        if method == "getFile":
            return self._file(params)
        result: Any = True
        if method == "getMe":
            result = BOT
        elif method == "sendMessage":
            result = self._sent(params)
        elif method == "getChatAdministrators":
            result = [{"status": "creator", "user": u, "is_anonymous": False}
                      for u in self.admins.get(int(params["chat_id"]), [])]
        elif method == "getUpdates":
            offset = int(params.get("offset", 0) or 0)
            result = [u for u in self.updates if u["update_id"] >= offset]
        return 200, {"ok": True, "result": result}

    def _refused(self, method: str, params: dict[str, Any]
                 ) -> tuple[int, dict[str, Any]] | None:
        """What the Bot API refuses before doing anything: a call past its limits, a
        message where the bot may not write, past a group's budget (None: none of it)."""
        refusal = limits.telegram_call(method, params)
        if refusal is not None:  # as the Bot API refuses it (tests/support/platform_limits.py)
            self.refused.append((method, refusal))
            return 400, {"ok": False, "error_code": 400, "description": refusal}
        chat_id = int(params.get("chat_id") or 0)
        if method in ("sendMessage", "editMessageText") and chat_id in self.forbidden:
            self.undelivered.append(params)
            return 403, {"ok": False, "error_code": 403, "description":
                         "Forbidden: bot is not a member of the supergroup chat"}
        if method == "sendMessage" and chat_id > 0 and chat_id not in self.started:
            # A bot may write first to no one: only to a user who started it (the bot
            # is told so, and must cope: not a mistake of the request's).
            self.undelivered.append(params)
            return 403, {"ok": False, "error_code": 403,
                         "description": "Forbidden: bot can't initiate conversation with a user"}
        return self._over_budget(method, chat_id)

    def _sent(self, params: dict[str, Any]) -> dict[str, Any]:
        """A message sent: kept by its chat and id, as the Bot API answers it."""
        self.message_id += 1
        chat_id = int(params["chat_id"])
        result = {"message_id": self.message_id, "date": 1767607200, "from": BOT,
                  "chat": {**GROUP, "id": chat_id}, "text": params["text"]}
        self.messages[(chat_id, self.message_id)] = params["text"]
        self.ids[id(params)] = self.message_id
        if "reply_markup" in params:
            markup = params["reply_markup"]
            result["reply_markup"] = json.loads(markup) if isinstance(markup, str) else markup
        return result

    def _file(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """getFile: a document's path to download, or why not."""
        data = self.files.get(str(params["file_id"]))
        if data is None:
            return 400, {"ok": False, "error_code": 400,
                         "description": "Bad Request: invalid file_id"}
        if len(data) > limits.TELEGRAM_DOWNLOAD:
            return 400, {"ok": False, "error_code": 400,
                         "description": "Bad Request: file is too big"}
        return 200, {"ok": True, "result": {
            "file_id": params["file_id"], "file_unique_id": f"u{params['file_id']}",
            "file_size": len(data), "file_path": f"documents/{params['file_id']}"}}

    def _over_budget(self, method: str, chat_id: int) -> tuple[int, dict[str, Any]] | None:
        """A 429 for a message or edit past a group's 20 a minute (None: within it)."""
        if self.clock is None or chat_id >= 0 or method not in ("sendMessage",
                                                                 "editMessageText"):
            return None
        # (a bucket of 20 that drains 20 a minute: the budget as PTB's limiter keeps it)
        now, rate = self.clock(), GROUP_BUDGET / GROUP_MINUTE
        level, at = self.spent.get(chat_id, (0.0, now))
        level = max(0.0, level - (now - at) * rate)
        if level + 1 > GROUP_BUDGET + 1e-9:
            wait = math.ceil((level + 1 - GROUP_BUDGET) / rate)
            self.refused.append((method, f"Too Many Requests: retry after {wait}"))
            return 429, {"ok": False, "error_code": 429, "parameters": {"retry_after": wait},
                         "description": f"Too Many Requests: retry after {wait}"}
        self.spent[chat_id] = (level + 1, now)
        return None

    def edit(self, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        """editMessageText as the Bot API answers it: a deleted or unknown message, or
        the same text again, is refused."""
        key = (int(params["chat_id"]), int(params["message_id"]))
        if key not in self.messages or key in self.deleted:
            description = "Bad Request: message to edit not found"
        elif self.messages[key] == params["text"]:
            description = ("Bad Request: message is not modified: specified new message "
                           "content and reply markup are exactly the same as a current "
                           "content and reply markup of the message")
        else:
            self.messages[key] = params["text"]
            return 200, {"ok": True, "result": {
                "message_id": key[1], "date": 1767607200, "edit_date": 1767607300,
                "from": BOT, "chat": {**GROUP, "id": key[0]}, "text": params["text"]}}
        self.refused.append(("editMessageText", description))
        return 400, {"ok": False, "error_code": 400, "description": description}

    def edits(self, chat_id: int) -> list[str]:
        """The texts of every editMessageText in a chat, in order."""
        return [p["text"] for m, p in self.calls
                if m == "editMessageText" and int(p["chat_id"]) == chat_id]


class FakeRequest(BaseRequest):
    """PTB's request layer answered by a FakeTelegram, offline."""

    def __init__(self, api: FakeTelegram) -> None:
        self.api = api

    async def initialize(self) -> None:
        return None

    async def shutdown(self) -> None:
        return None

    @property
    def read_timeout(self) -> float | None:
        return 1.0

    async def do_request(self, url: str, method: str, request_data: RequestData | None = None,
                         read_timeout: Any = None, write_timeout: Any = None,
                         connect_timeout: Any = None, pool_timeout: Any = None
                         ) -> tuple[int, bytes]:
        if "/file/bot" in url:  # a file's download (getFile gave its path)
            file_id = url.rsplit("/", 1)[-1]
            self.api.downloads.append(file_id)
            return (200, self.api.files[file_id]) if file_id in self.api.files else (404, b"")
        endpoint = url.rsplit("/", 1)[-1]
        for _ in range(self.api.slow.get(endpoint, 0)):  # a slower answer: turns of the loop
            await asyncio.sleep(0)
        params = dict(request_data.parameters) if request_data is not None else {}
        if request_data is not None and request_data.contains_files:
            # the files' bytes, for the limits on what a file may be (a photo's size)
            params["_files"] = {name: part[1] for name, part in
                                (request_data.multipart_data or {}).items()}
        status, body = self.api.answer(endpoint, params)
        return status, json.dumps(body).encode()


async def serve(api: FakeTelegram) -> tuple[web.AppRunner, int]:
    """The fake as an HTTP server on a free loopback port: /bot<token>/<method>."""

    async def route(request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.content_type == "application/json":
            params = await request.json()
        else:
            form = await request.post()
            params = {k: _maybe_json(str(v)) for k, v in form.items()}
        if method == "getUpdates" and not [
                u for u in api.updates if u["update_id"] >= int(params.get("offset", 0) or 0)]:
            api.new_update.clear()
            # Long polling: hold the request until an update arrives. Answering early with
            # no updates is allowed, and keeps the bot's graceful shutdown short.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(api.new_update.wait(),
                                       min(0.5, float(params.get("timeout", 0) or 0)))
        status, body = api.answer(method, params)
        return web.json_response(body, status=status)

    app = web.Application()
    app.router.add_post("/bot{token}/{method}", route)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    return runner, port


def _maybe_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def message(text: str, user: dict[str, Any], chat: dict[str, Any] | None = None, *,
            message_id: int = 1, date: int = 1767607200,
            reply_to: dict[str, Any] | None = None,
            entities: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """A `message` update body, with the bot_command and mention entities a client sends."""
    found: list[dict[str, Any]] = []
    if text.startswith("/"):
        found.append({"type": "bot_command", "offset": 0, "length": len(text.split()[0])})
    offset = 0
    for word in text.split(" "):
        if word.startswith("@") and len(word) > 1:
            found.append({"type": "mention", "offset": offset, "length": len(word)})
        offset += len(word) + 1
    body: dict[str, Any] = {"message_id": message_id, "date": date, "chat": chat or GROUP,
                            "from": user, "text": text, "entities": found + (entities or [])}
    if reply_to is not None:
        body["reply_to_message"] = reply_to
    return {"message": body}


def document(caption: str, user: dict[str, Any], file_id: str, filename: str, size: int,
             chat: dict[str, Any] | None = None, *, message_id: int = 1,
             date: int = 1767607200) -> dict[str, Any]:
    """A `message` update body with a document, the command its caption (its
    bot_command entity among the caption's)."""
    body = message(caption, user, chat, message_id=message_id, date=date)["message"]
    body["caption"], body["caption_entities"] = body.pop("text"), body.pop("entities")
    body["document"] = {"file_id": file_id, "file_unique_id": f"u{file_id}",
                        "file_name": filename, "mime_type": "text/csv", "file_size": size}
    return {"message": body}
