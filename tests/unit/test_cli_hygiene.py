"""paper-reader delete, trash (--restore, --empty) and merge."""

import json

from tests.unit.test_cli import listed


def test_delete_restore_and_empty_the_trash(run):
    papers = listed(run)
    pid, other = papers[0]["id"], papers[1]["id"]
    run("note", pid, "--set", "kept while in the trash")
    out, _ = run("delete", pid, other)
    assert "moved 2 papers to the trash" in out
    assert {p["id"] for p in listed(run)}.isdisjoint({pid, other})
    trash, _ = run("trash", "--json")
    assert {p["id"] for p in json.loads(trash)} == {pid, other}
    out, _ = run("trash", "--restore", pid)
    assert "put back 1 paper" in out
    assert pid in {p["id"] for p in listed(run)}
    shown, _ = run("show", pid, "--json")
    assert json.loads(shown)["note"] == "kept while in the trash"
    _, err = run("trash", "--restore", pid, expect=2)
    assert "not in the trash" in err
    out, _ = run("trash", "--empty")
    assert "forgot 1 paper" in out
    assert json.loads(run("trash", "--json")[0]) == []


def test_merge_keeps_both_annotations_in_one(run):
    papers = listed(run)
    keep, other = papers[2]["id"], papers[3]["id"]
    run("tag", keep, "rl")
    run("tag", other, "theory")
    run("note", other, "--set", "from the duplicate")
    out, _ = run("merge", keep, other)
    assert f"merged {other} into {keep}" in out
    shown = json.loads(run("show", keep, "--json")[0])
    assert set(shown["tags"]) == {"rl", "theory"}
    assert shown["note"] == "from the duplicate"
    assert other not in {p["id"] for p in listed(run)}
    _, err = run("merge", keep, keep, expect=2)
    assert "two different papers" in err
