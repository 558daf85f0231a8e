"""GET /v1/proposals: each filter, each sort, pagination edges, errors and origin isolation."""

from datetime import datetime, timedelta, timezone
from decimal import Decimal

import pytest

from tests import builders as f

URL = "/v1/proposals"


def ids(response):
    return [item["id"] for item in response.get_json()["data"]]


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).astimezone(timezone.utc)


def test_item_has_exactly_the_spec_fields(client, auth):
    """Spec, Proposal (as listed): "agency | string | branch"; "account | string" (masked: README,
    "Choices where the spec is open")."""
    # Given a proposal with banking data and a selected offer
    p = f.proposal(
        path=("TOKEN_SENT",),
        bank_code="001",
        bank_branch="1234",
        bank_branch_digit="5",
        bank_account="12345678",
        bank_account_digit="9",
        account_type="checking",
        user_redirect_url="https://sign.example/abc",
        updated_at=f.T0 + timedelta(seconds=1, microseconds=234567),
    )
    o = f.offer(p)
    p.selected_offer_id = o.id
    p.save()
    # When listing
    response = client.get(URL, headers=auth())
    # Then the item is the spec's Proposal, account masked
    assert response.status_code == 200
    assert response.get_json()["data"] == [
        {
            "id": p.id,
            "cpf": p.cpf,
            "full_name": "MARIA DA SILVA",
            "birth_date": "1985-03-14",
            "email": "maria@example.com",
            "phone": "+5511987654321",
            "status": "TOKEN_SENT",
            "status_detail": {
                "code": "TOKEN_SENT",
                "name": "Token sent",
                "description": "SMS token sent to the customer's phone.",
                "order": 2,
            },
            "bank_code": "001",
            "agency": "1234",
            "account": "****5678-9",
            "account_type": "checking",
            "origin": "PARTNER_A",
            "user_redirect_url": "https://sign.example/abc",
            "selected_offer": {
                "id": o.id,
                "principal_amount": 5000.0,
                "installments": 24,
                "installment_amount": 289.15,
            },
            "created_at": "2026-05-11T15:00:00.000Z",
            "updated_at": "2026-05-11T15:00:01.234Z",
        }
    ]


def test_default_page_pagination_and_echo(client, auth):
    # Given no proposals
    # When listing without parameters
    body = client.get(URL, headers=auth()).get_json()
    # Then an empty first page with the default sort echoed
    assert body == {
        "data": [],
        "pagination": {"page": 1, "limit": 10, "total": 0, "totalPages": 0, "hasNext": False, "hasPrev": False},
        "filters": {"sort": "created_at:desc"},
    }


def test_origin_isolation(client, auth):
    # Given one proposal per origin
    a = f.proposal(origin="PARTNER_A")
    b = f.proposal(origin="PARTNER_B")
    # When each origin lists
    # Then each sees only its own
    assert ids(client.get(URL, headers=auth("PARTNER_A"))) == [a.id]
    assert ids(client.get(URL, headers=auth("PARTNER_B"))) == [b.id]


@pytest.mark.parametrize(
    "name, value, matching, other",
    [
        ("cpf", "5678", {"cpf": "12345678901"}, {"cpf": "99999999999"}),
        ("full_name", "silv", {"full_name": "JOANA SILVEIRA"}, {"full_name": "JOAO SOUZA"}),
        ("email", "EXAMPLE.ORG", {"email": "joana@example.org"}, {"email": "joao@example.com"}),
        ("phone", "98765", {"phone": "+5511987654321"}, {"phone": "+5521912341234"}),
    ],
)
def test_partial_match_filters(client, auth, name, value, matching, other):
    # Given a matching and a non-matching proposal
    hit = f.proposal(**matching)
    f.proposal(**other)
    # When filtering by a fragment (case-insensitive for text)
    body = client.get(URL, query_string={name: value}, headers=auth()).get_json()
    # Then only the match comes back and the filter is echoed
    assert [d["id"] for d in body["data"]] == [hit.id]
    assert body["filters"] == {name: value, "sort": "created_at:desc"}


def test_like_wildcards_in_a_filter_are_literal(client, auth):
    # Given an email with an underscore and one without
    hit = f.proposal(email="ana_maria@example.com")
    f.proposal(email="anaxmaria@example.com")
    # When the filter contains "_" (a LIKE wildcard)
    # Then it matches only the literal underscore
    assert ids(client.get(URL, query_string={"email": "ana_"}, headers=auth())) == [hit.id]


def test_phone_filter_with_unencoded_plus_still_matches(client, auth):
    # Given a proposal with a +55 phone
    hit = f.proposal(phone="+5511987654321")
    # When the client sends "+55119" without percent-encoding (it arrives as " 55119")
    # Then the leading space is ignored and the digits match
    assert ids(client.get(URL + "?phone=+55119", headers=auth())) == [hit.id]


def test_status_filter_accepts_a_comma_list(client, auth):
    # Given proposals in three statuses
    created = f.proposal(created_at=f.T0)
    sent = f.proposal(path=("TOKEN_SENT",), created_at=f.T0 + timedelta(minutes=1))
    f.proposal(path=("TOKEN_SENT", "TOKEN_VALIDATED"))
    # When filtering by two of them (lower case and spaces tolerated)
    body = client.get(URL, query_string={"status": "created, token_sent"}, headers=auth()).get_json()
    # Then both come back, newest first
    assert [d["id"] for d in body["data"]] == [sent.id, created.id]
    assert body["filters"]["status"] == ["CREATED", "TOKEN_SENT"]


def test_unknown_status_is_400_with_valid_codes(client, auth):
    # When filtering by an unknown status
    response = client.get(URL, query_string={"status": "CREATED,APPROVED"}, headers=auth())
    # Then 400 names the field, the bad value and every valid code
    body = response.get_json()
    assert response.status_code == 400
    assert body["errorCode"] == "INVALID_STATUS_FILTER"
    assert body["details"]["field"] == "status"
    assert body["details"]["invalidValues"] == ["APPROVED"]
    assert len(body["details"]["validCodes"]) == 28 and "DISBURSED" in body["details"]["validCodes"]


def test_bank_code_filter_is_exact_and_pads_leading_zeros(client, auth):
    # Given proposals at banks 001 and 104
    hit = f.proposal(bank_code="001")
    f.proposal(bank_code="104")
    # When filtering by "1"
    body = client.get(URL, query_string={"bank_code": "1"}, headers=auth()).get_json()
    # Then only bank 001
    assert [d["id"] for d in body["data"]] == [hit.id]
    assert body["filters"]["bank_code"] == "001"


def test_created_range_is_inclusive_local_days(client, auth):
    # Given proposals around the edges of 2026-05-10 in Sao Paulo (UTC-3)
    before = f.proposal(created_at=at("2026-05-10T02:59:59.999+00:00"))  # 2026-05-09 23:59:59.999 local
    first = f.proposal(created_at=at("2026-05-10T03:00:00+00:00"))  # 2026-05-10 00:00 local
    last = f.proposal(created_at=at("2026-05-11T02:59:59.999+00:00"))  # 2026-05-10 23:59:59.999 local
    after = f.proposal(created_at=at("2026-05-11T03:00:00+00:00"))  # 2026-05-11 00:00 local
    # When filtering on that single day
    got = ids(client.get(URL, query_string={"created_from": "2026-05-10", "created_to": "2026-05-10"}, headers=auth()))
    # Then exactly the two inside
    assert got == [last.id, first.id]
    assert before.id not in got and after.id not in got


def test_updated_range_open_ended(client, auth):
    # Given an old and a recently updated proposal
    f.proposal(updated_at=at("2026-05-01T12:00:00+00:00"))
    recent = f.proposal(updated_at=at("2026-05-20T12:00:00+00:00"))
    # When filtering from a day only
    body = client.get(URL, query_string={"updated_from": "2026-05-15"}, headers=auth()).get_json()
    # Then the recent one, and the echo
    assert [d["id"] for d in body["data"]] == [recent.id]
    assert body["filters"] == {"updated_from": "2026-05-15", "sort": "created_at:desc"}


@pytest.mark.parametrize(
    "params, field",
    [
        ({"created_from": "2026-13-01"}, "created_from"),
        ({"updated_to": "10/05/2026"}, "updated_to"),
        ({"created_from": "2026-05-11", "created_to": "2026-05-10"}, "created_from"),
        ({"page": "0"}, "page"),
        ({"page": "abc"}, "page"),
        ({"limit": "0"}, "limit"),
        ({"limit": "101"}, "limit"),
        ({"bank_code": "12a"}, "bank_code"),
    ],
)
def test_invalid_parameters_are_400_with_the_field(client, auth, params, field):
    response = client.get(URL, query_string=params, headers=auth())
    assert response.status_code == 400
    assert response.get_json()["details"]["field"] == field


def test_invalid_sort_is_400_with_valid_codes(client, auth):
    response = client.get(URL, query_string={"sort": "cpf:asc"}, headers=auth())
    assert response.status_code == 400
    assert response.get_json()["errorCode"] == "INVALID_SORT"
    assert response.get_json()["details"] == {
        "field": "sort",
        "validCodes": [
            "created_at:asc",
            "created_at:desc",
            "updated_at:asc",
            "updated_at:desc",
            "full_name:asc",
            "full_name:desc",
        ],
    }


@pytest.mark.parametrize(
    "sort, expected",
    [
        ("created_at:asc", ["a", "b", "c"]),
        ("created_at:desc", ["c", "b", "a"]),
        ("updated_at:asc", ["b", "c", "a"]),
        ("updated_at:desc", ["a", "c", "b"]),
        ("full_name:asc", ["c", "a", "b"]),
        ("full_name:desc", ["b", "a", "c"]),
    ],
)
def test_each_sort(client, auth, sort, expected):
    # Given three proposals whose created, updated and name orders all differ
    rows = {
        "a": f.proposal(full_name="BRUNO", created_at=f.T0, updated_at=f.T0 + timedelta(hours=3)),
        "b": f.proposal(full_name="CARLA", created_at=f.T0 + timedelta(hours=1), updated_at=f.T0 + timedelta(hours=1)),
        "c": f.proposal(full_name="ANA", created_at=f.T0 + timedelta(hours=2), updated_at=f.T0 + timedelta(hours=2)),
    }
    # When sorting
    body = client.get(URL, query_string={"sort": sort}, headers=auth()).get_json()
    # Then the order follows the field and direction
    assert [d["id"] for d in body["data"]] == [rows[k].id for k in expected]
    assert body["filters"]["sort"] == sort


def test_equal_sort_keys_are_paged_without_overlap(client, auth):
    # Given five proposals created at the same instant
    made = {f.proposal(created_at=f.T0).id for _ in range(5)}
    # When paging two at a time
    pages = [ids(client.get(URL, query_string={"limit": 2, "page": n}, headers=auth())) for n in (1, 2, 3)]
    # Then every row appears exactly once
    assert sorted(row for page in pages for row in page) == sorted(made)


def test_middle_and_last_pages(client, auth):
    # Given 25 proposals
    for n in range(25):
        f.proposal(created_at=f.T0 + timedelta(minutes=n))
    # When reading page 2 of 10 and page 3 of 10
    middle = client.get(URL, query_string={"page": 2}, headers=auth()).get_json()
    last = client.get(URL, query_string={"page": 3}, headers=auth()).get_json()
    # Then the pagination block tells where the client is
    assert middle["pagination"] == {
        "page": 2,
        "limit": 10,
        "total": 25,
        "totalPages": 3,
        "hasNext": True,
        "hasPrev": True,
    }
    assert len(last["data"]) == 5
    assert last["pagination"] == {
        "page": 3,
        "limit": 10,
        "total": 25,
        "totalPages": 3,
        "hasNext": False,
        "hasPrev": True,
    }


def test_page_beyond_the_end_is_empty_with_the_real_total(client, auth):
    # Given 3 proposals
    for _ in range(3):
        f.proposal()
    # When asking for page 5
    body = client.get(URL, query_string={"page": 5}, headers=auth()).get_json()
    # Then no data, but the total and page count are right
    assert body["data"] == []
    assert body["pagination"] == {
        "page": 5,
        "limit": 10,
        "total": 3,
        "totalPages": 1,
        "hasNext": False,
        "hasPrev": True,
    }


def test_limit_100_is_allowed(client, auth):
    for _ in range(3):
        f.proposal()
    body = client.get(URL, query_string={"limit": 100}, headers=auth()).get_json()
    assert body["pagination"]["limit"] == 100 and len(body["data"]) == 3


def test_filters_combine(client, auth):
    # Given proposals differing in status and name
    hit = f.proposal(full_name="ANA LIMA", path=("TOKEN_SENT",))
    f.proposal(full_name="ANA LIMA")
    f.proposal(full_name="JOSE LIMA", path=("TOKEN_SENT",))
    # When filtering on both
    got = ids(client.get(URL, query_string={"full_name": "ana", "status": "TOKEN_SENT"}, headers=auth()))
    # Then only the row matching both
    assert got == [hit.id]


def test_selected_offer_is_null_without_a_selection(client, auth):
    f.proposal()
    item = client.get(URL, headers=auth()).get_json()["data"][0]
    assert item["selected_offer"] is None and item["account"] is None and item["agency"] is None


def test_requires_a_token(client):
    assert client.get(URL).status_code == 401


def test_decimal_amounts_leave_as_numbers(client, auth):
    p = f.proposal()
    o = f.offer(p, principal_amount=Decimal("1234.50"))
    p.selected_offer_id = o.id
    p.save()
    assert client.get(URL, headers=auth()).get_json()["data"][0]["selected_offer"]["principal_amount"] == 1234.5


@pytest.mark.parametrize("value", ["1_3", "1%3", "\uff11\uff12\uff13", "12345678901234"])
def test_a_digits_filter_takes_ascii_digits_only(client, auth, value):
    # A LIKE wildcard, a fullwidth digit or more than 11 digits can match no CPF: refused, not searched
    f.proposal(cpf="12345678901")
    response = client.get(URL, query_string={"cpf": value}, headers=auth())
    assert response.status_code == 400
    assert (response.get_json()["errorCode"], response.get_json()["details"]["field"]) == ("VALIDATION_ERROR", "cpf")


def test_full_name_filter_is_case_insensitive(client, auth):
    hit = f.proposal(full_name="JOÃO DA SILVA")
    assert ids(client.get(URL, query_string={"full_name": "joão da"}, headers=auth())) == [hit.id]


def test_total_of_a_status_listing_beyond_one_page(client, auth):
    # Given 12 proposals in TOKEN_SENT and 3 in CREATED
    for _ in range(12):
        f.proposal(path=("TOKEN_SENT",))
    for _ in range(3):
        f.proposal()
    # When the first page of TOKEN_SENT is full
    body = client.get(URL, query_string={"status": "TOKEN_SENT"}, headers=auth()).get_json()
    # Then the total counts every match (not just the page)
    assert body["pagination"]["total"] == 12 and body["pagination"]["totalPages"] == 2
    assert client.get(URL, headers=auth()).get_json()["pagination"]["total"] == 15
