"""What a paper and an annotation are: frozen values, plain dicts on disk."""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Any

from reader.core import say
from reader.core.normalise import normalise_tags
from reader.core.records import record


class Status(StrEnum):
    """The reader's own progress on a paper. Never a tag."""

    UNREAD = "unread"
    READING = "reading"
    READ = "read"

    @classmethod
    def parse(cls, value: str) -> Status:
        """Return the status named by `value` (case-insensitive) or raise ValueError."""
        try:
            return cls(value.strip().lower())
        except ValueError:
            names = ", ".join(s.value for s in cls)
            raise say.SaidError(
                "unknown status {value} (expected one of: {names})", value=repr(value), names=names
            ) from None


def _str(value: Any) -> str:
    return "" if value is None else str(value)


@record(frozen=True, slots=True)
class Paper:
    """One entry of the catalogue (papers.json). Owned by imports, not by the user."""

    id: str
    title: str
    authors: tuple[str, ...] = ()
    abstract: str = ""
    venue: str = ""
    year: int | None = None
    url: str = ""
    #: the venue's decision: Poster, Oral, Spotlight...
    presentation: str = ""
    track: str = ""
    doi: str = ""
    arxiv: str = ""
    #: where the record came from (file name or "bundled sample")
    source: str = ""
    #: True when the title was derived from the abstract (plain-text lists)
    title_derived: bool = False
    #: ISO 8601 UTC time the paper entered the library
    added: str = ""
    #: the link to the paper's PDF (conference exports have it beside the page's url)
    pdf: str = ""
    #: the source's keywords (the authors' or the venue's, never the user's tags)
    keywords: tuple[str, ...] = ()
    #: the venue's subject area ("Deep Learning->Theory")
    primary_area: str = ""

    def __init__(
        self,
        id: str,
        title: str,
        authors: tuple[str, ...] = (),
        abstract: str = "",
        venue: str = "",
        year: int | None = None,
        url: str = "",
        presentation: str = "",
        track: str = "",
        doi: str = "",
        arxiv: str = "",
        source: str = "",
        title_derived: bool = False,
        added: str = "",
        pdf: str = "",
        keywords: tuple[str, ...] = (),
        primary_area: str = "",
    ) -> None:
        put = object.__setattr__
        put(self, "id", id)
        put(self, "title", title)
        put(self, "authors", authors)
        put(self, "abstract", abstract)
        put(self, "venue", venue)
        put(self, "year", year)
        put(self, "url", url)
        put(self, "presentation", presentation)
        put(self, "track", track)
        put(self, "doi", doi)
        put(self, "arxiv", arxiv)
        put(self, "source", source)
        put(self, "title_derived", title_derived)
        put(self, "added", added)
        put(self, "pdf", pdf)
        put(self, "keywords", keywords)
        put(self, "primary_area", primary_area)

    def to_dict(self) -> dict[str, Any]:
        # written out rather than dataclasses.asdict(): imports call this 100,000 times
        return {
            "id": self.id,
            "title": self.title,
            "authors": list(self.authors),
            "abstract": self.abstract,
            "venue": self.venue,
            "year": self.year,
            "url": self.url,
            "presentation": self.presentation,
            "track": self.track,
            "doi": self.doi,
            "arxiv": self.arxiv,
            "source": self.source,
            "title_derived": self.title_derived,
            "added": self.added,
            "pdf": self.pdf,
            "keywords": list(self.keywords),
            "primary_area": self.primary_area,
        }

    @classmethod
    def from_document(
        cls, pid: str, doc: Mapping[str, Any], pool: dict[str, str] | None = None
    ) -> Paper:
        """from_dict for a papers.json document, whose id is its key: no copy of the
        document in the common case."""
        fast = _from_clean_dict(cls, pid, doc, pool)
        return fast if fast is not None else cls.from_dict({**doc, "id": pid}, pool)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], pool: dict[str, str] | None = None) -> Paper:
        """A Paper from a stored document; odd values are converted (None -> "",
        a number -> its text, a bad year -> None). Given `pool`, values that repeat
        across papers (venue, track, source...) are shared instead of copied: at 100k
        papers that saves tens of megabytes."""
        fast = _from_clean_dict(cls, data.get("id"), data, pool)
        return fast if fast is not None else cls._from_any_dict(data)

    @classmethod
    def _from_any_dict(cls, data: Mapping[str, Any]) -> Paper:
        """from_dict's careful path: any mapping, every value converted."""
        year = data.get("year")
        try:
            year_value = int(year) if year not in (None, "") else None
        except (TypeError, ValueError, OverflowError):  # (OverflowError: an infinite float)
            year_value = None
        authors = data.get("authors") or ()
        if isinstance(authors, str):
            authors = (authors,)
        keywords = data.get("keywords") or ()
        if isinstance(keywords, str):
            keywords = (keywords,)
        return cls(
            id=_str(data["id"]),
            title=_str(data.get("title")),
            authors=tuple(_str(a) for a in authors),
            abstract=_str(data.get("abstract")),
            venue=_str(data.get("venue")),
            year=year_value,
            url=_str(data.get("url")),
            presentation=_str(data.get("presentation")),
            track=_str(data.get("track")),
            doi=_str(data.get("doi")),
            arxiv=_str(data.get("arxiv")),
            source=_str(data.get("source")),
            title_derived=bool(data.get("title_derived", False)),
            added=_str(data.get("added")),
            pdf=_str(data.get("pdf")),
            keywords=tuple(_str(k) for k in keywords),
            primary_area=_str(data.get("primary_area")),
        )


_get_fields = operator.itemgetter(
    "title",
    "abstract",
    "venue",
    "url",
    "presentation",
    "track",
    "doi",
    "arxiv",
    "source",
    "added",
    "authors",
    "year",
    "title_derived",
)
_STR = {str}
_NO_WORDS: list[str] = []


def _from_clean_dict(
    cls: type[Paper], pid: Any, data: Mapping[str, Any], pool: dict[str, str] | None
) -> Paper | None:
    """Paper.from_dict for a document as we write it (every field present, of its
    type), a few times faster; None for anything else (the careful path takes it)."""
    if cls is not Paper:
        return None
    try:
        (
            title,
            abstract,
            venue,
            url,
            presentation,
            track,
            doi,
            arxiv,
            source,
            added,
            authors,
            year,
            derived,
        ) = _get_fields(data)
    except (KeyError, TypeError):
        return None
    # (fields added since: absent from the files of earlier versions, read as empty)
    get = data.get
    pdf, keywords, area = get("pdf", ""), get("keywords", _NO_WORDS), get("primary_area", "")
    if (
        type(authors) is not list
        or type(derived) is not bool
        or not (year is None or type(year) is int)
        or type(keywords) is not list
    ):
        return None
    names = tuple(authors)
    words = tuple(keywords) if keywords else ()
    if {
        *map(type, names),
        type(pid),
        type(title),
        type(abstract),
        type(venue),
        type(url),
        type(presentation),
        type(track),
        type(doi),
        type(arxiv),
        type(source),
        type(added),
        type(pdf),
        type(area),
        *map(type, words),
    } != _STR:
        return None
    if pool is not None:  # the fields whose values repeat from paper to paper
        share = pool.setdefault
        venue, presentation, track = (
            share(venue, venue),
            share(presentation, presentation),
            share(track, track),
        )
        source, added = share(source, source), share(added, added)
        area = share(area, area)
    return Paper(
        pid, title, names, abstract, venue, year, url, presentation, track, doi, arxiv,
        source, derived, added, pdf, words, area,
    )  # fmt: skip


#: a listed paper's abstract when it has one: the library lists papers without their
#: abstracts (at 100k papers they are most of its memory) and fetches the text from its
#: store when a paper is shown, exported, searched or ranked (Library.abstracts); a
#: real abstract equal to it is only fetched needlessly
NOT_LOADED = "\x00(the abstract is in the catalogue's index)"


def listed(paper: Paper) -> Paper:
    """`paper` as a library lists it: its abstract NOT_LOADED (or "", if none)."""
    if paper.abstract in ("", NOT_LOADED):
        return paper
    return with_abstract(paper, NOT_LOADED)


def with_abstract(paper: Paper, abstract: str) -> Paper:
    """dataclasses.replace(paper, abstract=abstract), quicker (100,000 papers are
    listed after an import, and fetched whole to be searched)."""
    fields: tuple[Any, ...] = _paper_fields(paper)
    return Paper(*(*fields[:3], abstract, *fields[4:]))


_paper_fields = operator.attrgetter(*Paper.__slots__)


@record(frozen=True, slots=True)
class Highlight:
    """A passage of the abstract the user marked, anchored by its quote and context."""

    id: str
    quote: str
    prefix: str = ""
    suffix: str = ""
    color: str = "yellow"
    comment: str = ""
    created: str = ""

    def __init__(
        self,
        id: str,
        quote: str,
        prefix: str = "",
        suffix: str = "",
        color: str = "yellow",
        comment: str = "",
        created: str = "",
    ) -> None:
        put = object.__setattr__
        put(self, "id", id)
        put(self, "quote", quote)
        put(self, "prefix", prefix)
        put(self, "suffix", suffix)
        put(self, "color", color)
        put(self, "comment", comment)
        put(self, "created", created)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Highlight:
        return cls(
            id=_str(data.get("id")),
            quote=_str(data.get("quote")),
            prefix=_str(data.get("prefix")),
            suffix=_str(data.get("suffix")),
            color=_str(data.get("color")) or "yellow",
            comment=_str(data.get("comment")),
            created=_str(data.get("created")),
        )


@record(frozen=True, slots=True)
class Annotation:
    """What the user wrote about one paper (annotations.json)."""

    paper_id: str
    status: Status = Status.UNREAD
    tags: tuple[str, ...] = ()
    note: str = ""
    highlights: tuple[Highlight, ...] = ()
    rating: int = 0
    created: str = ""
    modified: str = ""

    def __init__(
        self,
        paper_id: str,
        status: Status = Status.UNREAD,
        tags: tuple[str, ...] = (),
        note: str = "",
        highlights: tuple[Highlight, ...] = (),
        rating: int = 0,
        created: str = "",
        modified: str = "",
    ) -> None:
        put = object.__setattr__
        put(self, "paper_id", paper_id)
        put(self, "status", status)
        put(self, "tags", tags)
        put(self, "note", note)
        put(self, "highlights", highlights)
        put(self, "rating", rating)
        put(self, "created", created)
        put(self, "modified", modified)

    @property
    def is_empty(self) -> bool:
        return (
            self.status is Status.UNREAD
            and not self.tags
            and not self.note
            and not self.highlights
            and not self.rating
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "paper_id": self.paper_id,
            "status": self.status.value,
            "tags": list(self.tags),
            "note": self.note,
            "highlights": [h.to_dict() for h in self.highlights],
            "rating": self.rating,
            "created": self.created,
            "modified": self.modified,
        }

    def stored(self, names: Iterable[str]) -> dict[str, Any]:
        """The fields `names` as to_dict() has them (what a save writes of an edit)."""
        full = self.to_dict()
        return {name: full[name] for name in names}

    def edited(self, paper_id: str, changes: Mapping[str, Any], stamp: str) -> Annotation:
        """What this annotation (or NO_ANNOTATION) becomes as paper_id's with `changes`
        (field: value), modified at `stamp` and created then if it is new: as
        dataclasses.replace(), faster (a bulk edit makes 100,000)."""
        get = changes.get
        return Annotation(
            paper_id,
            get("status", self.status),
            get("tags", self.tags),
            get("note", self.note),
            get("highlights", self.highlights),
            get("rating", self.rating),
            self.created or stamp,
            stamp,
        )

    @classmethod
    def from_document(cls, pid: str, doc: Mapping[str, Any]) -> Annotation:
        """from_dict({**doc, "paper_id": pid}) for an annotations.json document, whose
        id is its key: a few times faster for one as we write it (a 100k library's
        annotations are read at every open)."""
        try:
            fields = _get_annotation_fields(doc)
        except (KeyError, TypeError):
            return cls.from_dict({**doc, "paper_id": pid})
        return _plain(pid, *fields) or cls.from_dict({**doc, "paper_id": pid})

    def row(self) -> list[Any]:
        """The annotation as one list (the order from_row() takes): a compact form of
        to_dict() for a cache of many."""
        return [
            self.paper_id,
            self.status.value,
            list(self.tags),
            self.note,
            [h.to_dict() for h in self.highlights],
            self.rating,
            self.created,
            self.modified,
        ]

    @classmethod
    def from_row(cls, row: Sequence[Any]) -> Annotation:
        """The annotation row() gave: its fields are taken as row() wrote them (the
        caller checks the bytes are ours: see view_cache.py). KeyError, TypeError or
        ValueError if `row` is not one."""
        pid, status, tags, note, highlights, rating, created, modified = row
        return cls(
            pid,
            _STATUSES[status],
            _stored_tags(tuple(tags)),
            note,
            tuple(map(Highlight.from_dict, highlights)) if highlights else (),
            rating,
            created,
            modified,
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Annotation:
        raw_status = data.get("status") or "unread"
        status = _STATUSES.get(raw_status) if type(raw_status) is str else None
        if status is None:
            try:
                status = Status.parse(_str(raw_status))
            except ValueError:
                status = Status.UNREAD
        tags = data.get("tags") or ()
        if isinstance(tags, str):
            tags = (tags,)
        try:
            rating = int(data.get("rating") or 0)
        except (TypeError, ValueError, OverflowError):
            rating = 0
        return cls(
            paper_id=_str(data["paper_id"]),
            status=status,
            tags=_stored_tags(tuple(map(_str, tags))),
            note=_str(data.get("note")),
            highlights=tuple(
                Highlight.from_dict(h)
                for h in data.get("highlights") or ()
                if isinstance(h, Mapping)
            ),
            rating=rating,
            created=_str(data.get("created")),
            modified=_str(data.get("modified")),
        )


def _plain(
    pid: str,
    status: Any,
    tags: Any,
    note: Any,
    highlights: Any,
    rating: Any,
    created: Any,
    modified: Any,
) -> Annotation | None:
    """The annotation of these stored fields if each has the type we write and there
    are no highlights; None otherwise (from_dict() then, which checks each)."""
    if (
        type(status) is str
        and type(tags) is list
        and type(note) is str
        and highlights == []
        and type(rating) is int
        and type(created) is str
        and type(modified) is str
    ):
        known = _STATUSES.get(status or "unread")
        names = tuple(tags)
        if known is not None and all(type(tag) is str for tag in names):
            return Annotation(pid, known, _stored_tags(names), note, (), rating, created, modified)
    return None


_get_annotation_fields = operator.itemgetter(
    "status", "tags", "note", "highlights", "rating", "created", "modified"
)
#: how a paper leaves the catalogue: to the trash (what the user wrote about it kept,
#: to be put back), or purged (the trash emptied)
TRASH, PURGED = "trash", "purged"
#: the fields of a paper without an annotation, to read (its paper_id is no paper's)
NO_ANNOTATION = Annotation("")
_STATUSES = {s.value: s for s in Status}


@functools.lru_cache(maxsize=4096)
def _stored_tags(tags: tuple[str, ...]) -> tuple[str, ...]:
    """normalise_tags of a stored annotation's tags (the same few sets recur)."""
    return tuple(normalise_tags(tags))
