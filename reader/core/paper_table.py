"""The library's papers by id, read from the catalogue's database when asked for.

A library of a million papers holds only their ids in memory (in the library's
order); a paper is a row of the catalogue's index (reader.store.catalogue_db),
read when it is shown, sorted, searched or exported, and a few thousand of the
latest read are kept. A field of every paper (what a sort or a facet needs) is
read as a column, not as a million Papers. A store that has no such database
(tests, the screening sets) gives its papers in a list: PapersInMemory, with the
same methods."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import islice
from typing import Any, Protocol, overload

from reader.core.merge import Abstracts, MappingMatcher, Matcher
from reader.core.models import Paper

#: the papers of some ids, with their abstracts (an id of no paper: a Paper of that
#: id with nothing else), as the search's words read them (reader.core.index)
Whole = Callable[[Sequence[str]], Sequence[Paper]]
#: what the search's words yield while they can do nothing but wait (another thread
#: takes the library's files into the catalogue's index: reader.core.index.CatalogueWords)
WAITING = "waiting"
#: papers kept after they were read (the rows shown, a paper's neighbours)
KEPT = 4_096
#: papers read per query of a scan
SCAN_PART = 2_000
#: the fields column() reads ("abstract": "" for none, else models.NOT_LOADED)
COLUMNS = frozenset({"title", "authors", "year", "venue", "added", "abstract"})


class PaperRows(Protocol):
    """Where a PaperTable reads its papers (reader.store.catalogue_db.CatalogueDB).
    Papers come as a library lists them: each abstract models.NOT_LOADED or ""."""

    def rows(self, ids: Sequence[str]) -> dict[str, Paper]:
        """The papers of `ids` it holds (not deleted), by id; from any thread."""
        ...

    def column(self, field: str) -> Iterator[tuple[str, Any]]:
        """(id, value of `field`) of every paper it holds, in no promised order."""
        ...

    def holds(self, table: str) -> bool:
        """See reader.core.merge.Matcher."""
        ...

    def find(self, table: str, key: object) -> str | None:
        """See reader.core.merge.Matcher."""
        ...


class PapersInMemory(dict[str, Paper]):
    """Papers by id, all of them in memory (a store without a catalogue database)."""

    @property
    def ids(self) -> dict[str, Paper]:
        """The ids, in order: `in` at C speed (a loop over a million annotations)."""
        return self

    def column(self, field: str, ids: Iterable[str] | None = None) -> dict[str, Any]:
        """The value of `field` (see COLUMNS) of each paper of `ids` (default: all)."""
        papers = list(self.values()) if ids is None else [self[pid] for pid in ids if pid in self]
        return {p.id: getattr(p, field) for p in papers}

    def matcher(self, abstracts: Abstracts) -> Matcher:
        """Where an import finds these papers by the keys they are matched on."""
        return MappingMatcher(self, abstracts)

    def put(self, papers: Iterable[Paper]) -> None:
        """Papers written (new ones after the others)."""
        self.update((p.id, p) for p in papers)

    def drop(self, ids: Iterable[str]) -> None:
        for pid in ids:
            self.pop(pid, None)

    def reorder(self, ids: Iterable[str]) -> PapersInMemory:
        """The same papers, those of `ids` first in that order, then the others."""
        ordered = PapersInMemory((pid, self[pid]) for pid in ids if pid in self)
        ordered.update(self)
        return ordered

    def in_order(self, ids: Sequence[str], *, placeholders: bool = False) -> Sequence[Paper]:
        """The papers of `ids` in that order (an id of no paper: KeyError, or with
        `placeholders` a Paper of that id with nothing else)."""
        if placeholders:
            return [self.get(pid) or Paper(pid, "") for pid in ids]
        return [self[pid] for pid in ids]


class PaperTable(Mapping[str, Paper]):
    """Papers by id, in the library's order; read from `rows` when asked for."""

    def __init__(self, ids: Iterable[str], rows: PaperRows) -> None:
        #: the ids, in the library's order (a dict: in order, and quick to take from)
        self._order: dict[str, None] = dict.fromkeys(ids)
        self._rows = rows
        #: papers read lately, oldest first (from any thread: an import's worker reads)
        self._kept: dict[str, Paper] = {}
        self._lock = threading.Lock()

    @property
    def ids(self) -> dict[str, None]:
        """The ids, in order: `in` at C speed (a loop over a million annotations)."""
        return self._order

    def __len__(self) -> int:
        return len(self._order)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._order

    def __iter__(self) -> Iterator[str]:
        return iter(self._order)

    def __getitem__(self, paper_id: str) -> Paper:
        paper = self._kept.get(paper_id)
        if paper is not None:
            return paper
        if paper_id not in self._order:
            raise KeyError(paper_id)
        found = self.fetch([paper_id])
        if paper_id not in found:
            raise KeyError(paper_id)  # (gone from the database: another program emptied it)
        return found[paper_id]

    def fetch(self, ids: Sequence[str]) -> dict[str, Paper]:
        """The papers of `ids` (of this table), read together and kept."""
        kept = self._kept
        found = {pid: p for pid in ids if (p := kept.get(pid)) is not None}
        wanted = [pid for pid in ids if pid not in found and pid in self._order]
        if wanted:
            read = self._rows.rows(wanted)
            found.update(read)
            self._keep(read.values())
        return found

    def _keep(self, papers: Iterable[Paper]) -> None:
        with self._lock:
            kept = self._kept
            for paper in papers:
                kept.pop(paper.id, None)
                kept[paper.id] = paper
            if len(kept) > KEPT:
                for pid in list(islice(kept, len(kept) - KEPT // 2)):
                    del kept[pid]

    def values(self) -> Iterator[Paper]:  # type: ignore[override]
        """Every paper in order, read a part at a time (none of them kept)."""
        return iter(self.in_order(list(self._order)))

    def __eq__(self, other: object) -> bool:
        return self is other

    __hash__ = object.__hash__

    def items(self) -> Iterator[tuple[str, Paper]]:  # type: ignore[override]
        return ((p.id, p) for p in self.values())

    def copy(self) -> dict[str, Paper]:
        """Every paper by id, as they are now: a million Papers at a million papers (a
        gigabyte). From any thread (papers the library drops meanwhile may be left out)."""
        ids = list(self._order)
        out: dict[str, Paper] = {}
        for start in range(0, len(ids), SCAN_PART):
            out.update(self._rows.rows(ids[start : start + SCAN_PART]))
        return out

    def in_order(self, ids: Sequence[str], *, placeholders: bool = False) -> Sequence[Paper]:
        """The papers of `ids` as a sequence read a part at a time when iterated or
        sliced (an id of no paper: KeyError, or with `placeholders` a Paper of that id
        with nothing else)."""
        return _InOrder(self, ids, placeholders)

    def matcher(self, abstracts: Abstracts) -> Matcher:
        """Where an import finds these papers by the keys they are matched on: the
        database's indexes of them (from any thread)."""
        return self._rows

    def column(self, field: str, ids: Iterable[str] | None = None) -> dict[str, Any]:
        """The value of `field` (see COLUMNS) of each paper of `ids` (default: all),
        read as one column of the database."""
        if field not in COLUMNS:
            raise ValueError(f"not a column: {field!r}")
        # (a copy: another thread may read a column while the library changes)
        order = self._order.copy()
        wanted = order if ids is None else dict.fromkeys(i for i in ids if i in order)
        out = {pid: value for pid, value in self._rows.column(field) if pid in wanted}
        if len(out) < len(wanted):  # (written since the column was read: read them whole)
            missing = [pid for pid in wanted if pid not in out]
            read = self.in_order(missing, placeholders=True)  # (see _InOrder._read)
            out.update((p.id, getattr(p, field)) for p in read)
        return out

    # -- following what the library writes -------------------------------------------

    def put(self, papers: Iterable[Paper]) -> None:
        """Papers written (their rows are in the database now): new ones after the
        others, changed ones read anew."""
        papers = list(papers)
        with self._lock:
            for paper in papers:
                self._order.setdefault(paper.id)
                self._kept.pop(paper.id, None)
        self._keep(papers)

    def drop(self, ids: Iterable[str]) -> None:
        with self._lock:
            for pid in ids:
                self._order.pop(pid, None)
                self._kept.pop(pid, None)

    def rewritten(self, ids: Iterable[str]) -> None:
        """put() of papers known by their ids alone (read when asked for)."""
        with self._lock:
            for pid in ids:
                self._order.setdefault(pid)
                self._kept.pop(pid, None)

    def reorder(self, ids: Iterable[str]) -> PaperTable:
        """The same papers, those of `ids` first in that order, then the others (a
        new table: one another thread reads meanwhile stays whole)."""
        order = self._order
        table = PaperTable((pid for pid in ids if pid in order), self._rows)
        table._order.update(order)
        table._kept = dict(self._kept)
        return table


class _InOrder(Sequence[Paper]):
    """Papers of a PaperTable in a given order, read SCAN_PART at a time."""

    def __init__(self, table: PaperTable, ids: Sequence[str], placeholders: bool) -> None:
        self._table, self._ids, self._placeholders = table, ids, placeholders

    def __len__(self) -> int:
        return len(self._ids)

    @overload
    def __getitem__(self, i: int) -> Paper: ...
    @overload
    def __getitem__(self, i: slice) -> list[Paper]: ...
    def __getitem__(self, i: int | slice) -> Paper | list[Paper]:
        if isinstance(i, slice):
            return self._read(self._ids[i])
        return self._read([self._ids[i]])[0]

    def __iter__(self) -> Iterator[Paper]:
        for start in range(0, len(self._ids), SCAN_PART):
            yield from self._read(self._ids[start : start + SCAN_PART])

    def _read(self, ids: Sequence[str]) -> list[Paper]:
        table = self._table
        kept = table._kept
        found = {pid: p for pid in ids if (p := kept.get(pid)) is not None}
        wanted = [pid for pid in ids if pid not in found]
        if wanted:  # (read, not kept: a scan would push out the papers being shown)
            found.update(table._rows.rows([pid for pid in wanted if pid in table]))
        if self._placeholders:
            return [found.get(pid) or Paper(pid, "") for pid in ids]
        # a paper of the table another program deleted since (its row gone): a Paper
        # of its id with nothing else, until the library is opened again
        return [found[pid] if pid in found or pid not in table else Paper(pid, "") for pid in ids]
