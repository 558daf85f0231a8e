"""The lifecycle sweep: every non-final status has a way out (models/domain/status_deadlines.py)."""
