"""Who a dashboard login says the visitor is: the Telegram Login Widget's data, checked as
Telegram documents it (core.telegram.org/widgets/login): an HMAC-SHA256 of its fields,
sorted and joined by new lines, keyed by the SHA-256 of the bot's token, and an
`auth_date` no older than a day."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping

from core.domain.names import shown_name
from core.domain.records import UserRef

MOST_AGE = 86_400  # seconds a widget's login may be old
SKEW = 60  # seconds it may seem to come from the future (clocks differ)
FIELDS = frozenset({"id", "first_name", "last_name", "username", "photo_url", "auth_date",
                    "hash"})


def telegram_signature(fields: Mapping[str, str], token: str) -> str:
    """The hash the widget gives these fields (all but `hash`) for the bot of `token`."""
    checked = "\n".join(f"{key}={fields[key]}" for key in sorted(fields) if key != "hash")
    key = hashlib.sha256(token.encode()).digest()
    return hmac.new(key, checked.encode(), hashlib.sha256).hexdigest()


def telegram_user(fields: Mapping[str, str], token: str, now: float) -> UserRef | None:
    """The Telegram user the widget's fields sign in, or None: a field it never sends, a
    hash that is not theirs, or a login older than a day."""
    if not token or set(fields) - FIELDS or not {"id", "auth_date", "hash"} <= set(fields):
        return None
    if not hmac.compare_digest(telegram_signature(fields, token), fields["hash"]):
        return None
    if not fields["id"].isdigit() or not fields["auth_date"].isdigit():
        return None
    if not -SKEW <= now - int(fields["auth_date"]) <= MOST_AGE:
        return None
    name = fields.get("username") or " ".join(
        p for p in (fields.get("first_name", ""), fields.get("last_name", "")) if p)
    return UserRef(f"telegram:{fields['id']}", fields.get("username") or shown_name(name))
