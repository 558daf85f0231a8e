"""The CCB reads as a Cédula de Crédito Bancário for a Brazilian borrower: every requisite of Lei
10.931/2004 art. 29, the quadro-resumo first, Brazilian formats, totals that add up, the CET
worksheet, the payroll-loan clauses, the consent evidence, and the signed version's evidence page.

The terms are built by ``build_terms`` from a pre-accepted offer made by the domain's offer
building, as contract generation does; the expected figures are read from that offer payload (the
API's numbers) and formatted independently here, so the text read back is compared with them."""

from __future__ import annotations

import hashlib
import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from models import runtime
from models.db.analysis import Offer
from models.db.contracts import Contract
from models.db.proposals import Consent, Proposal, StatusChange
from models.domain.clock import now
from models.domain.loan.cet import cet
from models.services.contract import ccb_template, generation, pdf
from models.services.contract import terms as contract_terms
from models.services.contract.pdf_layout import Layout, encode
from models.services.platform import unit_of_work
from models.settings import load_settings
from tests.builders import offer_payload, pre_accepted_proposal, select_offer, with_bank_account
from tests.support.pdf_text import metadata, page_strings

D = Decimal
CCB_NUMBER = "CCB305407755813"
LONG_NAME = "MARIA DA CONCEIÇÃO APARECIDA DE ASSUNÇÃO GONÇALVES BRAGANÇA E ALBUQUERQUE ÍÑIGUEZ"
PIX_KEY = "maria.conceicao.assuncao@exemplo.com.br"
EVIDENCE = {
    "provider": "Simulador de assinatura dos testes",
    "process_id": "5f1b9a0c-2d3e-4f50-8a6b-7c8d9e0f1a2b",
    "results": {
        "process_result": "PROCESS_RESULT_OK",
        "authentication_result": "AUTHENTICATION_RESULT_POSITIVE",
        "liveness_result": "LIVENESS_RESULT_LIVE",
        "trust_result": "TRUST_RESULT_NO",
    },
    "signed_at": "2026-03-10T19:45:12.000Z",
    "original_sha256": "ab" * 32,
}


@pytest.fixture(autouse=True)
def held_outbox(monkeypatch):
    """Contract generation's queued work is not published: these tests render the terms themselves."""
    monkeypatch.setattr(unit_of_work, "_after_commit_publisher", None)


def money(value) -> str:
    """R$ 1.234,56 from decimal text, written out independently of the module under test."""
    amount = D(str(value)).quantize(D("0.01"))
    whole, cents = f"{amount:.2f}".split(".")
    groups = []
    while whole:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    return f"R$ {'.'.join(groups)},{cents}"


def br_day(iso: str) -> str:
    year, month, day = iso[:10].split("-")
    return f"{day}/{month}/{year}"


def rate(value) -> str:
    return f"{D(str(value)):.2f}".replace(".", ",") + "%"


def make_terms(
    *,
    installments: int = 48,
    full_name: str = "MARIA DA SILVA",
    pix: bool = False,
    consent: bool = True,
    settings=None,
) -> tuple[dict, dict]:
    """Terms of a contract of a fresh pre-accepted proposal (and its offer payload), like generation
    (under the running service's settings unless ``settings`` is given)."""
    settings = settings or runtime.current().settings
    proposal = with_bank_account(pre_accepted_proposal(full_name=full_name, margin="900.00"))
    if installments != 48:
        payload = offer_payload(proposal.id, "900.00", installments)
        select_offer(proposal.id, payload)
    if pix:
        Proposal.update(
            pix_key=PIX_KEY,
            pix_key_type="EMAIL",
            bank_code=None,
            bank_branch=None,
            bank_account=None,
            bank_account_digit=None,
            account_type=None,
        ).where(Proposal.id == proposal.id).execute()
    if not consent:
        Consent.delete().where(Consent.proposal == proposal.id).execute()
    # the token validation happened before the fixture's first recorded change (sequence 0)
    StatusChange.create(
        proposal=proposal.id,
        sequence=-1,
        old_status="TOKEN_SENT",
        new_status="TOKEN_VALIDATED",
        trigger="FIXTURE",
        source="test",
        changed_at=now() - timedelta(minutes=29),
    )
    with unit_of_work.unit_of_work():  # the contract row as POST contract creates it (its work is held)
        contract = generation.start(Proposal.get_by_id(proposal.id), None, contract_settings=settings.contract)
    proposal = Proposal.get_by_id(proposal.id)
    payload = Offer.get_by_id(proposal.selected_offer_id).payload
    terms = contract_terms.build_terms(
        Contract.get_by_id(contract.id),
        proposal,
        CCB_NUMBER,
        now(),
        ccb_settings=settings.ccb,
        environment=settings.environment,
    )
    return terms, payload


def strings(document: bytes) -> list[str]:
    return [s for page in page_strings(document) for s in page]


def text(document: bytes) -> str:
    """Everything shown, lines joined by spaces (wrapping breaks lines at spaces)."""
    return re.sub(r"\s+", " ", " ".join(strings(document)))


def value_of(shown: list[str], label: str, after: str | None = None) -> str:
    """The cell right of ``label`` (the first one after ``after`` when given)."""
    start = shown.index(after) if after else 0
    return shown[shown.index(label, start) + 1]


@pytest.fixture
def contract(business_day):
    terms, payload = make_terms()
    return terms, payload, pdf.render(terms)


def test_states_every_requisite_of_lei_10931_art_29(contract):
    # Given the CCB of a 48-installment payroll loan
    terms, payload, document = contract

    # When a reader goes through it
    shown, whole = strings(document), text(document)

    # Then I: the name "Cédula de Crédito Bancário"
    assert shown[0] == "CÉDULA DE CRÉDITO BANCÁRIO - CCB" and "por esta Cédula de Crédito Bancário" in whole
    # II: the promise to pay the debt in money, certain, liquid and enforceable
    assert (
        f"O EMITENTE promete pagar ao CREDOR, ou à sua ordem, em moeda corrente nacional, por esta Cédula de "
        f"Crédito Bancário, a dívida em dinheiro, certa, líquida e exigível, no valor total de "
        f"{money(payload['total_amount'])}"
    ) in whole
    # III: dates and place of payment, with the date and value of each installment
    assert value_of(shown, "Praça de pagamento") == "São Paulo/SP"
    schedule = shown[shown.index("Saldo devedor") :]
    for row in terms["schedule"]:
        at = schedule.index(br_day(row["due_date"]))
        assert schedule[at - 1 : at + 2] == [str(row["number"]), br_day(row["due_date"]), money(row["installment"])]
    # IV: the creditor (the funding partner, from the settings) and the originator
    assert value_of(shown, "Razão social") == "FINANCEIRA EXEMPLO SOCIEDADE DE CRÉDITO DIRETO S.A. (DADOS DE"
    assert value_of(shown, "CNPJ") == "00.000.000/0000-00"
    assert value_of(shown, "Nome", after="CORRESPONDENTE (originador da operação)") == "Sandbox Partner A"
    # V: date and place of issue
    assert (
        "Local de emissão: São Paulo/SP. Data de emissão: a da assinatura eletrônica do EMITENTE, registrada na "
        "página de evidências da via assinada."
    ) in whole
    # VI: the borrower's signature line (its evidence is the signed version's last page)
    assert "MARIA DA SILVA - CPF 123.456.789-09" in shown and "assinatura eletrônica (página de evidências)" in shown


def test_the_summary_box_comes_first_with_every_figure_in_brazilian_format(contract):
    # Given the CCB and the offer the customer pre-accepted (the figures the API answers)
    terms, payload, document = contract
    shown = strings(document)
    details = payload["calculation_details"]
    n, pmt = payload["installments"], money(payload["installment_amount"])
    last = money(terms["schedule"][-1]["installment"])

    # Then the quadro-resumo is the first section and states each figure, formatted for Brazil
    assert shown.index("I. QUADRO-RESUMO") < shown.index("II. PARTES") < shown.index("III. CLÁUSULAS")
    expected = {
        "Valor liberado ao emitente": money(payload["principal_amount"]),
        "Valor financiado (total do crédito)": money(details["financed_amount"]),
        "IOF (financiado)": money(payload["iof_amount"]),
        "Tarifa de cadastro - TAC (financiada)": money(payload["tac_amount"]),
        "Seguro prestamista (financiado)": money(payload["insurance_amount"]),
        "Valor total a pagar": money(payload["total_amount"]),
        "Taxa de juros": f"{rate(payload['interest_rate'])} a.m.  |  {rate(payload['annual_interest_rate'])} a.a.",
        "Custo Efetivo Total - CET": f"{rate(payload['cet']['monthly'])} a.m.  |  {rate(payload['cet']['annual'])} a.a.",
        "Primeiro vencimento": br_day(payload["first_due_date"]),
        "Último vencimento": br_day(payload["final_due_date"]),
        "Data prevista da liberação": "11/03/2026",  # the business day after Tuesday 10/03/2026
        "Multa e juros de mora": "2,00% da parcela  |  1,00% a.m.",
    }
    for label, value in expected.items():
        assert value_of(shown, label) == value, label
    parcels = " ".join(shown[shown.index("Parcelas") + 1 : shown.index("Forma de pagamento")])
    assert parcels in (
        f"{n} parcelas mensais e sucessivas de {pmt}",
        f"{n} parcelas mensais e sucessivas: {n - 1} de {pmt} e a última de {last} (ajuste de arredondamento)",
    )
    destination = " ".join(shown[shown.index("Destino do crédito") + 1 : shown.index("Praça de pagamento")])
    assert destination == (
        "crédito na conta corrente nº 567890-1, agência 1234, banco 341 - Itaú Unibanco S.A., "
        "de titularidade do emitente (MARIA DA SILVA, CPF 123.456.789-09)"
    )
    assert value_of(shown, "CPF") == "123.456.789-09" and value_of(shown, "Data de nascimento") == "12/04/1985"


def test_totals_add_up_installments_schedule_and_amortization(contract):
    # Given the CCB's terms and the offer
    terms, payload, document = contract
    rows = terms["schedule"]
    installments = [D(r["installment"]) for r in rows]

    # Then installments x value is the total to pay (the last one absorbs the rounding cents)
    assert (len(rows) - 1) * D(str(payload["installment_amount"])) + installments[-1] == D(str(payload["total_amount"]))
    assert sum(installments) == D(str(payload["total_amount"])) == D(terms["amounts"]["total_amount"])
    # and the amortizations repay exactly the amount financed, the interest is the rest, the balance ends at zero
    assert sum(D(r["amortization"]) for r in rows) == D(str(payload["calculation_details"]["financed_amount"]))
    assert sum(D(r["interest"]) for r in rows) == D(terms["amounts"]["interest_amount"])
    assert rows[-1]["balance"] == "0.00"
    # and the printed totals row says so
    shown = strings(document)
    total_row = shown[shown.index("Total") : shown.index("Total") + 4]
    assert total_row == [
        "Total",
        money(payload["total_amount"]),
        money(terms["amounts"]["interest_amount"]),
        money(payload["calculation_details"]["financed_amount"]),
    ]
    assert money("0") in shown[shown.index("Total") - 1 :]


def test_cet_worksheet_components_add_up_and_its_flows_reproduce_the_cet(contract):
    # Given the CCB's CET worksheet
    terms, payload, document = contract
    shown = strings(document)
    worksheet = terms["cet_worksheet"]
    financed = D(str(payload["calculation_details"]["financed_amount"]))

    # Then each component is printed as an amount and as a share of the amount financed
    names = ccb_template.CET_COMPONENT_NAMES
    for item in worksheet["components"]:
        at = shown.index(names[item["component"]], shown.index("Componente do valor financiado"))
        assert shown[at : at + 3] == [names[item["component"]], money(item["amount"]), rate(item["share_percent"])]
    # and they add up: amounts to the amount financed, shares to 100,00%
    assert sum(D(item["amount"]) for item in worksheet["components"]) == financed
    assert sum(D(item["share_percent"]) for item in worksheet["components"]) == D("100.00")
    at = shown.index("Valor financiado (total)")
    assert shown[at : at + 3] == ["Valor financiado (total)", money(financed), "100,00%"]
    # and the flows are the release then every installment, with its date, day count and amount
    flows = worksheet["flows"]
    assert flows[0] == {
        "number": 0,
        "date": worksheet["release_date"],
        "days": 0,
        "amount": f"{D(str(payload['principal_amount'])):.2f}",
    }
    assert [(f["date"], f["amount"]) for f in flows[1:]] == [
        (r["due_date"], r["installment"]) for r in terms["schedule"]
    ]
    table = shown[
        shown.index(f"Fluxos considerados no cálculo (data-base da liberação: {br_day(worksheet['release_date'])})") :
    ]
    for flow in flows:
        label = "Liberação" if flow["number"] == 0 else str(flow["number"])
        at = table.index(br_day(flow["date"]))
        assert table[at - 1 : at + 3] == [label, br_day(flow["date"]), str(flow["days"]), money(flow["amount"])]
    # and solving the CET from those flows gives the CET the offer stated and the CCB prints
    solved = cet(
        D(flows[0]["amount"]),
        [(date.fromisoformat(f["date"]), D(f["amount"])) for f in flows[1:]],
        date.fromisoformat(flows[0]["date"]),
    )
    assert (solved.monthly, solved.annual) == (D(str(payload["cet"]["monthly"])), D(str(payload["cet"]["annual"])))
    assert f"CET: {rate(solved.monthly)} a.m.  |  {rate(solved.annual)} a.a." in shown


def test_payroll_loan_clauses_with_the_configured_default_charges(contract):
    # Given the CCB of an offer priced with a 2% late fee and 1% a month default interest
    _terms, payload, document = contract
    whole = text(document)
    conditions = payload["terms_and_conditions"]

    # Then the payroll-deduction authorisation, the end of employment, early settlement, withdrawal,
    # default charges and data protection are there, with their legal bases and the channels
    for title, _ in ccb_template.CLAUSES:
        assert title in whole
    assert "Lei nº 10.820/2003, com as alterações da Lei nº 15.179/2025" in whole
    assert "irrevogável e irretratável" in whole and "margem consignável" in whole
    assert "verbas rescisórias" in whole and "outro vínculo de emprego" in whole
    assert "redução proporcional dos juros e demais acréscimos (Código de Defesa do Consumidor, art. 52, § 2º)" in whole
    assert (
        "desistir desta contratação no prazo de 7 (sete) dias, contados da assinatura desta Cédula ou do "
        "recebimento do valor liberado (Código de Defesa do Consumidor, art. 49), comunicando a desistência ao "
        "CREDOR por: SAC 0800 000 0000, atendimento@exemplo.invalid (canal de exemplo)"
    ) in whole
    assert (
        f"multa de {rate(conditions['late_payment_fee'])} do valor da parcela (Código de Defesa do Consumidor, "
        f"art. 52, § 1º), juros de mora de {rate(conditions['default_interest'])} a.m."
    ) in whole
    assert "Lei nº 13.709/2018, art. 7º, I, e art. 8º" in whole


def test_consent_evidence_annex_names_ip_place_time_hash_and_token_validation(contract):
    # Given the CCB of a proposal whose consent and token validation were recorded
    _terms, _, document = contract
    shown = strings(document)
    consent = Consent.get()
    after = "ANEXO III - EVIDÊNCIAS DO CONSENTIMENTO PARA CONSULTA DE DADOS (LGPD)"

    # Then the annex prints each piece of evidence, times in São Paulo local time
    assert value_of(shown, "Endereço IP", after) == "203.0.113.7"
    assert value_of(shown, "Geolocalização (latitude, longitude)", after) == "-23,550500, -46,633300"
    assert value_of(shown, "Data e hora do consentimento", after) == "10/03/2026 às 11:30:00 (horário de Brasília)"
    assert (
        value_of(shown, "SHA-256 do texto aceito", after) == hashlib.sha256(consent.document_text.encode()).hexdigest()
    )
    assert (
        value_of(shown, "Validação do código enviado por SMS", after) == "10/03/2026 às 11:31:00 (horário de Brasília)"
    )


def test_missing_consent_is_stated_as_not_recorded(business_day):
    (
        terms,
        _,
    ) = make_terms(consent=False)
    shown = strings(pdf.render(terms))
    assert (
        value_of(shown, "Consentimento", "ANEXO III - EVIDÊNCIAS DO CONSENTIMENTO PARA CONSULTA DE DADOS (LGPD)")
        == "não registrado"
    )


def test_a_long_accented_name_and_a_pix_key_destination(business_day):
    # Given a borrower with a long accented name who gets the money by Pix
    terms, _ = make_terms(full_name=LONG_NAME, pix=True)

    # When the CCB is rendered
    document = pdf.render(terms)
    shown, whole = strings(document), text(document)

    # Then the name is whole, accents included (wrapped over lines, not cut), and the Pix key is the destination
    assert f"O EMITENTE ({LONG_NAME}" not in whole  # it is not in the clauses: it is in the parties and the lines
    assert " ".join(shown[shown.index("Nome") + 1 : shown.index("CPF")]) == LONG_NAME
    assert f"{LONG_NAME} - CPF 123.456.789-09" in whole
    destination = " ".join(shown[shown.index("Destino do crédito") + 1 : shown.index("Praça de pagamento")])
    assert destination == (
        f"Pix para a chave e-mail {PIX_KEY}, de titularidade do emitente ({LONG_NAME}, CPF 123.456.789-09)"
    )
    assert f"pago ao EMITENTE por Pix para a chave e-mail {PIX_KEY}" in whole


def test_every_installment_is_listed_with_the_header_on_every_page_of_the_schedule(business_day):
    # Given a 96-installment contract, whose schedule spans pages
    terms, _ = make_terms(installments=96)

    # When the CCB is rendered
    pages = page_strings(pdf.render(terms))

    # Then the 96 rows come in order, and every page of the schedule starts with its header row
    header = list(ccb_template.SCHEDULE_HEADER)
    schedule_pages = [page[:-2] for page in pages if header[-1] in page]  # less the notice and the footer
    assert len(schedule_pages) > 1
    rows = []
    for page in schedule_pages:
        at = page.index(header[0])
        assert page[at : at + 6] == header
        rows += page[at + 6 : page.index("Total") if "Total" in page else len(page)]
    expected = [
        value
        for r in terms["schedule"]
        for value in (
            str(r["number"]),
            br_day(r["due_date"]),
            money(r["installment"]),
            money(r["interest"]),
            money(r["amortization"]),
            money(r["balance"]),
        )
    ]
    assert rows == expected


def test_the_pdf_carries_title_author_and_subject(contract):
    terms, _, document = contract
    assert metadata(document) == {
        "Title": f"Cédula de Crédito Bancário nº {CCB_NUMBER}",
        "Author": "FINANCEIRA EXEMPLO SOCIEDADE DE CRÉDITO DIRETO S.A. (DADOS DE EXEMPLO)",
        "Subject": f"Empréstimo consignado com desconto em folha - contrato {terms['contract_id']}",
        "Creator": "consignado-origination",
    }


def test_the_signed_version_is_the_document_plus_the_evidence_page(contract):
    # Given the CCB and the evidence recorded when it was signed
    terms, _, original = contract

    # When the signed version is rendered
    signed = pdf.render(terms, EVIDENCE)

    # Then its pages are the original's (but for the page count in the footer) plus the evidence page
    def body(pages):
        return [[s for s in page if not s.startswith(f"CCB nº {CCB_NUMBER}  |")] for page in pages]

    before, after = page_strings(original), page_strings(signed)
    assert body(after[:-1]) == body(before) and len(after) == len(before) + 1
    assert after[-1][-1].endswith(f"Página {len(after)} de {len(after)}")
    evidence = after[-1]
    assert evidence[0] == "PÁGINA DE EVIDÊNCIAS DA ASSINATURA ELETRÔNICA"
    assert {label: value_of(evidence, label) for label, _ in ccb_template.EVIDENCE[1:]} == {
        "Provedor de assinatura eletrônica": "Simulador de assinatura dos testes",
        "Identificador do processo de assinatura": EVIDENCE["process_id"],
        "Resultado do processo": "PROCESS_RESULT_OK (processo concluído)",
        "Autenticação de identidade": "AUTHENTICATION_RESULT_POSITIVE (identidade confirmada)",
        "Prova de vida": "LIVENESS_RESULT_LIVE (pessoa presente confirmada)",
        "Análise antifraude": "TRUST_RESULT_NO (sem indício de fraude)",
        "Data e hora da assinatura (data de emissão)": "10/03/2026 às 16:45:12 (horário de Brasília)",
        "Local de emissão": "São Paulo/SP",
        "SHA-256 do documento não assinado": "ab" * 32,
    }
    assert metadata(signed)["Subject"].endswith(" - via assinada")


def test_template_texts_are_winansi_and_every_placeholder_is_provided(contract):
    terms, _, _ = contract
    assert set(pdf.fields(terms)) == set(ccb_template.PLACEHOLDERS)
    for name in dir(ccb_template):
        if name.startswith("__"):  # the module's docstring names the characters not to use
            continue
        value = getattr(ccb_template, name)
        for item in re.findall(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"", repr(value)):
            piece = item[0] or item[1]
            assert encode(piece, "Helvetica") == piece.encode("cp1252"), (name, piece)


def test_a_value_wider_than_its_column_is_wrapped_not_cut():
    # Given a table cell far wider than its column (a long URL, no spaces)
    url = "https://partner.example.com/" + "customers/12345678909/" * 8 + "signature-return"
    canvas = Canvas(__import__("io").BytesIO(), pagesize=A4)
    layout = Layout(canvas)

    # When it is laid out
    layout.table(pdf.PAIR_WIDTHS, [("Retorno", url)])
    layout.finish()
    shown = strings(canvas.getpdfdata())

    # Then it is split over consecutive lines that together are the whole value
    lines = shown[shown.index("Retorno") + 1 :]
    assert "".join(lines) == url and len(lines) > 1


def test_no_ccb_is_issued_without_the_creditor_settings(business_day):
    unconfigured = load_settings("test", overrides={"ccb": {"creditor_name": "", "issue_place": " "}})
    with pytest.raises(contract_terms.CcbNotConfigured, match="creditor_name, issue_place must be set"):
        make_terms(settings=unconfigured)


@pytest.fixture
def invariant_pdf(monkeypatch):
    """reportlab without the creation time and random document id: equal documents, equal bytes."""
    from reportlab import rl_config

    monkeypatch.setattr(rl_config, "invariant", 1)
    monkeypatch.setattr(pdf, "_bodies", pdf._RecentBodies())


def test_a_signed_version_after_its_original_is_the_document_composed_anew(business_day, invariant_pdf):
    terms, _ = make_terms()
    pdf.render(terms)  # the original: its body is kept
    reused = pdf.render(terms, EVIDENCE)
    pdf._bodies = pdf._RecentBodies()
    assert pdf.render(terms, EVIDENCE) == reused
    assert pdf.render(terms) == pdf.render(terms)  # a kept body is copied, never finished in place


def test_other_terms_never_get_a_kept_body(business_day, invariant_pdf):
    terms, _ = make_terms()
    pdf.render(terms)
    changed = {**terms, "contract_id": terms["contract_id"] + "-2"}
    fresh = pdf.render(changed)
    pdf._bodies = pdf._RecentBodies()
    assert pdf.render(changed) == fresh
    assert terms["contract_id"] + "-2" in "".join(string for page in page_strings(fresh) for string in page)


def test_the_kept_bodies_are_bounded(business_day, invariant_pdf, monkeypatch):
    monkeypatch.setattr(pdf._RecentBodies, "SIZE", 2)
    terms, _ = make_terms()
    for suffix in "abc":
        pdf.render({**terms, "contract_id": terms["contract_id"] + suffix})
    assert len(pdf._bodies._bodies) == 2
