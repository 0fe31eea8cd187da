"""Numbers as users type them: ASCII digits only.

Python's `str.isdigit`, `int` and `float` accept far more than a user means by a number:
superscripts ('²'.isdigit() is true, yet int('²') fails), other scripts' digits
(int('٣') == 3), underscores (float('1_0') == 10.0), 'inf' and 'nan'. Every number a
command, a setting, a URL or the command line takes is read here instead.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]+")
_INTEGER = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def is_digits(text: str) -> bool:
    """True for one or more ASCII digits and nothing else."""
    return _DIGITS.fullmatch(text) is not None


def parse_int(text: str) -> int:
    """A whole number in ASCII digits with an optional sign; ValueError otherwise."""
    if _INTEGER.fullmatch(text) is None:
        raise ValueError("expected a whole number")
    return int(text)


def parse_number(text: str) -> float:
    """A finite decimal number in ASCII (1, -2.5, 1e3); ValueError otherwise."""
    if _NUMBER.fullmatch(text) is None:
        raise ValueError("expected a number")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError("expected a finite number")
    return value
