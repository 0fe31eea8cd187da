"""The SQL of what follows a ladder's standings on the platforms: the roles a ladder
gives, what each member was given, and its live standings message (schema 18).

A part of the repository (`SqlRepo` takes it in), written so SQLite and PostgreSQL
read the same statements.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from core.domain.records import LadderInfo, PinRecord, RoleConfig, RoleHolding
from storage.sql.codec import dumps, pin_from_json, pin_to_json, roles_from_json, roles_to_json


class FollowingTables:
    """The `following` and `role_holdings` tables (the repository supplies the rest)."""

    conn: Any
    _LADDER: str  # the repository's ladder query, and how it reads a row
    _ladder: Callable[[Any], LadderInfo]

    _one: Callable[..., Any]  # one row of a statement, or None
    _all: Callable[..., list[Any]]  # every row of a statement

    def _followed(self, ladder: int, kind: str) -> str | None:
        row = self._one("SELECT state FROM following WHERE ladder=? AND kind=?", (ladder, kind))
        return None if row is None else str(row[0])

    def _follow(self, ladder: int, kind: str, state: str | None) -> None:
        if state is None:
            self.conn.execute("DELETE FROM following WHERE ladder=? AND kind=?", (ladder, kind))
            return
        self.conn.execute("INSERT INTO following (ladder, kind, state) VALUES (?, ?, ?) "
                          "ON CONFLICT (ladder, kind) DO UPDATE SET state=excluded.state",
                          (ladder, kind, state))

    def roles(self, ladder: int) -> RoleConfig:
        found = self._followed(ladder, "roles")
        return RoleConfig() if found is None else roles_from_json(found)

    def save_roles(self, ladder: int, config: RoleConfig) -> None:
        keep = config.any or config.ids or config.problem
        self._follow(ladder, "roles", roles_to_json(config) if keep else None)

    def role_holdings(self, ladder: int) -> dict[str, RoleHolding]:
        return {row[0]: RoleHolding(frozenset(json.loads(row[1])),
                                    frozenset(json.loads(row[2])))
                for row in self._all("SELECT member, wanted, granted FROM role_holdings "
                                     "WHERE ladder=?", (ladder,))}

    def save_holding(self, ladder: int, user: str, holding: RoleHolding | None) -> None:
        if holding is None or not (holding.wanted or holding.granted):
            self.conn.execute("DELETE FROM role_holdings WHERE ladder=? AND member=?",
                              (ladder, user))
            return
        self.conn.execute(
            "INSERT INTO role_holdings (ladder, member, wanted, granted) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (ladder, member) DO UPDATE SET wanted=excluded.wanted, "
            "granted=excluded.granted",
            (ladder, user, dumps(sorted(holding.wanted)), dumps(sorted(holding.granted))))

    def granted_elsewhere(self, ladder: int, user: str) -> frozenset[str]:
        rows = self._all(
            "SELECT h.granted FROM role_holdings h JOIN ladders l ON l.id = h.ladder "
            "WHERE h.member=? AND h.ladder<>? AND l.chat = (SELECT chat FROM ladders "
            "WHERE id=?)", (user, ladder, ladder))
        return frozenset(role for row in rows for role in json.loads(row[0]))

    def pin(self, ladder: int) -> PinRecord | None:
        found = self._followed(ladder, "pin")
        return None if found is None else pin_from_json(found)

    def save_pin(self, ladder: int, pin: PinRecord | None) -> None:
        self._follow(ladder, "pin", None if pin is None else pin_to_json(pin))

    def followed(self) -> list[LadderInfo]:
        return [self._ladder(r) for r in self._all(
            f"{self._LADDER} WHERE id IN (SELECT ladder FROM following UNION "
            "SELECT ladder FROM role_holdings) ORDER BY id")]
