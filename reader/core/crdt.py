"""How the annotations of several devices merge into the one library the user sees.

Each device keeps, per paper, a record of what its user wrote, every value with
the hybrid-logical-clock stamp (reader.core.hlc) of the write:

    {"status": {"v": "read", "at": S}, "rating": {"v": 4, "at": S},
     "tags": {"rl": {"v": "RL", "at": S, "born": S}, "old": {"v": null, "at": S, "born": S}},
     "tag_order": {"v": ["rl"], "at": S},
     "highlights": {"<id>": {"v": {...} or null, "at": S, "born": S}},
     "note": {"v": "text", "at": S, "seen": {"<device>": S}, "unseen": [S],
              "open": [{"v": ..., "at": S}], "hist": [S]},
     "created": "<iso>", "modified": "<iso>"}

The merge, the same on every device whatever order files arrived in:

- status and rating: the value with the latest stamp;
- tags tag by tag (by casefolded name) and highlights highlight by highlight (by
  id): the latest stamp of each says whether it is there (null: removed), so
  adding `rl` on one computer and `theory` on another gives both; they are in the
  order the latest write of them had (`tag_order`), a tag it did not know (added
  on another computer meanwhile) after them in the order tags were first added;
- the note: the latest version is shown; a version no other device's version
  has seen (`seen`: per device the newest of its note versions the writer had
  read, but those in `unseen`) is a conflicting version, kept and shown, never
  dropped, until the user merges or discards it. A device's own older version
  still in conflict when it writes anew is kept in its `open` list; `hist` names
  its own earlier versions, so that a stale copy of its file (a syncer's conflict
  copy) is not taken for a fork.

A record or value of the wrong shape (a hand-edited or hostile file) is skipped,
never an error.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple, TypeGuard

from reader.core.hlc import WALL_MAX, ZERO

Record = dict[str, Any]
FIELDS = ("status", "rating", "tags", "highlights", "note", "tag_order")
#: how many of a device's earlier note versions its note entry names (`hist`)
HISTORY = 32
_DEFAULTS = {"status": "unread", "rating": 0}


class Version(NamedTuple):
    """One version of a paper's note: the device that wrote it, when, its text."""

    device: str
    at: str
    text: str


def _list(value: Any) -> list[Any]:
    return value if type(value) is list else []


def _dict(value: Any) -> dict[str, Any]:
    return value if type(value) is dict else {}


_WALL_LIMIT = f"{WALL_MAX:013d}"


def _stamp_ok(at: object) -> TypeGuard[str]:
    """Whether `at` looks like a stamp (reader.core.hlc) a clock would take in: one
    past the year 2255 would win every merge, and no later edit could beat it."""
    return (
        type(at) is str
        and len(at) > 19
        and at[13] == "."
        and at[:13].isdigit()
        and at.isascii()
        and at[:13] <= _WALL_LIMIT
    )


def _at(entry: Any) -> str:
    """An entry's stamp; ZERO if it has none that looks like one (reader.core.hlc)."""
    if type(entry) is dict:
        at = entry.get("at")
        if _stamp_ok(at):
            return at
    return ZERO


def _latest(entries: Iterable[Any]) -> Any:
    best, best_at = None, ZERO
    for entry in entries:
        at = _at(entry)
        if at and at > best_at:
            best, best_at = entry, at
    return best


def _elements(records: Iterable[Record], name: str) -> dict[str, Any]:
    """Per key of the keyed field `name` (tags, highlights) the latest entry."""
    out: dict[str, Any] = {}
    for record in records:
        field = record.get(name)
        if type(field) is not dict:
            continue
        for key, entry in field.items():
            at = _at(entry)
            if at and at > _at(out.get(key)):
                out[key] = entry
    return out


def _born(records: Iterable[Record], name: str) -> dict[str, str]:
    """Per key of the keyed field `name` when it was first added (what orders them:
    a tag removed and put back by an undo is where it was)."""
    born: dict[str, str] = {}
    for record in records:
        field = record.get(name)
        if type(field) is not dict:
            continue
        for key, entry in field.items():
            if type(entry) is not dict:
                continue
            b = entry.get("born")
            b = b if type(b) is str and b else _at(entry)
            if b and (key not in born or b < born[key]):
                born[key] = b
    return born


_VALUE_TYPES: dict[str, tuple[type, ...]] = {"status": (str,), "rating": (int,), "note": (str,)}


def misshapen(record: Any) -> bool:
    """Whether a record has a field of the wrong shape (skipped by view(): a
    hand-edited or damaged file), to tell the user."""
    if type(record) is not dict:
        return True
    for name, types in _VALUE_TYPES.items():
        entry = record.get(name)
        if entry is not None and (type(entry) is not dict or type(entry.get("v")) not in types):
            return True
    for name, types in (("tags", (str,)), ("highlights", (dict,))):
        field = record.get(name)
        if field is None:
            continue
        if type(field) is not dict:
            return True
        for entry in field.values():
            if type(entry) is not dict or not (entry.get("v") is None or type(entry["v"]) in types):
                return True
    return False


def clock_of(document: Any, records: Iterable[Any]) -> str:
    """The latest stamp of a device's document: the clock its writer kept in its
    _meta ({"clock": {"stamp": S}}: a stamp not earlier than any in it), else the
    latest of `records` (every record in it, looked at one by one)."""
    meta = document.get("_meta") if type(document) is dict else None
    clock = meta.get("clock") if type(meta) is dict else None
    kept = clock.get("stamp") if type(clock) is dict else None
    if _stamp_ok(kept):
        return kept
    return max((max_stamp(r) for r in records), default=ZERO)


def max_stamp(record: Record) -> str:
    """The latest stamp in a record (what a clock reading it must not run behind)."""
    best = ZERO
    if type(record) is not dict:
        return best
    for name in FIELDS:
        field = record.get(name)
        if type(field) is not dict:
            continue
        if name in ("tags", "highlights"):
            for entry in field.values():
                at = _at(entry)
                if at > best:
                    best = at
        else:
            at = _at(field)
            if at > best:
                best = at
            for old in _list(field.get("open")) if name == "note" else ():
                if _at(old) > best:
                    best = _at(old)
    return best


# -- the note's versions -----------------------------------------------------------


class _Head(NamedTuple):
    device: str
    at: str
    text: str
    seen: Mapping[str, str]
    unseen: frozenset[str]


def _note_heads(by_device: Sequence[tuple[str, Record]]) -> tuple[list[_Head], list[Version]]:
    heads: list[_Head] = []
    opens: list[Version] = []
    for device, record in by_device:
        note = record.get("note") if type(record) is dict else None
        if type(note) is not dict:
            continue
        at, text = _at(note), note.get("v")
        if at and type(text) is str:
            seen, unseen = note.get("seen"), note.get("unseen")
            skipped = frozenset(u for u in _list(unseen) if type(u) is str)
            heads.append(
                _Head(device, at, text, seen if type(seen) is dict else {}, frozenset(skipped))
            )
        for old in _list(note.get("open")):
            old_at, old_text = _at(old), old.get("v") if type(old) is dict else None
            if old_at and type(old_text) is str:
                opens.append(Version(device, old_at, old_text))
    return heads, opens


def _covered(version: Version, heads: Sequence[_Head]) -> bool:
    for head in heads:
        if head.device != version.device:
            seen = head.seen.get(version.device)
            if type(seen) is str and seen >= version.at and version.at not in head.unseen:
                return True
    return False


def note_state(by_device: Sequence[tuple[str, Record]]) -> tuple[Version | None, list[Version]]:
    """The note shown (the latest version; None: never written) and the versions in
    conflict with it (oldest first, one per text)."""
    heads, opens = _note_heads(by_device)
    if not heads:
        return None, []
    top = max(heads, key=lambda h: h.at)
    winner = Version(top.device, top.at, top.text)
    conflicts: list[Version] = []
    texts = {top.text}
    candidates = [Version(h.device, h.at, h.text) for h in heads if h is not top] + opens
    for version in sorted(candidates, key=lambda v: v.at):
        if version.text in texts or _covered(version, heads):
            continue
        texts.add(version.text)
        conflicts.append(version)
    return winner, conflicts


def _all_versions(by_device: Sequence[tuple[str, Record]]) -> list[Version]:
    heads, opens = _note_heads(by_device)
    return [Version(h.device, h.at, h.text) for h in heads] + opens


def note_entry(
    by_device: Sequence[tuple[str, Record]], device: str, text: str, at: str, *, resolve: bool
) -> dict[str, Any]:
    """The note entry `device` writes (text `text` at stamp `at`) over the versions
    of `by_device` (every device's record of the paper, its own among them): it has
    seen every version, but those in conflict stay so (`unseen`) unless the user
    merged or discarded them (`resolve`). Its own older version, if still in
    conflict, is kept open."""
    _, conflicts = note_state(by_device)
    seen: dict[str, str] = {}
    for version in _all_versions(by_device):
        if version.device != device and version.at > seen.get(version.device, ZERO):
            seen[version.device] = version.at
    entry: dict[str, Any] = {"v": text, "at": at, "seen": seen}
    mine = next((r.get("note") for d, r in by_device if d == device and type(r) is dict), None)
    if type(mine) is dict and _at(mine):  # this device's earlier versions: its history
        earlier = [h for h in _list(mine.get("hist")) if type(h) is str]
        entry["hist"] = [_at(mine), *earlier][:HISTORY]
    if not resolve:
        unseen = [v.at for v in conflicts if v.device != device]
        if unseen:
            entry["unseen"] = unseen
        mine = [v for v in conflicts if v.device == device and v.text != text]
        if mine:
            entry["open"] = [{"v": v.text, "at": v.at} for v in mine]
    return entry


# -- the merged view ---------------------------------------------------------------


def view(by_device: Sequence[tuple[str, Record]]) -> dict[str, Any] | None:
    """The annotation the user sees of one paper (the fields as Annotation.to_dict()
    has them, without paper_id), merged from every device's record of it; None if
    nothing is left (all removed or never written)."""
    return view_and_conflicts(by_device)[0]


def view_and_conflicts(
    by_device: Sequence[tuple[str, Record]],
) -> tuple[dict[str, Any] | None, list[Version]]:
    """view() and the note's conflicting versions (note_state()), in one pass over
    the records (a library's annotations are merged at every open)."""
    by_device = [(d, r) for d, r in by_device if type(r) is dict]
    picked: dict[str, Any] = {}  # status, rating, tag_order: the latest entry
    picked_at: dict[str, str] = {}
    tags: dict[str, Any] = {}
    tags_at: dict[str, str] = {}
    tags_born: dict[str, str] = {}
    marks: dict[str, Any] = {}
    marks_at: dict[str, str] = {}
    marks_born: dict[str, str] = {}
    created: list[str] = []
    modified: list[str] = []
    for _, record in by_device:
        get = record.get
        for name in ("status", "rating", "tag_order"):
            entry = get(name)
            if type(entry) is dict:
                at = entry.get("at")
                if _stamp_ok(at) and at > picked_at.get(name, ZERO):
                    picked[name], picked_at[name] = entry, at
        for name, best, best_at, born in (
            ("tags", tags, tags_at, tags_born),
            ("highlights", marks, marks_at, marks_born),
        ):
            field = get(name)
            if type(field) is not dict:
                continue
            for key, entry in field.items():
                if type(entry) is not dict:
                    continue
                at = entry.get("at")
                if not _stamp_ok(at):
                    at = ZERO
                first = entry.get("born")
                first = first if type(first) is str and first else at
                if first and (key not in born or first < born[key]):
                    born[key] = first
                if at and at > best_at.get(key, ZERO):
                    best[key], best_at[key] = entry, at
        value = get("created")
        if type(value) is str:
            if value:
                created.append(value)
        value = get("modified")
        if type(value) is str:
            modified.append(value)
    out: dict[str, Any] = {}
    value = picked["status"].get("v") if "status" in picked else None
    out["status"] = value if type(value) is str else "unread"
    value = picked["rating"].get("v") if "rating" in picked else None
    out["rating"] = value if type(value) is int else 0
    keys = picked["tag_order"].get("v") if "tag_order" in picked else None
    rank = {k: i for i, k in enumerate(_list(keys)) if type(k) is str}

    def placed(key: str) -> tuple[int, str, str]:
        at = rank.get(key)
        return (at, "", "") if at is not None else (len(rank), tags_born.get(key, ZERO), key)

    out["tags"] = [
        tags[key]["v"]
        for key in sorted(tags, key=placed)
        if type(tags[key].get("v")) is str and key and tags[key]["v"].casefold() == key
    ]
    out["highlights"] = [
        {**marks[key]["v"], "id": key}
        for key in sorted(marks, key=lambda k: (marks_born.get(k, ZERO), k))
        if type(marks[key].get("v")) is dict and key
    ]
    winner, conflicts = note_state(by_device)
    out["note"] = winner.text if winner is not None else ""
    out["created"] = min(created) if created else ""
    out["modified"] = max(modified) if modified else ""
    if (
        out["status"] == "unread"
        and not out["rating"]
        and not out["tags"]
        and not out["highlights"]
        and not out["note"]
    ):
        return None, conflicts
    return out, conflicts


def view_one(record: Record) -> tuple[dict[str, Any] | None, bool]:
    """view([(device, record)]) of a paper only one device wrote about, and
    misshapen(record): the same results in one pass, several times faster (a
    library's annotations are merged at every open, most papers from one device's
    record). The note's open versions are not looked at (note_state() has them)."""
    if type(record) is not dict:
        return None, True
    get = record.get
    odd = False
    entry = get("status")
    status = "unread"
    if entry is not None:
        value = entry.get("v") if type(entry) is dict else None
        if type(value) is not str:
            odd = True
        elif _stamp_ok(entry.get("at")):
            status = value
    entry = get("rating")
    rating = 0
    if entry is not None:
        value = entry.get("v") if type(entry) is dict else None
        if type(value) is not int:
            odd = True
        elif _stamp_ok(entry.get("at")):
            rating = value
    tags: list[str] = []
    field = get("tags")
    if type(field) is dict:
        found = []
        for key, entry in field.items():
            if type(entry) is not dict:
                odd = True
                continue
            name = entry.get("v")
            if name is not None and type(name) is not str:
                odd = True
                continue
            at = entry.get("at")
            if name and key and _stamp_ok(at) and name.casefold() == key:
                born = entry.get("born")
                found.append((born if type(born) is str and born else at, key, name))
        if found:
            order = get("tag_order")
            keys = order.get("v") if type(order) is dict and _stamp_ok(order.get("at")) else None
            rank = {k: i for i, k in enumerate(_list(keys)) if type(k) is str}
            if rank:
                last = len(rank)
                found.sort(key=lambda t: (rank[t[1]], "", "") if t[1] in rank else (last, *t[:2]))
            else:
                found.sort()
            tags = [name for _, _, name in found]
    elif field is not None:
        odd = True
    marks: list[dict[str, Any]] = []
    field = get("highlights")
    if type(field) is dict:
        kept = []
        for key, entry in field.items():
            if type(entry) is not dict:
                odd = True
                continue
            mark = entry.get("v")
            if mark is not None and type(mark) is not dict:
                odd = True
                continue
            at = entry.get("at")
            if mark is not None and key and _stamp_ok(at):
                born = entry.get("born")
                kept.append((born if type(born) is str and born else at, key, mark))
        kept.sort(key=lambda t: t[:2])
        marks = [{**mark, "id": key} for _, key, mark in kept]
    elif field is not None:
        odd = True
    note = get("note")
    text = ""
    if note is not None:
        value = note.get("v") if type(note) is dict else None
        if type(value) is not str:
            odd = True
        elif _stamp_ok(note.get("at")):
            text = value
    if status == "unread" and not rating and not tags and not marks and not text:
        return None, odd
    created, modified = get("created"), get("modified")
    return {
        "status": status,
        "rating": rating,
        "tags": tags,
        "highlights": marks,
        "note": text,
        "created": created if type(created) is str else "",
        "modified": modified if type(modified) is str else "",
    }, odd


# -- what a device writes -----------------------------------------------------------


def record_write(
    by_device: Sequence[tuple[str, Record]],
    device: str,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    at: str,
    *,
    resolve: bool = False,
) -> Record:
    """`device`'s record of a paper after its user changed the paper's annotation
    from `before` to `after` (the merged view's fields; None: none), stamped `at`:
    only the fields (tags, highlights) that changed get the new stamp. `after` may
    hold only the fields changed (and the times); `before` must hold at least those."""
    own = next((dict(r) for d, r in by_device if d == device and type(r) is dict), {})
    was: Mapping[str, Any] = before or {}
    now: Mapping[str, Any] = (
        after
        if after is not None
        else {"status": "unread", "rating": 0, "note": "", "tags": [], "highlights": []}
    )
    for name in ("status", "rating"):
        if name in now and now[name] != was.get(name, _DEFAULTS[name]):
            own[name] = {"v": now[name], "at": at}
    everyone = [r for _, r in by_device if type(r) is dict]
    if "tags" in now:  # (a bulk status edit: no tags, no highlights to look at)
        old_tags = {t.casefold(): t for t in was.get("tags") or ()}
        new_tags = {t.casefold(): t for t in now["tags"]}
        if old_tags != new_tags:
            tags = dict(_dict(own.get("tags")))
            first = _born(everyone, "tags")
            for key, name in new_tags.items():
                if old_tags.get(key) != name:
                    tags[key] = {"v": name, "at": at, "born": first.get(key, at)}
            for key in old_tags.keys() - new_tags.keys():
                tags[key] = {"v": None, "at": at, "born": first.get(key, at)}
            own["tags"] = tags
        if list(old_tags) != list(new_tags):
            own["tag_order"] = {"v": list(new_tags), "at": at}
    if "highlights" in now:
        old_marks = {h["id"]: h for h in was.get("highlights") or () if isinstance(h, Mapping)}
        new_marks = {h["id"]: h for h in now["highlights"] if isinstance(h, Mapping)}
        if old_marks != new_marks:
            marks = dict(_dict(own.get("highlights")))
            born = _born(everyone, "highlights")
            for key in old_marks.keys() | new_marks.keys():
                mark = new_marks.get(key)
                if old_marks.get(key) == mark:
                    continue
                value = {k: v for k, v in mark.items() if k != "id"} if mark is not None else None
                marks[key] = {"v": value, "at": at, "born": born.get(key, at)}
            own["highlights"] = marks
    if "note" in now and (now["note"] != was.get("note", "") or resolve):
        own["note"] = note_entry(by_device, device, now["note"], at, resolve=resolve)
    for name in ("created", "modified"):
        value = (after or {}).get(name)
        if type(value) is str and value:
            if name == "created" and type(own.get(name)) is str and own[name]:
                continue
            own[name] = value
    return own


def join(a: Record, b: Record) -> Record:
    """One device's two records of a paper as one (its file and a syncer's conflict
    copy of it): per field the latest; a note version lost in the join is kept open."""
    out: Record = {}
    a, b = _dict(a), _dict(b)
    for name in ("status", "rating", "tag_order"):
        entry = _latest([a.get(name), b.get(name)])
        if entry is not None:
            out[name] = entry
    for name in ("tags", "highlights"):
        merged = _elements([a, b], name)
        if merged:
            out[name] = merged
    notes = [n for n in (a.get("note"), b.get("note")) if type(n) is dict and _at(n)]
    if notes:
        top = max(notes, key=_at)
        # a version the newer one has in its history was this device's before it (a
        # stale copy, not a fork): what the newer one kept open of it is all there is
        history = {h for h in _list(top.get("hist")) if type(h) is str}
        seen: dict[str, str] = {}
        unseen: set[str] = set()
        opens: dict[tuple[str, str], dict[str, Any]] = {}
        for note in notes:
            if note is top or _at(note) not in history:  # (a stale one's are settled)
                unseen.update(u for u in _list(note.get("unseen")) if type(u) is str)
            for dev, at in _dict(note.get("seen")).items():
                if type(at) is str and at > seen.get(dev, ZERO):
                    seen[dev] = at
            for old in _list(note.get("open")):
                if type(old) is dict and type(old.get("v")) is str and _at(old):
                    if note is top or _at(old) not in history:
                        opens[(_at(old), old["v"])] = {"v": old["v"], "at": _at(old)}
            if note is not top and type(note.get("v")) is str and note.get("v") != top.get("v"):
                if _at(note) not in history:
                    opens[(_at(note), note["v"])] = {"v": note["v"], "at": _at(note)}
        entry = {"v": top.get("v"), "at": _at(top), "seen": seen}
        if history:
            entry["hist"] = [h for h in _list(top.get("hist")) if type(h) is str]
        if unseen:
            entry["unseen"] = sorted(unseen)
        if opens:
            entry["open"] = [opens[k] for k in sorted(opens)]
        out["note"] = entry
    for name, pick in (("created", min), ("modified", max)):
        values = [r[name] for r in (a, b) if type(r.get(name)) is str and r[name]]
        if values:
            out[name] = pick(values)
    return out


# -- small tables (tag colours, saved searches, preferences) -----------------------


def table_view_entries(tables: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Per key the stamped entry with the latest stamp across `tables`."""
    latest: dict[str, Any] = {}
    for table in tables:
        if type(table) is not dict:
            continue
        for key, entry in table.items():
            at = _at(entry)
            if at and at > _at(latest.get(key)):
                latest[key] = entry
    return latest


def table_view(tables: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per key the document with the latest stamp across devices (null: removed)."""
    latest = table_view_entries(tables)
    return {key: dict(entry["v"]) for key, entry in latest.items() if type(entry.get("v")) is dict}


def table_max_stamp(table: Mapping[str, Any]) -> str:
    return max((_at(e) for e in table.values()), default=ZERO) if type(table) is dict else ZERO
