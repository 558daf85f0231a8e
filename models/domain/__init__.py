"""Pure domain core of the consignado origination service.

Nothing in this package may import a web, ORM, queue or HTTP framework: it is
plain Python plus the standard library, ``holidays`` and ``tzdata``, so every
rule can be tested without a database or a broker (see test_purity.py).
"""
