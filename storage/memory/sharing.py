"""The in-memory twin's part for one ladder across platforms: linked accounts, ladders
another chat plays under its own name, and one-time codes (as storage/sql/sharing.py)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from core.domain import names
from core.domain.model import PlayerId, Timestamp
from core.domain.records import LadderInfo, PlayerInfo
from storage.memory.platform import PlatformData


@dataclass
class Share:
    """Another chat's hold on a ladder: its name there and what it has of its own."""

    ladder: int
    is_default: bool = False
    channel: str | None = None
    mod_role: str | None = None


@dataclass
class SharingData:
    """The twin's tables: person by account, codes, shares by (chat, name)."""

    links: dict[str, str] = field(default_factory=dict)
    codes: dict[str, tuple[str, str, Timestamp]] = field(default_factory=dict)
    shares: dict[tuple[str, str], Share] = field(default_factory=dict)


class MemorySharing:
    """The sharing Repo methods over `SharingData` (the repository supplies `sharing`,
    its ladders' own views and their players)."""

    @property
    def sharing(self) -> SharingData:
        """The twin's tables of these (the repository holds them)."""
        raise NotImplementedError

    @property
    def platform(self) -> PlatformData:
        """The platforms' tables, which a shared ladder's views read."""
        raise NotImplementedError
    every_ladder: Callable[[], list[LadderInfo]]
    _info: Callable[[int], LadderInfo]
    players: Callable[..., dict[PlayerId, PlayerInfo]]

    def player_by_look(self, ladder: int, look: str) -> PlayerInfo | None:
        return next((p for p in self.players(ladder).values() if names.look(p.name) == look),
                    None)

    def looks_taken(self, ladder: int, look: str, but: PlayerId | None = None) -> bool:
        return any(names.look(p.name) == look for p in self.players(ladder).values()
                   if p.id != but)

    def lock_people(self, users: Sequence[str]) -> None:
        """One process, one unit at a time: nothing to hold."""

    def linked(self, user: str) -> tuple[str, ...]:
        person = self.sharing.links.get(user)
        return tuple(sorted(u for u, p in self.sharing.links.items()
                            if person is not None and p == person and u != user))

    def link(self, person: str, other: str) -> None:
        self.sharing.links[person] = self.sharing.links[other] = person

    def unlink(self, user: str) -> None:
        person = self.sharing.links.get(user)
        for account in [u for u, p in self.sharing.links.items() if p == person]:
            del self.sharing.links[account]

    def played_by(self, user: str) -> list[int]:
        return [lad.id for lad in self.every_ladder()
                if any(p.user == user for p in self.players(lad.id).values())]

    def add_code(self, code: str, kind: str, subject: str, expires: Timestamp,
                 now: Timestamp) -> None:
        for old in [c for c, (_, _, until) in self.sharing.codes.items() if until <= now]:
            del self.sharing.codes[old]
        self.sharing.codes[code] = (kind, subject, expires)

    def take_code(self, code: str, kind: str, now: Timestamp) -> str | None:
        found = self.sharing.codes.pop(code, None)
        return found[1] if found is not None and found[0] == kind and found[2] > now else None

    def _view(self, chat: str, name: str, share: Share) -> LadderInfo:
        home = self._info(share.ladder)
        return dataclasses.replace(home, chat=chat, name=name, is_default=share.is_default,
                                   channel=share.channel, mod_role=share.mod_role,
                                   home=home.chat)

    def shared_ladders(self, chat: str) -> list[LadderInfo]:
        return sorted((self._view(c, n, s) for (c, n), s in self.sharing.shares.items()
                       if c == chat), key=lambda lad: lad.id)

    def plays_shared(self, chat: str) -> bool:
        return any(lad.shared for lad in self.every_ladder() if lad.chat == chat) or \
            bool(self.shared_ladders(chat))

    def views(self, ladder: int) -> list[LadderInfo]:
        home = [lad for lad in self.every_ladder() if lad.id == ladder]
        return home + sorted((self._view(c, n, s) for (c, n), s in self.sharing.shares.items()
                              if s.ladder == ladder), key=lambda lad: lad.chat)

    def share(self, ladder: int, chat: str, name: str) -> None:
        first = not any(lad.chat == chat for lad in self.every_ladder()) and \
            not self.shared_ladders(chat)
        self.sharing.shares[(chat, name)] = Share(ladder, first)

    def unshare(self, ladder: int, chat: str | None = None) -> list[str]:
        gone = sorted(k for k, s in self.sharing.shares.items()
                      if s.ladder == ladder and (chat is None or k[0] == chat))
        for key in gone:
            del self.sharing.shares[key]
        outbox = self.platform.outbox
        for item in [i for i, (_, _, a) in outbox.items() if (a.chat, a.ladder) in gone]:
            del outbox[item]
        return [c for c, _ in gone]

    def _update_share(self, ladder: int, chat: str, own: dict[str, object]) -> bool:
        """Change what `chat` has of its own of another chat's ladder (False: it has no
        share of it)."""
        found = next(((n, s) for (c, n), s in self.sharing.shares.items()
                      if c == chat and s.ladder == ladder), None)
        if found is None:
            return False
        local, share = found
        name = str(own.pop("name", local))
        del self.sharing.shares[(chat, local)]
        self.sharing.shares[(chat, name)] = dataclasses.replace(share, **own)  # type: ignore[arg-type]
        return True

    def _is_shared(self, ladder: int) -> bool:
        return any(s.ladder == ladder for s in self.sharing.shares.values())
