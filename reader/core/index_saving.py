"""A SearchIndex's keyed texts and token indexes, saved and taken up again.

Building them costs ~10 s of idle time at 100k papers; a library opened again
with the same catalogue takes them from the cache folder instead, in well under a
second. What they were built from is named by a digest of every paper's searched
fields (and of what keys them: this program's version, Python's, Unicode's), so a
saved index is used only for exactly the catalogue it was built from, however
papers.json came to be as it is."""

from __future__ import annotations

import marshal
import sys
import time
import unicodedata
from collections.abc import Generator, Sequence
from typing import Any, BinaryIO, Protocol

from reader import __version__
from reader.core.models import Paper
from reader.core.record_texts import CatalogueTexts, Line
from reader.core.steps import run_steps
from reader.core.tokens import TokenIndex

#: papers digested per step (~4 ms)
DIGEST_CHUNK = 1_000
FORMAT = 2  # what state() holds: a new one for each change


class SavedIndexes(Protocol):
    """Where saved indexes are kept (reader.store.search_cache.SearchCache)."""

    def load(self, digest: bytes) -> Generator[None, None, tuple[BinaryIO, Any] | None]:
        """The texts file and state saved under `digest`, or None: read a few ms of
        work per step (a generator that returns them)."""

    def save(
        self, digest: bytes, texts: BinaryIO, length: int, state: Any
    ) -> Generator[None, None, None]:
        """Keep the first `length` bytes of `texts` and `state` under `digest`, a few
        ms of work per step (`texts` may be read elsewhere between steps, not changed)."""

    def build_elsewhere(
        self, digest: bytes, texts: BinaryIO, length: int, starts: bytes, ends: bytes
    ) -> Builder | None:
        """Have another process build the token indexes of `texts` and save them
        under `digest`; None if it cannot be done."""


class Builder(Protocol):
    """A process building token indexes (subprocess.Popen)."""

    def poll(self) -> int | None:
        """None while it runs, else its exit status (0: saved)."""


class Digest:
    """The digest of the searched fields of `papers`, made a slice at a time."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self.papers = papers
        self.n = len(papers)
        import hashlib  # not before the first paint: OpenSSL takes ~3 ms to load

        # SHA-256: twice BLAKE2b's speed where the CPU has SHA instructions (130 MB of
        # fields at 100k papers: ~0.1 s against ~0.24 s here)
        self._hash = hashlib.sha256()
        self._hash.update(
            repr(
                (FORMAT, __version__, sys.version_info[:2], unicodedata.unidata_version, self.n)
            ).encode()
        )
        self._done = 0
        self.value: bytes | None = None

    def step(self, deadline: float | None) -> bool:
        while self._done < self.n:
            chunk = self.papers[self._done : self._done + DIGEST_CHUNK]
            # marshal's version 0 marks no string interned and refers back to none:
            # the same fields give the same bytes in any process
            self._hash.update(
                marshal.dumps([(p.id, p.title, p.authors, p.abstract) for p in chunk], 0)
            )
            self._done += len(chunk)
            if deadline is not None and time.perf_counter() > deadline and self._done < self.n:
                return False
        self.value = self._hash.digest()
        return True


def saved_state(
    length: int, starts: bytes, ends: bytes, tokens: dict[Line, TokenIndex]
) -> tuple[Any, ...]:
    """What is saved beside the texts' file (FORMAT): their layout and the token
    tables of each line (here, and in the builder process: reader.store.index_builder)."""
    return (length, starts, ends, {line: tokens[line].state() for line in (0, 1, None)})


class Saving:
    """Takes up the texts and token indexes saved for exactly these papers, or
    saves them once built. Gives up (for this session) once the catalogue changes
    before either happened: what was built no longer matches the digest."""

    def __init__(self, store: SavedIndexes, papers: Sequence[Paper]) -> None:
        self._store = store
        self._digest = Digest(papers)
        self.looked = False  # for saved indexes (taken up if there were)
        self.done = False  # taken up, saved, or given up
        self.edited = False  # a paper's text changed, or a paper came: the digest is not theirs
        self._saving: Generator[None, None, None] | None = None
        self._builder: Builder | None = None
        self._tried = False  # to have the indexes built elsewhere
        self._loading: Generator[None, None, dict[Line, TokenIndex] | None] | None = None

    def _unchanged(self, texts: CatalogueTexts) -> bool:
        return not self.edited and not texts.log and self._digest.n == len(self._digest.papers)

    def take_up(
        self, texts: CatalogueTexts, deadline: float | None
    ) -> dict[Line, TokenIndex] | None:
        """Once the digest is made (looked is then True; call again while not):
        the saved token indexes, `texts` reading the saved texts; None if none are
        saved for these papers."""
        if self.looked or not self._digest.step(deadline):
            return None
        assert self._digest.value is not None
        if self._loading is None:
            if not self._unchanged(texts):
                self.looked = True
                return None
            self._loading = self._taken_up(texts, self._store.load(self._digest.value))
        finished, tokens = run_steps(self._loading, deadline)
        if finished:
            self.looked, self._loading = True, None
        return tokens

    def _taken_up(
        self, texts: CatalogueTexts, loading: Generator[None, None, tuple[BinaryIO, Any] | None]
    ) -> Generator[None, None, dict[Line, TokenIndex] | None]:
        """The saved token indexes, read by `loading` (the store's steps), then made a
        line a step (~10-30 ms each at 100k papers), `texts` reading the saved texts;
        None if they cannot be (or papers were edited meanwhile)."""
        loaded = yield from loading
        if loaded is None:
            return None
        file, state = loaded
        try:
            length, starts, ends, lines = state
            tokens: dict[Line, TokenIndex] = {}
            for line in (0, 1, None):
                yield
                tokens[line] = TokenIndex.from_state(lines[line])
            if any(t.n != self._digest.n for t in tokens.values()):
                raise ValueError("not this catalogue's indexes")
            if not self._unchanged(texts):  # edited while it was read
                raise ValueError("papers edited meanwhile")
            texts.adopt(file, length, starts, ends)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError):
            file.close()
            return None
        except BaseException:  # (closed half way: the index went, say)
            file.close()
            raise
        self.done = True
        return tokens

    @property
    def busy(self) -> bool:
        """Another process builds the token indexes (elsewhere() polls it)."""
        return self._builder is not None

    def elsewhere(self, texts: CatalogueTexts) -> tuple[bool, dict[Line, TokenIndex] | None]:
        """(busy, token indexes): another process builds and saves the token indexes
        of these (unchanged) papers' texts, then they are taken up from the save.
        Neither busy nor indexes: build them here (that cannot be, or it failed)."""
        if self._builder is None:
            if self.done or self._tried or self._digest.value is None or not self._unchanged(texts):
                return False, None
            self._tried = True
            file, length, starts, ends = texts.saved_form(lend=True)
            self._builder = self._store.build_elsewhere(
                self._digest.value, file, length, starts, ends
            )
            if self._builder is None:
                return False, None
        status = self._builder.poll()
        if status is None:
            return True, None
        self._builder = None
        assert self._digest.value is not None  # (the builder was started with it)
        tokens = (
            run_steps(self._taken_up(texts, self._store.load(self._digest.value)))[1]
            if status == 0
            else None
        )
        self.done = tokens is not None
        return False, tokens

    def save(
        self, texts: CatalogueTexts, tokens: dict[Line, TokenIndex], deadline: float | None
    ) -> bool:
        """Save what was built from these papers, a slice at a time until `deadline`
        (None: all); True once saved or given up (the papers changed meanwhile)."""
        if self.done or self._digest.value is None:
            return True
        if not (self._unchanged(texts) and texts.built == self._digest.n):
            self._give_up()
            return True
        if self._saving is None:
            file, length, starts, ends = texts.saved_form()
            self._saving = self._store.save(
                self._digest.value, file, length, saved_state(length, starts, ends, tokens)
            )
        if not run_steps(self._saving, deadline)[0]:
            return False
        self._saving, self.done = None, True
        return True

    def _give_up(self) -> None:
        if self._saving is not None:
            self._saving.close()  # the half-written files are removed
        self._saving, self.done = None, True
