"""The cyclic garbage collector: paused around big loads, held through start-up."""

import gc

import pytest

from reader.core import collector


@pytest.fixture
def restore_collector():
    was = gc.isenabled()
    yield
    collector.release()
    gc.enable() if was else gc.disable()


def test_hold_stops_the_collector_until_release(restore_collector):
    gc.enable()
    collector.hold()
    assert not gc.isenabled()
    with collector.paused():  # a load inside the start-up leaves it held
        assert not gc.isenabled()
    assert not gc.isenabled()
    collector.release()
    assert gc.isenabled()
    collector.release()  # once only
    assert gc.isenabled()


def test_release_does_not_start_a_collector_someone_else_stopped(restore_collector):
    gc.disable()
    collector.hold()
    collector.release()
    assert not gc.isenabled()
