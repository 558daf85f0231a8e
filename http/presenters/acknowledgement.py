"""The spec's asynchronous-processing acknowledgement (202 body), one view for every route;
schemas.async_processing.Acknowledgement serializes it."""

from datetime import datetime


def acknowledgement_view(proposal_id: str, status: str, started_at: datetime, status_url: str, message: str) -> dict:
    return {
        "async_processing": True,
        "message": message,
        "proposal_id": proposal_id,
        "status": status,
        "processing_started_at": started_at,
        "status_url": status_url,
    }
