"""A saver SIGKILLed at random moments: the files always parse, nothing acknowledged is lost."""

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import KillHarness

KILLS = 200


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the harness forks its savers")
def test_a_killed_saver_loses_no_acknowledged_save(tmp_path):
    # Each saver loops over notes and tags (journal lines, the journal folded into
    # annotations.json every few saves), catalogue updates and imports of a JSON file
    # (catalogue files, and the catalogue's SQLite index in the cache folder), saved searches (a
    # rewrite of annotations.json with the journal folded in) and backups (a fold
    # first), writing an acknowledgement after every save returns; it is killed
    # 0-80 ms after it starts (before, during or between saves), then the library
    # is opened and checked. Now and then the harness leaves the start of a journal
    # line, as a crash mid-append would, before a saver starts.
    harness = KillHarness(tmp_path, seed=20261130)
    try:
        for _ in range(KILLS):
            harness.kill_once(max_delay_s=0.08)
    finally:
        harness.close()
    report = harness.report
    assert report.problems == []
    assert report.kills == report.survived == KILLS
    assert report.lost == 0
    assert report.acknowledged > 0
    assert report.torn_injected > 0
