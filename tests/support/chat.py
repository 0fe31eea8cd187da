"""Drive the command layer like a chat would, on any store, with an injected clock."""

from __future__ import annotations

from typing import Any

from core.commands.base import Command, Parsed
from core.domain.calendar import parse_instant
from core.domain.records import Announcement, Context, Reply, UserRef
from core.domain.settings import Policy
from core.service.dispatch import catch_up_chat, execute, export, handle

T0 = parse_instant("2026-01-05T10:00:00+00:00")


def user(name: str, chat: str = "console") -> UserRef:
    """A user of a test chat; names are unique per platform."""
    return UserRef(f"{chat.split(':')[0]}:{name}", name)


class Chat:
    """One chat room: users speak, the clock moves, replies come back."""

    def __init__(self, store: Any, chat: str = "console", admins: tuple[str, ...] = ("mod",),
                 at: int = T0, policy: Policy | None = None, *, ephemeral: bool = False,
                 known: dict[str, UserRef] | None = None, alone: bool = False) -> None:
        self.store = store
        self.chat = chat
        self.admins = set(admins)
        self.at = at
        self.policy = policy or Policy()
        self.log: list[str] = []
        self.ephemeral = ephemeral  # a private reply is seen by its asker alone (Discord)
        self.known = known or {}  # mentions that name someone of another platform
        self.alone = alone  # a private chat: only the speaker reads the replies

    def resolve(self, name: str) -> UserRef:
        return user(name, self.chat)

    def mentioned(self, name: str) -> UserRef:
        """Whom a mention names: someone of another platform, else a user here."""
        return self.known.get(name) or self.resolve(name)

    async def say(self, name: str, text: str, *, message_id: str | None = None,
                  reply_to: str | None = None, attachment: bytes | None = None
                  ) -> Reply | None:
        ctx = self._context(name, message_id, reply_to, attachment)
        reply: Reply | None = await self.store.run(
            lambda repo: handle(repo, ctx, text, self.mentioned, self.policy))
        if reply is not None:
            self.log += [a.text for a in reply.announcements] + [reply.said]
        return reply

    async def press(self, name: str, command: Command, *, ladder: str | None = None,
                    attachment: bytes | None = None) -> Reply:
        """Run a command as a button or a typed form gives it (no text to parse)."""
        ctx = self._context(name, None, None, attachment)
        reply: Reply = await self.store.run(
            lambda repo: execute(repo, ctx, Parsed(command, ladder), self.policy))
        self.log += [a.text for a in reply.announcements] + [reply.said]
        return reply

    def _context(self, name: str, message_id: str | None, reply_to: str | None,
                 attachment: bytes | None) -> Context:
        return Context(self.chat, self.resolve(name), self.at,
                       moderator=name in self.admins, message_id=message_id,
                       reply_to=self.resolve(reply_to) if reply_to else None,
                       ephemeral=self.ephemeral, alone=self.alone, attachment=attachment)

    async def text(self, name: str, text: str, **kw: Any) -> str:
        """The reply text (fails if the message was not a command)."""
        reply = await self.say(name, text, **kw)
        assert reply is not None, f"{text!r} got no reply"
        return reply.said

    async def ok(self, name: str, text: str, **kw: Any) -> str:
        """The reply text of a command that must succeed."""
        reply = await self.say(name, text, **kw)
        assert reply is not None and not reply.error, f"{text!r}: {reply and reply.text}"
        return reply.said

    async def refused(self, name: str, text: str, **kw: Any) -> str:
        """The reply text of a command that must be refused."""
        reply = await self.say(name, text, **kw)
        assert reply is not None and reply.error, f"{text!r} was not refused: {reply}"
        return reply.said

    async def time(self, when: str | int) -> list[Announcement]:
        """Move the clock, running due jobs."""
        self.at = parse_instant(when) if isinstance(when, str) else when
        at = self.at
        found: list[Announcement] = await self.store.run(
            lambda repo: catch_up_chat(repo, self.chat, at))
        self.log += [a.text for a in found]
        return found

    async def tick(self, seconds: int) -> list[Announcement]:
        return await self.time(self.at + seconds)

    async def export(self, ladder: str = "main", at: int | None = None) -> dict[str, Any]:
        when = self.at if at is None else at
        result: dict[str, Any] = await self.store.run(
            lambda repo: export(repo, self.chat, ladder, when), commit=False)
        return result

    async def ratings(self, ladder: str = "main") -> dict[str, Any]:
        data = await self.export(ladder)
        return {p["name"]: p["rating"] if p["rating"] is not None else p["rung"]
                for p in data["players"]}

    async def ladder(self, preset: str, *options: str, name: str = "main") -> None:
        await self.ok("mod", f"/ladder create {name} preset={preset} {' '.join(options)}")

    async def join(self, *names: str, ladder: str = "") -> None:
        for n in names:
            await self.ok(n, f"/join {ladder}".strip())


async def duel(chat: Chat, *options: str) -> None:
    """A duel ladder `main` with `options`, which alice and bob have joined."""
    await chat.ladder("duel", *options)
    await chat.join("alice", "bob")


# Five games an hour apart among three players (the what-if's hand-worked example).
FIVE_GAMES = ("alice: /report win @bob", "bob: /report win @carol",
              "carol: /report draw @alice", "alice: /report win @bob again",
              "bob: /report win @alice")


async def five_games(chat: Chat, preset: str = "duel", *options: str) -> Chat:
    """A ladder `main` of `preset` (and `options`, reports confirmed at once) where alice,
    bob and carol played FIVE_GAMES."""
    await chat.ladder(preset, "confirm=false", *options)
    await chat.join("alice", "bob", "carol")
    for line in FIVE_GAMES:
        who, text = line.split(": ", 1)
        await chat.tick(3600)
        await chat.ok(who, text)
    return chat
