"""The nhwc rulebook (rungs moved by case and margin) worked out again from RULES.md."""

from __future__ import annotations

from typing import Any

from tests.support.oracles.base import History, Player, count_game

# Rungs moved by case (rows) and result (columns: overwhelming, major, minor defeat, draw,
# minor, major, overwhelming victory).
MOVES = ((-3, -2, -1, -1, 0, 0, 1), (-2, -1, -1, 0, 0, 1, 1), (-1, -1, 0, 0, 1, 1, 2),
         (-1, 0, 0, 1, 1, 2, 2), (0, 0, 1, 1, 2, 2, 3), (0, 1, 1, 2, 2, 3, 3))


DEFEAT = {"overwhelming": 0, "major": 1, "minor": 2}


VICTORY = {"minor": 4, "major": 5, "overwhelming": 6}


class Nhwc(History):
    """RULES.md section 4."""

    def accept(self, at: int, challenge: int, challenger: str, challenged: str) -> None:
        self.log.append(("accept", (at, challenge, challenger, challenged)))

    @staticmethod
    def case(own: int, opponent: int) -> int:
        above = opponent - own
        return 1 if above >= 4 else 2 if above >= 2 else 3 if above == 1 else \
            4 if above == -1 else 5 if above >= -3 else 6

    def derive(self, now: int) -> dict[str, Any]:
        players = {n: Player(0) for n in self.names}
        order = list(self.names)  # each joined at the bottom, in this order
        logged: dict[int, dict[str, int]] = {}
        for kind, entry in self.log:
            if kind == "accept":  # both rungs are logged on acceptance
                _, challenge, a, b = entry
                logged[challenge] = {a: order.index(a) + 1, b: order.index(b) + 1}
                continue
            if kind == "member":  # who leaves gives up the rung; who comes back is last
                _, name, joined = entry
                order = [p for p in order if p != name] + ([name] if joined else [])
                continue
            if kind == "adjust":
                _, name, up = entry
                rest = [p for p in order if p != name]
                rest.insert(min(max(order.index(name) - up, 0), len(rest)), name)
                order = rest
                continue
            game = entry
            if game.voided:
                continue
            w, lo = game.winner, game.loser
            count_game(players[w], players[lo], game)
            if not game.rated:
                continue
            now_rungs = {w: order.index(w) + 1, lo: order.index(lo) + 1}
            rungs = logged.get(game.challenge, now_rungs) if game.challenge else now_rungs
            cases = {w: self.case(rungs[w], rungs[lo]), lo: self.case(rungs[lo], rungs[w])}
            if game.draw:
                moves = {p: MOVES[cases[p] - 1][3] for p in (w, lo)}
                first = min((w, lo), key=order.index)  # who stands higher goes above on a tie
            else:
                assert game.margin is not None
                moves = {w: MOVES[cases[w] - 1][VICTORY[game.margin]],
                         lo: MOVES[cases[lo] - 1][DEFEAT[game.margin]]}
                first = w
            # Both out, the others keep their order; each back at its target rung
            # (clamped), the smaller target first, `first` above on equal targets.
            target = {p: min(max(now_rungs[p] - moves[p], 1), len(order)) for p in (w, lo)}
            rest = [p for p in order if p not in (w, lo)]
            top, bottom = sorted((w, lo), key=lambda p: (target[p], p != first))
            rest.insert(min(target[top] - 1, len(rest)), top)
            rest.insert(min(max(target[bottom] - 1, rest.index(top) + 1), len(rest)), bottom)
            order = rest
        for rung, name in enumerate(order, 1):
            players[name].rating = rung
        return {"players": players}

    def compare(self, export: dict[str, Any], now: int, after: str) -> None:
        want, got = self.derive(now), self.listed(export, after)
        for name in self.members:
            p, row = want["players"][name], got[name]
            assert (row["rung"], row["games"], row["wins"], row["losses"], row["draws"]) == \
                (p.rating, p.games, p.wins, p.losses, p.draws), f"{name} after {after}"
