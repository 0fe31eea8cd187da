"""How a core reply is shown on Telegram: plain text (no parse mode, so nothing a player
typed is formatting), no link made of what they typed, split into messages the Bot API
accepts, with a pending report's buttons under the last one."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.constants import CallbackQueryLimit, MessageLimit

from bot.gateway import button_label, buttons_of, choice_buttons, page_buttons, page_label
from bot.text import contain_bidi, cut, split_text, unlink
from core.domain.records import Reply

MAX_MESSAGE = MessageLimit.MAX_TEXT_LENGTH
ALERT = CallbackQueryLimit.ANSWER_CALLBACK_QUERY_TEXT_LENGTH  # a button's alert


def shown(text: str, own: str | None = None) -> str:
    """A text as Telegram should show it: right-to-left overrides closed within their
    word, and no address or bare domain a player typed made a link (`own`, the bot's web
    address, stays one)."""
    return unlink(contain_bidi(text), own, domains=True)


def split(text: str, limit: int = MAX_MESSAGE) -> list[str]:
    """Cut a long text at line breaks into messages Telegram accepts."""
    return split_text(text, limit)


def buttons(reply: Reply) -> InlineKeyboardMarkup | None:
    """Confirm / Dispute (for the opponent) and Withdraw (for the reporter's side) under a
    pending report; Ready under a queue match's ready check; Previous and Next under a
    page of more."""
    found = keyboard(buttons_of(reply.ready, reply.confirm_match, reply.kept), reply.ladder,
                     reply.language)
    choices = choice_buttons(reply)
    if found is None and choices:  # a "which ladder?" question: one button a ladder
        return InlineKeyboardMarkup([[InlineKeyboardButton(label, callback_data=f"{action}:"
                                                           f"{ladder}:0")]
                                     for label, action, ladder in choices])
    if found is not None or reply.pages is None or reply.ladder is None:
        return found
    row = [InlineKeyboardButton(page_label(action, reply.language), callback_data=data)
           for action, data in page_buttons(reply.pages, reply.ladder)]
    return InlineKeyboardMarkup([row]) if row else None


def keyboard(found: tuple[tuple[str, ...], int] | None, ladder: str | None,
             language: str) -> InlineKeyboardMarkup | None:
    """The inline buttons `buttons_of` names, each carrying `action:ladder:number`."""
    if found is None or ladder is None:
        return None
    actions, ref = found
    return InlineKeyboardMarkup([[
        InlineKeyboardButton(button_label(action, language),
                             callback_data=f"{action}:{ladder}:{ref}")
        for action in actions]])


def render(reply: Reply, own: str | None = None
           ) -> list[tuple[str, InlineKeyboardMarkup | None]]:
    """The messages a reply becomes, each with the buttons it carries."""
    parts = split(shown(reply.said, own))
    last = len(parts) - 1
    return [(part, buttons(reply) if n == last else None) for n, part in enumerate(parts)]


def alert(reply: Reply, own: str | None = None) -> str:
    """A refusal as a button's alert, cut at a space to Telegram's 200 characters (a
    longer one was refused, and the presser saw nothing)."""
    return cut(shown(reply.said, own), ALERT)
