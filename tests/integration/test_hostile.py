"""Hostile input, fuzzed with hypothesis: the parser and whole command sequences never
fail with anything but a clear refusal, a refused command changes nothing, and no reply
reveals another chat's ladders or players."""

from __future__ import annotations

import asyncio

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.commands.reading import parse
from core.commands.words import MAX_TEXT
from core.domain.errors import LadderError
from core.domain.records import Context, Reply, UserRef
from core.service.dispatch import handle
from storage.sql.repo import SqlRepo
from storage.sqlite.store import SqliteStore
from tests.support.chat import T0

NASTY = [
    "<b>bold</b>", "<script>alert(1)</script>", "**x**", "[link](https://evil.example)",
    "`code`", "@everyone", "@here", "<@123>", "\u200b", "\u200d", "\ufeff",  # zero-width
    "\u202e", "\u200f", "\u2066x\u2069", "مرحبا", "שלום",  # right-to-left
    "'); DROP TABLE players;--", "\" OR 1=1 --", "1; DELETE FROM events", "%s %d {0}",
    "\x00", "\r\n", "\t", "ß", "👍🏽", "Z̴̡̛a̷l̸g̶o̵", "ladder=", "ladder=main", "ladder=hidden",
    "=", "==", "key=value", "preset=duel", "+", "-", "+999999999999", "-0", "1e308", "NaN",
    "moves=-1", "moves=99999999999999999999", "#1", "0", "-1", "9" * 30,
]
WORDS = [
    "win", "loss", "draw", "minor", "major", "overwhelming", "ffa", "teams", "vs", "unrated",
    "rated", "moves=30", "void", "set", "adjust", "remove", "season", "close", "create",
    "default", "info", "list", "settings", "season", "week", "ladder", "@alice", "@bob",
    "@carol", "@ghost", "@", "1", "2", "3", "+10", "-10", "claim", "undo-import",
]
COMMANDS = [
    "/report", "/confirm", "/dispute", "/withdraw", "/mod", "/ladder", "/join", "/leave",
    "/challenge", "/accept", "/decline", "/available", "/unavailable", "/standings",
    "/profile", "/history", "/halloffame", "/help", "/claim", "/nonsense", "/", "//",
    "/report@LadderBot", "/REPORT", "",
]
USERS = ["alice", "bob", "carol", "mod"]
SECRETS = ("hidden", "ghostwhisper", "phantomlord")  # the other chat's ladder and players

token = st.one_of(st.sampled_from(NASTY), st.sampled_from(WORDS),
                  st.text(max_size=12), st.text(alphabet="\u200b\u202e\u0645x @=", max_size=6))
# Well-formed commands with hostile text in their free fields (reasons, names, values),
# so that hostile text is also stored and shown back (history, profiles, tables).
TEMPLATES = [
    "/report win @bob {}", "/report loss @carol {}", "/report draw @alice", "/confirm",
    "/dispute {}", "/dispute 1 {}", "/mod void 1 {}", "/mod set 1 @bob {}",
    "/mod adjust @carol +5 {}", "/mod adjust @{} +5 why", "/mod season close {}",
    "/withdraw {}", "/mod remove @bob {}", "/mod remove @{} why",
    "/ladder create {} preset=duel", "/ladder set {}=1", "/ladder set public={}",
    "/challenge @alice ladder=pos", "/decline {} ladder=pos", "/accept ladder=pos",
    "/history @{}", "/profile @{}", "/standings {}", "/help {}", "/ladder default {}",
]
message = st.one_of(
    st.builds(lambda template, field: template.format(field), st.sampled_from(TEMPLATES),
              st.one_of(st.sampled_from(NASTY), st.text(max_size=20))),
    st.builds(lambda head, rest: " ".join([head, *rest]), st.sampled_from(COMMANDS),
              st.lists(token, max_size=8)),
    st.builds(lambda head, n: f"{head} {'x' * n}", st.sampled_from(COMMANDS),
              st.sampled_from([MAX_TEXT - 10, MAX_TEXT, 10_000])),
    st.text(max_size=40),
)
# A user's display name is their own text too (Telegram first names, Discord nicknames).
display = st.one_of(st.sampled_from(USERS), st.sampled_from(NASTY), st.text(max_size=30))


def resolve(name: str) -> UserRef | None:
    return UserRef(f"b:{name}", name) if name in USERS else None


@settings(max_examples=400, deadline=None)
@given(message, display)
def test_the_parser_refuses_clearly_or_parses(text: str, name: str) -> None:
    try:
        parse(text, UserRef("b:alice", name), resolve)
    except LadderError as error:
        assert str(error).strip()  # a clear answer, never an empty one


def everything(repo: SqlRepo) -> list[str]:
    """The database, as SQL (the message ids remembered are not ladder state)."""
    return [line for line in repo.conn.iterdump()
            if not line.startswith('INSERT INTO "seen_messages"')]


async def play(script: list[tuple[int, str, str, bool]]) -> None:
    async with SqliteStore(":memory:") as store:
        async def say(chat: str, key: str, name: str, text: str, moderator: bool,
                      at: int) -> Reply | None:
            ctx = Context(chat, UserRef(key, name), at, moderator=moderator)

            def other(n: str) -> UserRef | None:
                return UserRef(f"{chat}:{n}", n) if n in {*USERS, *SECRETS} else None

            return await store.run(lambda repo: handle(repo, ctx, text, other))

        # Another chat with its own ladder and players, none of which chat B may see.
        for who, text in [("mod", "/ladder create hidden preset=duel confirm=false"),
                          ("ghostwhisper", "/join"), ("phantomlord", "/join"),
                          ("ghostwhisper", "/report win @phantomlord")]:
            reply = await say("a", f"a:{who}", who, text, who == "mod", T0)
            assert reply is not None and not reply.error, reply
        for who, text in [("mod", "/ladder create main preset=duel"),
                          ("mod", "/ladder create pos preset=nhwc"),
                          *[(u, "/join") for u in USERS], *[(u, "/join ladder=pos") for u in USERS],
                          ("alice", "/report win @bob")]:
            reply = await say("b", f"b:{who}", who, text, who == "mod", T0)
            assert reply is not None and not reply.error, reply
        for step, (user, name, text, moderator) in enumerate(script):
            before = await store.run(everything, commit=False)
            reply = await say("b", f"b:{USERS[user]}", name, text, moderator, T0 + 60 * step)
            if reply is None or reply.error:
                assert await store.run(everything, commit=False) == before, text
            if reply is not None:
                assert reply.said.strip()
                shown = " ".join([reply.said, *(a.text for a in reply.announcements)])
                for secret in SECRETS:
                    assert secret not in shown or secret in text + name, (text, shown)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(USERS) - 1), display, message, st.booleans()),
                min_size=1, max_size=12))
def test_command_sequences_never_fail_and_refusals_change_nothing(
    script: list[tuple[int, str, str, bool]]
) -> None:
    asyncio.run(play(script))
