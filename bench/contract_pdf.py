"""CPU time to render one CCB (the unsigned original and the signed version), per contract.

Run from the project root: ``python -m bench.contract_pdf [--contracts 200]``. Each contract is a
different 96-installment offer from the domain's offer building (varied margin, rate and day), with
sample parties, a Pix or account destination and consent evidence, composed into terms by
``terms.compose_terms`` exactly as contract generation does (no database involved) and rendered by
``pdf.render``. Time is process CPU time (time.process_time) per render, so other load on the
machine barely moves it; the figure is the median with p95, after a warm-up render (module caches).

The signed version is timed twice: right after its original, as the flow renders it in one
process (the original's composed pages are reused, ``pdf._RecentBodies``), and composed anew (a
process that did not render the original).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import datetime, timedelta, timezone
from decimal import Decimal

from bench.stats import machine, percentile
from models.domain import calendar
from models.domain.loan.offers import build_offers
from models.domain.loan.pricing import AnalysisResult
from models.services.contract import pdf
from models.services.contract.terms import compose_terms
from models.services.credit.products import pricing
from models.services.credit.wire import plain
from models.settings import load_settings

D = Decimal
# The product as configured (config.toml, [default.credit.pricing]).
PRICING = pricing(load_settings().credit.pricing)
CCB = {
    "creditor_name": "FINANCEIRA EXEMPLO SOCIEDADE DE CRÉDITO DIRETO S.A. (DADOS DE EXEMPLO)",
    "creditor_cnpj": "00000000000000",
    "creditor_address": "Avenida Exemplo, 1000, São Paulo/SP",
    "issue_place": "São Paulo/SP",
    "payment_place": "São Paulo/SP",
    "customer_service": "SAC 0800 000 0000, atendimento@exemplo.invalid",
    "ombudsman": "0800 000 0001",
    "document_notice": "MODELO DE REFERÊNCIA - DADOS DE EXEMPLO",
}
EVIDENCE_RESULTS = {
    "process_result": "PROCESS_RESULT_OK",
    "authentication_result": "AUTHENTICATION_RESULT_POSITIVE",
    "liveness_result": "LIVENESS_RESULT_LIVE",
    "trust_result": "TRUST_RESULT_NO",
}


def sample_terms(rng: random.Random, index: int) -> dict:
    """Terms of one varied 96-installment contract, composed like contract generation does."""
    made = datetime(2026, 3, 2, 15, tzinfo=timezone.utc) + timedelta(hours=rng.randrange(24 * 300))
    result = AnalysisResult(
        available_margin=D(rng.randint(20000, 400000)) / 100,
        max_installments=96,
        monthly_rate=D(rng.randint(150, 450)) / 10000,
        pod_limit_max=D("150000.00"),
        insurance_enabled=rng.random() < 0.5,
    )
    offer = build_offers(result, PRICING, f"bench-{index}", made)[-1]
    payload = plain(offer)  # as the credit path stores it
    pix = rng.random() < 0.5
    destination = (
        {
            "type": "PIX",
            "pix_key": "maria.assuncao@example.com",
            "pix_key_type": "EMAIL",
            "holder_document": "12345678909",
            "holder_name": "MARIA DA CONCEIÇÃO DE ASSUNÇÃO",
        }
        if pix
        else {
            "type": "ACCOUNT",
            "bank_code": "341",
            "bank_name": "Itaú Unibanco S.A.",
            "bank_branch": "1234",
            "bank_branch_digit": "5",
            "bank_account": "567890",
            "bank_account_digit": "1",
            "account_type": "checking",
            "holder_document": "12345678909",
            "holder_name": "MARIA DA CONCEIÇÃO DE ASSUNÇÃO",
        }
    )
    return compose_terms(
        payload,
        contract_id=f"00000000-0000-4000-8000-{index:012d}",
        ccb_number=f"CCB{index:012d}",
        generated_at=made,
        first_due_date=datetime.fromisoformat(offer["first_due_date"]).date(),
        disbursement_date=calendar.disbursement_date(made),
        borrower={
            "name": "MARIA DA CONCEIÇÃO DE ASSUNÇÃO",
            "cpf": "12345678909",
            "birth_date": "1985-04-12",
            "email": "maria@example.com",
            "phone": "+5511987654321",
        },
        origin={"code": "PARTNER_A", "name": "Sandbox Partner A"},
        destination=destination,
        consent={
            "ip": "203.0.113.7",
            "latitude": -23.5505,
            "longitude": -46.6333,
            "channel": "web",
            "captured_at": "2026-03-10T14:30:00.000Z",
            "document_text_sha256": "0" * 64,
            "token_validated_at": "2026-03-10T14:29:00.000Z",
        },
        ccb=CCB,
    )


def _cpu_ms(render) -> float:
    started = time.process_time()
    render()
    return (time.process_time() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--contracts", type=int, default=200, help="distinct contracts rendered")
    args = parser.parse_args()
    rng = random.Random(7)
    contracts = [sample_terms(rng, index) for index in range(args.contracts)]
    pdf.render(contracts[0])  # warm-up: fonts and the word-width cache
    evidence = {
        "provider": "Simulador",
        "process_id": "proc",
        "results": EVIDENCE_RESULTS,
        "signed_at": "2026-03-10T16:00:00.000Z",
        "original_sha256": "0" * 64,
    }
    original, signed, signed_anew = [], [], []
    for terms in contracts:
        original.append(_cpu_ms(lambda t=terms: pdf.render(t)))
        signed.append(_cpu_ms(lambda t=terms: pdf.render(t, evidence)))
    pdf._bodies = pdf._RecentBodies()  # nothing kept: every signed version composed anew
    for terms in contracts:
        signed_anew.append(_cpu_ms(lambda t=terms: pdf.render(t, evidence)))
        pdf._bodies = pdf._RecentBodies()
    size_kib = len(pdf.render(contracts[0])) // 1024
    print(f"machine: {machine()}")
    print(f"contract PDF: {args.contracts} contracts of 96 installments (about {size_kib} KiB each), CPU ms per render")
    for name, values in (("original", original), ("signed version", signed), ("signed, anew", signed_anew)):
        print(
            f"  {name:<16} median {statistics.median(values):5.2f}   p95 {percentile(values, 95):5.2f}   "
            f"max {max(values):5.2f}"
        )


if __name__ == "__main__":
    main()
