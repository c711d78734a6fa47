"""Frozen records: dataclasses whose methods are written once, not made per class.

@dataclass(frozen=True) writes each class's __init__, __eq__, __hash__, __repr__,
__setattr__ and __delattr__ out as source and compiles it: ~5M instructions a class,
~20M of the start-up for the four classes needed before the first paint. A record
class writes its own __init__ instead (each field set with object.__setattr__, as a
frozen dataclass's is, and checked against the fields when the class is made);
@record(frozen=True, slots=True) gives it the others, written once here (closures
over the class's field names, nothing compiled), and keeps it a dataclass with
slots: dataclasses.fields() and replace() work as before. (Its dataclass params say
not frozen: no record is subclassed.) tests/unit/test_records.py holds each class
to what @dataclass(frozen=True, slots=True) would have made of it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeVar

__all__ = ["frozen_record", "record"]

Record = TypeVar("Record", bound=type)

if TYPE_CHECKING:  # to type checkers, what the record is: a frozen dataclass with slots
    from dataclasses import dataclass as record
else:

    def record(*, frozen: bool, slots: bool) -> Callable[[Record], Record]:
        """Written as @record(frozen=True, slots=True): the class as a frozen dataclass
        with slots (to type checkers, @dataclass(frozen=True, slots=True) itself)."""
        if not (frozen and slots):
            raise TypeError("a record is frozen and has slots")
        return frozen_record


def frozen_record(cls: Record) -> Record:
    """`cls` (with its own __init__ taking its fields in order) as a frozen dataclass
    with slots: equal when of the same class with equal fields, hashed by its fields,
    shown as ClassName(field=value, ...), its fields never set again after __init__."""
    made: Any = dataclasses.dataclass(init=False, repr=False, eq=False, slots=True)(cls)
    fields = dataclasses.fields(made)
    names = tuple(field.name for field in fields)
    if len(names) < 2:
        raise TypeError(f"{cls.__name__}: a record has two fields or more")
    init = made.__init__
    defaults = tuple(field.default for field in fields if field.default is not dataclasses.MISSING)
    if (
        init.__code__.co_varnames[1 : init.__code__.co_argcount] != names
        or (init.__defaults__ or ()) != defaults
    ):
        raise TypeError(
            f"{cls.__name__}.__init__ does not take its fields in order, with their defaults"
        )
    values = attrgetter(*names)  # (a tuple of the fields' values)

    def __eq__(self: Any, other: Any) -> Any:  # noqa: N807 (the class's own method)
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self: Any) -> int:  # noqa: N807 (the class's own method)
        return hash(values(self))

    def __repr__(self: Any) -> str:  # noqa: N807 (the class's own method)
        shown = ", ".join(
            f"{name}={value!r}" for name, value in zip(names, values(self), strict=True)
        )
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self: Any, name: str, value: Any) -> None:  # noqa: N807 (the class's own method)
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:  # noqa: N807 (the class's own method)
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self: Any) -> tuple[Any, ...]:  # noqa: N807 (copy, pickle: via __init__)
        return self.__class__, values(self)

    for method in (__eq__, __hash__, __repr__, __setattr__, __delattr__, __reduce__):
        method.__qualname__ = f"{made.__qualname__}.{method.__name__}"
        setattr(made, method.__name__, method)
    return made  # type: ignore[no-any-return]
