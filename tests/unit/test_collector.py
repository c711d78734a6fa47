"""The cyclic garbage collector: paused around big loads, held through start-up, and
always running again afterwards (a program left without it would never free cycles)."""

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


@pytest.mark.parametrize("enabled", [True, False])
def test_paused_leaves_the_collector_as_it_found_it_even_on_an_error(restore_collector, enabled):
    # (the imports, the catalogue's loads and bulk edits run under paused())
    gc.enable() if enabled else gc.disable()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():  # nested: the outermost restores
            pass
        assert not gc.isenabled()
    assert gc.isenabled() == enabled
    with pytest.raises(ValueError), collector.paused():
        raise ValueError("a bad file")
    assert gc.isenabled() == enabled
