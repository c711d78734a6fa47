"""The library as the user sees it: every device's records merged (reader.core.crdt).

LibraryFolder reads the records (this device's annotations.json and journal, the
other devices' files) and hands them over; a MergedView keeps them, the annotations
merged from them, and per paper its note's conflicting versions, up to date as
records change. It reads and writes no file, and keeps no clock: the caller sees the
stamps of what it reads and stamps what it writes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from reader.core import crdt, say
from reader.core.models import Annotation, Status
from reader.store import journal
from reader.store.devices import EMPTY, DeviceData

#: the fields of an edit merge_written() takes without merging records anew
_SCALAR_EDIT = frozenset({"status", "rating", "note", "created", "modified", "paper_id"})
_PLAIN_FIELDS = frozenset({"note", "rating", "created", "modified"})


_LIST_FIELDS = ("tags", "highlights")


def annotation_from(pid: str, doc: Mapping[str, Any], problems: list[str]) -> Annotation:
    """An Annotation from a stored document; a field of the wrong type is dropped
    (and reported) instead of stopping the app. The file itself is not changed."""
    try:
        return Annotation.from_document(pid, doc)
    except (TypeError, ValueError, AttributeError):
        pass
    kept = {
        k: v
        for k, v in doc.items()
        if not (k in _LIST_FIELDS and not isinstance(v, (list, str)))
        and not (k in ("note", "status") and not isinstance(v, str))
    }
    problems.append(_odd(pid))
    try:
        return Annotation.from_dict({**kept, "paper_id": pid})
    except (TypeError, ValueError, AttributeError):
        return Annotation(pid)


def _odd(pid: str) -> str:
    odd = say._("annotation of {id}: some fields could not be read and are ignored.")
    return odd.format(id=pid)


def _merged_one(
    pid: str, records: Sequence[tuple[str, crdt.Record]], problems: list[str]
) -> tuple[Annotation | None, tuple[crdt.Version, ...]]:
    """Paper `pid`'s annotation merged from every device's record of it (None: none
    left), and its note's conflicting versions; a misshapen record is told."""
    found: Sequence[crdt.Version] = ()
    if len(records) == 1:  # (most papers: one device wrote about them)
        fields, odd = crdt.view_one(records[0][1])
        if _has_open(records):
            found = crdt.note_state(records)[1]
    else:
        fields, found = crdt.view_and_conflicts(records)
        odd = any(crdt.misshapen(r) for _, r in records)
    if odd:
        problems.append(_odd(pid))
    ann = annotation_from(pid, fields, problems) if fields is not None else None
    return ann, tuple(found)


def _fields_of(ann: Annotation | None, wanted: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The fields of `ann` that `wanted` names (all of them if it is None), as
    Annotation.to_dict() has them: what an edit changed them from."""
    if ann is None:
        return None
    if wanted is None or "highlights" in wanted:
        return ann.to_dict()
    get = ann.__getattribute__
    out: dict[str, Any] = {}
    for name in wanted:
        if name == "status":
            out[name] = ann.status.value
        elif name == "tags":
            out[name] = list(ann.tags)
        elif name in _PLAIN_FIELDS:
            out[name] = get(name)
    return out


def _edited_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("status", "rating", "note"):
        if name in fields:
            out[name] = Status(fields[name]) if name == "status" else fields[name]
    return out


def _has_open(records: Sequence[tuple[str, crdt.Record]]) -> bool:
    """Whether a device's record keeps an older note version open (in conflict)."""
    return any(type(r.get("note")) is dict and r["note"].get("open") for _, r in records)


def _fields(ann: Annotation | None) -> dict[str, Any] | None:
    return ann.to_dict() if ann is not None else None


class MergedView:
    """Every device's records of the annotations and the library they merge into.

    `own` is this device's records as last loaded (or since written by us), `others`
    the other devices' data as last read; both are the caller's to read, changed here
    only (load(), apply_own(), take_others()). A problem met merging (a record that
    cannot be read) is handed to `tell`."""

    def __init__(self, device: str, *, tell: Callable[[str], None]) -> None:
        #: this device (its records come first in records_of())
        self.device = device
        self._tell = tell
        self.own: dict[str, crdt.Record] = {}
        self.others: dict[str, DeviceData] = {}
        self._merged: dict[str, Annotation] = {}
        #: per paper its note's conflicting versions (none: not there), and the papers
        #: whose conflicting versions changed since take_conflict_changes()
        self._conflicts: dict[str, tuple[crdt.Version, ...]] = {}
        self._conflicts_news: set[str] = set()
        #: whether a record that could not be read was met since load() (what the
        #: view cache keeps is only a merge that met none: it tells nothing again)
        self.odd = False

    # -- the library as the user sees it ----------------------------------

    def annotations(self) -> dict[str, Annotation]:
        """Every paper's merged annotation (a copy the caller may keep)."""
        return dict(self._merged)

    def get(self, pid: str) -> Annotation | None:
        """Paper `pid`'s merged annotation (None: it has none)."""
        return self._merged.get(pid)

    def fields(self, pids: Iterable[str]) -> dict[str, dict[str, Any] | None]:
        """Per paper of `pids` its merged annotation as Annotation.to_dict() has it
        (None: it has none)."""
        merged = self._merged
        return {pid: _fields(merged.get(pid)) for pid in pids}

    def note_conflicts(self, pid: str) -> list[crdt.Version]:
        """The versions of paper `pid`'s note in conflict with the one shown."""
        return list(self._conflicts.get(pid, ()))

    def take_conflict_changes(self) -> set[str]:
        """The papers whose note's conflicting versions changed since last asked."""
        news, self._conflicts_news = self._conflicts_news, set()
        return news

    def records_of(self, pid: str) -> list[tuple[str, crdt.Record]]:
        """Every device's record of paper `pid`, this device's first."""
        out = []
        own = self.own.get(pid)
        if type(own) is dict:
            out.append((self.device, own))
        for device, data in self.others.items():
            record = data.records.get(pid)
            if type(record) is dict:
                out.append((device, record))
        return out

    def stamped(
        self, changes: Mapping[str, Mapping[str, Any] | None], at: str, *, resolve: bool = False
    ) -> dict[str, crdt.Record]:
        """This device's records after `changes` (field values), stamped `at` (one
        write, one stamp: each paper's record is its own). Nothing is taken yet: see
        apply_own()."""
        out = {}
        for pid, fields in changes.items():
            before = self._merged.get(pid)
            out[pid] = crdt.record_write(
                self.records_of(pid),
                self.device,
                _fields_of(before, fields),
                fields,
                at,
                resolve=resolve,
            )
        return out

    # -- records taken in -------------------------------------------------

    def merged(self) -> tuple[dict[str, Annotation], dict[str, tuple[crdt.Version, ...]]]:
        """The merged annotations and the notes' conflicting versions (not copies:
        to read, for the view cache)."""
        return self._merged, self._conflicts

    def load(
        self,
        own: dict[str, crdt.Record],
        others: dict[str, DeviceData],
        *,
        cached: tuple[dict[str, Annotation], dict[str, tuple[crdt.Version, ...]]] | None = None,
    ) -> None:
        """Take this device's records `own` and the other devices' `others` as just
        read, and merge the library anew: a paper only one device wrote about (most)
        by the fast path. `cached`: what merging these very records gave before (see
        view_cache.py), taken instead of merging."""
        self.own, self.others = own, others
        if cached is not None:
            self.odd = False
            self._take_merged(*cached)
            return
        groups: dict[str, list[tuple[str, crdt.Record]]] = {}
        me = self.device
        for pid, record in own.items():
            groups[pid] = [(me, record)]
        for device, data in others.items():
            for pid, record in data.records.items():
                group = groups.get(pid)
                if group is None:
                    groups[pid] = [(device, record)]
                else:
                    group.append((device, record))
        merged: dict[str, Annotation] = {}
        conflicts: dict[str, tuple[crdt.Version, ...]] = {}
        problems: list[str] = []
        for pid, records in groups.items():
            ann, found = _merged_one(pid, records, problems)
            if ann is not None:
                merged[pid] = ann
            if found:
                conflicts[pid] = found
        self.odd = bool(problems)
        for problem in problems:
            self._tell(problem)
        self._take_merged(merged, conflicts)

    def _take_merged(
        self, merged: dict[str, Annotation], conflicts: dict[str, tuple[crdt.Version, ...]]
    ) -> None:
        before = self._conflicts
        self._conflicts_news |= {
            pid for pid in before.keys() | conflicts.keys() if before.get(pid) != conflicts.get(pid)
        }
        self._merged, self._conflicts = merged, conflicts

    def apply_own(self, change: Mapping[str, Any]) -> None:
        """Apply one save of this device (records, as journal.apply() takes them) to
        its records; the library is not merged anew: merge() or merge_written() next."""
        journal.apply(self.own, change)

    def take_others(
        self, others: dict[str, DeviceData], devices: Iterable[str]
    ) -> tuple[set[str], bool]:
        """Take the other devices' data `others` as read anew, `devices` those whose
        files changed: the papers whose annotation or whose note's conflicting versions
        changed with them, and whether any of their small tables changed."""
        before, self.others = self.others, others
        pids: set[str] = set()
        tables = False
        for device in devices:
            old = before.get(device, EMPTY)
            new = others.get(device, EMPTY)
            if old.tables != new.tables:
                tables = True
            pids.update(
                pid
                for pid in old.records.keys() | new.records.keys()
                if old.records.get(pid) != new.records.get(pid)
            )
        return self.merge(pids), tables

    def merge(self, pids: Iterable[str]) -> set[str]:
        """Merge the records of `pids` into the library as the user sees it; the
        papers whose annotation or whose note's conflicting versions changed."""
        merged, conflicts, problems = self._merged, self._conflicts, list[str]()
        changed = set()
        for pid in pids:
            ann, found = _merged_one(pid, self.records_of(pid), problems)
            if ann is None:
                if merged.pop(pid, None) is not None:
                    changed.add(pid)
            elif merged.get(pid) != ann:
                merged[pid] = ann
                changed.add(pid)
            if found != conflicts.get(pid, ()):
                if found:
                    conflicts[pid] = found
                else:
                    del conflicts[pid]
                changed.add(pid)
                self._conflicts_news.add(pid)
        self.odd |= bool(problems)
        for problem in problems:
            self._tell(problem)
        return changed

    def merge_written(self, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        """merge() of the papers this device just wrote `changes` (field values) of,
        its records already taken (apply_own()). A paper only this device wrote about
        whose status, rating or note changed (a bulk edit: 100,000 of them) is the
        annotation as it was with those fields replaced: what merging its record gives
        (its stamp is the latest), for less."""
        merged, me, others = self._merged, self.device, self.others.values()
        slow = []
        for pid, fields in changes.items():
            own = self.own.get(pid)
            if (
                fields is None
                or not _SCALAR_EDIT.issuperset(fields)
                or any(pid in data.records for data in others)
                or type(own) is not dict
                or _has_open([(me, own)])
                or pid in self._conflicts
            ):
                slow.append(pid)
                continue
            old = merged.get(pid) or Annotation(pid)
            # the times as crdt.record_write keeps them: created the first, modified the last
            when = fields.get("modified")
            new = old.edited(pid, _edited_fields(fields), when if when else old.modified)
            object.__setattr__(new, "created", old.created or fields.get("created") or "")
            if new.is_empty:
                merged.pop(pid, None)
            else:
                merged[pid] = new
        self.merge(slow)
