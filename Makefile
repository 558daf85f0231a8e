# Front door of the project. `make help` lists the targets.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
APP := app:create_app
QUEUES ?= credit_analysis simulation bank_validation contract signature_result disbursement status_webhook auction_webhook scheduler
PROCESSES ?= 1
THREADS ?= 4
ARGS ?=
# Shared by the API and the pools of one host, so GET /metrics aggregates every process (README).
METRICS_DIR ?= var/prometheus
POOL ?=
BENCH_ARGS ?=
DEMO_ARGS ?=

.PHONY: help install run api worker pools procfile cli lint test test-unit test-integration test-e2e test-openapi test-sqlite \
	test-services test-fault bench bench-api bench-fault demo clean

help: ## list the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-17s %s\n", $$1, $$2}'

$(STAMP): requirements.lock requirements.txt
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found; install Python 3.11"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	touch $(STAMP)

install: $(STAMP) ## create the virtualenv and install the pinned dependencies

run: $(STAMP) ## serve the API (waitress) on http://127.0.0.1:8000/v1 with an in-process broker and worker
	$(BIN)/python app.py

api: $(STAMP) ## production API under gunicorn (set DATABASE_URL, AMQP_URL, JWT_SIGNING_KEY)
	mkdir -p $(METRICS_DIR)
	PROMETHEUS_MULTIPROC_DIR=$${PROMETHEUS_MULTIPROC_DIR:-$(abspath $(METRICS_DIR))} $(BIN)/gunicorn --config http/gunicorn_conf.py '$(APP)()'

worker: $(STAMP) ## one dramatiq pool: make worker QUEUES="credit_analysis" PROCESSES=2 THREADS=8
	mkdir -p $(METRICS_DIR)
	PROMETHEUS_MULTIPROC_DIR=$${PROMETHEUS_MULTIPROC_DIR:-$(abspath $(METRICS_DIR))} $(BIN)/dramatiq rabbitmq.worker --skip-logging --processes $(PROCESSES) --threads $(THREADS) --queues $(foreach q,$(QUEUES),$${QUEUE_PREFIX}$(q))

pools: $(STAMP) ## every pool of rabbitmq/pools.py (README table); POOL="webhooks" starts only some; LAYOUT=small on ~2 cores
	mkdir -p $(METRICS_DIR)
	PROMETHEUS_MULTIPROC_DIR=$${PROMETHEUS_MULTIPROC_DIR:-$(abspath $(METRICS_DIR))} $(BIN)/python -m rabbitmq.pools $(if $(LAYOUT),--layout $(LAYOUT)) run $(POOL)

procfile: ## print the production layout (API + pools) as Procfile lines
	@$(BIN)/python -m rabbitmq.pools procfile

cli: $(STAMP) ## ops commands: make cli ARGS="partners list"
	$(BIN)/flask --app '$(APP)' $(ARGS)

lint: $(STAMP) ## ruff (rules) and mypy, then ruff's format check; settings in pyproject.toml
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/ruff format --check .

# Test layers (README, Tests): tests/unit needs no backend; tests/integration, tests/e2e and
# tests/openapi run on SQLite + the in-process broker, or on PostgreSQL + RabbitMQ with
# TEST_BACKEND=services.
test: $(STAMP) ## unit tests, then integration + e2e + openapi on SQLite and on PostgreSQL + RabbitMQ (skipped if absent)
	$(BIN)/python -m pytest -q tests/unit
	TEST_BACKEND=sqlite $(BIN)/python -m pytest -q tests/integration tests/e2e tests/openapi
	TEST_BACKEND=services $(BIN)/python -m pytest -q tests/integration tests/e2e tests/openapi

test-unit: $(STAMP) ## pure tests: no Flask app, broker or database (seconds)
	$(BIN)/python -m pytest -q tests/unit

test-integration: $(STAMP) ## services, actors, relay, adapters on the database + broker (TEST_BACKEND=services: real ones)
	$(BIN)/python -m pytest -q tests/integration

test-e2e: $(STAMP) ## through the Flask app and test client: routes, flows, CLI (TEST_BACKEND=services: real ones)
	$(BIN)/python -m pytest -q tests/e2e

test-openapi: $(STAMP) ## the document as the contract: validator, fuzzer, generated-client journey (TEST_BACKEND=services: real ones)
	$(BIN)/python -m pytest -q -s tests/openapi

test-sqlite: $(STAMP) ## every layer in one run on SQLite + in-process broker
	TEST_BACKEND=sqlite $(BIN)/python -m pytest -q

test-services: $(STAMP) ## every layer in one run on PostgreSQL + RabbitMQ
	TEST_BACKEND=services $(BIN)/python -m pytest -q

# Its own layer, outside `make test`: it stops and starts servers (its own, never the shared ones).
test-fault: $(STAMP) ## fault injection: 300 proposals, pools SIGKILLed, PostgreSQL and RabbitMQ down 60 s (~10 min)
	$(BIN)/python -m pytest -q -s -p no:cacheprovider tests/fault

bench: $(STAMP) ## full-flow benchmark vs a bare dramatiq floor (PostgreSQL + RabbitMQ): BENCH_ARGS="--n 1000"
	$(BIN)/python -m bench.full_flow $(BENCH_ARGS)

bench-api: $(STAMP) ## hot-route load test against a running API: BENCH_ARGS="--base-url http://127.0.0.1:8000"
	$(BIN)/python -m bench.api_load $(BENCH_ARGS)

bench-fault: $(STAMP) ## fault injection, larger: BENCH_ARGS="--n 1000 --outage 120"
	$(BIN)/python -m bench.fault_run $(BENCH_ARGS)

demo: $(STAMP) ## a partner's whole journey against `make run` (other terminal): DEMO_ARGS="--base-url ..."
	$(BIN)/python -m bench.demo $(DEMO_ARGS)

clean: ## remove the virtualenv and local databases
	rm -rf $(VENV) var
