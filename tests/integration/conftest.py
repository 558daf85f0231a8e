"""Integration layer: services, actors, the outbox relay and pools, database indexes and counters,
external adapters against local servers. Tests here run on the database and the broker of the
chosen backend (tests/backends.py), without the HTTP test client; every test starts from clean
tables plus the seeded sandbox partners."""

from tests.support.service_fixtures import (
    app,
    broker,
    business_day,
    clean_database,
    configure_partner,
    drain,
    held_outbox,
    new_proposal,
    receiver,
    settle,
    use_runtime,
    worker,
)
