"""The dashboard's moderator page of a ladder (issue 55): its settings changed, a report
voided or its result set, a player's rating adjusted, a player removed or banned, its
audit read. Who may is asked of the ladder's platform before the page and again before
every action (Discord's Manage Server or the configured role, a ladder's moderators'
role, Telegram's group administrators), and every action is the line a moderator would
say in the chat (`/ladder set ...`, `/mod void ...`, `/mod adjust ...`), run by the same
parser and command, its reply told to the chat, its audit marked "(web)".
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.web.settings_form import changed, fields
from bot.web.tournament_forms import ACTIONS, tournament_line, tournaments_shown
from core.commands.base import Parsed
from core.commands.words import SCORE
from core.domain.model import Margin, PlayerId, Result
from core.domain.records import (
    Announcement,
    Context,
    LadderInfo,
    PlayerInfo,
    Reply,
    UserRef,
)
from core.domain.web_session import WebSession
from core.i18n import render
from core.ports.repository import PlatformRepo
from core.service.chat_import import CHAT_FILE
from core.service.dispatch import execute, handle
from core.service.queries.ladders import audit_text
from core.service.session import Session

if TYPE_CHECKING:
    from bot.web.dashboard import Dashboard

# Whether a user (key) moderates a chat's ladders, and their roles there (None: the
# platform knows them not there): the platforms' `web_access`.
Access = Callable[[str, str], Awaitable[tuple[bool, frozenset[str]] | None]]
ROUTE = "/ladders/{ladder:[1-9][0-9]{0,17}}/manage"
MOST_TEXT = 400  # characters a form's text may hold (a reason, the settings' key=value)
AUDIT_SHOWN = 20


class Manage:
    """The moderator pages, on the dashboard's site and sessions."""

    def __init__(self, dashboard: Dashboard, access: Access) -> None:
        self.dashboard, self.access = dashboard, access
        dashboard.site.app.router.add_get(ROUTE, self.page)
        dashboard.site.app.router.add_post(ROUTE, self.act)

    async def page(self, request: web.Request) -> web.Response:
        """The ladder's open reports, settings and audit, to one of its moderators."""
        session = await self.dashboard.session(request)
        if session is None:
            raise web.HTTPSeeOther("/login")
        ladder, ctx = await self.moderator(request, session)
        shown = await self.dashboard.site.store.run(lambda repo: _shown(repo, ladder, ctx),
                                                    commit=False)
        return self.dashboard.site.page(request, "manage.html", {
            "session": session, "ladder": ladder, **shown,
            "language": ladder.settings.language})

    async def act(self, request: web.Request) -> web.Response:
        """One of the page's forms: the chat's line it stands for, the moderator asked
        again first."""
        session, form = await self.dashboard.posted(request)
        ladder, ctx = await self.moderator(request, session)
        now = ctx.at

        def work(repo: PlatformRepo) -> Reply:
            if form.get("action") == "form":  # (the settings, a field each)
                command = changed(repo.ladder(ladder.chat, ladder.name) or ladder, form)
                if command is None:
                    raise web.HTTPBadRequest()
                return told(repo, ladder, execute(repo, ctx, Parsed(command, ladder.name),
                                                  self.dashboard.policy), now)
            members = {f"p{p}": UserRef(info.user, info.name)
                       for p, info in repo.players(ladder.id).items()}
            line = _line(form, members)
            if line is None:
                raise web.HTTPBadRequest()
            reply = handle(repo, ctx, f"{line} ladder={ladder.name}", members.get,
                           self.dashboard.policy)
            assert reply is not None  # (a line of a command's word)
            return told(repo, ladder, reply, now)

        reply = await self.dashboard.site.store.run(work)
        return self.dashboard.site.page(request, "answered.html", {
            "text": reply.said, "error": reply.error, "language": reply.language,
            "back": f"/ladders/{ladder.id}/manage"}, status=400 if reply.error else 200)

    async def moderator(self, request: web.Request, session: WebSession
                        ) -> tuple[LadderInfo, Context]:
        """The ladder of the address as the chat its visitor moderates it in sees it, and
        the context of its moderator there (404 for anyone else, as for a ladder there is
        not: a forged address learns nothing)."""
        number = int(request.match_info["ladder"])
        views, linked = await self.dashboard.site.store.run(
            lambda repo: (repo.views(number), repo.linked(session.user)), commit=False)
        found = await self.moderating(views, session, linked)
        if found is None:
            raise web.HTTPNotFound()
        return found

    async def moderating(self, views: Sequence[LadderInfo], session: WebSession,
                         linked: Sequence[str], ask: Access | None = None
                         ) -> tuple[LadderInfo, Context] | None:
        """A ladder as one of the chats that play it sees it (`views`: its home chat's
        first, then those it is shared with), and the context of the visitor moderating
        it there, as any of their linked accounts, as the chat's platform says now (None:
        they moderate it nowhere); `ask`: the platforms' question, where the caller keeps
        its answers."""
        for view in views:
            for key in (session.user, *linked):
                access = await (ask or self.access)(view.chat, key)
                if access is None:
                    continue
                ctx = Context(view.chat, UserRef(key, session.name),
                              int(self.dashboard.clock()), moderator=access[0],
                              roles_held=access[1], web=True)
                if ctx.moderates(view):
                    return view, ctx
        return None


def told(repo: PlatformRepo, ladder: LadderInfo, reply: Reply, now: int) -> Reply:
    """A reply to a dashboard's action, its chat told of it as of a line said there
    (with what it announces); a refusal or a dry run is the visitor's alone."""
    if not reply.error and reply.previewed is None:
        repo.enqueue([*reply.announcements,
                      Announcement(ladder.chat, ladder.name, reply.said, ladder.channel,
                                   language=reply.language)], now)
    return reply


def named_sides(players: Mapping[PlayerId, PlayerInfo], result: Result) -> list[list[str]]:
    """A result's sides by their players' names."""
    return [[players[p].name for p in side] for side in result.sides]


def _line(form: dict[str, str], members: dict[str, UserRef]) -> str | None:
    """The chat line a form stands for (None: it stands for none); a player is named by
    a token (`@p12`) that `members` resolves, never by a name to parse."""
    text = " ".join(form.get("text", "").split())[:MOST_TEXT]  # (one line, as typed)
    action, match = form.get("action", ""), form.get("match", "")
    who = f"p{form.get('player', '')}"
    if action == "settings" and text and "ladder=" not in text:
        return f"/ladder set {text}"
    if "ladder=" in text:
        return None
    if action in ACTIONS:
        return tournament_line(form, text)
    if not text:
        return None
    if action in ("void", "set") and match.isdigit() and len(match) < 18:
        if action == "void":
            return f"/mod void {match} {text}"
        said = _result(form, members)
        return None if said is None else f"/mod set {match} {said} {text}"
    if who not in members or action not in ("adjust", "remove", "ban"):
        return None
    if action != "adjust":
        return f"/mod {action} @{who} {text}"
    amount = form.get("amount", "").strip()
    if not amount.lstrip("+-").isdigit() or len(amount) > 9:
        return None
    return f"/mod adjust @{who} {int(amount):+d} {text}"


def _result(form: dict[str, str], members: dict[str, UserRef]) -> str | None:
    """A new result as `/mod set` takes it: a draw or the winner, then a margin and a
    score where the form gives them (None: a form no page makes)."""
    result, margin = form.get("result", ""), form.get("margin", "")
    score = form.get("score", "").strip()
    said = "draw" if result == "draw" else f"@p{result}" if f"p{result}" in members else None
    if said is None or (margin and margin not in MARGINS) or \
            (score and SCORE.fullmatch(score) is None):
        return None
    return " ".join(word for word in (said, margin, score) if word)


MARGINS = frozenset(margin.value for margin in Margin)


def _shown(repo: PlatformRepo, ladder: LadderInfo, ctx: Context) -> dict[str, Any]:
    """What the page shows: the open reports, the settings as /ladder info says them, and
    the newest audit lines."""
    players = repo.players(ladder.id)
    reports = [{"id": m.id, "status": m.status,
                "sides": named_sides(players, m.result)}
               for m in repo.open_matches(ladder.id)]
    info = handle(repo, ctx, f"/ladder info ladder={ladder.name}", lambda _name: None)
    s = Session(repo, ctx, ladder)
    language = ladder.settings.language
    audit = [render(audit_text(s, entry), language)
             for entry in repo.audit(ladder.id, limit=AUDIT_SHOWN)]
    members = sorted(((p, i.name) for p, i in players.items() if i.member),
                     key=lambda m: m[1].casefold())
    return {"reports": reports, "info": info.said if info is not None else "",
            "audit": audit, "members": members, "fields": fields(ladder),
            "margins": [m.value for m in Margin] if ladder.settings.is_position else [],
            "scored": ladder.settings.bestof is not None, **tournaments_shown(repo, ladder),
            "import_most": CHAT_FILE // 1024}
