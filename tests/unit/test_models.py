"""Paper.from_dict: the fast path for clean documents agrees with the careful one."""

from __future__ import annotations

from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from reader.core.models import Annotation, Paper

FIELDS = (
    "id",
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
)
ODD = st.one_of(
    st.none(),
    st.integers(),
    st.floats(allow_nan=False),
    st.booleans(),
    st.text(max_size=8),
    st.lists(st.text(max_size=4), max_size=2),
)


def clean_doc() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {
            **{f: st.text(max_size=30) for f in FIELDS},
            "authors": st.lists(st.text(max_size=12), max_size=5),
            "year": st.one_of(st.none(), st.integers(1900, 2100)),
            "title_derived": st.booleans(),
        }
    )


@settings(max_examples=300)
@given(clean_doc())
def test_clean_documents_take_the_fast_path_to_the_same_paper(doc: dict[str, Any]) -> None:
    assert Paper.from_dict(doc) == Paper._from_any_dict(doc)
    assert Paper.from_dict(doc, {}) == Paper._from_any_dict(doc)
    pid = doc.pop("id")
    assert Paper.from_document(pid, doc) == Paper._from_any_dict({**doc, "id": pid})


@settings(max_examples=300)
@given(clean_doc(), st.sampled_from([*FIELDS[1:], "authors", "year", "title_derived"]), ODD)
def test_odd_values_are_converted_as_before(doc: dict[str, Any], field: str, value: Any) -> None:
    doc[field] = value
    expected = outcome(Paper._from_any_dict, doc)
    assert outcome(Paper.from_dict, doc) == expected
    assert outcome(lambda d: Paper.from_dict(d, {}), doc) == expected


def outcome(make: Any, doc: dict[str, Any]) -> Any:
    """The paper made, or the kind of error raised (loading skips such a record)."""
    try:
        return make(doc)
    except (TypeError, ValueError, KeyError) as exc:
        return type(exc)


def test_missing_fields_and_odd_types_are_filled_in() -> None:
    paper = Paper.from_dict({"id": 7, "title": None, "authors": "Ada Lovelace", "year": "2024"})
    assert paper == Paper("7", "", ("Ada Lovelace",), year=2024)
    assert Paper.from_document("p1", {"title": "T", "year": True}) == Paper("p1", "T", year=1)


def test_a_pool_shares_repeated_values_between_papers() -> None:
    pool: dict[str, str] = {}
    docs = [
        {
            "id": f"p{i}",
            "title": f"T{i}",
            "authors": ["Grace " + "Hopper"],
            "abstract": "",
            "venue": "ICML " + "2025",
            "url": "",
            "presentation": "Poster",
            "track": "main",
            "doi": "",
            "arxiv": "",
            "source": "list.json",
            "title_derived": False,
            "year": 2025,
            "added": "2025-01-01T00:00:00+00:00",
        }
        for i in range(2)
    ]
    first, second = (Paper.from_dict(d, pool) for d in docs)
    assert first.venue == "ICML 2025" and first.venue is second.venue
    assert first.title is not second.title


def test_annotations_read_odd_statuses_and_tags_as_before() -> None:
    from reader.core.models import Annotation, Status

    def ann(**doc: Any) -> Annotation:
        return Annotation.from_dict({"paper_id": "p", **doc})

    assert ann(status="read").status is Status.READ
    assert ann(status=" Reading ").status is Status.READING
    assert ann(status=3).status is Status.UNREAD and ann(status="skimmed").status is Status.UNREAD
    assert ann(tags=[" rl ", "RL", "method / diffusion", 7]).tags == ("rl", "method/diffusion", "7")
    assert ann(tags="solo").tags == ("solo",)


def test_an_infinite_year_or_rating_is_dropped_not_raised() -> None:
    # json.loads reads Infinity; int() of it raises OverflowError (found by the test above)
    for infinite in (float("inf"), float("-inf")):
        assert Paper.from_dict({"id": "p", "year": infinite}).year is None
        assert Annotation.from_dict({"paper_id": "p", "rating": infinite}).rating == 0


_ANNOTATION_VALUES = {
    "status": st.sampled_from(["unread", "reading", "read", "", "READ", " read", "skim", None, 3]),
    "tags": st.lists(
        st.sampled_from(["rl", " rl", "RL", "a/b", "a//b ", "", "x y", "é", 3]), max_size=4
    )
    | st.sampled_from(["rl", None, (), ("rl",)]),
    "note": st.text(max_size=5) | st.sampled_from([None, 3]),
    "highlights": st.sampled_from([[], [{"id": "h", "quote": "q"}], None, [3], ()]),
    "rating": st.integers(-2, 5) | st.sampled_from([True, None, "2", 2.5]),
    "created": st.text(max_size=3) | st.none(),
    "modified": st.text(max_size=3) | st.none(),
}


_CLEAN_ANNOTATION = st.fixed_dictionaries(
    {
        "status": st.sampled_from(["unread", "reading", "read", ""]),
        "tags": st.lists(
            st.sampled_from(["rl", " rl", "RL", "a/b", "a//b ", "", "x  y", "é"]), max_size=4
        ),
        "note": st.text(max_size=5),
        "highlights": st.just([]),
        "rating": st.integers(-2, 5),
        "created": st.text(max_size=3),
        "modified": st.text(max_size=3),
    }
)


_ONE_ODD_FIELD = _CLEAN_ANNOTATION.flatmap(
    lambda doc: st.sampled_from(sorted(_ANNOTATION_VALUES)).flatmap(
        lambda name: _ANNOTATION_VALUES[name].map(lambda value: {**doc, name: value})
    )
)


_CLEAN = {
    "status": "read",
    "tags": ["rl", " RL", "a//b"],
    "note": "n",
    "highlights": [],
    "rating": 2,
    "created": "c",
    "modified": "m",
}


@given(
    _CLEAN_ANNOTATION | _ONE_ODD_FIELD | st.fixed_dictionaries({}, optional=_ANNOTATION_VALUES),
    st.booleans(),
)
@example(_CLEAN, False)
@example({**_CLEAN, "rating": True}, False)
@example({**_CLEAN, "status": ""}, True)
@example({**_CLEAN, "tags": "rl"}, False)
@example({**_CLEAN, "highlights": [{"id": "h", "quote": "q"}]}, False)
def test_an_annotation_document_reads_as_from_dict_reads_it(
    doc: dict[str, Any], extra: bool
) -> None:
    """from_document (annotations.json's documents, fast when they are as we write
    them) gives what from_dict gives, or raises as it does."""
    if extra:
        doc = {**doc, "paper_id": "someone else's", "other": 1}
    try:
        expected: Any = Annotation.from_dict({**doc, "paper_id": "p1"})
    except Exception as exc:  # noqa: BLE001  (compared below)
        expected = type(exc)
    try:
        got: Any = Annotation.from_document("p1", doc)
    except Exception as exc:  # noqa: BLE001
        got = type(exc)
    assert got == expected
    if isinstance(got, Annotation):
        assert repr(got) == repr(expected)  # (the same types: 1 is not True)
