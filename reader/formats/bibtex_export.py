"""BibTeX export: stable unique citation keys, TeX special characters escaped outside math."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from reader.core.models import Annotation, Paper
from reader.formats.bibtex import NATIVE_MARKER, encode_note

_MATH = re.compile(r"(\$\$.+?\$\$|\$.+?\$|\\\(.+?\\\)|\\\[.+?\\\])", re.DOTALL)
_TOKEN = re.compile(r"\\[&%$#_{}]|\\[A-Za-z]+|\\|[&%#_~^${}]")
_SPECIAL = re.compile(r"[\\&%#_~^${}]")
_SPLITS_NAME = re.compile(r",|\band\b", re.IGNORECASE)
_PLAIN = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "#": r"\#",
    "_": r"\_",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "$": r"\$",
    "{": r"\{",
    "}": r"\}",
}
_STOP_WORDS = frozenset(
    {"a", "an", "the", "on", "of", "in", "for", "to", "and", "with", "towards", "toward", "from"}
    | {"via", "is", "are", "do", "does", "can", "how", "what", "why", "when", "who", "where"}
    | {"which", "we", "our", "beyond", "into", "at", "by", "as"}
)


def _balanced(text: str) -> bool:
    if "{" not in text and "}" not in text:
        return True
    depth = 0
    for match in re.finditer(r"(?<!\\)[{}]", text):
        depth += 1 if match.group(0) == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def escape(text: str) -> str:
    """`text` as a BibTeX value: & % $ # _ { } ~ ^ \\ escaped in plain text; $math$, TeX
    commands and already-escaped characters (\\%) kept; braces kept only when balanced."""
    text = " ".join(text.split())
    if not _SPECIAL.search(text):
        return text
    out: list[str] = []
    for number, part in enumerate(_MATH.split(text)):
        if number % 2 and _balanced(part):
            out.append(re.sub(r"(?<!\\)%", r"\%", part))  # % would start a TeX comment
            continue
        keep_braces = _balanced(part)

        def plain(match: re.Match[str], keep_braces: bool = keep_braces) -> str:
            token = match.group(0)
            if len(token) > 1:  # \command or an escape that is already there
                return token
            if token in "{}" and keep_braces:
                return token
            return _PLAIN[token]

        out.append(_TOKEN.sub(plain, part))
    return "".join(out)


def _ascii_word(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]", "", decomposed.encode("ascii", "ignore").decode().lower())


def base_key(paper: Paper) -> str:
    """`he2025dakd`: first author's last name, year, first significant word of the title."""
    names = paper.authors[0].split() if paper.authors else []
    surname = _ascii_word(names[-1]) if names else ""
    title = re.sub(r"\$[^$]*\$", lambda m: m.group(0).replace(" ", ""), paper.title)
    words = (_ascii_word(w) for w in title.split())
    word = next((w for w in words if w and w not in _STOP_WORDS), "")
    year = str(paper.year) if paper.year is not None else ""
    return (surname or "anon") + year + word[:20]


def unique_keys(papers: Sequence[Paper]) -> list[str]:
    """One key per paper; a repeated key gets b, c, ... (then numbers) appended."""
    used: set[str] = set()
    keys: list[str] = []
    for paper in papers:
        base = base_key(paper)
        key, n = base, 1
        while key in used:
            n += 1
            key = base + (chr(ord("a") + n - 1) if n <= 26 else str(n))
        used.add(key)
        keys.append(key)
    return keys


def _author(name: str) -> str:
    escaped = escape(name)
    # A comma or a standalone "and" would split the name: one braced token instead.
    return "{" + escaped + "}" if _SPLITS_NAME.search(name) else escaped


def _url(value: str) -> str:
    return " ".join(value.split()).replace("{", "%7B").replace("}", "%7D")


def export(items: Sequence[tuple[Paper, Annotation | None]]) -> str:
    """A .bib file of all papers; tags go to `keywords`, the note to `annote`."""
    papers = [paper for paper, _ in items]
    chunks = [NATIVE_MARKER + "\n"]
    for key, (paper, annotation) in zip(unique_keys(papers), items, strict=True):
        fields: list[tuple[str, str]] = [("title", escape(paper.title))]
        if paper.authors:
            fields.append(("author", " and ".join(_author(a) for a in paper.authors)))
        if paper.venue:
            fields.append(("booktitle", escape(paper.venue)))
        if paper.year is not None:
            fields.append(("year", str(paper.year)))
        if paper.url:
            fields.append(("url", _url(paper.url)))
        if paper.doi:
            fields.append(("doi", _url(paper.doi)))
        if paper.arxiv:
            fields += [("eprint", _url(paper.arxiv)), ("archiveprefix", "arXiv")]
        if paper.abstract:
            fields.append(("abstract", escape(paper.abstract)))
        if annotation and annotation.tags:
            tags = (escape(t) for t in annotation.tags)
            fields.append(("keywords", ", ".join("{" + t + "}" if "," in t else t for t in tags)))
        if annotation and annotation.note:
            fields.append(("annote", encode_note(annotation.note)))
        kind = "inproceedings" if paper.venue else "misc"
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        chunks.append(f"@{kind}{{{key},\n{body}\n}}\n")
    return "\n".join(chunks)
