"""Bytes to text: UTF-8 (BOM or not), UTF-16 with a BOM, else a reported 8-bit guess."""

from __future__ import annotations

import codecs
import re

from reader.core import say
from reader.formats.common import FormatError, display_name

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def decode(data: bytes, name: str) -> tuple[str, str, str | say.Said]:
    """(text, encoding, note) of a file's bytes, newlines normalised to "\\n".

    UTF-8 first (with or without BOM), UTF-16 with a BOM; a mostly-UTF-8 file keeps UTF-8
    with its few bad bytes replaced; anything else is Windows-1252 or Latin-1. `note` says
    what was guessed or repaired ("" when nothing was). FormatError for binary content.
    """
    name = display_name(name)
    note: str | say.Said = ""
    if data.startswith(codecs.BOM_UTF8):
        (text, note), encoding = _decode_utf8(data[3:]), "utf-8-sig"
        if note == "legacy":  # the BOM says UTF-8: believe it, repair what is not
            text = data[3:].decode("utf-8", "replace")
            note = say.Said("invalid UTF-8 byte sequences replaced by \ufffd")
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text, encoding = data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            why = say._("{name}: starts like UTF-16 but is not valid UTF-16")
            raise FormatError(why.format(name=name)) from None
    else:
        if b"\x00" in data:
            why = say._("{name}: contains NUL bytes: a binary file, not a paper list")
            raise FormatError(why.format(name=name))
        (text, note), encoding = _decode_utf8(data), "utf-8"
        if note == "legacy":
            text, encoding = _decode_legacy(data)
            label = {"cp1252": "Windows-1252", "latin-1": "Latin-1"}[encoding]
            note = say.Said(
                "not UTF-8: read as {label} (a guess; check accented letters)", label=label
            )
    if "\x00" in text:
        why = say._("{name}: contains NUL characters: a binary file, not a paper list")
        raise FormatError(why.format(name=name))
    sample = text[:65536]
    controls = len(_CONTROL.findall(sample))
    if controls > max(2, len(sample) // 200):
        why = say._("{name}: looks binary ({count} control characters), not a paper list")
        raise FormatError(why.format(name=name, count=controls))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, encoding, note


def _decode_utf8(data: bytes) -> tuple[str, str | say.Said]:
    """(text, note); note "legacy" when the bytes are not UTF-8 at all."""
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as exc:
        if exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
            head = data[: exc.start].decode("utf-8")  # valid up to the cut
            return head + "\ufffd", say.Said("file ends mid-character")
    text = data.decode("utf-8", "replace")
    bad = text.count("\ufffd")
    good = len(text) - len(text.encode("ascii", "ignore")) - bad
    # Legacy 8-bit text almost never forms valid multi-byte UTF-8 by chance; UTF-8 with a
    # stray byte or two does, many times over.
    if good >= 4 * bad:
        return text, say.Said(
            "{count} invalid UTF-8 byte sequence(s) replaced by \ufffd", count=bad
        )
    return "", "legacy"


def _decode_legacy(data: bytes) -> tuple[str, str]:
    """Windows-1252 when every byte is defined there (the usual non-UTF-8 export), else Latin-1."""
    try:
        return data.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return data.decode("latin-1"), "latin-1"
