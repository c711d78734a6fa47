"""The merged library kept between opens, in the user's cache folder.

Merging every device's records costs ~7 us an annotation (reader.core.crdt), so a
library whose devices hold 27,000 annotations took ~250 ms to merge at each open.
What the merge gave is kept here with the signatures (inode, size, times) of every
file it was made from; an open whose files all have the same signatures takes it
instead of merging anew (~1 us an annotation). Anything else is a miss: the merge
is made from the files, as before. Like the catalogue's index, it is derived,
never trusted, and nothing the user wrote lives only here:

- a file that changed (this device's edits, a syncer bringing another device's)
  changes its signature, so the key no longer matches;
- the file is two lines, a header (format, key, digest) and the body; a body
  whose BLAKE2 digest differs (a torn or damaged file) is a miss;
- a library whose annotation files weigh under 1 MB has none: merging is cheaper
  there than finding the cache folder before the first paint.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reader.core.crdt import Version
from reader.core.models import Annotation
from reader.store.cachefile import cache_dir, library_name

#: the rules this file is written by (and the merge's: raise it when they change)
FORMAT = 1
#: annotation files lighter than this are merged at each open (no cache)
SMALL_BYTES = 1 << 20

Merged = tuple[dict[str, Annotation], dict[str, tuple[Version, ...]]]


def _digest(body: bytes) -> str:
    import hashlib  # (a large library's: not before a small one's first paint)

    return hashlib.blake2b(body, digest_size=16).hexdigest()


class ViewCache:
    """The cache file of one device's view of one library (None: kept nowhere)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        #: the key of what the file holds, as last read or written by us
        self.key: Any = None

    @classmethod
    def for_library(cls, folder: Path, device: str, weight: int) -> ViewCache:
        """The cache of `device`'s view of the library in `folder`, whose annotation
        files weigh `weight` bytes."""
        if weight < SMALL_BYTES:
            return cls(None)
        return cls(cache_dir() / "views" / f"{library_name(folder)}-{device}.json")

    def read(self, key: Any) -> Merged | None:
        """The merged annotations and note conflicts kept under `key`; None if the
        file holds another key, or is absent, torn or damaged."""
        if self.path is None:
            return None
        import orjson

        try:
            raw = self.path.read_bytes()
        except OSError:
            return None
        head, _, body = raw.partition(b"\n")
        try:
            header = orjson.loads(head)
            if type(header) is not dict or header.get("format") != FORMAT:
                return None
            if header.get("key") != orjson.loads(orjson.dumps(key)):
                return None
            if header.get("digest") != _digest(body):
                return None
            doc = orjson.loads(body)
            annotations = {}
            for row in doc["annotations"]:
                ann = Annotation.from_row(row)
                annotations[ann.paper_id] = ann
            conflicts = {
                str(pid): tuple(Version(str(d), str(at), str(t)) for d, at, t in versions)
                for pid, versions in doc["conflicts"].items()
            }
        except (orjson.JSONDecodeError, TypeError, ValueError, KeyError, AttributeError):
            return None
        self.key = key
        return annotations, conflicts

    def write(
        self,
        key: Any,
        annotations: Mapping[str, Annotation],
        conflicts: Mapping[str, tuple[Version, ...]],
    ) -> None:
        """Keep `annotations` and `conflicts` under `key` (best effort: a cache folder
        that cannot be written only costs the next open its merge)."""
        if self.path is None:
            return
        import orjson

        body = orjson.dumps(
            {
                "annotations": [ann.row() for ann in annotations.values()],
                "conflicts": {pid: [list(v) for v in vs] for pid, vs in conflicts.items()},
            }
        )
        head = orjson.dumps({"format": FORMAT, "key": key, "digest": _digest(body)})
        temp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(temp, "wb") as out:
                out.write(head + b"\n" + body)
            os.replace(temp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                temp.unlink()
            return
        self.key = key
