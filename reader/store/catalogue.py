"""Documents on disk into the core's values: papers.json into Papers, annotation documents into Annotations."""

from __future__ import annotations

import gc
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reader.core.models import Annotation, Paper
from reader.store.storage import load_document


def read_catalogue(path: Path) -> dict[str, Paper | None]:
    """papers.json read into Papers by id (None for a document that is not one; {}
    if there is no file). The documents become Papers piece by piece as the file
    is parsed (sharing their strings), so the file's parsed documents are never all
    in memory; StorageError (DamagedFileError) if the file cannot be used."""
    pool: dict[str, str] = {}  # values repeated from paper to paper, shared

    def to_paper(pid: str, doc: dict[str, Any]) -> Paper | None:
        try:
            return Paper.from_document(pid, doc, pool)
        except (TypeError, ValueError, KeyError):
            return None

    def to_papers(docs: dict[str, Any]) -> dict[str, Any]:
        return {pid: to_paper(pid, doc) for pid, doc in docs.items()}

    enabled = gc.isenabled()
    gc.disable()  # 100k new objects would trigger many useless collector passes
    try:
        data = load_document(path, to_papers) or {}
    finally:
        if enabled:
            gc.enable()
    papers: dict[str, Paper | None] = data.get("papers", {})
    return papers


_LIST_FIELDS = ("tags", "highlights")


def annotation_from(pid: str, doc: Mapping[str, Any], problems: list[str]) -> Annotation:
    """An Annotation from a stored document; a field of the wrong type is dropped
    (and reported) instead of stopping the app. The file itself is not changed."""
    try:
        return Annotation.from_dict({**doc, "paper_id": pid})
    except (TypeError, ValueError, AttributeError):
        pass
    kept = {
        k: v
        for k, v in doc.items()
        if not (k in _LIST_FIELDS and not isinstance(v, (list, str)))
        and not (k in ("note", "status") and not isinstance(v, str))
    }
    problems.append(f"annotation of {pid}: some fields could not be read and are ignored.")
    try:
        return Annotation.from_dict({**kept, "paper_id": pid})
    except (TypeError, ValueError, AttributeError):
        return Annotation(pid)

