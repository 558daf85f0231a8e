"""The spec's asynchronous-processing acknowledgement (202 body), one shape for every route."""

from datetime import datetime

from models.domain.clock import isoformat_z


def acknowledgement_body(proposal_id: str, status: str, started_at: datetime, status_url: str, message: str) -> dict:
    return {
        "async_processing": True,
        "message": message,
        "proposal_id": proposal_id,
        "status": status,
        "processing_started_at": isoformat_z(started_at),
        "status_url": status_url,
    }
