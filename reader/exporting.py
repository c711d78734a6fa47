"""Exporting papers with their annotations to text or to files (atomically)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reader.core.library import Library
from reader.store.storage import atomic_write


def _items(lib: Library, ids: Sequence[str]) -> list:  # type: ignore[type-arg]
    return [(paper, lib.annotation(paper.id)) for paper in lib.full_papers(ids)]


def _keys(lib: Library, fmt: str) -> dict[str, str] | None:
    """The library's cite keys for a BibTeX export (a selection's are the library's)."""
    if fmt != "bibtex":
        return None
    from reader.formats.citing import cite_keys

    return cite_keys(lib.papers())


def export_text(lib: Library, ids: Sequence[str], fmt: str) -> str:
    """The export as one text (markdown: the files one after another)."""
    from reader.formats import export_papers

    out = export_papers(_items(lib, ids), fmt, tag_colours=lib.tag_colours(), keys=_keys(lib, fmt))
    if isinstance(out, dict):
        return "\n".join(f"<!-- {name} -->\n{text}" for name, text in out.items())
    return out


def export_to(lib: Library, ids: Sequence[str], fmt: str, target: Path) -> Path:
    """Write the export to `target` (a folder for markdown); every file atomic."""
    from reader.formats import export_papers

    out = export_papers(_items(lib, ids), fmt, tag_colours=lib.tag_colours(), keys=_keys(lib, fmt))
    if isinstance(out, dict):
        target.mkdir(parents=True, exist_ok=True)
        for name, text in out.items():
            atomic_write(target / name, text.encode("utf-8"))
        return target
    atomic_write(target, out.encode("utf-8"))
    return target
