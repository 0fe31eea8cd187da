"""The dashboard behind a login (issue 55), its first part: signing in with Telegram's
Login Widget, and a player's own page: their ladders and the reports that wait for their
word, confirmed or disputed there through the same core command a chat line runs, whose
reply the ladder's chat is then told.

A session is a row the server keeps (storage `web_sessions`), named by the SHA-256 of a
random cookie (HttpOnly, SameSite=Lax, Secure behind https): logging out or its end ends
it for every copy of the cookie. Every form carries the session's CSRF token; logins are
limited per address; nothing secret goes into a page, an address or a log.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from aiohttp import web

from bot.web.discord_login import DiscordOAuth
from bot.web.login import telegram_user
from bot.web.manage import Access, Manage, named_sides, told
from bot.web.manage_import import ImportPage
from core.commands.base import Command, Parsed
from core.commands.reports import ConfirmResult, DisputeResult
from core.domain.records import Context, LadderInfo, Reply, UserRef
from core.domain.settings import Policy
from core.domain.web_session import WebSession
from core.i18n import N_
from core.ports.repository import PlatformRepo
from core.service.dispatch import execute, handle
from core.service.session import find_player

if TYPE_CHECKING:
    from bot.web.pages import Web

COOKIE = "ladderbot_session"
STATE, STATE_SECONDS = "ladderbot_oauth_state", 600  # a Discord login's state, kept briefly
BEGUN = "ladderbot_login"  # a Telegram login begun on the login page, kept as briefly
SESSION_DAYS = 7.0  # a session's length, unless the configuration says another
LOGINS = 10  # logins an address may try a minute
ADDRESSES_KEPT = 10_000  # addresses whose tries are counted before the quiet are let go



class Dashboard:
    """The signed-in pages, installed on the site (bot.web.pages.Web)."""

    def __init__(self, site: Web, policy: Policy, *, telegram_token: str = "",
                 telegram_bot: str = "", discord: DiscordOAuth | None = None,
                 access: Access | None = None, secure: bool, days: float = SESSION_DAYS,
                 clock: Callable[[], float] = time.time) -> None:
        self.site, self.policy = site, policy
        self.token, self.bot, self.discord = telegram_token, telegram_bot, discord
        self.secure, self.seconds, self.clock = secure, round(days * 86_400), clock
        self.tries: dict[str, deque[float]] = {}
        app = site.app
        app.router.add_get("/login", self.login)
        app.router.add_get("/login/telegram", self.telegram)
        app.router.add_get("/login/discord", self.to_discord)
        app.router.add_get("/login/discord/back", self.from_discord)
        app.router.add_get("/me", self.me)
        app.router.add_post("/me/answer", self.answer)
        app.router.add_post("/logout", self.logout)
        self.access = access
        self.manage: Manage | None = None
        if access is not None:  # (the platforms that say who moderates their chats)
            self.manage = Manage(self, access)
            ImportPage(self.manage)

    # ---- signing in and out
    async def login(self, request: web.Request) -> web.Response:
        """The login page: Discord's way in and Telegram's widget, where they are set up."""
        back = f"{self.policy.web_url.rstrip('/')}/login/telegram"
        page = self.site.page(request, "login.html", {"bot": self.bot, "back": back,
                                                      "discord": self.discord is not None})
        # The widget's way back is a plain GET anyone could link to: it signs in only a
        # browser that began here, so no site can sign a visitor into someone else's
        # account (login CSRF).
        page.set_cookie(BEGUN, "1", max_age=STATE_SECONDS, path="/login/telegram",
                        httponly=True, samesite="Lax", secure=self.secure)
        return page

    async def telegram(self, request: web.Request) -> web.StreamResponse:
        """The widget's data: checked, then a session begins."""
        if not self._may_try(request.remote or "?"):
            return self._refused(request, N_("dashboard.slow"), 429)
        user = telegram_user(dict(request.query), self.token, self.clock())
        if user is None or request.cookies.get(BEGUN) != "1":
            return self._refused(request, N_("dashboard.bad_login"), 403)
        return await self._begin(user)

    async def to_discord(self, request: web.Request) -> web.StreamResponse:
        """Off to Discord's authorization page, the `state` kept in a short cookie."""
        if self.discord is None:
            raise web.HTTPNotFound()
        url, state = self.discord.start()
        response = web.HTTPSeeOther(url)
        response.set_cookie(STATE, state, max_age=STATE_SECONDS, path="/login/discord",
                            httponly=True, samesite="Lax", secure=self.secure)
        raise response

    async def from_discord(self, request: web.Request) -> web.StreamResponse:
        """Back from Discord: the `state` checked against the browser's, then the code
        exchanged for who the visitor is."""
        if self.discord is None:
            raise web.HTTPNotFound()
        if not self._may_try(request.remote or "?"):
            return self._refused(request, N_("dashboard.slow"), 429)
        kept, given = request.cookies.get(STATE, ""), request.query.get("state", "")
        code = request.query.get("code", "")
        if not kept or not code or not hmac.compare_digest(kept, given):
            return self._refused(request, N_("dashboard.bad_login"), 403)
        user = await self.discord.finish(code)
        if user is None:
            return self._refused(request, N_("dashboard.bad_login"), 403)
        return await self._begin(user)

    async def _begin(self, user: UserRef) -> web.StreamResponse:
        """A session for `user`, its cookie set, and on to their page."""
        value = secrets.token_urlsafe(32)
        now = int(self.clock())
        session = WebSession(_hashed(value), user.key, user.name, secrets.token_urlsafe(32),
                             now, now + self.seconds)
        await self.site.store.run(lambda repo: repo.save_session(session, now))
        response = web.HTTPSeeOther("/me")
        response.set_cookie(COOKIE, value, max_age=self.seconds, path="/", httponly=True,
                            samesite="Lax", secure=self.secure)
        response.del_cookie(STATE, path="/login/discord")
        response.del_cookie(BEGUN, path="/login/telegram")
        raise response

    async def logout(self, request: web.Request) -> web.StreamResponse:
        """End the session (a form of its own, with its CSRF token)."""
        session, _ = await self.posted(request)
        await self.site.store.run(lambda repo: repo.end_session(session.token))
        response = web.HTTPSeeOther("/")
        response.del_cookie(COOKIE, path="/")
        raise response

    # ---- the player's page
    async def me(self, request: web.Request) -> web.Response:
        """The visitor's ladders (with the way to each one's moderator page) and the
        reports waiting for their word."""
        session = await self.session(request)
        if session is None:
            raise web.HTTPSeeOther("/login")
        ladders, linked = await self.site.store.run(
            lambda repo: _waiting(repo, session, int(self.clock())), commit=False)
        asked: dict[tuple[str, str], tuple[bool, frozenset[str]] | None] = {}

        async def ask(chat: str, user: str) -> tuple[bool, frozenset[str]] | None:
            if (chat, user) not in asked:  # (once a chat and account on this view)
                assert self.access is not None
                asked[chat, user] = await self.access(chat, user)
            return asked[chat, user]

        for item in ladders:
            item["moderates"] = self.manage is not None and await self.manage.moderating(
                item["views"], session, linked, ask) is not None
        # A ladder they do not play is theirs to see while its chat's platform says they
        # moderate it (the chat noted them once as a moderator).
        shown = [item for item in ladders if item["plays"] or item["moderates"]]
        return self.site.page(request, "me.html", {"session": session, "ladders": shown})

    async def answer(self, request: web.Request) -> web.Response:
        """Confirm or dispute a report: the core command, as a chat line runs it."""
        session, form = await self.posted(request)
        number = form.get("match", "")
        if not number.isdigit() or len(number) > 18 or \
                form.get("answer") not in ("confirm", "dispute"):
            raise web.HTTPBadRequest()
        command: Command = ConfirmResult(int(number)) if form["answer"] == "confirm" \
            else DisputeResult(int(number), form.get("reason", "").strip())
        ladder_id = form.get("ladder", "")
        now = int(self.clock())

        def work(repo: PlatformRepo) -> Reply:
            played = _played(repo, _accounts(repo, session.user))
            ladder = next((lad for lad, _ in played.values() if str(lad.id) == ladder_id), None)
            if ladder is None:  # not one of theirs (a forged form): as no such page
                raise web.HTTPNotFound()
            ctx = Context(ladder.chat, UserRef(session.user, session.name), now)
            return told(repo, ladder, execute(repo, ctx, Parsed(command, ladder.name),
                                              self.policy), now)

        reply = await self.site.store.run(work)
        return self.site.page(request, "answered.html",
                              {"text": reply.said, "error": reply.error,
                               "language": reply.language},
                              status=400 if reply.error else 200)

    # ---- checks
    async def session(self, request: web.Request) -> WebSession | None:
        value = request.cookies.get(COOKIE)
        if not value:
            return None
        now = int(self.clock())
        found: WebSession | None = await self.site.store.run(
            lambda repo: repo.web_session(_hashed(value), now), commit=False)
        return found

    async def posted(self, request: web.Request) -> tuple[WebSession, dict[str, str]]:
        """The session of a form and its fields; 403 without one, or without its token."""
        session = await self.session(request)
        form = {k: str(v) for k, v in (await request.post()).items()}
        if session is None or not hmac.compare_digest(form.get("csrf", ""), session.csrf):
            raise web.HTTPForbidden()
        return session, form

    def _may_try(self, address: str) -> bool:
        """Whether an address may try to log in now (LOGINS a minute)."""
        now = self.clock()
        if len(self.tries) > ADDRESSES_KEPT:  # (many addresses: keep only the busy ones)
            self.tries = {a: t for a, t in self.tries.items() if t and t[-1] > now - 60}
        tried = self.tries.setdefault(address, deque())
        while tried and tried[0] <= now - 60:
            tried.popleft()
        if len(tried) >= LOGINS:
            return False
        tried.append(now)
        return True

    def _refused(self, request: web.Request, code: str, status: int) -> web.Response:
        return self.site.page(request, "answered.html", {"code": code, "error": True},
                              status=status)


def _hashed(value: str) -> str:
    """What the server keeps of a session's cookie."""
    return hashlib.sha256(value.encode()).hexdigest()


def _accounts(repo: PlatformRepo, user: str) -> tuple[str, ...]:
    """The visitor's accounts: theirs, then the ones linked to it."""
    return (user, *repo.linked(user))


def _played(repo: PlatformRepo, keys: Sequence[str]) -> dict[int, tuple[LadderInfo, str]]:
    """The ladders the visitor plays as any of their accounts (`keys`, `_accounts`), by
    id, each with the account that plays it."""
    return {lad.id: (lad, key) for key in keys for lad in repo.user_ladders(key)}


def _waiting(repo: PlatformRepo, session: WebSession, now: int
             ) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """Each of the visitor's ladders (those they play, and those of the chats where the
    bot has known them as a moderator) with their profile there (what /profile says)
    and the reports that wait for their word; and their linked accounts."""
    keys = _accounts(repo, session.user)
    played = _played(repo, keys)
    ladders = {number: lad for number, (lad, _) in played.items()}
    for key in keys:
        ladders.update((lad.id, lad) for chat in repo.moderated_chats(key)
                       for lad in repo.ladders(chat))
    shown = []
    for number in sorted(ladders):
        ladder = ladders[number]
        me = find_player(repo, ladder.id, session.user)
        players = repo.players(ladder.id)
        waiting = []
        for m in repo.open_matches(ladder.id):
            side = next((s for s in m.result.sides if me is not None and me.id in s), None)
            if m.status == "pending" and side is not None and m.reporter not in side:
                waiting.append({"id": m.id, "sides": named_sides(players, m.result),
                                "draw": m.result.draw})
        account = played[number][1] if number in played else None
        profile = None if account is None else handle(
            repo, Context(ladder.chat, UserRef(account, session.name), now),
            f"/profile ladder={ladder.name}", lambda _name: None)
        shown.append({"ladder": ladder, "waiting": waiting, "plays": account is not None,
                      "profile": profile.said if profile is not None else "",
                      "views": repo.views(ladder.id)})
    return shown, keys[1:]
