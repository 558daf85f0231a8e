"""Worker middleware: a database connection per message, and the request id carried along."""

from __future__ import annotations

import dramatiq
from dramatiq.middleware import Middleware

from models.services.platform import request_context


class DatabaseConnection(Middleware):
    """peewee keeps one connection per thread: open it for each message and always close it."""

    def before_process_message(self, broker: dramatiq.Broker, message: dramatiq.Message) -> None:
        from models.db.database import db

        db.connect(reuse_if_open=True)

    def after_process_message(self, broker, message, *, result=None, exception=None) -> None:
        from models.db.database import db

        if not db.is_closed():
            db.close()

    after_skip_message = after_process_message


class RequestIdPropagation(Middleware):
    """Puts the enqueuing request's id on the message and binds it while the actor runs."""

    def __init__(self) -> None:
        self._tokens: dict[str, object] = {}

    def before_enqueue(self, broker, message, delay) -> None:
        request_id = request_context.current_request_id()
        if request_id and "request_id" not in message.options:
            message.options["request_id"] = request_id

    def before_process_message(self, broker, message) -> None:
        self._tokens[message.message_id] = request_context.bind_request_id(message.options.get("request_id"))

    def after_process_message(self, broker, message, *, result=None, exception=None) -> None:
        token = self._tokens.pop(message.message_id, None)
        if token is not None:
            try:
                request_context.reset_request_id(token)
            except ValueError:  # reset from another context: nothing left to unbind
                pass

    after_skip_message = after_process_message
