"""Paper.from_dict: the fast path for clean documents agrees with the careful one."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from reader.core.models import Annotation, Paper

FIELDS = ("id", "title", "abstract", "venue", "url", "presentation", "track", "doi", "arxiv", "source",
          "added")
ODD = st.one_of(st.none(), st.integers(), st.floats(allow_nan=False), st.booleans(), st.text(max_size=8),
                st.lists(st.text(max_size=4), max_size=2))


def clean_doc() -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries({
        **{f: st.text(max_size=30) for f in FIELDS},
        "authors": st.lists(st.text(max_size=12), max_size=5),
        "year": st.one_of(st.none(), st.integers(1900, 2100)),
        "title_derived": st.booleans(),
    })


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
    docs = [{"id": f"p{i}", "title": f"T{i}", "authors": ["Grace " + "Hopper"], "abstract": "",
             "venue": "ICML " + "2025", "url": "", "presentation": "Poster", "track": "main", "doi": "",
             "arxiv": "", "source": "list.json", "title_derived": False, "year": 2025,
             "added": "2025-01-01T00:00:00+00:00"} for i in range(2)]
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
