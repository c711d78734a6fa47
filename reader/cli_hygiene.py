"""Command line: deleting papers (to the trash), putting them back, emptying the trash,
and merging two papers into one."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from reader.cli_lang import _, ngettext
from reader.core.library import Library


def add_commands(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    p = command("delete", _("move papers to the trash (what you wrote about them is kept)"))
    p.add_argument("ids", nargs="+", metavar="ID")

    p = command("trash", _("list the papers in the trash, put some back, or empty it"))
    how = p.add_mutually_exclusive_group()
    how.add_argument("--restore", nargs="+", metavar="ID", help=_("put these papers back"))
    how.add_argument("--empty", action="store_true", help=_("forget them and what you wrote"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))

    p = command("merge", _("make OTHER part of KEEP (tags, highlights, note), OTHER to the trash"))
    p.add_argument("keep", metavar="KEEP")
    p.add_argument("other", metavar="OTHER")


def cmd_delete(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import _paper_id

    gone = lib.delete_papers([_paper_id(lib, given) for given in args.ids])
    moved = ngettext(
        "moved {count:,} paper to the trash (trash --restore ID... puts it back)",
        "moved {count:,} papers to the trash (trash --restore ID... puts them back)",
        len(gone),
    )
    print(moved.format(count=len(gone)))


def _restore(lib: Library, ids: list[str]) -> None:
    from reader.cli import CliError

    trash = {p.id: p for p in lib.trash()}
    missing = [given for given in ids if given not in trash]
    if missing:
        raise CliError(_("not in the trash: {id}").format(id=missing[0]))
    lib.restore_papers([trash[given] for given in dict.fromkeys(ids)])
    count = len(set(ids))
    print(
        ngettext("put back {count:,} paper", "put back {count:,} papers", count).format(count=count)
    )


def cmd_trash(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import _print_json
    from reader.core.text import plain

    if args.restore:
        _restore(lib, args.restore)
        return
    if args.empty:
        count = lib.empty_trash()
        forgot = ngettext(
            "forgot {count:,} paper and what was written about it",
            "forgot {count:,} papers and what was written about them",
            count,
        )
        print(forgot.format(count=count))
        return
    papers = lib.trash()
    if args.json:
        _print_json([{"id": p.id, "title": p.title} for p in papers])
        return
    if not papers:  # (said on stderr: the listing itself stays empty for scripts)
        print(_("the Trash is empty"), file=sys.stderr)
    for paper in papers:
        print(f"{paper.id}\t{plain(paper.title)}")


def cmd_merge(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import CliError, _paper_id

    keep, other = _paper_id(lib, args.keep), _paper_id(lib, args.other)
    if keep == other:
        raise CliError(_("give two different papers"))
    lib.merge_papers(keep, other)
    print(_("merged {other} into {keep} ({other} is in the trash)").format(other=other, keep=keep))


COMMANDS: dict[str, Callable[[Library, Any], None]] = {
    "delete": cmd_delete,
    "trash": cmd_trash,
    "merge": cmd_merge,
}
