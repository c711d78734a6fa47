"""The command line's gettext catalogue: read the .po, compile the .mo, find the strings.

Standard library only. `python -m tests.helpers.po` (or `make translations`) writes the
.mo from the .po; tests/unit/test_cli_lang.py checks that the committed .mo is what this
compiles, and that every string the command line (and argparse) translates is in the
.po, translated.
"""

from __future__ import annotations

import ast
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "resources" / "translations"
PO = FOLDER / "paper_reader_cli_zh_CN.po"
MO = FOLDER / "paper_reader_cli_zh_CN.mo"

#: the modules whose messages the command line prints
SOURCES = [
    *sorted((ROOT / "reader").glob("cli*.py")),
    ROOT / "reader" / "platform_check.py",
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


def _unquote(text: str) -> str:
    value = ast.literal_eval(text.strip())
    if not isinstance(value, str):
        raise ValueError(f"not a string: {text!r}")
    return value


def read_po(path: Path = PO) -> list[Entry]:
    """The entries of a .po file (the header's too, msgid ""), in order."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None  # ("msgid" | "msgid_plural" | "msgstr", index)

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    pending_flags: set[str] = set()
    pending_refs: list[str] = []
    for number, raw in enumerate(path.read_text("utf-8").splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#,"):
            pending_flags |= {f.strip() for f in line[2:].split(",")}
        elif line.startswith("#:"):
            pending_refs += line[2:].split()
        elif line.startswith("#"):
            continue
        elif line.startswith("msgid "):
            finish()
            current = Entry(_unquote(line[6:]), flags=pending_flags, refs=pending_refs)
            pending_flags, pending_refs = set(), []
            target = ("msgid", 0)
        elif current is None:
            raise ValueError(f"{path}:{number}: {line!r} outside an entry")
        elif line.startswith("msgid_plural "):
            current.msgid_plural = _unquote(line[13:])
            target = ("msgid_plural", 0)
        elif line.startswith("msgstr["):
            index = int(line[7 : line.index("]")])
            if index != len(current.msgstr):
                raise ValueError(f"{path}:{number}: msgstr[{index}] out of order")
            current.msgstr.append(_unquote(line[line.index("]") + 1 :]))
            target = ("msgstr", index)
        elif line.startswith("msgstr "):
            current.msgstr.append(_unquote(line[7:]))
            target = ("msgstr", 0)
        elif line.startswith('"') and target is not None:
            more = _unquote(line)
            kind, index = target
            if kind == "msgid":
                current.msgid += more
            elif kind == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + more
            else:
                current.msgstr[index] += more
        else:
            raise ValueError(f"{path}:{number}: cannot read {line!r}")
    finish()
    return entries


def compile_mo(entries: list[Entry]) -> bytes:
    """The GNU .mo of `entries` (fuzzy and untranslated ones left out, as msgfmt does),
    keys sorted, no hash table: the same bytes for the same entries."""
    table: dict[bytes, bytes] = {}
    for entry in entries:
        if not entry.translated and entry.msgid:
            continue
        key = entry.msgid.encode("utf-8")
        if entry.msgid_plural is not None:
            key += b"\0" + entry.msgid_plural.encode("utf-8")
        table[key] = b"\0".join(s.encode("utf-8") for s in entry.msgstr)
    keys = sorted(table)
    header_size = 7 * 4
    originals_at = header_size
    translations_at = originals_at + len(keys) * 8
    strings_at = translations_at + len(keys) * 8
    ids = b""
    id_index = []
    for key in keys:
        id_index.append((len(key), strings_at + len(ids)))
        ids += key + b"\0"
    values_at = strings_at + len(ids)
    values = b""
    value_index = []
    for key in keys:
        value_index.append((len(table[key]), values_at + len(values)))
        values += table[key] + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, len(keys), originals_at, translations_at, 0, 0)
    out += b"".join(struct.pack("<2I", *pair) for pair in id_index)
    out += b"".join(struct.pack("<2I", *pair) for pair in value_index)
    return out + ids + values


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract(path: Path) -> set[tuple[str, str | None]]:
    """The (msgid, msgid_plural) of every _("...") and ngettext("...", "...", n) in the
    Python file `path`; a call with something else than a literal where one is needed
    is an error (it could not be extracted)."""
    found: set[tuple[str, str | None]] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        name = node.func.id
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
    data = compile_mo(read_po())
    MO.write_bytes(data)
    print(f"wrote {MO.relative_to(ROOT)} ({len(data):,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
