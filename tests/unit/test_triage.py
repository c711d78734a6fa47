"""Triage decisions, what counts as triaged, and where to go next."""

import pytest

from reader.core.models import Status
from reader.core.triage import DEFAULT_DECISIONS, Decision, is_triaged, next_untriaged, progress


def test_next_untriaged_skips_done_and_wraps(library):
    ids = library.paper_ids()[:5]
    library.add_tags([ids[1]], ["skip"])
    library.set_status([ids[2]], Status.READ)
    assert next_untriaged(library, ids, ids[0], DEFAULT_DECISIONS) == ids[3]
    assert next_untriaged(library, ids, ids[4], DEFAULT_DECISIONS) == ids[0]  # wraps
    assert next_untriaged(library, ids, None, DEFAULT_DECISIONS) == ids[0]
    library.add_tags([ids[0], ids[3], ids[4]], ["interesting"])
    assert next_untriaged(library, ids, ids[0], DEFAULT_DECISIONS) is None


def test_progress_counts_each_decision(library):
    ids = library.paper_ids()
    library.add_tags(ids[:3], ["interesting"])
    library.set_status(ids[3:5], Status.READING)
    library.add_tags(ids[5:6], ["Skip"])  # tags match case-insensitively
    p = progress(library, ids, DEFAULT_DECISIONS)
    assert (p.triaged, p.total) == (6, 19)
    assert p.summary(DEFAULT_DECISIONS) == "6 / 19 triaged · 3 interesting · 2 read later · 1 skip"
    assert is_triaged(library, ids[5], DEFAULT_DECISIONS)
    assert not is_triaged(library, ids[6], DEFAULT_DECISIONS)


@pytest.mark.parametrize(
    "data, expected",
    [
        (
            {"key": "r", "label": "Must read", "kind": "tag", "value": " must / read "},
            Decision("r", "Must read", "tag", "must/read"),
        ),
        ({"key": "d", "kind": "status", "value": "READ"}, Decision("d", "read", "status", "read")),
    ],
)
def test_decision_from_dict(data, expected):
    assert Decision.from_dict(data) == expected
    assert Decision.from_dict(expected.to_dict()) == expected


@pytest.mark.parametrize(
    "data",
    [
        {"key": "x", "kind": "colour", "value": "red"},
        {"key": "", "kind": "tag", "value": "a"},
        {"key": "x", "kind": "status", "value": "done"},
        {"key": "x", "kind": "tag", "value": " / "},
    ],
)
def test_bad_decisions_are_refused(data):
    with pytest.raises(ValueError):
        Decision.from_dict(data)
