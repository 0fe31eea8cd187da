"""The duel and dutch rulebooks worked out again from RULES.md."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from tests.support.chat import T0
from tests.support.oracles.base import (
    CALIBRATION,
    DAY,
    FLOOR,
    MIN_GAIN,
    START,
    Game,
    History,
    K,
    Player,
    by_gain,
    count_game,
    counts_of,
    expected,
    floored,
    league,
    month,
    rounded,
    row_counts,
)


class Duel(History):
    """RULES.md section 3."""

    def floor(self) -> int | None:
        floors = [entry[2] for kind, entry in self.log if kind == "set" and entry[1] == "floor"]
        return floors[-1] if floors else FLOOR

    def derive(self, now: int) -> dict[str, Any]:
        players = {n: Player(START) for n in self.names}
        members = set(self.names)
        pair_times: dict[frozenset[str], list[int]] = defaultdict(list)
        hall: list[tuple[str, int, int, frozenset[str]]] = []
        season = None
        rule = {"k": K, "farm_limit": 4, "floor": FLOOR}  # as set at each point of the log

        def close(label_of_next: str) -> None:
            nonlocal season
            assert season is not None
            table = self.gain_table(players, members, lambda t, tag, s=season: tag == s, 3)
            for place, (_, gain, _) in enumerate(table[:3], 1):  # ties: any of them
                hall.append((season, place, gain,
                             frozenset(n for n, g, _ in table if g == gain)))
            season = label_of_next

        def close_until(at: int) -> None:
            """The 1st of each month on the way closes the season running then."""
            while season is not None and season[:7] < month(at):
                year, mon = map(int, season[:7].split("-"))
                close(f"{year + mon // 12}-{mon % 12 + 1:02d}")

        def close_early(at: int) -> None:
            """RULES: the season an early close begins runs in the same month, with the
            next letter (2026-01b, 2026-01c), and still ends on the 1st."""
            assert season is not None and season[:7] == month(at)
            close(season + "b" if len(season) == 7 else season[:7] + chr(ord(season[7]) + 1))

        for kind, entry in self.log:
            at = entry.at if kind == "game" else entry[0]
            season = season or month(at)
            close_until(at)
            if kind == "set":
                rule[entry[1]] = entry[2]
                continue
            if kind == "close":
                close_early(at)
                continue
            if kind == "member":
                (members.add if entry[2] else members.discard)(entry[1])
                continue
            if kind == "adjust":
                player = players[entry[1]]
                player.rating = floored(player.rating + entry[2], player.rating, rule["floor"])
                continue
            if not entry.voided:
                self.rate(entry, players, pair_times, rule, season)
        if season is not None:
            close_until(now)
        return {"players": players, "hall": hall,
                "season": self.gain_table(players, members, lambda t, tag: tag == season, 3),
                "week": self.gain_table(players, members,
                                        lambda t, tag: now - 7 * DAY < t <= now, 2),
                "ladder": sorted(((n, p.rating) for n, p in players.items()
                                  if n in members and p.rated_games >= CALIBRATION
                                  and p.last_played is not None
                                  and p.last_played > now - 30 * DAY),
                                 key=lambda row: -row[1])}

    @staticmethod
    def rate(game: Game, players: dict[str, Player], pair_times: dict[frozenset[str], list[int]],
             rule: dict[str, int], season: str | None) -> None:
        """A game counted, and rated unless unrated, too short or farmed (RULES.md 3)."""
        w, lo = players[game.winner], players[game.loser]
        count_game(w, lo, game)
        pair = frozenset((game.winner, game.loser))
        recent = [t for t in pair_times[pair] if game.at - 7 * DAY < t <= game.at]
        short = game.moves is not None and game.moves < 2
        if not game.rated or short or len(recent) >= rule["farm_limit"]:
            return
        pair_times[pair].append(game.at)
        if game.draw:
            high, low = (w, lo) if w.rating >= lo.rating else (lo, w)
            moved = rounded(rule["k"] * (expected(high.rating - low.rating) - 0.5))
            new = {id(high): high.rating - moved, id(low): low.rating + moved}
        else:
            gain = max(MIN_GAIN, rounded(rule["k"] * (1 - expected(w.rating - lo.rating))))
            new = {id(w): w.rating + gain, id(lo): lo.rating - gain}
        for p in (w, lo):
            after = floored(new[id(p)], p.rating, rule["floor"])
            p.changes.append((game.at, after - p.rating, season))
            p.rating = after
            p.rated_games += 1

    @staticmethod
    def gain_table(players: dict[str, Player], members: set[str], counts: Any,
                   least: int) -> list[tuple[str, int, int]]:
        """Calibrated members with `least` rated games in the span and a gain, best first."""
        rows = []
        for name, p in players.items():
            mine = [d for t, d, tag in p.changes if counts(t, tag)]
            if name in members and p.rated_games >= CALIBRATION and len(mine) >= least \
                    and sum(mine) > 0:
                rows.append((name, sum(mine), len(mine)))
        return sorted(rows, key=lambda row: -row[1])


    def compare(self, export: dict[str, Any], now: int, after: str) -> None:
        want, got = self.derive(now), self.listed(export, after)
        for name in self.members:
            p = want["players"][name]
            assert (*row_counts(got[name]), got[name]["league"]) == \
                (*counts_of(p), league(p)), f"{name} after {after}"
        tables = export["tables"]
        for key in ("season", "week"):
            rows = [(r["name"], r["gain"], r["rated_games"]) for r in tables[key]]
            assert by_gain(rows) == by_gain(want[key]), f"{key} after {after}"
        assert by_gain([(r["name"], r["rating"]) for r in tables["ladder"]]) == \
            by_gain(want["ladder"]), f"ladder after {after}"
        hall = [(h["season"], h["place"], h["gain"]) for h in export["hall_of_fame"]]
        assert hall == [entry[:3] for entry in want["hall"]], f"hall after {after}"
        for h, (*_, names) in zip(export["hall_of_fame"], want["hall"], strict=True):
            assert h["name"] in names, f"hall after {after}"
        assert len({(h["season"], h["name"]) for h in export["hall_of_fame"]}) == len(hall)


class Dutch(History):
    """RULES.md section 5."""

    def floor(self) -> int | None:
        return 0

    SERIES = DAY  # the series window, 24 hours from its first game

    @staticmethod
    def k(rating: int) -> int:
        return 32 if rating < 2100 else 24 if rating < 2400 else 16

    def derive(self, now: int) -> dict[str, Any]:
        players = {n: Player(0) for n in self.names}
        members = set(self.names)
        series: dict[frozenset[str], dict[str, Any]] = {}
        midnight = (T0 // DAY + 1) * DAY  # the first 00:00 (UTC) after the ladder began

        def decay_until(at: int) -> None:
            nonlocal midnight
            while midnight <= at:
                for name, p in players.items():
                    if p.rating > 0 and name in members:  # who left does not decay
                        p.rating -= min(p.rating, max(1, p.rating * p.rating // 125_000))
                midnight += DAY

        window = self.SERIES
        for kind, entry in self.log:
            decay_until(entry.at if kind == "game" else entry[0])
            if kind == "set":  # series_hours
                window = entry[2] * 3600
                continue
            if kind == "member":
                (members.add if entry[2] else members.discard)(entry[1])
                continue
            if kind == "adjust":
                player = players[entry[1]]
                player.rating = max(0, player.rating + entry[2])  # never below 0
                continue
            game = entry
            if game.voided:
                continue
            count_game(players[game.winner], players[game.loser], game)
            if not game.rated:
                continue
            pair = frozenset((game.winner, game.loser))
            run = series.get(pair)
            if run is None or game.at >= run["first"] + window:
                run = series[pair] = {"first": game.at, "games": 0,
                                      "base": {n: players[n].rating for n in pair},
                                      "score": dict.fromkeys(pair, 0.0),
                                      "moved": dict.fromkeys(pair, 0)}
            self.add_to_series(run, game, players)
        decay_until(now)
        return {"players": players}

    def add_to_series(self, run: dict[str, Any], game: Game, players: dict[str, Player]) -> None:
        """A rated game added to its pair's series, whose change replaces the series' last."""
        pair = frozenset((game.winner, game.loser))
        # RULES, "Best-of-N matches": rated by its games, a match adds them all.
        games, won = (sum(game.score), game.score[0]) \
            if self.games_mode and game.score else (1, None)
        run["games"] += games
        n = run["games"]
        for name in pair:
            if won is None:
                run["score"][name] += 0.5 if game.draw else float(name == game.winner)
            else:
                run["score"][name] += won if name == game.winner else games - won
        for name in pair:
            other = next(o for o in pair if o != name)
            mine, theirs = run["base"][name], run["base"][other]
            score = run["score"][name] / n
            stronger_won_all = score in (0.0, 1.0) and (mine > theirs) == (score == 1.0)
            if abs(mine - theirs) > 719 and stronger_won_all:
                change = 0
            else:
                factor = 2 - 1 / 2 ** (n - 1)
                change = rounded(self.k(mine) * factor * (score - expected(mine - theirs)))
            p = players[name]
            after = max(0, p.rating - run["moved"][name] + change)
            run["moved"][name] += after - p.rating
            p.rating = after
            p.rated_games += 1

    def compare(self, export: dict[str, Any], now: int, after: str) -> None:
        want, got = self.derive(now), self.listed(export, after)
        for name in self.members:
            assert row_counts(got[name]) == counts_of(want["players"][name]), \
                f"{name} after {after}"
        assert export["tables"] == {} and export["hall_of_fame"] == []


RULEBOOKS: dict[str, type[History]] = {"duel": Duel, "dutch": Dutch}
