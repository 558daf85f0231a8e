"""Which X-Request-Id a request keeps (models/services/platform/request_context.py)."""

import pytest

from models.services.platform.request_context import (
    accepted_request_id,
    bind_request_id,
    current_request_id,
    reset_request_id,
)


@pytest.mark.parametrize("value", ["abc", "3f2b8c1e-4d5a-4b6c-9d7e-1a2b3c4d5e6f", "trace:1.2_3", "x" * 64])
def test_a_short_safe_id_is_kept(value):
    assert accepted_request_id(value) == value


@pytest.mark.parametrize("value", [None, "", "x" * 65, "id with spaces", "é", "a\nb", "a;b", "<script>", "id\x00"])
def test_anything_else_is_replaced_by_a_fresh_id(value):
    replaced = accepted_request_id(value)
    assert replaced != value and len(replaced) == 32 and replaced.isalnum()


def test_binding_applies_the_rule():
    token = bind_request_id("x" * 200)
    try:
        assert current_request_id() != "x" * 200 and len(current_request_id()) == 32
    finally:
        reset_request_id(token)
