"""A Babel extraction method for our message codes: every `t("code", ...)` and
`N_("code")` in a Python file, nested ones and both sides of `t("a" if x else "b")`
included (Babel's own Python extractor reads tokens, and joins those two into one).

`pybabel extract -k t -k N_ -F babel.cfg` uses it as `[core.i18n.extract:codes: **.py]`; the tests
call it through `babel.messages.extract.extract_from_dir`.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

# The functions whose first argument is a message code (`said`: Discord's menu).
MARKERS = ("t", "N_", "said")


def codes(source: IO[bytes], keywords: Mapping[str, Any] | Collection[str],
          comment_tags: Collection[str], options: Mapping[str, Any]
          ) -> Iterator[tuple[int, str, str, list[str]]]:
    """(line, function, code, comments) of every literal code in `source`."""
    tree = ast.parse(source.read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in MARKERS and node.args:
            for code in _literals(node.args[0]):
                yield node.lineno, node.func.id, code, []


def _literals(node: ast.expr) -> list[str]:
    """The codes an argument can be: a literal, or either literal of `a if x else b`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        return _literals(node.body) + _literals(node.orelse)
    return []
