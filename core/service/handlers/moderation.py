"""Moderator commands: ladders and settings, and corrections that re-derive the history.

A correction appends an event; the standings become those of the history in which the
corrected result had been reported in the first place, and the reply says what moved,
including any frozen season table the correction reached back into.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from core.commands.ladders import ChangeSettings, CreateLadder, MakeDefault
from core.commands.moderation import AdjustRating, CloseSeason, ResultSpec, SetResult, VoidMatch
from core.domain.bestof import score_refusal
from core.domain.calendar import DAY
from core.domain.errors import NoLadder, RuleViolation, SettingError, UsageError
from core.domain.events import (
    MatchVoided,
    RatingAdjusted,
    ResultChanged,
    SeasonClosed,
    SettingsChanged,
)
from core.domain.ledger import Rederived
from core.domain.model import PlayerId, Result
from core.domain.pairs import PAIR_RULES, pair_rule
from core.domain.records import Context, MatchRecord, Reply
from core.domain.rulebooks import choose, rulebook_summary
from core.domain.setting_keys import describe, parse_settings, split_properties, validate
from core.domain.settings import (
    LATEST_CONFIRMATION_DAYS,
    PRESETS,
    RATING_LIMIT,
    Policy,
    format_value,
)
from core.domain.standing import Applied, SeasonEffect
from core.domain.state import LadderState
from core.domain.tables import TableRow
from core.i18n import N_, Message, Number, Text, encode, joined, series, t
from core.ports.repository import Repo
from core.service.handlers import tournaments
from core.service.handlers.reporting import confirm_match, reopen_challenge
from core.service.queries.ladders import hall_text, lookalike
from core.service.session import Session, rating_text, signed


def create_ladder(repo: Repo, ctx: Context, cmd: CreateLadder, policy: Policy) -> Reply:
    """Create a ladder in the chat from a preset and options."""
    if repo.ladder(ctx.chat, cmd.name) is not None:
        raise SettingError(t("ladder.exists", ladder=cmd.name))
    lookalike(repo, ctx.chat, cmd.name)
    base = policy.settings_for(cmd.preset)
    rules, properties = split_properties(cmd.options)
    changes = parse_settings(rules)
    settings = validate(base.with_changes(changes), changes)
    ladder = repo.add_ladder(ctx.chat, cmd.name, settings, ctx.at, ctx.channel)
    if properties:
        repo.update_ladder(ladder.id, chat=ctx.chat, **properties)
    summary = rulebook_summary(settings)
    changed = ", ".join([describe(settings), *(f"{k}={_property(v)}"
                                                 for k, v in properties.items())]).strip(", ")
    created = N_("ladder.created") if cmd.preset in PRESETS else N_("ladder.created_custom")
    lines: list[Message] = [t(created, ladder=ladder.name, preset=cmd.preset,
                              base=settings.preset, summary=summary)]
    if changed:
        lines.append(t("info.changed", changed=changed))
    lines.append(t("ladder.default_join") if ladder.is_default
                 else t("ladder.join", ladder=ladder.name))
    return Reply(joined(*lines, sep="\n"), ladder=ladder.name)


def make_default(repo: Repo, ctx: Context, cmd: MakeDefault, _policy: Policy) -> Reply:
    """Make another ladder of the chat its default."""
    target = repo.ladder(ctx.chat, cmd.name)
    if target is None:
        raise NoLadder(t("ladder.unknown", ladder=cmd.name))
    for ladder in repo.ladders(ctx.chat):
        repo.update_ladder(ladder.id, is_default=ladder.id == target.id, chat=ctx.chat)
    return Reply(t("ladder.now_default", ladder=target.name))


def change_settings(s: Session, cmd: ChangeSettings, made: Sequence[Text] = ()) -> Reply:
    """Change settings from now on (the change is an event, so replays honour its time);
    `made`: the changes the caller made already (the roles the ladder gives)."""
    old = s.settings
    rules, properties = split_properties(cmd.options)
    changes = parse_settings(rules)
    validate(old.with_changes(changes), changes)
    really = {k: v for k, v in changes.items() if getattr(old, k) != v}
    texts = [t("settings.change", key=k, value=format_value(v), was=format_value(getattr(old, k)))
             for k, v in really.items()] + list(made)
    if really:
        s.append(SettingsChanged(s.now, tuple(really.items()), s.ctx.user.name))
    for key, value in properties.items():
        was = getattr(s.ladder, key)
        if (was or "") != value:
            texts.append(t("settings.change", key=key, value=_property(value),
                           was=_property(was)))
    if not texts:
        return Reply(t("settings.same", ladder=s.ladder.name))
    if properties:
        s.repo.update_ladder(s.ladder.id, chat=s.ladder.chat, **properties)
    text = series(texts)
    s.audit("settings", encode(text), detail=encode(text))
    s.refresh()
    link: Message = ""
    setup = False  # without the bot's address, how to serve the page: the moderator's alone
    if properties.get("public"):
        page = s.page()
        link = t("settings.page", page=page) if page else t("settings.page_served")
        setup = not page
    # A chat's own channel and moderators' role are no news for the other chats that
    # play a shared ladder (they were told "main: mod_role=..." as if theirs had changed).
    own = not really and not made and set(properties) <= CHAT_OWN
    return Reply(joined(t("settings.changed", ladder=s.ladder.name, changes=text), link),
                 local=own, private=setup)


CHAT_OWN = frozenset({"channel", "mod_role"})  # each chat's own, for a shared ladder


def _property(value: object) -> str:
    """A ladder property as `key=value` writes it (an unset role: none)."""
    return format_value(None if value == "" else value)


def _match(s: Session, match_id: int) -> MatchRecord:
    record = s.repo.match(s.ladder.id, match_id)
    if record is None:
        raise UsageError(t("match.unknown", id=match_id, ladder=s.ladder.name))
    return record


def _seasons_text(s: Session, frozen: dict[str, tuple[TableRow, ...]],
                  state: LadderState) -> Message:
    """Which frozen season tables a correction changed (`frozen`: as they were before)."""
    changed = [label for label, table in frozen.items() if state.frozen.get(label) != table]
    parts: list[Message] = []
    for label in changed:
        hall = [e for e in state.hall if e.season == label]
        parts.append(t("season.frozen_changes", season=label,
                       hall=hall_text(s, hall) if hall else t("season.no_one_now")))
    return joined(*parts)


def correction_reply(s: Session, frozen: dict[str, tuple[TableRow, ...]],
                      results: list[Applied | Rederived], headline: Message) -> Reply:
    """The reply to a correction: who moved (the re-derivation reports it) and which
    frozen season tables changed."""
    state = s.repo.state(s.ladder.id)
    moved = [c for r in results if isinstance(r, Rederived) for c in r.moved]
    left = {c.player for c in moved
            if (player := state.players.get(c.player)) is None or not player.member}
    changed = t("correction.moved", changes=s.describe_changes(moved, left=left)) if moved \
        else t("correction.none")
    return Reply(joined(headline, changed, _seasons_text(s, frozen, state), sep="\n"))


def void(s: Session, cmd: VoidMatch) -> Reply:
    """Void a match: the history continues as if it had never been played."""
    record = _match(s, cmd.match_id)
    if record.status == "voided":
        raise RuleViolation(t("match.void_already", id=record.id))
    what = s.describe_result(record.result)
    s.audit("void", cmd.reason, match=record.id, detail=encode(what))
    if record.confirmed_at is None:  # pending or disputed: it never entered the ladder
        s.repo.save_match(dataclasses.replace(record, status="voided", voided_at=s.now))
        reopen_challenge(s, record)
        return Reply(joined(t("void.not_counted", id=record.id, result=what,
                              mod=s.ctx.user.name, reason=cmd.reason),
                            tournaments.after_result(s, record, corrected=True), sep="\n"))
    frozen = dict(s.repo.state(s.ladder.id).frozen)
    results = s.append(MatchVoided(s.now, record.id, s.ctx.user.name, cmd.reason))
    s.repo.save_match(dataclasses.replace(record, status="voided", voided_at=s.now, rated=False))
    return correction_reply(s, frozen, results, joined(
        t("void.done", id=record.id, result=what, mod=s.ctx.user.name, reason=cmd.reason),
        tournaments.after_result(s, record, corrected=True), sep="\n"))


def spec_result(s: Session, record: MatchRecord, spec: ResultSpec) -> Result:
    """A moderator's new result for a match, from the players they named."""
    original = record.result
    named: list[PlayerId] = []
    for user in spec.order:
        player = s.player(user)
        if player is None or player.id not in original.players:
            raise UsageError(t("spec.not_played", name=user.name, id=record.id))
        named.append(player.id)
    sides: tuple[tuple[PlayerId, ...], ...]
    if spec.draw:
        if len(original.sides) != 2:
            raise UsageError(t("spec.draw_two"))
        sides = original.sides
    else:
        first = [original.side_of(p) for p in named]
        if len(set(first)) != len(first):
            raise UsageError(t("spec.one_each"))
        rest = [i for i in range(len(original.sides)) if i not in first]
        sides = tuple(original.sides[i] for i in first + rest)
    margin = None if spec.draw else spec.margin or (None if original.draw else original.margin)
    rated = original.rated if spec.rated is None else spec.rated
    score = spec.score or _kept_score(original.score, spec.draw)
    result = Result(sides, spec.draw, margin, spec.moves if spec.moves is not None
                    else original.moves, rated, score)
    if choose(s.settings).needs_margin(s.settings, result):
        raise UsageError(t("spec.margin"))
    if (refused := score_refusal(s.settings, result)) is not None:
        raise UsageError(refused)
    return result


def _kept_score(score: tuple[int, int] | None, draw: bool) -> tuple[int, int] | None:
    """The match's score under a new result that gives none: kept where it still fits
    (the winner's games first, whoever won now; a draw's even), else dropped."""
    if score is None or (score[0] == score[1]) != draw:
        return None
    return score


def set_result(s: Session, cmd: SetResult) -> Reply:
    """Change a match's result, or decide a pending or disputed one."""
    record = _match(s, cmd.match_id)
    result = spec_result(s, record, cmd.result)
    was = s.describe_result(record.result)
    if record.status == "voided":
        was = t("set.was_voided", result=was)
    now = s.describe_result(result)
    if record.status == "confirmed" and result == record.result:
        raise RuleViolation(t("set.stands", id=record.id, result=now))
    entering = record.confirmed_at is None  # never entered the ladder: it enters now
    if entering:
        _check_not_too_late(s, record, result)
    s.audit("set", cmd.reason, match=record.id, detail=encode(t("audit.was_now", was=was, now=now)))
    mod, why = s.ctx.user.name, cmd.reason
    if entering:
        record, text = confirm_match(s, dataclasses.replace(record, voided_at=None), s.now, result)
        return Reply(joined(t("set.decided", id=record.id, result=now, mod=mod, reason=why), text))
    frozen = dict(s.repo.state(s.ladder.id).frozen)
    # Saved first: the re-derivation then writes the match's rated flag and note, which
    # the record read above no longer knows.
    s.repo.save_match(dataclasses.replace(record, result=result, status="confirmed",
                                          voided_at=None))
    results = s.append(ResultChanged(s.now, record.id, result, s.ctx.user.name, cmd.reason))
    return correction_reply(s, frozen, results, joined(
        t("set.changed", id=record.id, was=was, now=now, mod=mod, reason=why),
        tournaments.after_result(s, record, corrected=True), sep="\n"))


def _check_not_too_late(s: Session, record: MatchRecord, result: Result) -> None:
    """Refuse to rate a match entering the ladder so long after it was played that the
    rule counting it by its pair's earlier games no longer sees them."""
    rule = pair_rule(s.settings, result)
    if rule and s.now - record.reported_at > LATEST_CONFIRMATION_DAYS * DAY:
        raise RuleViolation(t("set.too_late", id=record.id, days=LATEST_CONFIRMATION_DAYS,
                              rule=t(PAIR_RULES[rule])))


def adjust(s: Session, cmd: AdjustRating) -> Reply:
    """Move a rating by points, or a player by rungs on a position ladder."""
    player = s.member(cmd.user)
    amount = cmd.amount
    if s.settings.is_position and not float(amount).is_integer():
        raise UsageError(t("adjust.whole_rungs"))
    if s.settings.whole and not s.settings.is_position and not float(amount).is_integer():
        raise UsageError(t("adjust.whole_ratings", ladder=s.ladder.name))
    floor = s.settings.floor
    state = s.repo.player_state(s.ladder.id, player.id)
    if amount < 0 and not s.settings.is_position and floor is not None \
            and state is not None and state.rating <= floor:
        raise RuleViolation(t("adjust.floor", name=player.name, rating=rating_text(state.rating),
                              ladder=s.ladder.name, floor=rating_text(floor)))
    if not s.settings.is_position and state is not None \
            and abs(state.rating + amount) > RATING_LIMIT:
        raise RuleViolation(t("adjust.limit", name=player.name, rating=rating_text(state.rating),
                              to=rating_text(state.rating + amount), limit=Number(RATING_LIMIT)))
    applied = s.append(RatingAdjusted(s.now, player.id, amount, s.ctx.user.name, cmd.reason))[0]
    assert not isinstance(applied, Rederived)
    # A fraction of a point takes the form Russian gives 2-4 (1,5 очка; 1.5 points).
    count = abs(int(amount)) if float(amount).is_integer() else 2
    by = t("adjust.rungs" if s.settings.is_position else "adjust.points", count=count,
           amount=signed(amount))
    s.audit("adjust", cmd.reason, player=player.id, detail=encode(by))
    change = [c for c in applied.changes if c.player == player.id]
    moved = s.describe_changes(change) if change else t("adjust.stays", name=player.name)
    return Reply(t("adjust.done", mod=s.ctx.user.name, name=player.name, by=by,
                   reason=cmd.reason, moved=moved))


def close_season(s: Session, cmd: CloseSeason) -> Reply:
    """Close the open season now: table frozen, Hall of Fame, announcement."""
    if "season" not in s.settings.tables:
        raise RuleViolation(t("season.no_table", ladder=s.ladder.name))
    label = s.ladder.season
    if label is None:
        raise RuleViolation(t("season.none_yet", ladder=s.ladder.name))
    applied = s.append(SeasonClosed(s.now, label, s.ctx.user.name, cmd.reason))[0]
    assert not isinstance(applied, Rederived) and applied.season is not None
    s.audit("season-close", cmd.reason or encode(t("audit.closed_early")))
    by = s.ctx.user.name
    return Reply(season_text(s, applied.season, by, cmd.reason), announce=True)


def season_text(s: Session, effect: SeasonEffect, by: str = "", reason: str = "") -> Message:
    """The season-close announcement (`by` a moderator, for `reason`, when early)."""
    code = N_("season.closed_by_because") if by and reason else \
        N_("season.closed_by") if by else N_("season.closed")
    head = t(code, season=effect.season, ladder=s.ladder.name, mod=by, reason=reason)
    body = t("season.hall", hall=hall_text(s, list(effect.hall))) if effect.hall else \
        t("season.no_hall", count=s.settings.season_min_games)
    return joined(head, body, t("season.next", season=effect.following))
