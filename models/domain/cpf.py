"""Whether a string is a valid CPF: the one rule every input path applies.

A CPF is exactly 11 ASCII digits, not all equal (00000000000, 11111111111... pass the check-digit
arithmetic but are not issued), whose last two digits are the Receita Federal check digits of the
preceding ones. Only ASCII digits count: ``\\d`` and ``int()`` also accept other Unicode digits
(a fullwidth zero), which no CPF contains and no downstream system expects.
"""

from __future__ import annotations

import re

_ELEVEN_ASCII_DIGITS = re.compile(r"[0-9]{11}")


def check_digit(digits: str) -> str:
    """The next check digit of ``digits`` (9 digits give the first, 10 the second)."""
    weights = range(len(digits) + 1, 1, -1)
    total = sum(int(digit) * weight for digit, weight in zip(digits, weights, strict=True))
    return str(total * 10 % 11 % 10)


def with_check_digits(base: str) -> str:
    """The full CPF of a 9-digit ``base`` (used to make valid CPFs for tests and seed data)."""
    first = check_digit(base)
    return base + first + check_digit(base + first)


def cpf_valid(cpf: str | None) -> bool:
    """True for 11 ASCII digits, not all equal, with both check digits right."""
    if not isinstance(cpf, str) or not _ELEVEN_ASCII_DIGITS.fullmatch(cpf) or len(set(cpf)) == 1:
        return False
    return with_check_digits(cpf[:9]) == cpf
