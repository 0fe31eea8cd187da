"""Long replies in pages: how many there are, the refusal past the last, the hint to
the next."""

from __future__ import annotations

from core.i18n import Message, t


def pages(total: int, size: int) -> int:
    """How many pages `total` rows fill."""
    return max(1, -(-total // size))


def past_the_end(page: int, total: int, size: int) -> Message:
    """The refusal of a page beyond the last."""
    return t("page.past_end", count=pages(total, size), page=page)


def more_hint(left: int, command: str) -> list[Message]:
    """`… and 12 more: /standings page=3`, when there are more."""
    return [t("page.more", left=left, command=command)] if left > 0 else []
