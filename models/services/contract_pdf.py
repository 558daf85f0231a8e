"""The CCB as a PDF (reportlab), written under ``contract.documents_dir``."""
from __future__ import annotations

import io
import os
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from models.settings import ROOT, current

_GRID = TableStyle([("GRID", (0, 0), (-1, -1), 0.25, colors.grey), ("FONTSIZE", (0, 0), (-1, -1), 8),
                    ("BACKGROUND", (0, 0), (-1, 0), colors.whitesmoke)])


def documents_dir() -> Path:
    configured = Path(current().contract.documents_dir)
    return configured if configured.is_absolute() else ROOT / configured


def _pairs(title: str, rows: dict, styles) -> list:
    table = Table([[str(k), "" if v is None else str(v)] for k, v in rows.items()], hAlign="LEFT")
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.25, colors.grey), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    return [Paragraph(title, styles["Heading3"]), table, Spacer(1, 6)]


def render(terms: dict, contract_id: str) -> bytes:
    """The PDF bytes of the CCB described by ``terms``."""
    styles = getSampleStyleSheet()
    buffer = io.BytesIO()
    story = [Paragraph("Cédula de Crédito Bancário (CCB) - payroll-deducted loan", styles["Title"]),
             Paragraph(f"Contract {contract_id} - CCB number {terms.get('ccb_number') or 'pending'} - "
                       f"generated at {terms['generated_at']}", styles["Normal"]), Spacer(1, 8)]
    story += _pairs("Borrower", terms["borrower"], styles)
    story += _pairs("Originator", terms["origin"], styles)
    story += _pairs("Amounts (R$)", terms["amounts"], styles)
    story += _pairs("Rates and CET (% per period)", terms["rates"], styles)
    if terms["cost_breakdown"]:
        rows = [["component", "amount (R$)", "% of total"]] + [
            [i.get("component"), i.get("amount"), i.get("percent")] for i in terms["cost_breakdown"]]
        story += [Paragraph("CET breakdown (Res. CMN 4.881/2020, art. 7)", styles["Heading3"]),
                  Table(rows, style=_GRID, hAlign="LEFT"), Spacer(1, 6)]
    story += _pairs("Terms and conditions", terms["terms_and_conditions"], styles)
    story += _pairs("Disbursement", {"expected_date": terms["disbursement"]["expected_date"],
                                     **terms["disbursement"]["destination"]}, styles)
    story += _pairs("Consent evidence", terms["consent"] or {"consent": "not recorded"}, styles)
    rows = [["#", "due date", "installment", "interest", "amortization", "balance"]] + [
        [r["number"], r["due_date"], r["installment"], r["interest"], r["amortization"], r["balance"]]
        for r in terms["schedule"]]
    story += [Paragraph(f"Installment schedule (first due {terms['first_due_date']})", styles["Heading3"]),
              Table(rows, style=_GRID, hAlign="LEFT", repeatRows=1)]
    SimpleDocTemplate(buffer, pagesize=A4, title=f"CCB {contract_id}").build(story)
    return buffer.getvalue()


def store(content: bytes, proposal_id: str, contract_id: str) -> str:
    """Write the PDF atomically; returns its path relative to the documents directory."""
    relative = Path(proposal_id) / f"{contract_id}.pdf"
    target = documents_dir() / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.with_suffix(".pdf.tmp")
    temporary.write_bytes(content)
    os.replace(temporary, target)
    return str(relative)


def path_of(relative: str) -> Path:
    """Absolute path of a stored document."""
    return documents_dir() / relative
