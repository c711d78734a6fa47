"""Values as they may be stored: text cleaned, sizes bounded, JSON-safe."""

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Iterable

from reader.core import say
from reader.core.models import Annotation, Highlight
from reader.core.normalise import normalise_tags

#: The most a note may hold; bigger ones are refused before anything is written.
#: Every save rewrites annotations.json whole, so one huge note slows every later
#: save of any paper; a million characters is some 300 printed pages.
MAX_NOTE_CHARS = 1_000_000
#: Tags are labels, highlights quote an abstract: anything longer is a mistake.
MAX_TAG_CHARS = 200
MAX_HIGHLIGHT_CHARS = 100_000


# C0 controls other than tab, newline and carriage return: JSON can hold them, but
# they are never meant in text and break the files for other tools. The ones that
# separate things (vertical tab, form feed, separators) become a space.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1b]")
_CONTROL_SPACE = re.compile("[\x0b\x0c\x1c-\x1f]")


def clean_text(text: str, *, limit: int) -> str:
    """Text as it may be stored: surrogate pairs joined, lone surrogates replaced
    by U+FFFD, control characters dropped. Longer than `limit`: ValueError."""
    if len(text) > limit:
        raise say.SaidError(
            "text of {count:,} characters is over the limit of {limit:,}",
            count=len(text),
            limit=limit,
        )
    if _has_surrogate(text):
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return _CONTROL_SPACE.sub(" ", _CONTROL.sub("", text))


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def clean_tags(tags: Iterable[str]) -> list[str]:
    return normalise_tags(clean_text(t, limit=MAX_TAG_CHARS) for t in tags)


def clean_highlight(h: Highlight) -> Highlight:
    def c(text: str) -> str:
        return clean_text(text, limit=MAX_HIGHLIGHT_CHARS)

    return dataclasses.replace(
        h,
        quote=c(h.quote),
        prefix=c(h.prefix),
        suffix=c(h.suffix),
        comment=c(h.comment),
        color=c(h.color),
        id=c(h.id),
        created=c(h.created),
    )


def clean_rating(rating: object) -> int:
    if isinstance(rating, bool) or not isinstance(rating, (int, float)):
        raise say.SaidError(
            "a rating must be a whole number, not {rating}", rating=repr(rating)
        )  # (callers catch ValueError for bad input)
    if not math.isfinite(rating) or rating != int(rating) or abs(rating) > 1_000:
        raise say.SaidError(
            "a rating must be a small whole number, not {rating}", rating=repr(rating)
        )
    return int(rating)


def clean_annotation(ann: Annotation) -> Annotation:
    """An annotation whose every value can be stored (see clean_text); ValueError if
    not. `ann` itself if it is clean already (undo puts back 100,000 of them)."""
    note = clean_text(ann.note, limit=MAX_NOTE_CHARS)
    tags = tuple(clean_tags(ann.tags))
    highlights = tuple(clean_highlight(h) for h in ann.highlights)
    rating = clean_rating(ann.rating)
    if type(ann.rating) is int and (note, tags, highlights) == (ann.note, ann.tags, ann.highlights):
        return ann
    return dataclasses.replace(ann, note=note, tags=tags, highlights=highlights, rating=rating)


def check_savable(value: object) -> None:
    """Raise ValueError if `value` holds what the files cannot: lone surrogates, NaN or
    infinities, odd types (what orjson, which writes them, refuses)."""
    import orjson

    try:
        encoded = orjson.dumps(value, option=_plain_json())
    except orjson.JSONEncodeError as exc:
        raise ValueError(f"cannot be saved: {exc}") from None
    if encoded == b"null" or any(null in encoded for null in _NULL_VALUES):
        _refuse_non_finite(value)  # orjson writes NaN and the infinities as null: look for them


#: a null as a value in orjson's compact output (not the word in a note: a 100k undo
#: with one note saying "null" walked everything)
_NULL_VALUES = (b":null", b"[null", b",null")


@functools.cache
def _plain_json() -> int:
    """orjson's options for no dataclasses, times or subclasses of str, int, dict, list
    written as JSON."""
    import orjson

    return int(
        orjson.OPT_PASSTHROUGH_DATACLASS
        | orjson.OPT_PASSTHROUGH_DATETIME
        | orjson.OPT_PASSTHROUGH_SUBCLASS
    )


def _refuse_non_finite(value: object) -> None:
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot be saved: {value} is not a number JSON can hold")
    elif isinstance(value, dict):
        for item in value.values():
            _refuse_non_finite(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _refuse_non_finite(item)
    elif value is not None and type(value) not in (str, int, bool):  # an Enum whose value is NaN
        raise ValueError(f"cannot be saved: {value!r} is not JSON")
