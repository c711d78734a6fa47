"""The record classes are what @dataclass(frozen=True, slots=True) would make of them
(reader.core.records): the same constructor, equality, hash, text, immutability,
copies and dataclasses.replace()."""

import copy
import dataclasses
import functools
import inspect
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reader.core.models import Annotation, Highlight, Paper, Status
from reader.core.pieces import Styled
from reader.core.records import record

RECORDS = [Paper, Highlight, Annotation, Styled]


@functools.cache
def reference(cls):
    """The class @dataclass(frozen=True, slots=True) makes of cls's fields."""
    fields = [
        (f.name, f.type, dataclasses.field(default=f.default)) for f in dataclasses.fields(cls)
    ]
    return dataclasses.make_dataclass(cls.__name__, fields, frozen=True, slots=True)


def values_for(cls):
    """Field values of each field's type, as keywords."""
    text = st.text(max_size=5)
    kinds = {
        "str": text,
        "int": st.integers(-3, 3),
        "int | None": st.none() | st.integers(1990, 2030),
        "bool": st.booleans(),
        "Status": st.sampled_from(Status),
        "tuple[str, ...]": st.tuples(text, text),
        "tuple[Highlight, ...]": st.just((Highlight("h", "q"),)),
        "tuple[Piece, ...]": st.tuples(text),
    }
    return st.fixed_dictionaries({f.name: kinds[f.type] for f in dataclasses.fields(cls)})


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_the_constructor_takes_the_fields_in_order_with_their_defaults(cls):
    ours = inspect.signature(cls.__init__).parameters
    theirs = inspect.signature(reference(cls).__init__).parameters
    assert [(p.name, p.default, p.kind) for p in ours.values()] == [
        (p.name, p.default, p.kind) for p in theirs.values()
    ]
    assert cls.__slots__ == tuple(f.name for f in dataclasses.fields(cls))
    assert cls.__match_args__ == reference(cls).__match_args__


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
@given(data=st.data())
def test_a_record_behaves_as_the_frozen_dataclass(cls, data):
    first, second = data.draw(values_for(cls)), data.draw(values_for(cls))
    ours, theirs = cls(**first), reference(cls)(**first)
    positional = cls(*(first[f.name] for f in dataclasses.fields(cls)))
    assert (
        dataclasses.astuple(ours) == dataclasses.astuple(theirs) == dataclasses.astuple(positional)
    )
    assert repr(ours) == repr(theirs) and repr(ours) == repr(positional)
    other, other_ref = cls(**second), reference(cls)(**second)
    assert (ours == other) == (theirs == other_ref) == (first == second)
    assert ours == positional and hash(ours) == hash(positional) == hash(theirs)
    assert (
        ours != theirs and (ours == dataclasses.astuple(ours)) is False
    )  # another class: never equal
    assert (
        copy.copy(ours) == ours
        and copy.deepcopy(ours) == ours
        and pickle.loads(pickle.dumps(ours)) == ours
    )
    changed = dataclasses.replace(ours, **second)
    assert type(changed) is cls and changed == other
    name = dataclasses.fields(cls)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(ours, name, first[name])
    with pytest.raises(dataclasses.FrozenInstanceError):
        delattr(ours, name)
    with pytest.raises(AttributeError):  # slots: no other attribute either
        object.__setattr__(ours, "elsewhere", 1)
    assert dataclasses.astuple(ours) == dataclasses.astuple(theirs)  # unchanged by the attempts


def test_a_record_is_frozen_and_has_slots():
    with pytest.raises(TypeError):
        record(frozen=False, slots=True)
    with pytest.raises(TypeError):
        record(frozen=True, slots=False)


def test_an_init_that_does_not_take_the_fields_in_order_is_refused():
    def made(init):
        return type(
            "Broken", (), {"__annotations__": {"a": "str", "b": "int"}, "b": 0, "__init__": init}
        )

    record(frozen=True, slots=True)(made(lambda self, a, b=0: None))  # as it should be
    for init in (
        lambda self, b, a=0: None,
        lambda self, a, b=1: None,
        lambda self, a, b: None,
        lambda self, a: None,
        lambda self, a, b=0, c=2: None,
    ):
        with pytest.raises(TypeError):
            record(frozen=True, slots=True)(made(init))
