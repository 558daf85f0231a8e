"""The CCB as a PDF (reportlab), written under ``contract.documents_dir``.

Drawn straight on reportlab's canvas (see ``contract_layout``): the platypus Table measured every
cell of the 96-row schedule several times and drew each with its own text object, which made the
PDF most of ``generate_contract``'s cost. Page streams are zlib-compressed without the pure-Python
ASCII85 wrapping (reportlab's C accelerator is not installed; binary streams are valid PDF).
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from models.services.contract.pdf_layout import Layout
from models.settings import ROOT, ContractSettings

# Process-wide reportlab default; this module is the service's only reportlab user.
rl_config.useA85 = 0

PAIR_WIDTHS = (170.0, 345.0)
BREAKDOWN_WIDTHS = (170.0, 110.0, 80.0)
SCHEDULE_WIDTHS = (30.0, 75.0, 85.0, 85.0, 85.0, 95.0)
SCHEDULE_HEADER = ("#", "due date", "installment", "interest", "amortization", "balance")


def documents_dir(contract_settings: ContractSettings) -> Path:
    configured = Path(contract_settings.documents_dir)
    return configured if configured.is_absolute() else ROOT / configured


def _text(value) -> str:
    return "" if value is None else str(value)


def _pairs(layout: Layout, title: str, rows: dict) -> None:
    layout.table(title, PAIR_WIDTHS, [(str(k), _text(v)) for k, v in rows.items()])


def render(terms: dict, contract_id: str) -> bytes:
    """The PDF bytes of the CCB described by ``terms``."""
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, pageCompression=1)
    canvas.setTitle(f"CCB {contract_id}")
    layout = Layout(canvas)
    layout.title("Cédula de Crédito Bancário (CCB) - payroll-deducted loan")
    layout.paragraph(
        f"Contract {contract_id} - CCB number {terms.get('ccb_number') or 'pending'} - "
        f"generated at {terms['generated_at']}"
    )
    _pairs(layout, "Borrower", terms["borrower"])
    _pairs(layout, "Originator", terms["origin"])
    _pairs(layout, "Amounts (R$)", terms["amounts"])
    _pairs(layout, "Rates and CET (% per period)", terms["rates"])
    if terms["cost_breakdown"]:
        layout.table(
            "CET breakdown (Res. CMN 4.881/2020, art. 7)",
            BREAKDOWN_WIDTHS,
            [
                (_text(i.get("component")), _text(i.get("amount")), _text(i.get("percent")))
                for i in terms["cost_breakdown"]
            ],
            header=("component", "amount (R$)", "% of total"),
        )
    _pairs(layout, "Terms and conditions", terms["terms_and_conditions"])
    _pairs(
        layout,
        "Disbursement",
        {"expected_date": terms["disbursement"]["expected_date"], **terms["disbursement"]["destination"]},
    )
    _pairs(layout, "Consent evidence", terms["consent"] or {"consent": "not recorded"})
    layout.table(
        f"Installment schedule (first due {terms['first_due_date']})",
        SCHEDULE_WIDTHS,
        [
            (str(r["number"]), r["due_date"], r["installment"], r["interest"], r["amortization"], r["balance"])
            for r in terms["schedule"]
        ],
        header=SCHEDULE_HEADER,
        fixed=True,
    )
    layout.finish()
    return buffer.getvalue()


def store(content: bytes, proposal_id: str, contract_id: str, *, contract_settings: ContractSettings) -> str:
    """Write the PDF atomically; returns its path relative to the documents directory."""
    relative = Path(proposal_id) / f"{contract_id}.pdf"
    target = documents_dir(contract_settings) / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".pdf.tmp")
    temporary.write_bytes(content)
    os.replace(temporary, target)
    return str(relative)


def path_of(relative: str, *, contract_settings: ContractSettings) -> Path:
    """Absolute path of a stored document."""
    return documents_dir(contract_settings) / relative
