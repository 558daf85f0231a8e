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

.PHONY: help install run api worker pools procfile cli test test-sqlite test-services bench bench-api demo clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-14s %s\n", $$1, $$2}'

$(STAMP): requirements.lock requirements.txt
	@command -v $(PYTHON) >/dev/null || { echo "$(PYTHON) not found; install Python 3.11"; exit 1; }
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	touch $(STAMP)

install: $(STAMP) ## create the virtualenv and install the pinned dependencies

run: $(STAMP) ## serve the API on http://127.0.0.1:8000/v1 with an in-process broker and worker
	$(BIN)/python app.py

api: $(STAMP) ## production API under gunicorn (set DATABASE_URL, AMQP_URL, JWT_SIGNING_KEY)
	mkdir -p $(METRICS_DIR)
	PROMETHEUS_MULTIPROC_DIR=$${PROMETHEUS_MULTIPROC_DIR:-$(abspath $(METRICS_DIR))} $(BIN)/gunicorn --config http/gunicorn_conf.py '$(APP)()'

worker: $(STAMP) ## one dramatiq pool: make worker QUEUES="credit_analysis" PROCESSES=2 THREADS=8
	mkdir -p $(METRICS_DIR)
	PROMETHEUS_MULTIPROC_DIR=$${PROMETHEUS_MULTIPROC_DIR:-$(abspath $(METRICS_DIR))} $(BIN)/dramatiq rabbitmq.worker --skip-logging --processes $(PROCESSES) --threads $(THREADS) --queues $(foreach q,$(QUEUES),$${QUEUE_PREFIX}$(q))

pools: $(STAMP) ## every pool of rabbitmq/pools.py (README table); POOL="webhooks" starts only some
	mkdir -p $(METRICS_DIR)
	PROMETHEUS_MULTIPROC_DIR=$${PROMETHEUS_MULTIPROC_DIR:-$(abspath $(METRICS_DIR))} $(BIN)/python -m rabbitmq.pools run $(POOL)

procfile: ## print the production layout (API + pools) as Procfile lines
	@$(BIN)/python -m rabbitmq.pools procfile

cli: $(STAMP) ## ops commands: make cli ARGS="partners list"
	$(BIN)/flask --app '$(APP)' $(ARGS)

test: $(STAMP) ## the whole suite on SQLite, then on PostgreSQL + RabbitMQ (skipped if absent)
	$(BIN)/python -m pytest -q
	TEST_BACKEND=services $(BIN)/python -m pytest -q

test-sqlite: $(STAMP) ## the suite on SQLite + in-process broker only
	$(BIN)/python -m pytest -q

test-services: $(STAMP) ## the suite on PostgreSQL + RabbitMQ only
	TEST_BACKEND=services $(BIN)/python -m pytest -q

bench: $(STAMP) ## full-flow benchmark vs a bare dramatiq floor (PostgreSQL + RabbitMQ): BENCH_ARGS="--n 1000"
	$(BIN)/python -m bench.full_flow $(BENCH_ARGS)

bench-api: $(STAMP) ## hot-route load test against a running API: BENCH_ARGS="--base-url http://127.0.0.1:8000"
	$(BIN)/python -m bench.api_load $(BENCH_ARGS)

demo: $(STAMP) ## a partner's whole journey against `make run` (other terminal): DEMO_ARGS="--base-url ..."
	$(BIN)/python -m bench.demo $(DEMO_ARGS)

clean: ## remove the virtualenv and local databases
	rm -rf $(VENV) var
