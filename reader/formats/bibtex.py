"""BibTeX import through bibtexparser v2: entries to Papers, broken blocks reported by key."""

from __future__ import annotations

import functools
import logging
import re
from typing import Any

from reader.core import say
from reader.core.models import Annotation, Paper
from reader.formats.common import (
    FormatError,
    ReadResult,
    Skipped,
    clean,
    display_name,
    make_record,
    one_line,
    parse_year,
    raise_none_usable,
)

#: First line of our own BibTeX export: its `keywords` and `annote` are tags and a note.
NATIVE_MARKER = "@comment{paper-reader export}"

_KEY_IN_RAW = re.compile(r"@\s*\w+\s*[{(]\s*([^,\s{}()]+)")
_FIELD_IN_TEXT = re.compile(r"(?:^|,)\s*([A-Za-z][\w-]*)\s*=", re.MULTILINE)
_MATH = re.compile(r"(\$\$.+?\$\$|\$.+?\$|\\\(.+?\\\)|\\\[.+?\\\])", re.DOTALL)
_ACCENT = re.compile(
    r"\{\\[`'^\"~=.uvHckrbd]\s*(?:\{\\?[A-Za-z]\}|\\?[A-Za-z])\}"  # {\"a} {\'{e}}
    r"|\\[`'^\"~=.]\s*(?:\{\\?[A-Za-z]\}|[A-Za-z])"  # \"a \'{e}
    r"|\\[uvHckrbd](?:\{\\?[A-Za-z]\}|\s+[A-Za-z])"  # \v{c} \c c
    r"|\{\\(?:ss|o|O|l|L|aa|AA|ae|AE|oe|OE|i|j)\}"  # {\ss} {\o}
    r"|\\(?:ss|o|O|l|L|aa|AA|ae|AE|oe|OE)(?![A-Za-z])"
)
_BRACE_GROUP = re.compile(r"(\\[A-Za-z]+\*?\s*)?\{((?:[^{}\\$]|\\[&%#_])*)\}")
_UNESCAPES = {
    r"\&": "&",
    r"\%": "%",
    r"\#": "#",
    r"\_": "_",
    r"\textasciitilde{}": "~",
    r"\textasciicircum{}": "^",
    r"\textbackslash{}": "\\",
    r"\textbraceleft{}": "{",
    r"\textbraceright{}": "}",
    r"\@": "@",
    r"\{": "{",
    r"\}": "}",
}
_UNESCAPE = re.compile("|".join(re.escape(k) for k in sorted(_UNESCAPES, key=len, reverse=True)))


@functools.cache
def _converter() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text()


@functools.lru_cache(maxsize=8192)  # the same names and accents recur across a file
def _latex_to_text(text: str) -> str:
    """Full LaTeX -> Unicode (for names: accents, {\\L}, braces)."""
    if "\\" not in text and "{" not in text and "~" not in text:
        return text
    try:
        return str(_converter().latex_to_text(re.sub(r"(?<!\\)%", r"\%", text)))
    except Exception:  # noqa: BLE001 - pylatexenc raises many kinds on odd input; keep the source
        return text


def _unbrace(match: re.Match[str]) -> str:
    """A protective {group} loses its braces; a command's argument keeps them."""
    return match.group(0) if match.group(1) else match.group(2)


_PLACEHOLDER = re.compile("[\U000f0000-\U000fffff]")


def decode_text(text: str) -> str:
    """Titles and abstracts: accents decoded, protective braces and plain escapes dropped,
    math and other LaTeX kept as written (the app renders it)."""
    if "\\" not in text and "{" not in text:
        return text
    if _PLACEHOLDER.search(text):  # cannot happen in real text; keep it as written
        return text
    # Math is set aside (one private-use character per formula) so that `{$K^2$VAE}` loses
    # its protective braces while `$H^{1/2}$` keeps its own.
    formulas: list[str] = []

    def hide(match: re.Match[str]) -> str:
        formulas.append(match.group(0))
        return chr(0xF0000 + len(formulas) - 1)

    body = _MATH.sub(hide, text) if len(_MATH.findall(text)) < 0xFFFF else text
    body = _ACCENT.sub(lambda m: _latex_to_text(m.group(0)), body)
    for _ in range(3):  # nested {{Title}} braces
        body, count = _BRACE_GROUP.subn(_unbrace, body)
        if not count:
            break
    body = _UNESCAPE.sub(lambda m: _UNESCAPES[m.group(0)], body)
    return _PLACEHOLDER.sub(lambda m: formulas[ord(m.group(0)) - 0xF0000], body)


def _split_top(text: str, separator: re.Pattern[str]) -> list[str]:
    """`text` split on `separator` where it is not inside braces."""
    if "{" not in text:
        return separator.split(text)
    parts: list[str] = []
    depth = 0
    start = 0
    pos = 0
    while pos < len(text):
        char = text[pos]
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            match = separator.match(text, pos)
            if match:
                parts.append(text[start:pos])
                start = pos = match.end()
                continue
        pos += 1
    parts.append(text[start:])
    return parts


_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_COMMA = re.compile(r",")
_KEYWORD_SEP = re.compile(r"[,;]")


def split_names(value: str) -> list[str]:
    """BibTeX `author`: names joined by ` and `, each "First Last" or "Last, [Jr,] First"."""
    names: list[str] = []
    for raw in _split_top(one_line(value, tex=True), _AND):
        parts = [p.strip() for p in _split_top(raw, _COMMA)]
        if len(parts) == 2:
            raw = f"{parts[1]} {parts[0]}"
        elif len(parts) >= 3:
            raw = f"{parts[2]} {parts[0]} {parts[1]}"
        name = " ".join(clean(_latex_to_text(raw)).replace("{", "").replace("}", "").split())
        if name and name.casefold() not in {"others", "et al.", "et al"}:
            names.append(name)
    return names


def _fields(entry: Any) -> dict[str, str]:
    """Lower-cased field names to string values; the first of duplicated fields wins."""
    out: dict[str, str] = {}
    for item in entry.fields:
        value = item.value
        out.setdefault(
            str(item.key).strip().lower(), clean(value if isinstance(value, str) else "")
        )
    return out


def _field_text(value: str) -> str:
    """A title, abstract or venue: one line (HTML entities unescaped before any TeX is
    decoded, and not where their `&` is TeX-escaped: `\\&amp;` is the text "&amp;"),
    then its TeX decoded."""
    return decode_text(one_line(value, tex=True))


def _paper(fields: dict[str, str], name: str, *, native: bool = False) -> Paper:
    """A Paper of an entry's fields; `keywords` are the source's own (in our export: tags)."""
    prefix = (fields.get("archiveprefix", "") + fields.get("eprinttype", "")).lower()
    arxiv = fields.get("eprint", "") if "arxiv" in prefix else ""
    venue = fields.get("booktitle") or fields.get("journal") or fields.get("venue", "")
    return make_record(
        source=name,
        title=_field_text(fields.get("title", "")),
        authors=split_names(fields.get("author", "")),
        abstract=_field_text(fields.get("abstract", "")),
        venue=_field_text(venue),
        year=parse_year(fields.get("year") or fields.get("date")),
        url=fields.get("url", ""),
        doi=fields.get("doi", ""),
        arxiv=arxiv or (venue if "arxiv" in venue.lower() else ""),
        decoded=True,  # (entities first, then TeX: "\\&" is a literal "&")
        pdf=fields.get("pdf", ""),
        keywords=() if native else _keywords(fields.get("keywords", "")),
    )


def _keywords(value: str) -> list[str]:
    """A `keywords` field's keywords, split on `,` or `;` outside braces."""
    if not value:
        return []
    return [decode_text(k.strip()) for k in _split_top(one_line(value, tex=True), _KEYWORD_SEP)]


def _place(block: Any, name: str) -> say.Said:
    key = getattr(block, "key", None)
    if not key:
        inner = getattr(block, "ignore_error_block", None)
        key = getattr(inner, "key", None)
    if not key:
        match = _KEY_IN_RAW.match(block.raw or "")
        key = match.group(1) if match else None
    if key:
        return say.Said("entry {key}", key=key)
    return say.Said("{name}:line {line}", name=name, line=(block.start_line or 0) + 1)


def _failure(block: Any) -> say.Said:
    from bibtexparser.model import DuplicateBlockKeyBlock

    if isinstance(block, DuplicateBlockKeyBlock):
        first = (block.previous_block.start_line or 0) + 1
        return say.Said(
            "duplicate key {key} (first used at line {line}); this entry ignored",
            key=repr(block.key),
            line=first,
        )
    error = block.error
    reason = getattr(error, "abort_reason", "") or str(error) or type(error).__name__
    reason = " ".join(str(reason).split())
    return say.Said("broken entry (unbalanced braces or quotes?): {error}", error=reason)


def _quiet_parser_log() -> None:
    """bibtexparser logs each broken block to stderr; we report them in the result instead."""
    logger = logging.getLogger("bibtexparser")
    if not any(isinstance(h, logging.NullHandler) for h in logger.handlers):
        logger.addHandler(logging.NullHandler())


def read(text: str, name: str) -> ReadResult:
    """Papers from BibTeX; bad entries skipped, fields lost to a stray `}` warned."""
    from bibtexparser.entrypoint import parse_string
    from bibtexparser.model import (
        DuplicateFieldKeyBlock,
        Entry,
        ImplicitComment,
        ParsingFailedBlock,
    )

    name = display_name(name)
    _quiet_parser_log()
    try:
        library = parse_string(text)
    except Exception as exc:  # noqa: BLE001 - a parser bug must not take the app down
        why = say._("{name}: BibTeX parser failed: {error}")
        raise FormatError(why.format(name=name, error=type(exc).__name__)) from None
    result = ReadResult(format="bibtex")
    native = text.lstrip().startswith(NATIVE_MARKER)
    result.native = native
    previous: Any = None
    for block in library.blocks:
        entry: Any = block
        if isinstance(block, DuplicateFieldKeyBlock):
            entry = block.ignore_error_block
            keys = ", ".join(sorted(block.duplicate_keys))
            result.warnings.append(
                Skipped(
                    _place(block, name), say.Said("repeated field {keys}: first kept", keys=keys)
                )
            )
        if isinstance(entry, Entry):
            _read_entry(entry, name, native, result)
        elif isinstance(block, ImplicitComment) and isinstance(previous, Entry):
            lost = _FIELD_IN_TEXT.findall(block.comment)
            if lost:
                result.warnings.append(
                    Skipped(
                        say.Said("entry {key}", key=previous.key),
                        say.Said(
                            "a stray '}}' ends the entry early; fields ignored: {fields}",
                            fields=", ".join(lost),
                        ),
                    )
                )
        elif isinstance(block, ParsingFailedBlock):
            result.skipped.append(Skipped(_place(block, name), _failure(block)))
        previous = entry
    raise_none_usable(result, name)
    return result


def _read_entry(entry: Any, name: str, native: bool, result: ReadResult) -> None:
    fields = _fields(entry)
    try:
        paper = _paper(fields, name, native=native)
    except ValueError as exc:
        result.skipped.append(Skipped(say.Said("entry {key}", key=entry.key), say.said(exc)))
        return
    result.records.append(paper)
    if native and (fields.get("keywords") or fields.get("annote")):
        keywords = _split_top(one_line(fields.get("keywords", ""), tex=True), _COMMA)
        tags = [decode_text(t.strip()) for t in keywords]
        note = decode_note(fields.get("annote", ""))
        result.annotations.append(
            Annotation.from_dict({"paper_id": paper.id, "tags": tags, "note": note})
        )


_NOTE_ESCAPES = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "@": r"\@"}
_NOTE_UNESCAPES = {
    r"\textbackslash{}": "\\",
    r"\textbraceleft{}": "{",
    r"\textbraceright{}": "}",
    r"\textasciicircum{}": "^",
    r"\{": "{",
    r"\}": "}",
    r"\@": "@",
}
_NOTE_ESCAPE = re.compile(r"[\\{}@]")
_NOTE_UNESCAPE = re.compile(
    r"\\textbackslash\{\}|\\textbrace(?:left|right)\{\}|\\textasciicircum\{\}|\\[{}@]"
)


def encode_note(note: str) -> str:
    """A multi-line note as a BibTeX value, exactly reversible by decode_note."""
    return _NOTE_ESCAPE.sub(lambda m: _NOTE_ESCAPES[m.group(0)], note)


def decode_note(value: str) -> str:
    return _NOTE_UNESCAPE.sub(lambda m: _NOTE_UNESCAPES[m.group(0)], value)
