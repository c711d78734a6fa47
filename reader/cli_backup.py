"""Command line: take a backup of the annotations now, list backups, restore one."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from reader import paths
from reader.cli_lang import _, ngettext
from reader.core.library import Library


def add_commands(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    p = command("backup", _("back up the annotations now (kept in the library's backups/ folder)"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))

    p = command("restore", _("list the backups, or restore one (the current file is kept aside)"))
    p.add_argument("name", nargs="?", help=_("the backup to restore (a unique prefix is enough)"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))


def _backups(args: argparse.Namespace) -> Any:
    from reader.store.files import LibraryFolder

    return LibraryFolder(paths.data_dir(args.data_dir)).backups  # (this device's)


def cmd_backup(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import CliError, _print_json
    from reader.store.storage import StorageError

    try:
        path = _backups(args).take("manual", force=True)
    except StorageError as exc:
        raise CliError(_("backup not taken: {error}").format(error=exc)) from None
    if path is None:
        raise CliError(_("backup not taken: there are no annotations to back up yet"))
    if args.json:
        _print_json({"name": path.name, "path": str(path)})
    else:
        print(_("backup taken: {name}\n  in {folder}").format(name=path.name, folder=path.parent))


def cmd_restore(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import CliError, _print_json
    from reader.store.storage import DamagedFileError, StorageError

    backups = _backups(args)
    if args.name is None:  # newest first: by sequence number, not by the clock
        rows = []
        for info in backups.list():
            try:
                count: int | None = backups.check(info)
            except DamagedFileError:
                count = None
            rows.append(
                {
                    "name": info.name,
                    "seq": info.seq or None,  # None: named the old way, before numbering
                    "taken": info.taken.isoformat(),
                    "reason": info.reason,
                    "annotations": count,
                }
            )
        if args.json:
            _print_json(rows)
            return
        if not rows:
            print(_("no backups yet in {folder}").format(folder=backups.dir), file=sys.stderr)
        for row in rows:
            count = row["annotations"]
            count_text = (
                _("damaged")
                if count is None
                else ngettext("{count:,} annotation", "{count:,} annotations", count).format(
                    count=count
                )
            )
            print(f"{row['name']}\t{row['reason']}\t{count_text}")
        return
    try:
        info = backups.find(args.name)
        aside = backups.restore(info.name)
    except StorageError as exc:
        raise CliError(_("not restored: {error}").format(error=exc)) from None
    if args.json:
        _print_json({"restored": info.name, "previous": str(aside) if aside else None})
        return
    print(_("restored {name}").format(name=info.name))
    if aside:
        print(_("  the previous annotations were kept as {path}").format(path=aside))


COMMANDS: dict[str, Callable[[Library, Any], None]] = {
    "backup": cmd_backup,
    "restore": cmd_restore,
}
