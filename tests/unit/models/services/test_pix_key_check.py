"""The bank-validation step with a fake Pix directory: its answer becomes the verdict, and a
directory that cannot answer is a 503 rather than a guess."""

from __future__ import annotations

from models.external.http_base import RetryableExternalError
from models.external.pix_directory.port import FOUND, NOT_FOUND, PixKeyInfo
from models.services.banking.options import PixKey
from models.services.banking.pix_validation import check_pix_key
from tests.support.fake_ports import FakePixDirectory

CPF = "52998224725"
KEY = PixKey("maria@example.com", "EMAIL")


def test_a_confirmed_key_of_the_proposals_cpf_is_accepted_and_looked_up_for_that_cpf():
    directory = FakePixDirectory(PixKeyInfo(FOUND, CPF, "001", True))
    verdict = check_pix_key(KEY, CPF, pix_directory=directory, submission_id="s-1")
    assert (verdict.http_status, verdict.ok, verdict.result_status) == (200, True, "BANK_DATA_SUBMITTED")
    assert directory.lookups == [("maria@example.com", "EMAIL", CPF)]


def test_a_key_of_another_cpf_is_a_mismatch():
    directory = FakePixDirectory(PixKeyInfo(FOUND, "98765432100", "001", True))
    verdict = check_pix_key(KEY, CPF, pix_directory=directory, submission_id="s-1")
    assert (verdict.http_status, verdict.ok, verdict.result_status) == (200, False, "PIX_KEY_CPF_MISMATCH")


def test_an_unknown_key_is_not_validated():
    verdict = check_pix_key(KEY, CPF, pix_directory=FakePixDirectory(PixKeyInfo(NOT_FOUND)), submission_id="s-1")
    assert (verdict.http_status, verdict.error_code) == (400, "PIX_KEY_NOT_VALIDATED")


def test_a_directory_that_cannot_answer_is_a_503_and_a_warning(caplog):
    directory = FakePixDirectory(error=RetryableExternalError("pix_directory: ReadTimeout"))
    verdict = check_pix_key(KEY, CPF, pix_directory=directory, submission_id="s-1")
    assert (verdict.http_status, verdict.error_code) == (503, "PIX_DIRECTORY_UNAVAILABLE")
    assert "Pix directory lookup failed for submission s-1: pix_directory: ReadTimeout" in caplog.text
