"""One rule for a person's name, whoever sends it."""

import pytest

from models.domain.person_name import NAME_MAX_LENGTH, person_name


@pytest.mark.parametrize(
    "sent,kept",
    [
        ("  Maria\u00a0da\tSilva ", "Maria da Silva"),
        ("D\u2019Ávila", "D'Ávila"),
        ("Jose\u0301", "José"),  # decomposed accent composed (NFC)
        ("Ana\u2011Clara", "Ana-Clara"),
    ],
)
def test_a_name_is_kept_normalised(sent, kept):
    assert person_name(sent) == kept


@pytest.mark.parametrize("sent", ["", "A", "Maria\u0000", "Иван", "R2D2", None, 7, "a" * (NAME_MAX_LENGTH + 1)])
def test_what_is_not_a_name_is_none(sent):
    assert person_name(sent) is None


def test_the_longest_name_is_accepted():
    assert person_name("a" * NAME_MAX_LENGTH) == "a" * NAME_MAX_LENGTH
