"""Command line: citing papers and finding possible duplicates."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from reader.cli_lang import _
from reader.core.library import Library


def add_commands(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    p = command("cite", _("print BibTeX entries (the library's cite keys) or plain citations"))
    p.add_argument("ids", nargs="+", metavar="ID")
    p.add_argument("--format", choices=("bibtex", "text"), default="bibtex")

    p = command("duplicates", _("list groups of papers an import would take for one paper"))
    p.add_argument("--json", action="store_true", help=_("print JSON (a list of id lists)"))


def cmd_cite(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import _paper_id
    from reader.formats.citing import cite

    ids = [_paper_id(lib, given) for given in args.ids]
    sys.stdout.write(cite(lib.papers(), ids, args.format, lib.abstracts))


def cmd_duplicates(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import _print_json
    from reader.core.merge import duplicate_groups
    from reader.core.text import plain

    groups = duplicate_groups(lib.papers(), lib.abstracts)
    if args.json:
        _print_json(groups)
        return
    if not groups:  # (said on stderr: the listing itself stays empty for scripts)
        print(_("no possible duplicates"), file=sys.stderr)
    for number, group in enumerate(groups):
        if number:
            print()
        for pid in group:
            print(f"{pid}\t{plain(lib.paper(pid).title)}")


COMMANDS: dict[str, Callable[[Library, Any], None]] = {
    "cite": cmd_cite,
    "duplicates": cmd_duplicates,
}
