"""Command line: import and export."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reader.cli_lang import _, ngettext
from reader.core import say
from reader.core.library import Library

if TYPE_CHECKING:
    from reader.importing import ImportReport


def add_commands(command: Callable[[str, str], argparse.ArgumentParser]) -> None:
    from reader.formats import EXPORT_FORMATS, IMPORT_FORMATS

    p = command("import", _("import paper lists; reports added, updated, skipped"))
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--format", choices=IMPORT_FORMATS, help=_("override format detection"))
    p.add_argument("--json", action="store_true", help=_("print the report as JSON"))
    p.add_argument(
        "--max-size",
        metavar="SIZE",
        type=_size,
        help=_(
            "refuse files larger than this (e.g. 500M, 2G; default: $READER_MAX_IMPORT_SIZE,"
            " else 1G)"
        ),
    )

    p = command("export", _("export papers with their annotations"))
    p.add_argument("--format", required=True, choices=EXPORT_FORMATS)
    p.add_argument(
        "-o",
        "--output",
        metavar="PATH",
        help=_("file (a folder for markdown); standard output when absent"),
    )
    p.add_argument("query", nargs="*", help=_("only papers matching this query"))


def _size(text: str) -> int:
    from reader.formats.reading import parse_size

    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def cmd_import(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import CliError, _print_json
    from reader.formats import FormatError
    from reader.formats.reading import max_import_bytes
    from reader.importing import import_files

    limit = getattr(args, "max_size", None)
    try:
        if limit is None:
            limit = max_import_bytes()
    except ValueError as exc:
        raise CliError(str(exc)) from None
    try:
        report = import_files(lib, [Path(p) for p in args.paths], args.format, max_bytes=limit)
    except FormatError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        _print_json(report.to_dict())
    else:
        print(summary(report))
        for skip in report.skipped:
            place, reason = say.told(skip.place), say.told(skip.reason)
            print(_("  skipped {place}: {reason}").format(place=place, reason=reason))


def summary(report: ImportReport) -> str:
    """What an import did, in the user's language (ImportReport.summary() is English)."""
    text = _(
        "{files}: {added:,} added, {updated:,} updated, {unchanged:,} unchanged,"
        " {skipped:,} skipped"
    ).format(
        files=_(", ").join(report.files),
        added=report.added,
        updated=report.updated,
        unchanged=report.unchanged,
        skipped=len(report.skipped),
    )
    if report.annotations:
        restored = ngettext(
            ", {count:,} annotation restored",
            ", {count:,} annotations restored",
            report.annotations,
        )
        text += restored.format(count=report.annotations)
    return "\n".join([text, *map(say.told, report.notes)])


def cmd_export(lib: Library, args: argparse.Namespace) -> None:
    from reader.cli import CliError, search_index
    from reader.core.query import parse
    from reader.exporting import export_text, export_to
    from reader.formats.common import display_name

    ids = search_index(lib, args).filter(parse(" ".join(args.query)))
    if args.output:
        try:
            written = export_to(lib, ids, args.format, Path(args.output))
        except OSError as exc:
            raise CliError(_("export failed: {error}").format(error=exc)) from None
        done = ngettext(
            "exported {count:,} paper to {path}", "exported {count:,} papers to {path}", len(ids)
        )
        print(done.format(count=len(ids), path=display_name(str(written))), file=sys.stderr)
    else:
        sys.stdout.write(export_text(lib, ids, args.format))


COMMANDS: dict[str, Callable[[Library, Any], None]] = {
    "import": cmd_import,
    "export": cmd_export,
}
