"""The command line's gettext catalogue: the .po read and the .mo written by Babel, the
strings the source marks found with Python's ast.

`python -m tests.helpers.po` (or `make translations`) writes the .mo from the .po, where
gettext finds it (resources/locale/zh_CN/LC_MESSAGES/); tests/unit/test_cli_lang.py
checks that the committed .mo is what this compiles, and that every string the command
line (and argparse) translates is in the .po, translated.
"""

from __future__ import annotations

import ast
import io
import sys
from dataclasses import dataclass, field
from pathlib import Path

from babel.messages import mofile, pofile
from babel.messages.catalog import Message

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "resources" / "translations" / "paper_reader_cli_zh_CN.po"
MO = ROOT / "resources" / "locale" / "zh_CN" / "LC_MESSAGES" / "paper_reader_cli.mo"

#: the modules whose messages are said without Qt: the command line's, and those of the
#: layers below the window (reader.core.say) that the window and the command line show
SOURCES = [
    *sorted((ROOT / "reader").glob("cli*.py")),
    ROOT / "reader" / "platform_check.py",
    ROOT / "reader" / "opening.py",
    ROOT / "reader" / "importing.py",
    # the core's: query errors, and what is kept to be said later (say.Said, SaidError:
    # an import's skipped records, the errors of edits refused)
    *sorted((ROOT / "reader" / "core").glob("*.py")),
    *sorted((ROOT / "reader" / "store").glob("*.py")),
    *sorted((ROOT / "reader" / "formats").glob("*.py")),
    *sorted((ROOT / "reader" / "render").glob("*.py")),
    # the window's lines on the terminal (said before and after the window)
    ROOT / "reader" / "ui" / "app.py",
    ROOT / "reader" / "ui" / "single_instance.py",
]
#: the reference (#: ...) of the entries that are argparse's own messages
ARGPARSE_REF = "argparse.py"


@dataclass
class Entry:
    msgid: str
    msgid_plural: str | None = None
    msgstr: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    refs: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str | None]:
        return (self.msgid, self.msgid_plural)

    @property
    def translated(self) -> bool:
        return "fuzzy" not in self.flags and bool(self.msgstr) and all(self.msgstr)


def _entry(message: Message) -> Entry:
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return Entry(
        msgid=str(ids[0]),
        msgid_plural=str(ids[1]) if len(ids) > 1 else None,
        msgstr=[str(s or "") for s in strings],
        flags={"fuzzy"} if message.fuzzy else set(),
        refs=[str(place) for place, _line in message.locations],
    )


def read_po(path: Path = PO) -> list[Entry]:
    """The entries of a .po file (the header's too, msgid ""), in order (Babel reads it)."""
    with open(path, "rb") as file:
        return [_entry(message) for message in pofile.read_po(file)]


def compile_mo(path: Path = PO) -> bytes:
    """The GNU .mo of the .po at `path` (Babel's writer; fuzzy entries left out, as
    msgfmt does): the same bytes for the same catalogue."""
    with open(path, "rb") as file:
        catalogue = pofile.read_po(file)
    out = io.BytesIO()
    mofile.write_mo(out, catalogue)
    return out.getvalue()


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _called(node: ast.Call) -> str | None:
    """The name of the function `node` calls: f(...) -> "f"; say.f(...) -> "f" (the
    layers below the window call reader.core.say's functions by their module: `_` is
    a throwaway name in many of their functions); else None."""
    if isinstance(node.func, ast.Name):
        return node.func.id
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.attr if func.value.id == "say" else None
    return None


#: the messages kept to be said later (reader.core.say): Said("...", **fields),
#: Said("...", "...", count=n, ...) and SaidError(...) alike
SAID = ("Said", "SaidError")


def extract(path: Path) -> set[tuple[str, str | None]]:
    """The (msgid, msgid_plural) of every _("...") and ngettext("...", "...", n) (or
    say._(...), say.ngettext(...)), and of every Said("...") or Said("...", "...") and
    SaidError(...) alike, in the Python file `path`; a call with something else than a
    literal where one is needed is an error (it could not be extracted)."""
    found: set[tuple[str, str | None]] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if not isinstance(node, ast.Call):
            continue
        name = _called(node)
        if name == "_":
            msgid = _literal(node.args[0]) if len(node.args) == 1 else None
            if msgid is None:
                raise ValueError(f"{path}:{node.lineno}: _() of something else than a literal")
            found.add((msgid, None))
        elif name == "ngettext":
            pair = [_literal(a) for a in node.args[:2]]
            if len(node.args) != 3 or pair[0] is None or pair[1] is None:
                raise ValueError(f"{path}:{node.lineno}: ngettext() without two literals")
            found.add((pair[0], pair[1]))
        elif name in SAID and not (isinstance(node.func, ast.Name) and path.name == "say.py"):
            said = [_literal(a) for a in node.args]
            if not 1 <= len(said) <= 2 or None in said:
                raise ValueError(f"{path}:{node.lineno}: {name}() of something else than literals")
            found.add((said[0], said[1] if len(said) == 2 else None))  # type: ignore[arg-type]
    return found


def our_messages() -> set[tuple[str, str | None]]:
    found: set[tuple[str, str | None]] = set()
    for path in SOURCES:
        found |= extract(path)
    return found


def argparse_messages() -> set[tuple[str, str | None]]:
    """argparse's own translatable messages, in this Python's argparse."""
    import argparse

    return _extract_lenient(Path(argparse.__file__))


def _extract_lenient(path: Path) -> set[tuple[str, str | None]]:
    """extract(), skipping the calls without literals (argparse's _(title) and such)."""
    found: set[tuple[str, str | None]] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            args = [_literal(a) for a in node.args]
            if node.func.id == "_" and args and args[0] is not None:
                found.add((args[0], None))
            elif node.func.id == "ngettext" and len(args) >= 2 and None not in args[:2]:
                found.add((args[0], args[1]))  # type: ignore[arg-type]
    return found


def main() -> int:
    data = compile_mo()
    MO.parent.mkdir(parents=True, exist_ok=True)
    MO.write_bytes(data)
    print(f"wrote {MO.relative_to(ROOT)} ({len(data):,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
