"""Read-only commands: standings, profile, history, Hall of Fame, ladder info and help.

They read stored projections through the repository and never replay the log.
"""

from __future__ import annotations

from collections.abc import Callable

from core.challenges import deadline
from core.charts import chart_for
from core.commands import ShowHistory, ShowProfile, ShowStandings
from core.elo import decay_amount
from core.errors import RuleViolation
from core.i18n import N_, Message, decode, joined, plural, span, t
from core.model import PlayerId, Timestamp
from core.paging import more_hint, pages, past_the_end
from core.ports import Repo
from core.records import (
    AuditEntry,
    ChallengeRecord,
    Context,
    LadderInfo,
    MatchRecord,
    PlayerInfo,
    Reply,
)
from core.rulebooks import choose, rulebook_summary
from core.session import Session, rating_text, signed
from core.settings import Settings, describe
from core.state import PlayerState
from core.tables import calibrating, league

TOP = 20  # rows of a table a page
HISTORY_PAGE = 10  # matches of a history a page


def member_table(settings: Settings) -> str:
    """The table that lists every member: rungs, or ratings (calibrating players too)."""
    return "rung" if settings.is_position else "rating"


def member_count(repo: Repo, ladder: LadderInfo, at: Timestamp) -> int:
    """How many players are on a ladder now."""
    return repo.standings(ladder.id, member_table(ladder.settings), at, 0)[1]


def main_table(settings: Settings) -> str:
    """The table `/standings` shows by default."""
    if settings.is_position:
        return "rung"
    return "ladder" if "ladder" in settings.tables else "rating"


def _header(s: Session, table: str) -> str:
    settings, name = s.settings, s.ladder.name
    if table == "rung":
        return f"{name}: rungs"
    if table == "rating":
        return f"{name}: ratings"
    if table == "ladder":
        return f"{name}: ladder (rating; calibrated players active in the last " \
               f"{span(settings.active_days, 'day')})"
    if table == "season":
        return f"{name}: season {s.season} (gain this month; " \
               f"{settings.season_min_games}+ rated games)"
    return f"{name}: last {span(settings.week_days, 'day')} (gain; " \
           f"{settings.week_min_games}+ rated games)"


def _value(s: Session, table: str, value: float, rated_games: int, held: bool = False) -> str:
    if table == "rung":
        return ""
    if table in ("season", "week"):
        return f" {signed(value)} ({plural(rated_games, 'rated game')})"
    text = f" {rating_text(value)}"
    named = league(s.settings, value, rated_games)
    if named is not None:
        text += f" ({named})"
    elif held or calibrating(s.settings, rated_games):
        text += " (provisional)"
    return text


def _empty(s: Session, table: str) -> str:
    """Why a table lists no one."""
    settings = s.settings
    calibrated = (f"calibrated players ({plural(settings.calibration, 'rated game')})"
                  if settings.calibration else "players")
    if table == "season":
        return (f"No one is listed now: the season table lists {calibrated} with "
                f"{settings.season_min_games}+ rated games this month and a gain.")
    if table == "week":
        return (f"No one is listed now: the week table lists {calibrated} with "
                f"{settings.week_min_games}+ rated games in the last "
                f"{span(settings.week_days, 'day')} and a gain.")
    if table == "ladder":
        return (f"No one is listed now: the ladder lists {calibrated} who played in the last "
                f"{span(settings.active_days, 'day')}.")
    return f"No one has joined yet: {s.join}"


def _movement(s: Session, table: str, players: list[PlayerId]) -> Callable[[PlayerId, int], str]:
    """` ▲2`, ` ▼1` or ` ▲` (new in the top) since the day began, in the main table."""
    day = s.repo.day_ranks(s.ladder.id, players) if table == main_table(s.settings) else {}

    def mark(player: PlayerId, place: int) -> str:
        if not day:  # no day's start kept yet
            return ""
        before = day.get(player)
        if before is None:
            return " ▲"
        if before > place:
            return f" ▲{before - place}"
        if before < place:
            return f" ▼{place - before}"
        return ""

    return mark


def standings(s: Session, cmd: ShowStandings) -> Reply:
    """Show a table of the ladder, a page of TOP rows."""
    table = cmd.table or main_table(s.settings)
    if table == "rating" and s.settings.is_position:
        raise RuleViolation(f"{s.ladder.name} keeps rungs, not ratings: /standings shows them.")
    if cmd.table not in (None, "rating") and table not in s.settings.tables:
        raise RuleViolation(f"{s.ladder.name} keeps no {table} table; /standings shows its "
                            "ranking.")
    skip = (cmd.page - 1) * TOP
    rows, total = s.repo.standings(s.ladder.id, table, s.now, skip + TOP)
    rows = rows[skip:]
    if cmd.page > 1 and not rows:
        raise RuleViolation(past_the_end(cmd.page, total, TOP))
    s.names(r.player for r in rows)
    lines = [_header(s, table) + (f", page {cmd.page} of {pages(total, TOP)}"
                                  if total > TOP else "")]
    if table == "rung":
        away = {p for p, info in s.repo.players(s.ladder.id, [r.player for r in rows]).items()
                if not info.available}
    else:
        away = set()
    moved = _movement(s, table, [r.player for r in rows])
    for place, row in enumerate(rows, skip + 1):
        mark = " (unavailable)" if row.player in away else ""
        lines.append(f"{place}. {s.name(row.player)}"
                     f"{_value(s, table, row.value, row.rated_games, row.held)}"
                     f"{mark}{moved(row.player, place)}")
    if not rows:
        lines.append(_empty(s, table))
    elif total > skip + len(rows) or skip:
        me = s.repo.player_for(s.ladder.id, s.ctx.user.key)
        mine = s.repo.rank(s.ladder.id, table, me.id, s.now) if me is not None else None
        if me is not None and mine is not None and not skip < mine <= skip + len(rows):
            lines.append(f"… {mine}. {me.name} (of {total})")
        lines += more_hint(total - skip - len(rows),
                           s.said(f"/standings {cmd.table or ''} page={cmd.page + 1}"))
    return Reply("\n".join(lines))


def profile(s: Session, cmd: ShowProfile) -> Reply:
    """Show a player's standing, record and recent corrections."""
    # Someone who left keeps their record (/leave says so); never joined is refused.
    if cmd.user is None:
        own = s.player(s.ctx.user)
        player = own if own is not None and not own.member else s.me()
    else:
        player = s.player(cmd.user) or s.member(cmd.user)
    state = s.repo.player_state(s.ladder.id, player.id)
    assert state is not None
    settings = s.settings
    lines = [_standing(s, player, state) + "."]
    if not state.games:
        record = "No games yet."
    else:
        record = f"Games: {state.games}"
        if state.games != state.rated_games:
            record += f" ({state.rated_games} rated)"
        record += f": {plural(state.wins, 'win')}, {plural(state.losses, 'loss')}, " \
                  f"{plural(state.draws, 'draw')}."
    if state.last_played is not None:
        record += f" Last played {s.when(state.last_played)}."
    lines.append(record)
    if settings.decays and player.member:
        amount = decay_amount(settings, state.rating)
        if amount:
            lines.append(f"Decay: {signed(-amount)} a day at this rating (at 00:00 "
                         f"{settings.timezone}).")
    if "season" in settings.tables:
        lines.append(f"Season {s.season}: {signed(state.season_gain)} over "
                     f"{plural(state.season_games, 'rated game')}.")
    if choose(settings).waits(settings):
        lines.append(_period_text(s, player.id))
    reports, challenges = s.waiting_on(player.id)
    if reports:
        lines.append("Open reports: " + "; ".join(_open_text(s, player, m) for m in reports)
                     + ".")
    if challenges:
        lines.append("Challenges: " + "; ".join(_challenge_text(s, player.id, c)
                                                for c in challenges) + ".")
    audit = s.repo.audit(s.ladder.id, player=player.id, limit=5)
    if audit:
        lines.append("Corrections: " + "; ".join(_audit_text(s, a) for a in audit) + ".")
    chart = chart_for(s.repo, s.ladder, player.id, player.name, s.now)
    return Reply("\n".join(lines), chart=chart)


def _standing(s: Session, player: PlayerInfo, state: PlayerState) -> str:
    """A profile's first line: rung or rating, league, and place in the main table."""
    settings = s.settings
    if not player.member:
        where = "" if settings.is_position else f" at rating {rating_text(state.rating)}"
        table = "on no rung" if settings.is_position else "in no table"
        return f"{player.name} left {s.ladder.name}{where} and is {table} until they " \
               f"{s.join} again"
    table = main_table(settings)
    place = s.repo.rank(s.ladder.id, table, player.id, s.now)
    _, total = s.repo.standings(s.ladder.id, table, s.now, 0)
    if settings.is_position:
        head = f"{player.name} on {s.ladder.name}: rung {place} of {total}"
        if not player.available:
            head += " (unavailable for challenges)"
    else:
        book = choose(settings)
        head = f"{player.name} on {s.ladder.name}: rating {book.shown(settings, state)}"
        named = league(settings, state.rating, state.rated_games)
        if named is not None:
            head += f", league {named}"
        if calibrating(settings, state.rated_games):
            head += f" (calibrating: {state.rated_games} of {settings.calibration} rated games)"
        elif book.provisional(settings, state):
            head += " (provisional: its rating is not yet sure enough for the tables)"
        elif place is not None:
            head += f", {place} of {total} in the {table} table" if table == "ladder" else \
                f", rank {place} of {total}"
        elif table == "ladder":
            head += (" (not in the ladder table: no game in the last "
                     f"{span(settings.active_days, 'day')})")
    return head


def _period_text(s: Session, player: PlayerId) -> str:
    """`Waiting for this day's close (00:00 UTC): #4, #7.`: games rated together later."""
    waiting = [m for m, a, b, _ in s.repo.state(s.ladder.id).pending if player in (a, b)]
    when = "this day's" if s.settings.period == "day" else "this week's"
    close = f"{when} close (00:00 {s.settings.timezone}"
    close += ")" if s.settings.period == "day" else ", Monday)"
    if not waiting:
        return f"No game waits for {close}."
    return f"Waiting for {close}: " + ", ".join(f"#{m}" for m in waiting) + "."


def _open_text(s: Session, player: PlayerInfo, m: MatchRecord) -> str:
    """`#2 carol beat alice: waiting for alice to /confirm 2 or /dispute 2`: who answers."""
    text = f"#{m.id} {s.describe_result(m.result)}"
    if m.status == "disputed":
        return f"{text}: disputed, waiting for a moderator"
    result = m.result
    reporters = result.side_of(m.reporter)
    if result.side_of(player.id) != reporters:
        return f"{text}: waiting for {player.name} to /confirm {m.id} or /dispute {m.id}"
    answering = [p for p in result.players if result.side_of(p) != reporters]
    s.names(answering)
    return (f"{text}: waiting for {' or '.join(s.name(p) for p in answering)} to answer (or "
            f"{player.name} to /withdraw {m.id})")


def _challenge_text(s: Session, player: PlayerId, c: ChallengeRecord) -> str:
    """`#3 from erin, to answer by ...`, `#2 to bob, ...` or `#4 with dave, accepted`."""
    by = s.when(deadline(s, c))
    if c.status == "accepted":
        other = c.challenged if c.challenger == player else c.challenger
        if c.match is not None:
            return f"#{c.id} with {s.name(other)}, played: report #{c.match} waits"
        return f"#{c.id} with {s.name(other)}, accepted: play it and /report by {by}"
    if c.challenged == player:
        return f"#{c.id} from {s.name(c.challenger)}, to answer by {by}"
    return f"#{c.id} to {s.name(c.challenged)}, unanswered (a forfeit at {by})"


_ACTIONS = {"void": "voided", "set": "changed", "adjust": "adjusted", "season-close":
            "closed the season", "settings": "changed settings", "remove": "removed",
            "cancel": "cancelled challenge", "ban": "banned", "unban": "lifted the ban of",
            "add": "added", "rename": "renamed the ladder"}


def _audit_text(s: Session, entry: AuditEntry) -> str:
    what = _ACTIONS.get(entry.action, entry.action)
    target = f" #{entry.match}" if entry.match is not None else ""
    if entry.player is not None:
        target += f" {s.name(entry.player)}"
    if entry.action == "adjust" and entry.detail:
        target += f" {entry.detail}"
    if entry.action == "settings":
        return f"{s.when(entry.at)} {entry.by} changed settings: {entry.detail}"
    if entry.action == "cancel":  # the detail names the challenge and both players
        return f"{s.when(entry.at)} {entry.by} cancelled challenge {entry.detail}: {entry.reason}"
    return f"{s.when(entry.at)} {entry.by} {what}{target}: {entry.reason}"


def _match_text(s: Session, record: MatchRecord) -> Message:
    line = t("history.match", id=record.id, at=s.when(record.reported_at),
             result=s.describe_result(record.result))
    note = decode(record.note) if record.note else ""
    if record.status == "confirmed":
        if not record.rated:
            return t("history.with", line=line, what=record.unrated_text())
        order = record.result.players
        changes = sorted((c for c in s.repo.match_changes(s.ladder.id, record.id)
                          if c.player in order), key=lambda c: order.index(c.player))
        if changes and note and all(c.before == c.after for c in changes):
            return t("history.with", line=line, what=note)  # why nothing moved, as said
        moved = joined(*(t("history.move", name=s.name(c.player), move=_move(s, c.before,
                                                                                c.after))
                         for c in changes), sep=", ")
        if not changes:
            return line
        if note:  # "game 2 of a series"
            return t("history.moved_note", line=line, moved=moved, note=note)
        return t("history.with", line=line, what=moved)
    if record.status == "pending":
        return t("history.pending", line=line)
    if record.status == "disputed":
        return t("history.disputed", line=line, note=note)
    if record.confirmed_at is None and record.disputed_at is None and note:
        return t("history.voided_note", line=line, note=note)  # "withdrawn by alice"
    return t("history.voided", line=line)


def _move(s: Session, before: float, after: float) -> Message:
    if s.settings.is_position:
        if after == before:
            return t("history.stays", rung=int(after))
        return f"{int(before)} -> {int(after)}"
    return signed(after - before)


def history(s: Session, cmd: ShowHistory) -> Reply:
    """Recent matches and moderator actions of the ladder, or of one player."""
    who: PlayerId | None = None
    if cmd.user is not None:
        player = s.repo.player_for(s.ladder.id, cmd.user.key)
        if player is None:
            return Reply(t("history.never_played", name=cmd.user.name, ladder=s.ladder.name))
        who = player.id
    skip = (cmd.page - 1) * HISTORY_PAGE
    matches = s.repo.matches(s.ladder.id, player=who, limit=skip + HISTORY_PAGE + 1)
    more = len(matches) > skip + HISTORY_PAGE
    matches = matches[skip:skip + HISTORY_PAGE]
    if cmd.page > 1 and not matches:
        raise RuleViolation(t("history.no_page", page=cmd.page))
    audit = s.repo.audit(s.ladder.id, player=who, limit=5) if cmd.page == 1 else []
    title: Message = s.ladder.name if who is None else \
        t("history.of_player", name=s.name(who), ladder=s.ladder.name)
    lines: list[Message] = [t("history.title_page", title=title, page=cmd.page)
                            if cmd.page > 1 else t("history.title", title=title)]
    lines += [_match_text(s, m) for m in matches] or [t("history.none")]
    if more:
        mention = f" @{s.name(who)}" if who is not None else ""
        lines.append(t("history.older", command=s.said(f"/history{mention} page={cmd.page + 1}")))
    if audit:
        lines.append(t("history.moderators"))
        lines += [_audit_text(s, a) for a in audit]
    return Reply(joined(*lines, sep="\n"))


def hall_of_fame(s: Session) -> Reply:
    """Every closed season's top three."""
    if "season" not in s.settings.tables:
        raise RuleViolation(f"{s.ladder.name} keeps no seasons, so it has no Hall of Fame.")
    entries = s.repo.hall_of_fame(s.ladder.id)
    if not entries:
        return Reply(f"{s.ladder.name}: the Hall of Fame is empty so far. Season "
                     f"{s.season} is under way.")
    s.names(e.player for e in entries)
    seasons: dict[str, list[str]] = {}
    for e in entries:
        seasons.setdefault(e.season, []).append(f"{e.place}. {s.name(e.player)} {signed(e.gain)}")
    lines = [f"{s.ladder.name}: Hall of Fame"]
    lines += [f"{season}: {', '.join(places)}" for season, places in seasons.items()]
    return Reply("\n".join(lines))


def ladder_info(s: Session) -> Reply:
    """The ladder's rulebook and settings."""
    settings = s.settings
    members = member_count(s.repo, s.ladder, s.now)
    head = N_("info.head_default") if s.ladder.is_default else N_("info.head")
    lines: list[Message] = [
        t(head, ladder=s.ladder.name, preset=settings.preset,
          summary=rulebook_summary(settings)),
        t("info.changed", changed=describe(settings)) if describe(settings)
        else t("info.unchanged"),
        t("info.confirm", within=span(settings.confirm_hours, "hour")) if settings.confirm
        else t("info.at_once")]
    shown = [f"{key}={value}" for key, value in (("public", "true" if s.ladder.public else ""),
                                                  ("channel", s.ladder.channel),
                                                  ("mod_role", s.ladder.mod_role)) if value]
    if shown:
        lines.append(t("info.chat", shown=", ".join(shown)))
    if s.page():
        lines.append(t("info.page", page=s.page()))
    lines.append(_moderators(s))
    lines.append(joined(t("info.zone", zone=settings.timezone, players=plural(members, "player")),
                        t("info.season", season=s.season) if "season" in settings.tables
                        else ""))
    return Reply(joined(*lines, sep="\n"))


def _moderators(s: Session) -> Message:
    """Who moderates: the chat's administrators, the ladder's role, and who has acted."""
    acted = list(dict.fromkeys(e.by for e in s.repo.audit(s.ladder.id, limit=50)))
    role = t("info.role", role=s.ladder.mod_role) if s.ladder.mod_role else ""
    recent = t("info.acted", names=", ".join(acted[:5])) if acted else ""
    return t("info.moderators", role=role, recent=recent)


def list_ladders(repo: Repo, ctx: Context) -> Reply:
    """The chat's ladders."""
    ladders = repo.ladders(ctx.chat)
    if not ladders:
        return Reply(t("ladder.none_here"))
    return Reply(t("ladder.list", ladders=joined(
        *(t("ladder.item_default" if lad.is_default else "ladder.item", ladder=lad.name,
            preset=lad.settings.preset) for lad in ladders), sep=", ")))
