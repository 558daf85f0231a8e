"""External systems: one package each with port.py (the interface), sandbox.py and http_adapter.py;
``ports.build_ports(settings)`` builds one adapter per system, once per process."""
