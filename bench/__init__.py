"""Measurement and demo scripts (not tests): run with `python -m bench.<name>` from the project root.

Benchmarks build their data with the test suite's builder (tests/builders.py) and use its local
servers (tests/support/): one definition of a plausible proposal for both, instead of a copy here.
"""
