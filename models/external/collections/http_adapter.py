"""Real collections system over HTTP: GET /overdue?cpf= -> {longest_overdue_days}."""

from __future__ import annotations

from models.external.collections.port import CollectionsPort, CollectionsUnavailable
from models.external.http_base import ExternalError, HttpClient


class HttpCollections(CollectionsPort):
    def __init__(self, client: HttpClient) -> None:
        self.client = client

    def longest_overdue_days(self, cpf: str) -> int:
        try:
            body = self.client.get("/overdue", {"cpf": cpf})
            return max(0, int(body["longest_overdue_days"]))
        except ExternalError as error:
            raise CollectionsUnavailable(str(error)) from error
        except (KeyError, TypeError, ValueError) as error:
            raise CollectionsUnavailable(f"unexpected collections answer ({error})") from None
