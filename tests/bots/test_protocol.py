"""The view's delta of protocol 2 (bots/protocol.py): a JSON Patch that turns the last view into
the new one, worked by hand, and applied back for any two JSON values."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, strategies as st

from arbo_notation.bots.protocol import apply_delta, hello, view_delta
from arbo_notation.errors import ArboError


def test_the_hello_offers_both_versions_and_says_version_1_as_before():
    assert hello() == {"type": "hello", "protocol": 1, "protocols": [1, 2]}


def test_a_delta_by_hand():
    old = {
        "players": [{"name": "Ana", "trees": [[0, 0, "Ma3"]], "discard": ["Oa5", "Wi7"], "hand": ["Ca1", "Dw2"]}],
        "turn": 3,
        "phase": "draw",
        "a/b~c": 1,
        "gone": True,
    }
    new = {
        "players": [{"name": "Ana", "trees": [[0, 0, "Ma3"], [0, 1, "Ca1"]], "discard": ["Oa5"], "hand": ["Dw2"]}],
        "turn": 4,
        "phase": "draw",
        "a/b~c": 2,
        "new": None,
    }
    delta = view_delta(old, new)
    assert delta == [
        {"op": "remove", "path": "/gone"},
        {"op": "add", "path": "/players/0/trees/-", "value": [0, 1, "Ca1"]},  # grown at its end
        {"op": "remove", "path": "/players/0/discard/1"},  # cut at its end
        {"op": "replace", "path": "/players/0/hand", "value": ["Dw2"]},  # changed otherwise, resized
        {"op": "replace", "path": "/turn", "value": 4},
        {"op": "replace", "path": "/a~1b~0c", "value": 2},  # a key as a JSON Pointer writes it
        {"op": "add", "path": "/new", "value": None},
    ]
    assert apply_delta(copy.deepcopy(old), delta) == new
    assert view_delta(new, new) == []
    assert view_delta(None, new) == [{"op": "replace", "path": "", "value": new}]
    assert apply_delta(None, view_delta(None, new)) == new
    # same length, changed inside: each item followed; a list cut by several, from its end
    assert view_delta([1, [2, 3]], [1, [2, 4]]) == [{"op": "replace", "path": "/1/1", "value": 4}]
    assert view_delta({"x": [1, 2, 3]}, {"x": [1]}) == [
        {"op": "remove", "path": "/x/2"},
        {"op": "remove", "path": "/x/1"},
    ]
    assert view_delta({"x": 1}, {"x": True}) == [{"op": "replace", "path": "/x", "value": True}]  # 1 == True


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b", "~/"]),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(["a", "b", "c/d", "e~"]), inner, max_size=4)
    ),
    max_leaves=12,
)


@given(JSON.filter(lambda value: value is not None), JSON)  # (None: no view given yet)
def test_a_delta_applied_to_the_old_value_gives_the_new_one(old, new):
    delta = view_delta(old, new)
    patched = apply_delta(copy.deepcopy(old), delta)
    assert as_json(patched) == as_json(new)  # (== alone has 1 == True)
    assert (delta == []) == (as_json(old) == as_json(new))


def as_json(value: object) -> str:
    return json.dumps(value, sort_keys=True)  # (an object's keys are in no order)


@pytest.mark.parametrize(
    "delta",
    [
        [{"op": "move", "path": "/a", "from": "/b"}],
        [{"op": "remove", "path": "/nowhere"}],
        [{"op": "add", "path": "/a/b", "value": 1}],
        [{"op": "remove", "path": ""}],
        [{"path": "/a"}],
    ],
)
def test_a_delta_that_does_not_apply_is_an_arbo_error(delta):
    with pytest.raises(ArboError):
        apply_delta({"a": 1}, delta)
