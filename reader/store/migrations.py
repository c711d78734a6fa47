"""Schema versions of annotations.json: ordered migrations, a verified backup before each."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from reader.core import say

if TYPE_CHECKING:
    from reader.store.files import LibraryFolder

#: One step: changes the whole annotations document (all its tables) in place.
Migration = Callable[[dict[str, Any]], None]


def _record_schema(doc: dict[str, Any]) -> None:
    """0 -> 1: files from before the schema version was written down."""
    doc.setdefault("annotations", {})


#: MIGRATIONS[n] takes a document from version n to n + 1. Only ever append.
MIGRATIONS: list[Migration] = [_record_schema]
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(folder: LibraryFolder, migrations: Sequence[Migration] | None = None) -> list[str]:
    """Bring annotations.json to the newest schema, one step at a time, under the
    library lock. Before each step that touches something the user wrote, a verified
    backup is taken; if it cannot be, nothing is migrated (StorageError). Returns
    what the user should be told."""
    steps = MIGRATIONS if migrations is None else migrations
    target = len(steps)

    def run() -> list[str]:
        version = folder.schema_version()
        if version > target:
            newer = say._(
                "{path} comes from a newer Paper Reader (schema {version}, this one knows"
                " {known}); fields it does not know are kept as they are."
            )
            return [newer.format(path=folder.annotations_path, version=version, known=target)]
        messages = []
        for step in range(version, target):
            doc = folder.read_annotations_document()
            if doc.get("annotations"):
                backup = folder.backups.take(f"before-migration-{step + 1}", force=True)
                upgraded = say._(
                    "Upgraded {file} to schema {version}; the previous version is kept in {backup}."
                )
                name = folder.annotations_path.name
                messages.append(upgraded.format(file=name, version=step + 1, backup=backup))
            steps[step](doc)
            doc["_meta"] = {**doc.get("_meta", {}), "schema": {"version": step + 1}}
            folder.write_annotations_document(doc)
        return messages

    return folder.locked(run)
