"""CPF validity: 11 ASCII digits, not all equal, both check digits right."""

import pytest

from models.domain.cpf import check_digit, cpf_valid, with_check_digits


@pytest.mark.parametrize(
    "cpf", ["52998224725", "10000000108", "10000000442", "10000000523", "10000001171", "12345678909"]
)
def test_valid_cpfs(cpf):
    assert cpf_valid(cpf)


@pytest.mark.parametrize(
    "cpf",
    [
        "52998224724",  # second check digit wrong
        "52998224715",  # first check digit wrong
        "00000000000",  # all equal: right check digits, never issued
        "11111111111",
        "5299822472",  # 10 digits
        "529982247250",  # 12 digits
        "529.982.247-25",  # mask
        "5299822472a",
        " 52998224725",
        "52998224725\n",
        "5299822472\uff15",  # fullwidth 5: a Unicode digit, not an ASCII one
        "\u0665" * 11,  # Arabic-Indic 5s
        "",
        None,
    ],
)
def test_invalid_cpfs(cpf):
    assert not cpf_valid(cpf)


def test_check_digits_of_a_known_cpf():
    assert check_digit("529982247") == "2"
    assert check_digit("5299822472") == "5"
    assert with_check_digits("529982247") == "52998224725"


def test_every_generated_cpf_is_valid():
    assert all(cpf_valid(with_check_digits(f"{n:09d}")) for n in range(123456789, 123456789 + 500))
