"""Small pure rules of the credit path: CPF check digits and age."""
from datetime import date

import pytest

from models.services.credit.analysis_runner import age_on
from schemas.credit import cpf_is_valid


@pytest.mark.parametrize("cpf,valid", [("52998224725", True), ("10000000108", True), ("52998224724", False),
                                       ("00000000000", False), ("5299822472", False), ("5299822472a", False)])
def test_cpf_check_digits(cpf, valid):
    assert cpf_is_valid(cpf) is valid


@pytest.mark.parametrize("today,age", [(date(2026, 4, 11), 40), (date(2026, 4, 12), 41)])
def test_age_counts_whole_years(today, age):
    assert age_on(date(1985, 4, 12), today) == age
