"""Read-only commands: standings, history, Hall of Fame, ladder info and help (a
player's profile is core/service/queries/profile.py's).

They read stored projections through the repository and never replay the log.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from core.commands.ladders import ListLadders
from core.commands.views import ShowHallOfFame, ShowHistory, ShowStandings
from core.domain.errors import RuleViolation, SettingError
from core.domain.model import PlayerId, Timestamp
from core.domain.names import look
from core.domain.paging import more_hint, pages, past_the_end
from core.domain.records import (
    AuditEntry,
    Context,
    LadderInfo,
    MatchRecord,
    Paging,
    Reply,
)
from core.domain.rulebooks import choose, rulebook_summary
from core.domain.setting_keys import describe
from core.domain.settings import Policy, Settings
from core.domain.standing import PlayerState
from core.domain.tables import HallEntry, TableRow, calibrating, league, league_name
from core.i18n import N_, Message, decode, joined, plural, span, t
from core.ports.hints import PageNamesRead, StandingsRead
from core.ports.repository import Repo
from core.service.queries.charts import chart_for
from core.service.session import Session, instant, signed

DECAY_DAYS = 7  # the newest decay days a history names

TOP = 20  # rows of a table a page
HISTORY_PAGE = 10  # matches of a history a page


def member_table(settings: Settings) -> str:
    """The table that lists every member: rungs, or ratings (calibrating players too)."""
    return choose(settings).table


def lookalike(repo: Repo, chat: str, name: str, but: int | None = None) -> None:
    """Refuse a ladder name that looks like one the chat has (another ladder than `but`):
    "mаin" with a Cyrillic а, "Main", "main\u200b" (core.domain.names.look)."""
    seen = look(name)
    for ladder in repo.ladders(chat):
        if ladder.id != but and look(ladder.name) == seen:
            raise SettingError(t("ladder.lookalike", ladder=name, other=ladder.name))


def member_count(repo: Repo, ladder: LadderInfo, at: Timestamp) -> int:
    """How many players are on a ladder now."""
    return repo.standings(ladder.id, member_table(ladder.settings), at, 0)[1]


def main_table(settings: Settings) -> str:
    """The table `/standings` shows by default."""
    member = member_table(settings)
    return "ladder" if member == "rating" and "ladder" in settings.tables else member


def _header(s: Session, table: str) -> Message:
    settings, name = s.settings, s.ladder.name
    if table == "rung":
        return t("table.rungs", ladder=name)
    if table == "rating":
        return t("table.ratings", ladder=name)
    if table == "ladder":
        return t("table.ladder", ladder=name, within=span(settings.active_days, "day"))
    if table == "season":
        return t("table.season", ladder=name, season=s.season, count=settings.season_min_games)
    return t("table.week", ladder=name, within=span(settings.week_days, "day"),
             count=settings.week_min_games)


def _value(s: Session, table: str, row: TableRow) -> Message:
    value, rated_games = row.value, row.rated_games
    if table == "rung":
        return ""
    if table in ("season", "week"):
        return t("table.gain", gain=signed(value), games=plural(rated_games, "rated game"))
    # as the rulebook shows a rating (Glicko-2's with twice its RD)
    rating = choose(s.settings).shown(s.settings, PlayerState(value, extra=row.extra))
    named = league(s.settings, value, rated_games)
    if named is not None:
        return t("table.rating_league", rating=rating, league=league_name(named))
    if row.held or calibrating(s.settings, rated_games):
        return t("table.rating_provisional", rating=rating)
    return t("table.rating", rating=rating)


def _empty(s: Session, table: str) -> Message:
    """Why a table lists no one."""
    settings = s.settings
    calibrated = t("table.calibrated", games=plural(settings.calibration, "rated game")) \
        if settings.calibration else t("table.players")
    if table == "season":
        return t("table.empty_season", who=calibrated, count=settings.season_min_games)
    if table == "week":
        return t("table.empty_week", who=calibrated, count=settings.week_min_games,
                 within=span(settings.week_days, "day"))
    if table == "ladder":
        return t("table.empty_ladder", who=calibrated, within=span(settings.active_days, "day"))
    return t("table.empty", join=s.join)


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


def standings_reads(repo: Repo, ctx: Context, cmd: ShowStandings, ladder: LadderInfo) -> None:
    """What `/standings` reads first, once its ladder is known: the page with its count
    (by the ladder's settings: a hint reads nothing), and its players' names (see
    Repo.expect_ladder)."""
    table, limit = cmd.table or main_table(ladder.settings), cmd.page * TOP
    repo.expect(StandingsRead(ladder.id, table, instant(ctx, ladder), limit, ladder.settings),
                PageNamesRead(ladder.id, table, limit))


def standings(s: Session, cmd: ShowStandings) -> Reply:
    """Show a table of the ladder, a page of TOP rows."""
    table = cmd.table or main_table(s.settings)
    if table == "rating" and s.settings.is_position:
        raise RuleViolation(t("table.rungs_not_ratings", ladder=s.ladder.name))
    if cmd.table not in (None, "rating") and table not in s.settings.tables:
        raise RuleViolation(t("table.not_kept", ladder=s.ladder.name, table=table))
    skip = (cmd.page - 1) * TOP
    rows, total = s.repo.standings(s.ladder.id, table, s.now, skip + TOP)
    rows = rows[skip:]
    if cmd.page > 1 and not rows:
        raise RuleViolation(past_the_end(cmd.page, total, TOP))
    s.names(r.player for r in rows)
    head = _header(s, table)
    lines: list[Message] = [t("table.page", head=head, page=cmd.page, pages=pages(total, TOP))
                            if total > TOP else head]
    if table == "rung":
        away = {p for p, info in s.repo.players(s.ladder.id, [r.player for r in rows]).items()
                if not info.available}
    else:
        away = set()
    moved = _movement(s, table, [r.player for r in rows])
    for place, row in enumerate(rows, skip + 1):
        lines.append(t("table.row", place=place, name=s.name(row.player),
                       value=_value(s, table, row),
                       away=t("table.unavailable") if row.player in away else "",
                       moved=moved(row.player, place)))
    if not rows:
        lines.append(_empty(s, table))
    elif total > skip + len(rows) or skip:
        me = s.player(s.ctx.user)
        mine = s.repo.rank(s.ladder.id, table, me.id, s.now) if me is not None else None
        # (by who is listed: a place shared by a tie is no page's row number)
        if me is not None and mine is not None and me.id not in {r.player for r in rows}:
            lines.append(t("table.mine", place=mine, name=me.name, total=total))
        lines += more_hint(total - skip - len(rows),
                           s.said("/standings", table=cmd.table, page=cmd.page + 1))
    paged = total > TOP
    return Reply(joined(*lines, sep="\n"), pages=Paging(
        "standings", cmd.page, total > skip + len(rows), cmd.table or "") if paged else None)


def audit_text(s: Session, entry: AuditEntry) -> Message:
    """`2026-01-05 10:00 mod voided #3: a mistake`, in the reader's language."""
    return entry.message(s.when(entry.at), s.name(entry.player) if entry.player is not None else "")


def match_text(s: Session, record: MatchRecord) -> Message:
    """One match as a history lists it: number, day, result, and what it moved."""
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
        player = s.player(cmd.user)
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
    lines += [match_text(s, m) for m in matches] or [t("history.none")]
    if more:
        mention = f"@{s.name(who)}" if who is not None else None
        lines.append(t("history.older", command=s.said("/history", player=mention,
                                                       page=cmd.page + 1)))
    if audit:
        lines.append(t("history.moderators"))
        lines += [audit_text(s, a) for a in audit]
    if cmd.page == 1:
        lines += _decay_days(s, who)
    # (a player's history pages by its text hint: a button cannot carry who it is)
    paged = who is None and (more or cmd.page > 1)
    return Reply(joined(*lines, sep="\n"),
                 pages=Paging("history", cmd.page, more) if paged else None)


def _decay_days(s: Session, who: PlayerId | None) -> list[Message]:
    """The newest decay days (DECAY_DAYS), and for one player what each took, as their
    chart draws it (a decay day is stored once for the ladder, not per player)."""
    if not s.settings.decays:
        return []
    days = [(at, day) for at, kind, day in s.repo.timeline(s.ladder.id)
            if kind == "decay"][-DECAY_DAYS:]
    if not days:
        return []
    if who is None:
        return [t("history.decay_days", days=", ".join(day for _, day in days))]
    chart = chart_for(s.repo, s.ladder, who, s.name(who), s.now)
    points = chart.points if chart is not None else ()
    fell = {at: before - after for (_, before), (at, after) in pairwise(points)}
    moves = [joined(day, signed(-fell[at])) for at, day in days if fell.get(at, 0) > 0]
    return [t("history.decay_player", moves=joined(*moves, sep=", "))] if moves else []


def hall_of_fame(s: Session, _cmd: ShowHallOfFame) -> Reply:
    """Every closed season's top three."""
    if "season" not in s.settings.tables:
        raise RuleViolation(t("hall.no_seasons", ladder=s.ladder.name))
    entries = s.repo.hall_of_fame(s.ladder.id)
    if not entries:
        return Reply(t("hall.empty", ladder=s.ladder.name, season=s.season))
    seasons: dict[str, list[HallEntry]] = {}
    for e in entries:
        seasons.setdefault(e.season, []).append(e)
    lines: list[Message] = [t("hall.title", ladder=s.ladder.name)]
    lines += [t("hall.season", season=season, places=hall_text(s, places))
              for season, places in seasons.items()]
    return Reply(joined(*lines, sep="\n"))


def ladder_info(s: Session) -> Reply:
    """The ladder's rulebook and settings."""
    settings = s.settings
    members = member_count(s.repo, s.ladder, s.now)
    head = N_("info.head_default") if s.ladder.is_default else N_("info.head")
    changed = describe(settings)
    lines: list[Message] = [
        t(head, ladder=s.ladder.name, preset=settings.preset,
          summary=rulebook_summary(settings)),
        t("info.changed", changed=changed) if changed else t("info.unchanged"),
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


def list_ladders(repo: Repo, ctx: Context, _cmd: ListLadders, _policy: Policy) -> Reply:
    """The chat's ladders."""
    ladders = repo.ladders(ctx.chat)
    if not ladders:
        return Reply(t("ladder.none_here"))
    return Reply(t("ladder.list", ladders=joined(
        *(t("ladder.item_default" if lad.is_default else "ladder.item", ladder=lad.name,
            preset=lad.settings.preset) for lad in ladders), sep=", ")))


def hall_text(s: Session, entries: list[HallEntry]) -> Message:
    """`1. carol +45, 2. alice +44`."""
    s.names(e.player for e in entries)
    return joined(*(t("season.place", place=e.place, name=s.name(e.player),
                      gain=signed(e.gain)) for e in entries), sep=", ")
