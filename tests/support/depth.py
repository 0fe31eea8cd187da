"""How far the randomized sweeps go in each run: the fast suite (`pytest -n auto`) tries
the first cases of each, enough for every branch they take; `pytest -m slow` the rest,
so the fast suite stays within its minutes and CI still runs every case."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

import pytest


def split(cases: Iterable[Any], fast: int) -> list[Any]:
    """`cases` as parameters: the first `fast` in the fast suite, the others slow. (A case
    of several parameters is a tuple.)"""
    return [pytest.param(*(case if isinstance(case, tuple) else (case,)),
                         marks=() if i < fast else pytest.mark.slow)
            for i, case in enumerate(cases)]


def seeds(fast: int = 4) -> list[Any]:
    """The oracles' seeds: ORACLE_SEEDS of them (6 unless set; more sweeps further), the
    first `fast` in the fast suite. Seeds 0-3 take every branch the oracles choose by
    seed (confirmations on 2 and 3 of every four, dutch's games on even ones)."""
    return split(range(int(os.environ.get("ORACLE_SEEDS", "6"))), fast)
