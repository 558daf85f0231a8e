"""External systems: one package each with port.py, sandbox.py, http_adapter.py and get_<system>()."""
