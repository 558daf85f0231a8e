"""The auction feed is read item by item: a bad item is left out with its reason, the rest go on."""

from decimal import Decimal

import pytest

from models.external.auctions.feed import MAX_BALANCE, read_feed, read_item

GOOD = {
    "id": "auc-001",
    "document": "12345678909",
    "name": "  Maria\u00a0da  Silva ",
    "available_balance": "1500.00",
    "installment_quantity": 24,
}


def test_a_good_item_is_read_with_its_name_normalised():
    offer = read_item(GOOD)
    assert (offer.external_id, offer.document, offer.name, offer.available_balance, offer.installment_quantity) == (
        "auc-001",
        "12345678909",
        "Maria da Silva",
        Decimal("1500.00"),
        24,
    )
    assert offer.eligible is True


@pytest.mark.parametrize(
    "change,reason",
    [
        ({"id": "x" * 65}, "id must be"),
        ({"id": "a b"}, "id must be"),
        ({"id": None}, "id is missing"),
        ({"document": "1234567890"}, "document must be"),
        ({"document": "١٢٣٤٥٦٧٨٩٠٩"}, "document must be"),  # Arabic-Indic digits are digits to str.isdigit
        ({"name": "Maria\u0000Silva"}, "name is not"),
        ({"name": "Иван Петров"}, "name is not"),
        ({"name": "A" * 201}, "name is not"),
        ({"name": 42}, "name is not"),
        ({"available_balance": "NaN"}, "available_balance"),
        ({"available_balance": "Infinity"}, "available_balance"),
        ({"available_balance": "-1"}, "available_balance"),
        ({"available_balance": "0"}, "available_balance"),
        ({"available_balance": str(MAX_BALANCE + 1)}, "available_balance"),
        ({"available_balance": True}, "available_balance"),
        ({"available_balance": "abc"}, "available_balance"),
        ({"installment_quantity": 0}, "installment_quantity"),
        ({"installment_quantity": 1000}, "installment_quantity"),
        ({"installment_quantity": "24"}, "installment_quantity"),
        ({"installment_quantity": True}, "installment_quantity"),
        ({"eligible": "yes"}, "eligible"),
    ],
)
def test_an_unreadable_item_says_why(change, reason):
    with pytest.raises(ValueError, match=reason):
        read_item({**GOOD, **change})


def test_numbers_for_ids_and_documents_are_read_as_text():
    offer = read_item({**GOOD, "id": 77, "document": 12345678909, "available_balance": 10.5})
    assert (offer.external_id, offer.document, offer.available_balance) == ("77", "12345678909", Decimal("10.50"))


def test_the_bounds_themselves_are_accepted():
    offer = read_item({**GOOD, "id": "i" * 64, "available_balance": str(MAX_BALANCE), "installment_quantity": 999})
    assert offer.available_balance == MAX_BALANCE and offer.installment_quantity == 999


def test_bad_items_are_left_out_and_the_rest_read():
    feed = read_feed([GOOD, "not an object", {**GOOD, "id": "auc-002", "document": "x"}, {**GOOD, "id": "auc-003"}])
    assert [offer.external_id for offer in feed.offers] == ["auc-001", "auc-003"]
    assert feed.left_out == [
        "item 1 (id ?): not a JSON object",
        "item 2 (id auc-002): document must be 11 ASCII digits",
    ]


def test_a_feed_that_is_not_a_list_is_unreadable():
    with pytest.raises(ValueError):
        read_feed({"items": []})
