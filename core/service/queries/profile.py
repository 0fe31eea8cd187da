"""`/profile`: a player's standing, record, open business, recent corrections and chart.

It reads stored projections through the repository, and says which reads come next
(`Repo.expect`), so that a server's store sends them together.
"""

from __future__ import annotations

from core.commands.views import ShowProfile
from core.domain.elo import decay_amount
from core.domain.model import PlayerId, Timestamp
from core.domain.records import ChallengeRecord, Context, LadderInfo, MatchRecord, PlayerInfo, Reply
from core.domain.rulebooks import choose
from core.domain.standing import PlayerState
from core.domain.tables import calibrating, league, league_name
from core.i18n import Message, either, joined, plural, span, t
from core.ports.hints import (
    Ahead,
    AuditRead,
    OpenMatchesRead,
    PlayerStateRead,
    RankRead,
    StandingsRead,
    UnfinishedChallengesRead,
)
from core.ports.repository import Repo
from core.service.queries.challenges import deadline, whom
from core.service.queries.charts import chart_for, chart_reads
from core.service.queries.ladders import audit_text, main_table
from core.service.session import Session, instant, rating_text, signed

PROFILE_CORRECTIONS = 5  # the newest corrections of a player a profile lists


def _reads(ladder: LadderInfo, player: PlayerId, now: Timestamp) -> list[Ahead]:
    """What a profile reads once it knows the player, named for `Repo.expect` (its
    table by the ladder's settings: a hint reads nothing)."""
    table, lid = main_table(ladder.settings), ladder.id
    return [PlayerStateRead(lid, player), RankRead(lid, table, player, now),
            StandingsRead(lid, table, now, 0, ladder.settings), OpenMatchesRead(lid),
            UnfinishedChallengesRead(lid), AuditRead(lid, player, PROFILE_CORRECTIONS),
            *chart_reads(ladder, player, now)]


def first_reads(repo: Repo, ctx: Context, cmd: ShowProfile, ladder: LadderInfo) -> None:
    """What a profile reads first, once its ladder is known: the player, and what it
    reads of them by the id this process saw them have (see Repo.expect_ladder)."""
    now = instant(ctx, ladder)
    repo.expect_players(ladder.id, [(cmd.user or ctx.user).key],
                        lambda ids: repo.expect(*_reads(ladder, ids[0], now)))


def profile(s: Session, cmd: ShowProfile) -> Reply:
    """Show a player's standing, record and recent corrections."""
    # Someone who left keeps their record (/leave says so); never joined is refused.
    if cmd.user is None:
        own = s.player(s.ctx.user)
        player = own if own is not None and not own.member else s.me()
    else:
        player = s.player(cmd.user) or s.member(cmd.user)
    settings = s.settings
    s.repo.expect(*_reads(s.ladder, player.id, s.now))
    state = s.repo.player_state(s.ladder.id, player.id)
    assert state is not None
    lines: list[Message] = [t("profile.first", standing=_standing(s, player, state)),
                            _record(s, state)]
    if settings.decays and player.member:
        amount = decay_amount(settings, state.rating)
        if amount:
            lines.append(t("profile.decay", amount=signed(-amount), zone=settings.timezone))
    if "season" in settings.tables:
        lines.append(t("profile.season", season=s.season, gain=signed(state.season_gain),
                       games=plural(state.season_games, "rated game")))
    if choose(settings).waits(settings):
        lines.append(_period_text(s, player.id))
    reports, challenges = s.waiting_on(player.id)
    if reports:
        lines.append(t("profile.reports", reports=joined(
            *(_open_text(s, player, m) for m in reports), sep="; ")))
    if challenges:
        lines.append(t("profile.challenges", challenges=joined(
            *(_challenge_text(s, player.id, c) for c in challenges), sep="; ")))
    audit = s.repo.audit(s.ladder.id, player=player.id, limit=PROFILE_CORRECTIONS)
    if audit:
        lines.append(t("profile.corrections", corrections=joined(
            *(audit_text(s, a) for a in audit), sep="; ")))
    chart = chart_for(s.repo, s.ladder, player.id, player.name, s.now)
    return Reply(joined(*lines, sep="\n"), chart=chart)


def _record(s: Session, state: PlayerState) -> Message:
    """`Games: 5 (4 rated): 3 wins, 1 loss, 1 draw. Last played ...`."""
    if not state.games:
        record: Message = t("profile.no_games")
    else:
        games = t("profile.games_rated", games=state.games, rated=state.rated_games) \
            if state.games != state.rated_games else t("profile.games", games=state.games)
        record = t("profile.record", games=games, wins=plural(state.wins, "win"),
                   losses=plural(state.losses, "loss"), draws=plural(state.draws, "draw"))
    if state.last_played is not None:
        return joined(record, t("profile.last_played", at=s.when(state.last_played)))
    return record


def _standing(s: Session, player: PlayerInfo, state: PlayerState) -> Message:
    """A profile's first line: rung or rating, league, and place in the main table."""
    settings = s.settings
    if not player.member:
        if settings.is_position:
            return t("profile.left_rungs", name=player.name, ladder=s.ladder.name, join=s.join)
        return t("profile.left", name=player.name, ladder=s.ladder.name, join=s.join,
                 rating=rating_text(state.rating))
    table = main_table(settings)
    place = s.repo.rank(s.ladder.id, table, player.id, s.now)
    _, total = s.repo.standings(s.ladder.id, table, s.now, 0)
    if settings.is_position:
        head = t("profile.rung", name=player.name, ladder=s.ladder.name, rung=place or 0,
                 total=total)
        return joined(head, t("profile.unavailable"), sep="") if not player.available else head
    book = choose(settings)
    parts: list[Message] = [t("profile.rating", name=player.name, ladder=s.ladder.name,
                              rating=book.shown(settings, state))]
    named = league(settings, state.rating, state.rated_games)
    if named is not None:
        parts.append(t("profile.league", league=league_name(named)))
    if calibrating(settings, state.rated_games):
        parts.append(t("profile.calibrating", games=state.rated_games,
                       of=settings.calibration))
    elif book.provisional(settings, state):
        parts.append(t("profile.provisional"))
    elif place is not None:
        parts.append(t("profile.place_ladder", place=place, total=total) if table == "ladder"
                     else t("profile.rank", place=place, total=total))
    elif table == "ladder":
        parts.append(t("profile.inactive", within=span(settings.active_days, "day")))
    return joined(*parts, sep="")


def _period_text(s: Session, player: PlayerId) -> Message:
    """`Waiting for this day's close (00:00 UTC): #4, #7.`: games rated together later."""
    waiting = [m for m, a, b, _ in s.repo.state(s.ladder.id).pending if player in (a, b)]
    close = t("profile.close_day" if s.settings.period == "day" else "profile.close_week",
              zone=s.settings.timezone)
    if not waiting:
        return t("profile.none_waits", close=close)
    return t("profile.waiting", close=close, games=", ".join(f"#{m}" for m in waiting))


def _open_text(s: Session, player: PlayerInfo, m: MatchRecord) -> Message:
    """`#2 carol beat alice: waiting for alice to /confirm 2 or /dispute 2`: who answers."""
    line = t("profile.open", id=m.id, result=s.describe_result(m.result))
    if m.status == "disputed":
        return t("profile.open_disputed", line=line)
    result = m.result
    reporters = result.side_of(m.reporter)
    if result.side_of(player.id) != reporters:
        return t("profile.open_yours", line=line, name=player.name, id=m.id)
    answering = [p for p in result.players if result.side_of(p) != reporters]
    s.names(answering)
    return t("profile.open_theirs", line=line, others=either([s.name(p) for p in answering]),
             name=player.name, id=m.id)


def _challenge_text(s: Session, player: PlayerId, c: ChallengeRecord) -> Message:
    """`#3 from erin, to answer by ...`, `#2 to bob, ...` or `#4 with dave, accepted`."""
    by = s.when(deadline(s, c))
    if c.status == "accepted":
        other = whom(s, c) if c.challenger == player else s.name(c.challenger)
        if c.match is not None:
            return t("profile.challenge_played", id=c.id, name=other, match=c.match)
        return t("profile.challenge_accepted", id=c.id, name=other, by=by)
    if c.challenged == player:
        return t("profile.challenge_from", id=c.id, name=s.name(c.challenger), by=by)
    if c.challenged is None:
        return t("profile.challenge_open", id=c.id, by=by)
    return t("profile.challenge_to", id=c.id, name=s.name(c.challenged), by=by)
