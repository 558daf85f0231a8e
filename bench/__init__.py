"""Measurement and demo scripts (not tests): run with `python -m bench.<name>` from the project root."""
