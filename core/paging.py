"""Long replies in pages: how many there are, the refusal past the last, the hint to
the next."""

from __future__ import annotations

from core.i18n import plural


def pages(total: int, size: int) -> int:
    """How many pages `total` rows fill."""
    return max(1, -(-total // size))


def past_the_end(page: int, total: int, size: int) -> str:
    """The refusal of a page beyond the last."""
    return f"There is no page {page}: there {'is' if pages(total, size) == 1 else 'are'} " \
           f"{plural(pages(total, size), 'page')}."


def more_hint(left: int, command: str) -> list[str]:
    """`… and 12 more: /standings page=3`, when there are more."""
    return [f"… and {left} more: {command}"] if left > 0 else []
