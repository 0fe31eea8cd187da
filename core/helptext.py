"""What each command word takes (its usage line) and does (its help)."""

from __future__ import annotations

from core.i18n import Text, t
from core.rulebooks import rulebook_summary
from core.settings import PROPERTIES, SETTING_GROUPS, SETTING_SPECS, Policy

USAGE: dict[str, str] = {
    "ladder": "/ladder create NAME preset=PRESET [key=value ...] | /ladder set key=value ... | "
              "/ladder info | /ladder list | /ladder default NAME | /ladder rename NEW | "
              "/ladder delete NAME",
    "join": "/join",
    "leave": "/leave",
    "challenge": "/challenge @user | /challenge cancel [@user]",
    "accept": "/accept [@user]",
    "decline": "/decline [reason]",
    "available": "/available",
    "unavailable": "/unavailable",
    "report": "/report win|loss|draw @user [minor|major|overwhelming] [moves=N] [unrated] "
              "[again] | "
              "/report ffa @first @second ... | /report teams @a @b vs @c @d [draw]",
    "confirm": "/confirm [MATCH_ID]",
    "dispute": "/dispute [MATCH_ID] [reason]",
    "withdraw": "/withdraw [MATCH_ID]",
    "standings": "/standings [season|week|ladder|rating] [page=N]",
    "profile": "/profile [@user]",
    "history": "/history [@user] [page=N]",
    "players": "/players [page=N]",
    "halloffame": "/halloffame",
    "mod": "/mod void MATCH_ID reason... | /mod set MATCH_ID RESULT reason... | "
           "/mod adjust @user +N|-N reason... | /mod remove @user reason... | "
           "/mod cancel CHALLENGE_ID reason... | /mod add @user | /mod ban @user reason... | "
           "/mod unban @user reason... | /mod season close [reason]",
    "help": "/help [command]",
}

HELP: dict[str, str] = {
    "ladder": "Create a ladder from a preset (warlight, fame, duel, nhwc, dutch) and change its "
              "settings (moderators). The first ladder of a chat is its default; add ladder=NAME "
              "to any command to use another. /ladder rename NEW renames it; /ladder delete "
              "NAME deletes one for good once confirmed, after writing its export to a file. "
              "/help settings lists every key.",
    "join": "Join the ladder. You start at its start rating (or the bottom rung); "
            "if you come back after /leave, your record is still there.",
    "leave": "Leave the ladder. Finish or settle your open reports and challenges first.",
    "challenge": "Challenge a player on a position ladder. They /accept, or /decline for a valid "
                 "reason; unanswered by the deadline, it counts as their minor defeat. An "
                 "accepted challenge is played within the ladder's play_hours, or it lapses "
                 "with no result. /challenge cancel takes back your own challenge while it is "
                 "unanswered.",
    "accept": "Accept a challenge: both rungs are logged now and decide the case of the result.",
    "decline": "Decline a challenge. Allowed only when you are already engaged in an unfinished "
               "challenge or marked /unavailable.",
    "available": "Mark yourself available for challenges again.",
    "unavailable": "Mark yourself unavailable: you may then decline challenges.",
    "report": "Report a game you played. The opponent confirms with /confirm (or /dispute); "
              "unanswered reports are confirmed after the ladder's window. Position ladders need "
              "the margin of a win: minor, major or overwhelming. `unrated` records a game "
              "without moving ratings. Where reports count at once (confirm=false), the "
              "opponent's matching report within confirm_hours is the same game; `again` "
              "says it is another one.",
    "confirm": "Confirm a report your opponent made. The id is needed only when more than one "
               "waits for you.",
    "dispute": "Dispute a report; it waits for a moderator (/mod set or /mod void). The id is "
               "needed only when more than one waits for you.",
    "withdraw": "Take back a report your side made (a wrong result or opponent) while it waits "
                "for the opponent: it never counted, so report the game again as it was. The id "
                "is needed only when more than one of yours waits.",
    "standings": "Show the ladder's table: season (gain this month), week (last 7 days) or "
                 "ladder (rating of active players), where the ladder keeps them; rating lists "
                 "everyone by rating, calibrating players marked. Long tables come in pages "
                 "of 20: page=2 shows the next.",
    "profile": "Show a player's rating or rung, rank, record and recent corrections.",
    "history": "Show recent matches and moderator corrections, of the ladder or of a player, "
               "newest first, 10 matches a page: page=2 goes further back.",
    "players": "List the ladder's members by name, with their rating or rung and games; "
               "20 a page.",
    "halloffame": "Show the Hall of Fame: the top three of every closed season.",
    "mod": "Moderators: void a match, set its result (RESULT names players in finishing order, "
           "e.g. `@bob major`, or `draw`; add `unrated` or `rated`), adjust a rating (rungs on a "
           "position ladder: +N is up), take a player off the ladder (an inactive rung, a "
           "cheat; the record stays and they may /join again), add someone as their own /join "
           "would, ban a player (off the ladder and kept off until unbanned; the record "
           "stays), cancel an unfinished challenge "
           "(its id is in /profile), or close the season now. Every "
           "action needs a reason and is kept in the history.",
    "help": "Show the commands, or how one command works.",
}


def usage(word: str) -> Text:
    """The usage line of a command word (its words stay as they are in every language)."""
    return t("usage.line", line=USAGE.get(word, USAGE["help"]))


def help_text(topic: str | None, policy: Policy | None = None) -> str:
    """The command list, or one topic."""
    if topic is None:
        lines = ["Commands:"] + [USAGE[w] for w in USAGE]
        lines.append("/help COMMAND explains one; /help settings lists ladder settings; "
                     "/help presets lists the rulebooks.")
        return "\n".join(lines)
    if topic == "settings":
        lines = ["Ladder settings (key=value in /ladder create and /ladder set), by what "
                 "they configure:"]
        for _, title, keys in SETTING_GROUPS:
            lines += [f"{title}:"] + [f"  {SETTING_SPECS[key].describe()}" for key in keys]
        lines += ["The ladder itself:"] + [f"  {key}: {text}" for key, text in PROPERTIES.items()]
        return "\n".join(lines)
    if topic in ("presets", "preset", "rulebooks"):
        policy = policy or Policy()
        custom = {name for name, _ in policy.presets}
        return "Rulebooks (preset=NAME):\n" + "\n".join(
            f"{name}: " + (f"this community's own, based on {settings.preset}: "
                           if name in custom else "") + str(rulebook_summary(settings))
            for name in policy.preset_names
            for settings in [policy.settings_for(name)])
    word = "halloffame" if topic in ("hall", "hof") else topic
    if word in USAGE:
        return f"{HELP[word]}\nUsage: {USAGE[word]}"
    return f"There is no help on {topic[:40]!r}. /help lists the commands."
