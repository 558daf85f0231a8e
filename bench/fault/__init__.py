"""Fault injection on the production shape (issue "Money path and lifecycle", item 10).

Proposals go through the public API to gunicorn and the worker pools (as `make api` / `make pools`
start them), on a PostgreSQL server and a RabbitMQ node of the run's own (bench.private_services),
while the pools' worker processes are SIGKILLed, RabbitMQ and PostgreSQL restart and each of them
is down for a while. Then every proposal must be final (DISBURSED), paid once, and every status
change delivered to its partner's endpoint at least once; no answer may be a 500.

    plan.py      the faults, their order and lengths (pure)
    client.py    a partner client that retries 5xx and connection failures, and records them
    journeys.py  one partner thread per proposal slot, resuming from whatever status it finds
    injector.py  carries the faults out on the run's own processes and servers
    evidence.py  what the database, the broker and the partners' endpoints saw at the end
    verdict.py   the checks and the report (pure)
    run.py       all of it in order: `run(plan)`; bench/fault_run.py and tests/fault call it
"""
