"""`python -m bench`'s measures run together: the databases each needs built once, in a
temporary folder, and only the keys asked for."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from bench import rulebooks
from bench.measures import (
    Bot,
    Sizes,
    corrections,
    decay,
    pairs,
    raw_tx_per_s,
    reads,
    report_rate,
)
from bench.web import web_beside_a_writer
from storage.sqlite.store import SqliteStore


def _say(progress: bool, text: str) -> None:
    if progress:
        print(text, flush=True)


async def run_all(sizes: Sizes, wanted: set[str], folder: str | None,
                  progress: bool) -> dict[str, Any]:
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        path = Path(tmp)
        if "sqlite_raw_tx_per_s" in wanted or "report_rate_per_s" in wanted:
            _say(progress, "raw sqlite3 transactions ...")
            results["sqlite_raw_tx_per_s"] = round(raw_tx_per_s(path, sizes.players))
        if wanted & {"report_rate_per_s", "old_correction_s", "recent_correction_ms"}:
            await _duel(sizes, wanted, path, progress, results)
        if wanted & {"decay_s", "standings_ms", "profile_ms"}:
            await _dutch(sizes, wanted, path, progress, results)
        if wanted & {"web_player_p50_ms", "report_wait_beside_web_ms"}:
            _say(progress, "web pages under load, beside a writer ...")
            page, wait = await web_beside_a_writer(path, sizes.web_requests)
            results["web_player_p50_ms"] = round(page, 1)
            results["report_wait_beside_web_ms"] = round(wait, 1)
        if "engine_vs_openskill" in wanted:
            _say(progress, "engine against openskill ...")
            results["engine_vs_openskill"] = round(
                rulebooks.engine_vs_openskill(sizes.players, sizes.engine_matches), 1)
        await _rulebooks(sizes, wanted, path, progress, results)
    return results


async def _duel(sizes: Sizes, wanted: set[str], path: Path, progress: bool,
                results: dict[str, Any]) -> None:
    """Reports, one transaction each, and an old and a recent correction on a duel ladder."""
    async with SqliteStore(path / "duel.db") as store:
        bot = Bot(store)
        await bot.one("mod", "/ladder create main preset=duel confirm=false", True)
        _say(progress, f"{sizes.players:,} players join ...")
        await bot.many((f"p{i}", "/join") for i in range(sizes.players))
        if "report_rate_per_s" in wanted:
            _say(progress, f"{sizes.reports:,} reports, one transaction each ...")
            results["report_rate_per_s"] = round(
                await report_rate(bot, sizes.players, sizes.reports))
        if wanted & {"old_correction_s", "recent_correction_ms"}:
            played = await store.run(lambda repo: repo.new_match_id(1) - 1,
                                     commit=False)
            more = sizes.matches - played
            _say(progress, f"{more:,} more matches ...")
            # A match a minute: a million matches of 10k players take two years,
            # with a season closing every month, as a real ladder would.
            await bot.many(
                ((f"p{a}", f"/report win @p{b}") for a, b in
                 pairs(sizes.players, more, seed=13)), step=60,
                progress=(lambda n: _say(progress, f"  {played + n:,}"))
                if progress else None)
            _say(progress, "corrections ...")
            old, recent = await corrections(bot, sizes.void_at, sizes.matches)
            results["old_correction_s"] = round(old, 3)
            results["recent_correction_ms"] = round(recent, 1)


async def _dutch(sizes: Sizes, wanted: set[str], path: Path, progress: bool,
                 results: dict[str, Any]) -> None:
    """Decay, standings and profiles on a large Dutch ladder."""
    async with SqliteStore(path / "dutch.db") as store:
        bot = Bot(store)
        await bot.one("mod", "/ladder create main preset=dutch start=1000", True)
        _say(progress, f"{sizes.decay_players:,} players join ...")
        await bot.many(((f"p{i}", "/join") for i in range(sizes.decay_players)),
                       per_tx=5000)
        if "decay_s" in wanted:
            _say(progress, "decay ...")
            results["decay_s"] = round(await decay(store, bot), 3)
        if wanted & {"standings_ms", "profile_ms"}:
            _say(progress, "standings and profiles ...")
            standings, profile = await reads(bot, sizes.decay_players)
            results["standings_ms"] = round(standings, 2)
            results["profile_ms"] = round(profile, 2)


async def _rulebooks(sizes: Sizes, wanted: set[str], path: Path, progress: bool,
                     results: dict[str, Any]) -> None:
    """Glicko-2's and OpenSkill's keys (bench/rulebooks.py)."""
    played = pairs(sizes.players, sizes.rulebook_games, seed=17)
    if "glicko2_replay_per_s" in wanted:
        _say(progress, "glicko2 replay ...")
        results["glicko2_replay_per_s"] = round(
            rulebooks.replay_per_s("glicko2", sizes.players, played))
    if wanted & {"openskill_replay_per_s", "openskill_vs_library"}:
        _say(progress, "openskill replay, and the library's own loop ...")
        ours = rulebooks.replay_per_s("openskill", sizes.players, played)
        theirs = rulebooks.library_per_s(sizes.players, played)
        results["openskill_replay_per_s"] = round(ours)
        results["openskill_vs_library"] = round(ours / theirs, 2)
    if "glicko2_old_correction_s" in wanted:
        _say(progress, f"a Glicko-2 ladder of {sizes.glicko2_games:,} games, its middle "
                       "one voided ...")
        results["glicko2_old_correction_s"] = round(await rulebooks.glicko2_old_correction(
            path, sizes.players, pairs(sizes.players, sizes.glicko2_games, seed=19)), 3)
