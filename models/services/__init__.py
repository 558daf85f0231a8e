"""Application services: use cases grouped by capability, shared by routes, actors and ops commands.

A use case takes plain values (ids, the caller's origin, validated fields), loads what it needs
(``partners.ownership.owned_proposal`` for an origin's proposal: 404 missing, 403 another's), calls
the domain, persists, enqueues, and owns its transaction (``platform.unit_of_work``). Functions
documented "inside unit_of_work" are steps of a use case, not use cases. Services never import the
web layer, the broker or the actors (tests/test_layers.py).
"""
