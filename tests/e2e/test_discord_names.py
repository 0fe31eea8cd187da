"""What a Discord user typed is shown as typed: no ping, link or formatting from a name or a
reason; only the users the bot addresses are pinged; a flooding user is slowed."""

from __future__ import annotations

from bot.limits import Limiter
from tests.support.adapters import DiscordHarness as Harness
from tests.support.adapters import rewired, with_web_url
from tests.support.discord_payloads import command, member, option, person
from tests.support.discord_play import ALICE, BOB, DAVE, MOD, ephemeral, ladder, report, text


async def test_a_flooding_user_is_slowed_politely_without_slowing_others(dc: Harness) -> None:
    await ladder(dc, "confirm=false")
    now = [0.0]
    rewired(dc.platform, limiter=Limiter(user_burst=3, user_rate=0.5, clock=lambda: now[0]))
    answers = [await dc.send(report(ALICE, "win", BOB)) for _ in range(5)]
    assert [text(a).split(":")[0] for a in answers[:3]] == ["Match #1", "Match #2", "Match #3"]
    assert ephemeral(answers[3]) and text(answers[3]) == (
        "You are sending commands faster than I can take them: please wait 2 s.")
    # an interaction must be answered, so the next one is too, briefly
    assert ephemeral(answers[4]) and text(answers[4]).startswith("Slow down a little")
    assert len((await dc.export())["matches"]) == 3
    assert not ephemeral(await dc.send(command("standings", by=BOB)))
    now[0] += 2
    assert text(await dc.send(report(ALICE, "win", BOB))).startswith("Match #4")


async def test_names_ping_nobody_and_format_nothing(dc: Harness) -> None:
    await ladder(dc)
    prankster = member(person(1300000000000000107, "@everyone"))
    joined = await dc.send(command("join", by=prankster))
    assert "@\u200beveryone joined main" in text(joined)
    # Discord parses no mention in what the bot sends: not @everyone, not roles, and only
    # the users the bot itself means (none here).
    assert joined["allowed_mentions"]["parse"] == []
    assert joined["allowed_mentions"].get("users", []) == []
    # and names are shown as typed, not as formatting or a disguised link
    phisher = member(person(1300000000000000108, "**[free nitro](https://x.example)**"))
    joined = await dc.send(command("join", by=phisher))
    # (a zero-width space after the colon: it looks as typed, and is no link)
    assert joined["content"].startswith("\\*\\*\\[free nitro](https:\u200b//x.example)\\*\\* "
                                        "joined")
    bare = member(person(1300000000000000109, "https://e.vil/login"))
    joined = await dc.send(command("join", by=bare))
    assert joined["content"].startswith("https:\u200b//e.vil/login joined")
    assert dc.fake.links == []  # (the harness checks this after every test, too)


async def test_the_bots_own_web_address_stays_a_link(dc: Harness) -> None:
    await ladder(dc, "public=true")
    rewired(dc.platform, with_web_url(dc.platform.config, "https://ladder.example"))
    info = await dc.send(command("info", by=ALICE, group="ladder"))
    assert "https://ladder.example/ladders/1" in text(info)
    assert dc.fake.links == ["https://ladder.example/ladders/1"]
    dc.fake.links.clear()


async def test_a_mention_typed_into_a_reason_pings_nobody(dc: Harness) -> None:
    """A dispute reason with `<@BOB>` in it: the reply sent `parse: ["users"]`, so Discord
    pinged bob. Only the users the bot means may be pinged."""
    await ladder(dc)
    await dc.send(report(ALICE, "win", BOB))
    reason = f"ask <@{DAVE['user']['id']}> he saw it"
    disputed = await dc.send(command("dispute", option("reason", reason), by=BOB))
    assert f"<\u200b@{DAVE['user']['id']}>" in text(disputed)  # (as typed: no pill)
    allowed = disputed["allowed_mentions"]
    assert allowed["parse"] == [] and allowed.get("users", []) == []


def test_only_the_users_the_bot_addresses_are_pinged() -> None:
    from bot.discord.render import pinged
    uid, other = 1300000000000000105, 1300000000000000106
    named = frozenset({uid})
    addressed = pinged(f"@<@{uid}>: your match #1 waits for you.", named).to_dict()
    assert addressed["parse"] == [] and addressed["users"] == [uid]
    typed = pinged(f"#1 disputed (ask <@{uid}>), waiting for a moderator", named).to_dict()
    assert typed["parse"] == [] and typed.get("users", []) == []
    # "@<@id>" typed into a reason reads as the core's address: not named, not pinged
    forged = pinged(f"#1 disputed: ask @<@{other}>", named).to_dict()
    assert forged.get("users", []) == []


async def test_a_mention_typed_as_an_address_into_a_reason_pings_nobody(dc: Harness) -> None:
    """"@<@id>" (typed as "@@dave") in a reason looked like the core addressing a user
    known only by a mention, and pinged them."""
    await ladder(dc)
    await dc.send(report(ALICE, "win", BOB))
    reason = f"ask @<@{DAVE['user']['id']}> he saw it"
    disputed = await dc.send(command("dispute", option("reason", reason), by=BOB))
    assert f"<\u200b@{DAVE['user']['id']}>" in text(disputed)  # (as typed: no pill)
    assert disputed["allowed_mentions"].get("users", []) == []


async def test_the_players_of_a_free_for_all_may_be_pinged_where_addressed(
    dc: Harness
) -> None:
    await dc.send(command("create", option("name", "main"), option("preset", "warlight"),
                          by=MOD, group="ladder"))
    for who in (ALICE, BOB, DAVE):
        await dc.send(command("join", by=who))
    ids = " ".join(f"<@{w['user']['id']}>" for w in (ALICE, BOB, DAVE))
    pending = await dc.send(command("report-ffa", option("players", ids), by=ALICE))
    named = {int(u) for u in pending["allowed_mentions"].get("users", [])}
    assert named <= {int(w["user"]["id"]) for w in (ALICE, BOB, DAVE)}


async def test_two_masked_links_in_one_line_are_both_shown_as_typed(dc: Harness) -> None:
    """menu.py's escape_markdown escapes only a line's first "[": a second player's
    `[Free Nitro](https://e.vil)` stayed a live link. And a right-to-left override in a
    name turned the rest of the sentence around."""
    await dc.send(command("create", option("name", "main"), option("preset", "warlight"),
                          option("options", "confirm=false"), by=MOD, group="ladder"))
    one = member(person(1300000000000000301, "[a](https://x.example)"))
    two = member(person(1300000000000000302, "[Free Nitro](https://e.vil)"))
    rtl = member(person(1300000000000000303, "\u202eevil"))
    for who in (one, two, rtl):
        await dc.send(command("join", by=who))
    ids = " ".join(f"<@{w['user']['id']}>" for w in (one, two, rtl))
    said = text(await dc.send(command("report-ffa", option("players", ids), by=one)))
    assert "\\[a](https:\u200b//x.example)" in said
    assert "\\[Free Nitro](https:\u200b//e.vil)" in said
    assert "[Free" not in said.replace(r"\[Free", "")  # no unescaped bracket anywhere
    assert "\u202eevil\u202c" in said  # the override ends with the name
