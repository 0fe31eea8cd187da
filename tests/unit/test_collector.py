"""The cyclic collector's pause around bulk work (core/domain/collector.py)."""

import gc

import pytest

from core.domain.collector import paused


def test_the_collector_is_off_inside_and_back_on_after() -> None:
    assert gc.isenabled()
    with paused():
        assert not gc.isenabled()
        with paused():  # a nested pause leaves the outer one's choice alone
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_comes_back_when_the_block_raises() -> None:
    with pytest.raises(ValueError), paused():
        raise ValueError("a failed replay")
    assert gc.isenabled()


def test_a_collector_the_host_turned_off_stays_off() -> None:
    gc.disable()
    try:
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()
