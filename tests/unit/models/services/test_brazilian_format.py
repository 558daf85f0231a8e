"""Brazilian formats of the contract: money, rates, dates, instants, CPF, CNPJ, branch and account."""

from datetime import date, datetime, timezone
from decimal import Decimal

import pytest

from models.services.contract import brazilian_format as fmt


@pytest.mark.parametrize(
    "value,shown",
    [
        (Decimal("1000"), "R$ 1.000,00"),
        ("1414.4", "R$ 1.414,40"),
        (1000.0, "R$ 1.000,00"),
        ("0.005", "R$ 0,01"),
        ("1234567.891", "R$ 1.234.567,89"),
        ("0", "R$ 0,00"),
        ("-1", "-R$ 1,00"),
        ("999.995", "R$ 1.000,00"),
    ],
)
def test_money_has_the_currency_dot_thousands_comma_cents_half_up(value, shown):
    assert fmt.money(value) == shown


def test_rates_say_their_period():
    assert (fmt.monthly_rate("1.99"), fmt.annual_rate("26.68"), fmt.percent(2)) == (
        "1,99% a.m.",
        "26,68% a.a.",
        "2,00%",
    )
    assert fmt.monthly_rate(1.9) == "1,90% a.m."  # payload floats lose the trailing zero


def test_dates_are_day_month_year():
    assert fmt.day(date(2026, 3, 5)) == fmt.day("2026-03-05") == "05/03/2026"


def test_instants_are_sao_paulo_local_time():
    # 15:00 UTC is 12:00 in São Paulo (UTC-3, no daylight saving since 2019)
    assert fmt.instant("2026-03-10T15:00:01.250Z") == "10/03/2026 às 12:00:01"
    assert fmt.instant(datetime(2026, 3, 11, 2, 30, tzinfo=timezone.utc)) == "10/03/2026 às 23:30:00"


def test_cpf_and_cnpj_carry_their_masks():
    assert fmt.cpf("12345678909") == "123.456.789-09"
    assert fmt.cnpj("12345678000190") == "12.345.678/0001-90"
    assert (fmt.cpf("123"), fmt.cnpj(None)) == ("123", "")  # not a document: shown as given


def test_branch_and_account_carry_their_check_digit():
    assert (fmt.with_digit("1234", "5"), fmt.with_digit("567890", "1")) == ("1234-5", "567890-1")
    assert fmt.with_digit("1234", None) == "1234"


def test_phone_and_coordinates():
    assert fmt.phone("+5511987654321") == "+55 (11) 98765-4321"
    assert fmt.coordinate(-23.5505) == "-23,550500"
