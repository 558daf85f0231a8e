"""Application services: use cases grouped by capability, shared by routes, actors and ops commands.

A use case takes plain values (ids, the caller's origin, validated fields), loads what it needs
(``partners.ownership.owned_proposal`` for an origin's proposal: 404 missing, 403 another's), calls
the domain, persists, enqueues, and owns its transaction (``platform.unit_of_work``). Functions
documented "inside unit_of_work" are steps of a use case, not use cases.

Dependencies are parameters, keyword-only, after the plain values:

* each external system it calls, typed by its port and named after its field of
  ``models.external.ports.Ports`` (``payroll=``, ``funding=``, ``partner_endpoints=``);
* each settings section it reads, typed by its section class and named ``<section>_settings``
  (``credit_settings: CreditSettings``, ``payroll_window_settings``; ``pricing_settings`` for
  ``[default.credit.pricing]``);
* a top-level setting by its own name (``environment=``, ``credential_environment=``,
  ``jwt_signing_key=``). The token functions of ``partners.tokens``, which read four top-level
  keys, take the root ``Settings``.

The route or actor passes them from the runtime (``models.runtime``); a test passes fakes. Services
never import the runtime, ``models.settings.current``, the web layer, the broker or the actors
(tests/unit/test_layers.py).
"""
