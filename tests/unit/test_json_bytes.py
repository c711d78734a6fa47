"""json_bytes.loads reads as orjson.loads does: the same value, or the same error, both
before orjson is loaded (small documents read by the standard library) and after."""

import json

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reader.store import json_bytes


@pytest.fixture
def orjson_loaded():
    """As in a program that has loaded orjson (this test module has)."""


@pytest.fixture(autouse=True)
def standard_library_first(request, monkeypatch):
    """As in a program that has not loaded orjson yet, unless the test asks for
    `orjson_loaded`: small documents are read by the standard library, and what these
    tests check is that it reads them as orjson does (the switch is private, but without
    it the standard library's reading could not be tested in this process)."""
    if "orjson_loaded" not in request.fixturenames:
        monkeypatch.setattr(json_bytes, "_orjson_if_loaded", lambda: None)


TRICKY = [
    b"NaN",
    b"[Infinity]",
    b"-Infinity",
    b'{"a": NaN}',
    b"1e400",
    b"-1e400",
    b"1.7976931348623159e308",
    b"1e-400",
    b"18446744073709551615",
    b"18446744073709551616",
    b"-9223372036854775808",
    b"-9223372036854775809",
    b"123456789012345678",
    b"1234567890123456789",
    b'"\\ud800"',
    b'"\\uDFFF x"',
    b'"\\ud83d\\ude00"',
    b'"\\\\ud800"',
    b"\xef\xbb\xbf{}",
    b"\xff",
    b'"\xed\xa0\x80"',
    b"[" * 1100 + b"]" * 1100,
    b"[" * 300 + b"]" * 300,
    b"{}x",
    b"",
    b" ",
    b"01",
    b"-",
    b"1.",
    b".5",
    b"1E5",
    b"-0",
    b"-0.0",
    b"1.0",
    b'{"a":1,"a":2}',
    b'"\\u0000\\n\\/"',
    b'"tab\there"',
    b"[1,]",
    b"{'a': 1}",
    b"true",
    b"nul",
    b" [1 , 2] \n",
    '{"é": "ü€𝔘"}'.encode(),
    b'{"a":{"b":[1,2.5,"x",null,false]}}',
]


def read_by_orjson(raw):
    try:
        return "value", orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        return "error", str(exc)


def read_by_ours(raw):
    try:
        return "value", json_bytes.loads(raw)
    except ValueError as exc:
        assert isinstance(exc, orjson.JSONDecodeError)
        return "error", str(exc)


def typed(value):
    """The value with every number's type beside it (1 and 1.0 are equal in Python)."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return type(value).__name__, value


def same(raw):
    kind, value = read_by_ours(raw)
    expected_kind, expected = read_by_orjson(raw)
    assert kind == expected_kind, raw[:60]
    if kind == "value":
        assert typed(value) == typed(expected), raw[:60]
        assert list(json.dumps(value)) == list(json.dumps(expected))  # keys in the same order
    else:
        assert value == expected, raw[:60]


@pytest.mark.parametrize("raw", TRICKY, ids=lambda raw: repr(raw[:24]))
def test_tricky_documents_read_as_orjson_reads_them(raw):
    same(raw)


values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(blacklist_categories=()), max_size=8),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=20,
)


@given(values, st.booleans(), st.sampled_from([None, 2]))
def test_any_document_reads_as_orjson_reads_it(value, ascii_only, indent):
    raw = json.dumps(value, ensure_ascii=ascii_only, indent=indent).encode("utf-8", "surrogatepass")
    same(raw)


@pytest.mark.parametrize("depth", [990, 1000, 1023, 1024, 1025])
def test_deep_nesting_reads_as_orjson_reads_it(depth):
    raw = b"[" * depth + b"]" * depth
    (kind, value), (expected_kind, expected) = read_by_ours(raw), read_by_orjson(raw)
    assert kind == expected_kind and (kind == "value" or value == expected)
    while kind == "value" and value:  # (walked down: comparing them would recurse as deep)
        value, expected = value[0], expected[0]
        assert type(value) is list and len(value) == len(expected) <= 1


@pytest.mark.parametrize("raw", TRICKY, ids=lambda raw: repr(raw[:24]))
def test_once_orjson_is_loaded_tricky_documents_read_as_it_reads_them(raw, orjson_loaded):
    same(raw)


def test_a_big_document_reads_as_orjson_reads_it():
    raw = json.dumps({"p": ["x" * 100] * (json_bytes.SMALL // 100)}).encode()
    assert len(raw) > json_bytes.SMALL
    same(raw)
    same(raw[:-1])
