"""The moderator page's import (issue 54's `/ladder import` on the web, issue 55): the
match CSV sent from the page into its ladder, its dry run shown with a Confirm import
button, and, pressed, the import. Both are the chat's command (`ImportFile`) with the file
as its attachment, so the checks, the size limit and the words are the chat's. The file
waits in this process (bot.pending) for its sender's press, which spends it whatever the
answer; the moderator is asked of the platform again before each step.
"""

from __future__ import annotations

import dataclasses
import hmac

from aiohttp import BodyPartReader, web

from bot.pending import KEEP_MINUTES, PendingFiles
from bot.web.manage import ROUTE, Manage, told
from core.commands.base import Parsed
from core.commands.ladders import ImportFile
from core.domain.records import Reply
from core.i18n import Message, render, t
from core.ports.repository import PlatformRepo
from core.service.chat_import import CHAT_FILE
from core.service.dispatch import execute

FIELD_MOST = 200  # bytes a plain field of the form may hold (a token, a number)


class ImportPage:
    """`POST /ladders/ID/manage/import`: a file's dry run, or its confirmation."""

    def __init__(self, manage: Manage) -> None:
        self.manage = manage
        self.pending = PendingFiles(manage.dashboard.clock)
        manage.dashboard.site.app.router.add_post(f"{ROUTE}/import", self.act)

    async def act(self, request: web.Request) -> web.Response:
        dashboard = self.manage.dashboard
        fields, data = await _multipart(request)
        session = await dashboard.session(request)
        if session is None or not hmac.compare_digest(fields.get("csrf", ""), session.csrf):
            raise web.HTTPForbidden()
        ladder, ctx = await self.manage.moderator(request, session)
        command = ImportFile(ladder.name)
        if fields.get("action") == "confirm":
            number = fields.get("number", "")
            if not number.isdigit() or len(number) > 9:
                raise web.HTTPBadRequest()
            sender = self.pending.sender(ladder.chat, int(number))
            if sender is not None and sender != ctx.user.key:
                return self._said(request, t("chat_import.not_yours"), ladder.settings.language)
            kept = self.pending.take(ladder.chat, int(number))
            if kept is None or kept.command.name != ladder.name:
                return self._said(request, t("chat_import.expired", minutes=KEEP_MINUTES),
                                  ladder.settings.language)
            command, data = kept.command, kept.data
        ctx = dataclasses.replace(ctx, attachment=data)

        def work(repo: PlatformRepo) -> Reply:
            reply = execute(repo, ctx, Parsed(command, ladder.name), dashboard.policy)
            return told(repo, ladder, reply, ctx.at)

        reply = await dashboard.site.store.run(work)
        kept_as = None
        if reply.previewed is not None and data is not None:  # (a dry run: its button)
            kept_as = self.pending.keep(ladder.chat, ctx.user.key, *reply.previewed, data)
        return dashboard.site.page(request, "answered.html", {
            "text": reply.said, "error": reply.error, "language": reply.language,
            "back": f"/ladders/{ladder.id}/manage", "kept": kept_as,
            "csrf": session.csrf, "confirm_to": f"/ladders/{ladder.id}/manage/import"},
            status=400 if reply.error else 200)

    def _said(self, request: web.Request, message: Message, language: str) -> web.Response:
        """A refusal of this page's own (a press that is not the visitor's, or too late)."""
        return self.manage.dashboard.site.page(request, "answered.html", {
            "text": render(message, language), "error": True, "language": language},
            status=400)


async def _multipart(request: web.Request) -> tuple[dict[str, str], bytes | None]:
    """The form's fields and its file (None: none chosen), read as they come: a file is
    read to one byte past what an import takes, so a larger one is refused by the
    command, in its words, without holding the rest. (A form without a file, the
    confirmation, may come either way.)"""
    if request.content_type == "application/x-www-form-urlencoded":
        return {k: str(v)[:FIELD_MOST] for k, v in (await request.post()).items()}, None
    try:
        reader = await request.multipart()
    except (AssertionError, ValueError, KeyError):  # (not a multipart form)
        raise web.HTTPBadRequest() from None
    fields: dict[str, str] = {}
    data = None
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader) or not part.name:
            raise web.HTTPBadRequest()
        most = CHAT_FILE + 1 if part.name == "file" else FIELD_MOST
        body = bytearray()
        while len(body) < most and (chunk := await part.read_chunk()):
            body += chunk
        if part.name == "file":
            data = bytes(body[:most]) if part.filename and body else None
            break  # (the form's last field; what follows a large file is left unread)
        fields[part.name] = bytes(body[:most]).decode("utf-8", "replace")
    return fields, data
