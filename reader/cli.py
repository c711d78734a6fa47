"""Command line: no sub-command opens the window; sub-commands script the library."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from reader import __version__, paths
from reader.cli_lang import _, help_formatter, language_code, ngettext
from reader.core import say
from reader.core.library import Library, UnknownPaper
from reader.core.models import Status

if TYPE_CHECKING:
    from reader.core.index import SearchIndex
    from reader.opening import OpenedLibrary


class CliError(Exception):
    """A failure reported as one line on stderr with a non-zero exit."""


def _add_common(p: argparse.ArgumentParser, default: Any = None) -> None:
    p.add_argument(
        "--data-dir",
        metavar="DIR",
        default=default,
        help=_("library folder (default: $READER_DATA_DIR or the user data folder)"),
    )
    p.add_argument(
        "--lang",
        metavar="LANG",
        type=language_code,
        default=default,
        help=_(
            "language of the messages and of the window: en or zh_CN (default: the one"
            " chosen in the window's View menu for this library, else the system's)"
        ),
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paper-reader",
        description=_("Read, triage and annotate research paper lists."),
        formatter_class=help_formatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"paper-reader {__version__}",
        help=_("show the program's version number and exit"),
    )
    _add_common(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        p = sub.add_parser(
            name, help=help_text, description=help_text, formatter_class=help_formatter
        )
        # SUPPRESS: `--data-dir X list` must not be reset by the sub-command's default
        _add_common(p, default=argparse.SUPPRESS)
        return p

    p = command("list", _("list matching papers: id, reading status, tags, title"))
    p.add_argument("query", nargs="*", help=_("search query (see the README)"))
    p.add_argument("--json", action="store_true", help=_("print JSON"))

    p = command("show", _("show one paper with its annotation"))
    p.add_argument("id")
    p.add_argument("--json", action="store_true", help=_("print JSON"))

    p = command("status", _("set the reading status"))
    p.add_argument("id")
    p.add_argument("status", help=_("unread, reading or read"))

    for name, help_text in (("tag", _("add tags")), ("untag", _("remove tags"))):
        p = command(name, help_text)
        p.add_argument("id")
        p.add_argument("tags", nargs="+", metavar="TAG")

    p = command("note", _("set a paper's Markdown note"))
    p.add_argument("id")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--set", dest="text", metavar="TEXT", help=_("the note's new text"))
    group.add_argument(
        "--file", metavar="PATH", help=_("read the note from a file ('-' for stdin)")
    )
    group.add_argument("--edit", action="store_true", help=_("edit in $EDITOR"))

    from reader import cli_transfer

    cli_transfer.add_commands(command)
    from reader import cli_backup

    cli_backup.add_commands(command)
    from reader import cli_cite, cli_hygiene, cli_rank

    cli_rank.add_commands(command)
    cli_cite.add_commands(command)
    cli_hygiene.add_commands(command)
    return parser


def _open(args: argparse.Namespace) -> OpenedLibrary:
    from reader.opening import open_library
    from reader.store.storage import StorageError

    folder = paths.data_dir(args.data_dir)
    try:
        opened = open_library(folder)
    except (StorageError, OSError) as exc:
        raise CliError(_("cannot open library: {error}").format(error=exc)) from exc
    for message in [*opened.notices, *opened.messages]:
        print(message, file=sys.stderr)
    return opened


def paper_json(lib: Library, pid: str, *, full: bool) -> dict[str, Any]:
    paper, ann = lib.full_paper(pid), lib.annotation(pid)
    data: dict[str, Any] = (
        paper.to_dict()
        if full
        else {
            "id": paper.id,
            "title": paper.title,
            "authors": list(paper.authors),
            "venue": paper.venue,
            "year": paper.year,
        }
    )
    data.update(status=ann.status.value, tags=list(ann.tags))
    if full:
        data.update(
            note=ann.note,
            highlights=[h.to_dict() for h in ann.highlights],
            created=ann.created,
            modified=ann.modified,
        )
    return data


def search_index(lib: Library, args: argparse.Namespace) -> SearchIndex:
    """The search index of the library opened for `args` (its words in the catalogue's
    index in the cache folder)."""
    from reader.core.index import SearchIndex
    from reader.store.search_db import SearchDB

    return SearchIndex(lib, lib.search_words() or SearchDB.in_memory())


def cmd_list(lib: Library, args: argparse.Namespace) -> None:
    from reader.core.query import parse
    from reader.core.text import plain
    from reader.formats.citing import cite_keys

    query = parse(" ".join(args.query))
    if query.warning:
        print(query.warning, file=sys.stderr)
    ids = search_index(lib, args).filter(query)
    if args.json:
        keys = cite_keys(lib.papers())
        _print_json([{**paper_json(lib, pid, full=False), "cite_key": keys[pid]} for pid in ids])
        return
    for pid in ids:
        tags = " ".join(f"#{t}" for t in lib.tags(pid))
        print(f"{pid}\t{status_text(lib.status(pid))}\t{tags}\t{plain(lib.paper(pid).title)}")


def status_text(status: Status) -> str:
    """A reading status in the user's language."""
    names = {Status.UNREAD: _("unread"), Status.READING: _("reading"), Status.READ: _("read")}
    return names.get(status, status.value)


def cmd_show(lib: Library, args: argparse.Namespace) -> None:
    from reader.core.text import plain
    from reader.formats.citing import cite_keys

    pid = _paper_id(lib, args.id)
    data = paper_json(lib, pid, full=True)
    conflicts = lib.note_conflicts(pid)
    data["cite_key"] = cite_keys(lib.papers())[pid]
    if conflicts:  # written on another computer before the two synced
        data["note_conflicts"] = [{"device": v.device, "text": v.text} for v in conflicts]
    if args.json:
        _print_json(data)
        return
    print(plain(data["title"]))
    print(", ".join(data["authors"]))
    print(" · ".join(str(x) for x in (data["venue"], data["year"], data["presentation"]) if x))
    if data["url"]:
        print(data["url"])
    tags = _(", ").join(data["tags"]) or "-"
    status = status_text(lib.status(pid))
    print(
        _("id: {id}    reading status: {status}    tags: {tags}").format(
            id=pid, status=status, tags=tags
        )
    )
    if data["abstract"]:
        print()
        print(plain(data["abstract"]))
    if data["note"]:
        print("\n" + _("Note:") + "\n" + data["note"])
    for version in conflicts:
        heading = _("Conflicting version of the note, written on {device}:")
        print("\n" + heading.format(device=version.device) + "\n" + version.text)


def cmd_status(lib: Library, args: argparse.Namespace) -> None:
    try:
        status = Status.parse(args.status)
    except ValueError:
        message = _("unknown status {given!r} (expected one of: {names})")
        names = ", ".join(s.value for s in Status)
        raise CliError(message.format(given=args.status, names=names)) from None
    pid = _paper_id(lib, args.id)
    lib.set_status([pid], status)
    print(f"{pid}: {status_text(status)}")


def cmd_tag(lib: Library, args: argparse.Namespace) -> None:
    pid = _paper_id(lib, args.id)
    if args.command == "tag":
        lib.add_tags([pid], args.tags)
    else:
        lib.remove_tags([pid], args.tags)
    print(f"{pid}: {' '.join(lib.tags(pid)) or _('(no tags)')}")


def cmd_note(lib: Library, args: argparse.Namespace) -> None:
    pid = _paper_id(lib, args.id)
    if args.text is not None:
        text = args.text
    elif args.file:
        try:
            text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            message = _("cannot read {path}: {error}")
            raise CliError(message.format(path=args.file, error=exc)) from None
    else:
        text = _edit_in_editor(lib.annotation(pid).note)
    try:
        lib.set_note(pid, text)
    except ValueError as exc:
        raise CliError(_("note not saved: {error}").format(error=say.told(exc))) from None
    saved = ngettext(
        "{id}: note saved ({count:,} character)",
        "{id}: note saved ({count:,} characters)",
        len(text),
    )
    print(saved.format(id=pid, count=len(text)))


#: The signals that stop `note --edit` with its temporary file removed (SIGKILL cannot be
#: caught: a file it leaves is removed by a later --edit, see _notes_folder).
EDIT_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGINT", "SIGHUP") if hasattr(signal, name)
)
#: A note file older than this in the notes folder is a leftover of a killed --edit.
STALE_NOTE_S = 24 * 3600
#: How long an editor told to stop (the signal we were sent, passed on) may take to save
#: its state before it is killed.
EDITOR_STOP_S = 5.0


class _Stopped(BaseException):
    """One of EDIT_SIGNALS arrived (a BaseException: nothing on the way catches it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def _stopped_by_signals() -> Iterator[None]:
    """EDIT_SIGNALS raise _Stopped meanwhile (so `finally` blocks run); the handlers
    there were before are back afterwards. Only the main thread can have handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise _Stopped(signum)

    previous: dict[int, Any] = {}
    try:
        for signum in EDIT_SIGNALS:
            previous[signum] = signal.signal(signum, stop)
        yield
    finally:
        for signum, handler in previous.items():
            # (None: a handler not set from Python, which cannot be put back: the default)
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)


def _notes_folder() -> Path | None:
    """A private folder for the files of `note --edit`, in the user's cache folder (never
    in the library), or None if there is none (then the system's temporary folder is
    used); files in it older than STALE_NOTE_S, left by a killed edit, are removed."""
    from reader.store.cachefile import cache_dir

    folder = cache_dir() / "notes"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = os.lstat(folder)
        if not stat.S_ISDIR(st.st_mode) or (hasattr(os, "getuid") and st.st_uid != os.getuid()):
            return None  # a link, or someone else's: not ours to write notes in
        if st.st_mode & 0o077:
            os.chmod(folder, 0o700)
        cutoff = time.time() - STALE_NOTE_S
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_file(follow_symlinks=False) and entry.stat().st_mtime < cutoff:
                    os.unlink(entry.path)
    except OSError:
        return None
    return folder


def _edit_in_editor(text: str) -> str:
    """`text` as the user left it in $VISUAL or $EDITOR. The temporary file it is edited
    in is removed however the edit ends, SIGTERM, SIGINT or SIGHUP included (CliError)."""
    editor = os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi"
    name = ""
    try:
        with _stopped_by_signals():
            fd, name = tempfile.mkstemp(prefix="note-", suffix=".md", dir=_notes_folder())
            with open(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            if _run_editor([*editor.split(), name]) != 0:
                message = _("{editor} exited with an error; note unchanged")
                raise CliError(message.format(editor=editor))
            try:
                return Path(name).read_text("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                message = _("cannot read the edited note: {error}; note unchanged")
                raise CliError(message.format(error=exc)) from None
    except _Stopped as stopped:
        what = signal.Signals(stopped.signum).name
        message = _("stopped by {signal} while editing; note unchanged")
        raise CliError(message.format(signal=what)) from None
    finally:
        if name:
            with contextlib.suppress(OSError):
                os.unlink(name)


def _run_editor(command: list[str]) -> int:
    """The editor's exit code. Stopped by a signal, we pass it on and wait EDITOR_STOP_S
    for the editor to end (killed then)."""
    try:
        editor = subprocess.Popen(command)
    except OSError as exc:
        message = _("cannot run the editor {editor!r}: {error}")
        raise CliError(message.format(editor=command[0], error=exc.strerror or exc)) from None
    try:
        return editor.wait()
    except _Stopped as stopped:
        try:
            editor.send_signal(stopped.signum)
            editor.wait(EDITOR_STOP_S)
        except (_Stopped, subprocess.TimeoutExpired):
            editor.kill()
            editor.wait()
        raise
    except BaseException:
        editor.kill()
        editor.wait()
        raise


def _paper_id(lib: Library, given: str) -> str:
    if given in lib:
        return given
    matches = [pid for pid in lib.paper_ids() if pid.startswith(given)] if len(given) >= 4 else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise CliError(_("{given!r} begins the ids of several papers").format(given=given))
    raise CliError(_("no paper with id {given!r}").format(given=given))


def _print_json(data: Any) -> None:
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


COMMANDS: dict[str, Callable[[Library, argparse.Namespace], None]] = {
    "list": cmd_list,
    "show": cmd_show,
    "status": cmd_status,
    "tag": cmd_tag,
    "untag": cmd_tag,
    "note": cmd_note,
}


def _fail(message: str) -> NoReturn:
    print(_("paper-reader: error: {message}").format(message=message), file=sys.stderr)
    raise SystemExit(2)


def main(argv: Sequence[str] | None = None) -> int:
    from reader import cli_lang

    argv = sys.argv[1:] if argv is None else list(argv)
    with cli_lang.speaking(cli_lang.choose(argv)):
        return _main(argv)


def _main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if not args.command:
        from reader.platform_check import check

        problem = check()  # Qt would abort without saying what to install
        if problem:
            print(problem, file=sys.stderr)
            return 1
        from reader.core import collector

        collector.hold()  # until the window's first paint (reader.ui.app releases it)
        from reader.ui.app import run

        code: int = run(paths.data_dir(args.data_dir), lang=args.lang)
        return code
    from reader import cli_backup, cli_cite, cli_hygiene, cli_rank, cli_transfer
    from reader.core.library import SaveFailed
    from reader.store.storage import StorageError

    if args.command in cli_rank.STANDALONE:
        try:
            cli_rank.STANDALONE[args.command](args)
        except cli_rank.RankError as exc:
            _fail(str(exc))
        return 0
    handler = (
        COMMANDS.get(args.command)
        or cli_transfer.COMMANDS.get(args.command)
        or cli_rank.COMMANDS.get(args.command)
        or cli_cite.COMMANDS.get(args.command)
        or cli_hygiene.COMMANDS.get(args.command)
        or cli_backup.COMMANDS[args.command]
    )
    opened: OpenedLibrary | None = None
    try:
        opened = _open(args)
        args.library_folder = opened.folder.folder
        handler(opened.library, args)
        opened.folder.keep_view()  # what an edit left, for the next open (if it changed)
    except (CliError, cli_rank.RankError) as exc:
        _fail(str(exc))
    except UnknownPaper as exc:
        _fail(_("no paper with id {given!r}").format(given=exc.args[0]))
    except (StorageError, SaveFailed) as exc:
        _fail(_("not saved: {error}").format(error=exc))
    except BrokenPipeError:
        return 0
    finally:
        if opened is not None:  # what the store did meanwhile (a damaged file moved aside...)
            for told in opened.folder.take_problems():
                print(f"paper-reader: {told}", file=sys.stderr)
    return 0


def gui_main() -> int:
    return main([])
