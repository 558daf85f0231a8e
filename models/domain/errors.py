"""Domain errors the HTTP layer turns into the specification's error body."""


class DomainError(Exception):
    http_status = 400

    def __init__(self, message, *, error_code=None, details=None, http_status=None):
        super().__init__(message)
        self.message = message
        self.error_code = error_code
        self.details = details or {}
        if http_status is not None:
            self.http_status = http_status
