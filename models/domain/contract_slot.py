"""One active contract per CPF, across origins: which other proposals stand in a contract's way.

The payroll margin of one employment link carries the loans its analysis saw. A CPF may therefore
have one contract on its way to being paid at a time (being generated, waiting for a signature
whose window is still open, or signed and not yet settled), and a contract must not be paid on a
margin another loan took after its analysis read it. A contract disbursed *before* the analysis
is re-contracting's business (POST /proposals/start decides it), not this rule's: the analysis
read the margin that loan left.

Decided at two moments, each under the per-CPF lock:

* contract generation refuses a second one with the spec's contract-route 409 codes, each with its
  one meaning (:func:`slot_refusal`): ``CONTRACT_GENERATION_IN_PROGRESS`` while another contract of
  the CPF is being generated, ``CONTRACT_ALREADY_GENERATED`` while one waits for its signature with
  the window open, and ``CONTRACT_ACTIVE`` ("active contract with valid digital signature") when
  one is validly signed and still binds the margin: signed and not yet paid, or paid after this
  proposal's analysis read the margin;
* a valid signature cancels its contract (CANCELED, reason ``CONTRACT_ACTIVE``) when another
  contract of the CPF was signed first and counts against it: :func:`signed_contract_conflicts`.
  Two contracts awaiting a signature at once (e.g. generated before this rule) are never both
  paid; the first valid signature wins.
"""

from __future__ import annotations

from models.domain.statuses import SIGNED_UNSETTLED_STATUSES, Status

S = Status
_IN_PROGRESS = frozenset({S.CONTRACT_GENERATION_IN_PROGRESS})
_SIGNABLE = frozenset({S.CONTRACT_GENERATED, S.AWAITING_SIGNATURE})

# Statuses worth reading from the database when looking for what stands in the way.
CANDIDATE_STATUSES = _IN_PROGRESS | _SIGNABLE | SIGNED_UNSETTLED_STATUSES | {S.DISBURSED}


def signed_contract_conflicts(status: Status | str, *, signed_after_our_analysis: bool) -> bool:
    """True when another proposal in ``status``, holding a signed contract, keeps ours from being
    signed or made: signed and not settled, or disbursed on a margin our analysis did not see
    (``signed_after_our_analysis``: its signature is later than our approval, or ours is unknown)."""
    status = Status(status)
    return status in SIGNED_UNSETTLED_STATUSES or (status is S.DISBURSED and signed_after_our_analysis)


def slot_refusal(status: Status | str, *, signature_window_open: bool, signed_after_our_analysis: bool) -> str | None:
    """The 409 error code when another proposal in ``status`` keeps ours from getting a contract
    now, else None: a contract being generated (``CONTRACT_GENERATION_IN_PROGRESS``), one still
    signable (``signature_window_open``: its deadline is ahead; ``CONTRACT_ALREADY_GENERATED``), or
    a signed one that conflicts (:func:`signed_contract_conflicts`; ``CONTRACT_ACTIVE``)."""
    status = Status(status)
    if status in _IN_PROGRESS:
        return "CONTRACT_GENERATION_IN_PROGRESS"
    if status in _SIGNABLE:
        return "CONTRACT_ALREADY_GENERATED" if signature_window_open else None
    if signed_contract_conflicts(status, signed_after_our_analysis=signed_after_our_analysis):
        return "CONTRACT_ACTIVE"
    return None
