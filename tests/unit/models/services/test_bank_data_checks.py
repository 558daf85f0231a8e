"""The bank-validation step with a fake Pix directory or account-ownership service: its answer
becomes the verdict, and a service that cannot answer is a 503 rather than a guess."""

from __future__ import annotations

from models.external.account_ownership import NOT_FOUND as NO_ACCOUNT
from models.external.account_ownership import OTHER_HOLDER, BankAccount
from models.external.http_base import RetryableExternalError
from models.external.pix_directory.port import FOUND, NOT_FOUND, PixKeyInfo
from models.services.banking.bank_validation import check_account, check_pix_key
from models.services.banking.options import Account, PixKey
from tests.support.fake_ports import FakeAccountOwnership, FakePixDirectory

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


ACCOUNT = Account("341", "1234", None, "567890", "1", "checking")


def test_an_account_of_the_proposals_cpf_is_accepted_and_checked_for_that_cpf():
    ownership = FakeAccountOwnership()
    verdict = check_account(ACCOUNT, CPF, account_ownership=ownership, submission_id="s-1")
    assert (verdict.http_status, verdict.ok, verdict.result_status) == (200, True, "BANK_DATA_SUBMITTED")
    assert ownership.checks == [(BankAccount("341", "1234", None, "567890", "1", "checking"), CPF)]


def test_an_account_of_another_holder_or_unknown_is_refused_with_a_400():
    other = check_account(ACCOUNT, CPF, account_ownership=FakeAccountOwnership(OTHER_HOLDER), submission_id="s-1")
    unknown = check_account(ACCOUNT, CPF, account_ownership=FakeAccountOwnership(NO_ACCOUNT), submission_id="s-1")
    assert (other.http_status, other.ok, other.error_code) == (400, None, "BANK_ACCOUNT_CPF_MISMATCH")
    assert (unknown.http_status, unknown.error_code) == (400, "BANK_ACCOUNT_NOT_VALIDATED")


def test_an_ownership_service_that_cannot_answer_is_a_503_and_a_warning(caplog):
    ownership = FakeAccountOwnership(error=RetryableExternalError("account_ownership: ReadTimeout"))
    verdict = check_account(ACCOUNT, CPF, account_ownership=ownership, submission_id="s-2")
    assert (verdict.http_status, verdict.error_code) == (503, "ACCOUNT_OWNERSHIP_UNAVAILABLE")
    assert "Account ownership check failed for submission s-2" in caplog.text
