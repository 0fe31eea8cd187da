"""A public ladder to read through the web: alice, bob and a player named like a script tag,
three games, one voided with markup in its reason, and a private ladder beside it."""

from __future__ import annotations

from tests.support.chat import Chat

HOSTILE = "<script>alert(1)</script>"


async def sample_ladders(chat: Chat) -> None:
    await chat.ladder("duel", "confirm=false", "calibration=0", "public=true")
    await chat.join("alice", "bob", HOSTILE)
    await chat.ok("alice", "/report win @bob")
    await chat.ok(HOSTILE, "/report win @bob")
    await chat.ok("alice", f"/report win @{HOSTILE}")
    await chat.ok("mod", "/mod void 2 <b>not</b> played")
    await chat.ladder("warlight", name="secret")  # not public
    await chat.ok("alice", "/join ladder=secret")
