"""Every command as a form of typed options (Discord's slash commands), gathered from the
families' modules: each form's parameters (core.commands.params) and what its values make,
a command or the chat line the text parser reads. The adapters derive their menus from
these and restate none; the checks run in the command, whichever way it came
(core.commands.checks).
"""

from __future__ import annotations

from core.commands import (
    accounts,
    challenges,
    claims,
    h2h,
    help,
    ladders,
    moderation,
    queue,
    reports,
    tournaments,
    views,
)
from core.commands.params import Form, const
from core.commands.registry import SPECS


def _bare_forms() -> tuple[Form, ...]:
    """Every word that takes no arguments, as the registry has it."""
    return tuple(Form((spec.word,), spec.menu, (), const(spec.bare))
                 for spec in SPECS if spec.bare is not None)


# Every typed command, in the order a menu lists them.
FORMS: tuple[Form, ...] = (*accounts.FORMS, *ladders.FORMS, *_bare_forms(), *challenges.FORMS,
                           *views.FORMS, *queue.FORMS, *tournaments.FORMS, *reports.FORMS,
                           *h2h.FORMS, *help.FORMS, *claims.FORMS[:1],
                           *moderation.FORMS, *claims.FORMS[1:])
