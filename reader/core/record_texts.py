"""The keyed catalogue texts a SearchIndex scans, one after another in a file.

At 100k papers the keyed texts (authors, title, abstract; lowercased, accents
stripped, TeX rendered) are ~150 MB, as much again as the papers they come from:
kept as Python objects they alone would break the memory budget. They are written
instead, as they are made, to an unnamed file in the cache folder (or, for small
libraries and when no folder can be written, to one in memory) and read back a
chunk at a time to be searched: from the page cache that costs little more than
searching them in memory, and the papers' own memory stays what it was. A text
that changed after it was written is kept in memory instead."""

from __future__ import annotations

import contextlib
import io
import shutil
import sys
import time
import weakref
from array import array
from bisect import bisect_left
from collections.abc import Callable
from itertools import compress, repeat
from operator import add, sub
from typing import BinaryIO

from reader.core.models import Paper
from reader.core.search_text import _catalogue, key_bytes
from reader.core.tokens import bits_of, rids

#: texts made (and written) per step of build(): ~3 ms, a slice of idle time
TEXT_CHUNK = 128
#: more texts changed at once than this (an import): made again from the first
MANY_CHANGED = 500
#: records read together when searching (~0.7-1 MB of text)
READ_RECORDS = 512
#: below this many candidates among READ_RECORDS records, each is read alone
READ_ALONE_MAX = 48

#: where a field's text is: None the whole catalogue text, 0 the authors line, 1 the title line
Line = int | None
#: makes the file texts are written to (None: kept in memory)
Spill = Callable[[], BinaryIO]


def catalogue_key(paper: Paper) -> bytes:
    return key_bytes(_catalogue(paper))


class CatalogueTexts:
    """The keyed catalogue text (authors, title, abstract: one line each) of each
    record of `papers`, a list the index shares and keeps current."""

    def __init__(self, papers: list[Paper], spill: Spill | None = None) -> None:
        self._papers = papers
        self._spill = spill
        self._file: BinaryIO | None = None
        self._shared = False  # the file is a saved one, or read elsewhere: only read
        self._starts: array[int] = array("Q", [0])  # text r is file[starts[r]:starts[r + 1]]
        self._ends: array[int] = array("I")  # where text r's authors and title lines end
        self._changed: dict[int, bytes] = {}  # texts that changed since written
        #: every record whose text changed, in order (token indexes read what changed
        #: while they were built)
        self.log: list[int] = []

    @property
    def built(self) -> int:
        return len(self._starts) - 1

    @property
    def complete(self) -> bool:
        """Every text is built (build() has nothing to do)."""
        return self.built >= len(self._papers)

    def _open(self) -> BinaryIO:
        if self._file is None:
            self._file = self._new_file()
        return self._file

    def _new_file(self) -> BinaryIO:
        if self._spill is not None:
            with contextlib.suppress(OSError):
                file = self._spill()
                weakref.finalize(self, file.close)  # closed (and gone) with us
                return file
        return io.BytesIO()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    # -- saved texts --------------------------------------------------------------------

    def saved_form(self, lend: bool = False) -> tuple[BinaryIO, int, bytes, bytes]:
        """The file the texts are in, their length, where each starts and its lines end.
        `lend`: the file is read elsewhere from now on: we write to a copy."""
        file = self._open()
        self._shared = self._shared or lend
        return file, self._starts[-1], self._starts.tobytes(), self._ends.tobytes()

    def adopt(self, file: BinaryIO, length: int, starts: bytes, ends: bytes) -> None:
        """Read the texts from `file` (saved_form() of the same papers' texts; only
        read: copied before anything is written)."""
        new_starts, new_ends = array("Q"), array("I")
        new_starts.frombytes(starts)
        new_ends.frombytes(ends)
        n = len(self._papers)
        if len(new_starts) != n + 1 or len(new_ends) != 2 * n or new_starts[-1] != length:
            raise ValueError("not these papers' texts")
        self.close()
        self._file, self._shared = file, True
        weakref.finalize(self, file.close)
        self._starts, self._ends, self._changed = new_starts, new_ends, {}

    def _writable(self) -> BinaryIO:
        """The file, copied first into one of our own if it is a saved one."""
        file = self._open()
        if self._shared:
            own = self._new_file()
            try:
                file.seek(0)
                shutil.copyfileobj(file, own, 1 << 20)
            except OSError:  # no room in the cache folder: in memory
                own.close()
                file.seek(0)
                own = io.BytesIO(file.read())
            own.truncate(self._starts[-1])
            file.close()
            self._file, self._shared, file = own, False, own
        return file

    # -- building and changes -----------------------------------------------------------

    def build(self, deadline: float | None) -> bool:
        """Make and write the texts until `deadline` (None: all); True when all are."""
        starts, ends, n = self._starts, self._ends, len(self._papers)
        while self.built < n:
            texts = list(map(catalogue_key, self._papers[self.built : self.built + TEXT_CHUNK]))
            file = self._writable()
            file.seek(starts[-1])
            try:
                file.write(b"".join(texts))
            except OSError:  # the cache folder is full: in memory from here on
                self._file = io.BytesIO(self._read(0, starts[-1]))
                continue
            for text in texts:
                starts.append(starts[-1] + len(text))
                ends.append(text.index(b"\n"))
                ends.append(text.index(b"\n", ends[-1] + 1))
            if deadline is not None and time.perf_counter() > deadline:
                return False
        return True

    def changed(self, r: int, before: Paper) -> bool:
        """Record r's paper, `before` until now, was replaced: True if its keyed
        text changed."""
        if r >= self.built:
            return False  # made later
        text = catalogue_key(self._papers[r])
        if text == catalogue_key(before):
            return False
        self._changed[r] = text
        self.log.append(r)
        return True

    def forget_from(self, first: int) -> None:
        """Records from `first` on changed (many): their texts are made again."""
        if first < self.built:
            del self._starts[first + 1 :], self._ends[2 * first :]
            self._changed = {r: text for r, text in self._changed.items() if r < first}
            self.log.extend(range(first, len(self._papers)))
            with contextlib.suppress(OSError):
                self._writable().truncate(self._starts[-1])

    # -- reading ------------------------------------------------------------------------

    def _read(self, start: int, length: int) -> bytes:
        file = self._open()
        file.seek(start)
        return file.read(length)

    def text(self, r: int) -> bytes:
        if r in self._changed:
            return self._changed[r]
        if r >= self.built:
            self.build(None)
        return self._read(self._starts[r], self._starts[r + 1] - self._starts[r])

    def part(self, line: Line, ahead: bool = False) -> Callable[[int], bytes]:
        """Record -> its text (or `line` of it); `ahead`: for records asked for in
        order (a token index being built), read READ_RECORDS texts at a time."""
        text = self._reading_ahead() if ahead else self.text
        if line is None:
            return text
        return lambda r: text(r).split(b"\n", 2)[line]

    def _reading_ahead(self) -> Callable[[int], bytes]:
        first = last = base = 0  # texts first..last-1 are in data, from file position base
        data = b""

        def text(r: int) -> bytes:
            nonlocal first, last, base, data
            if r in self._changed or r >= self.built:
                return self.text(r)
            if not first <= r < last:
                first, last, base = r, min(r + READ_RECORDS, self.built), self._starts[r]
                data = self._read(base, self._starts[last] - base)
            return data[self._starts[r] - base : self._starts[r + 1] - base]

        return text

    def scan(self, term: bytes, cand: int, line: Line) -> int:
        """The records of `cand` whose text (or `line` of it) contains `term`."""
        if not cand:
            return 0
        self.build(None)
        n, changed = len(self._papers), self._changed
        which = rids(cand, n)  # ascending
        found: list[int] = []
        part = self.part(line)
        if changed:
            found += (r for r in which if r in changed and term in part(r))
            which = [r for r in which if r not in changed]
        i = 0
        while i < len(which):  # a slice of READ_RECORDS records at a time
            j = bisect_left(which, which[i] + READ_RECORDS, i)
            if j - i <= READ_ALONE_MAX:
                found += (r for r in which[i:j] if term in part(r))
            else:
                found += self._scan_slice(term, which[i:j], line)
            i = j
        return bits_of(found, n)

    def _scan_slice(self, term: bytes, which: list[int], line: Line) -> list[int]:
        """Records of `which` (ascending, within READ_RECORDS) whose text holds `term`,
        from one read."""
        starts, ends = self._starts, self._ends
        base = starts[which[0]]
        data = self._read(base, starts[which[-1] + 1] - base)
        begin = list(map(sub, map(starts.__getitem__, which), repeat(base)))
        if line is None:
            stop = list(map(sub, map(starts.__getitem__, map((1).__add__, which)), repeat(base)))
        else:  # the authors line ends at ends[2r], the title line at ends[2r + 1]
            twice = list(map(add, which, which))
            title_end = map(ends.__getitem__, map((1).__add__, twice))
            stop = list(map(add, begin, title_end if line else map(ends.__getitem__, twice)))
            if line:
                begin = list(map(add, begin, map((1).__add__, map(ends.__getitem__, twice))))
        hits = map(data.find, repeat(term), begin, stop)
        return list(compress(which, map((-1).__lt__, hits)))


def trim_memory() -> None:
    """Give the C heap's free pages back to the system (glibc keeps them otherwise:
    ~50 MB after the token indexes of 100k papers are built)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import ctypes.util

    with contextlib.suppress(OSError, AttributeError, TypeError):
        ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim(0)
