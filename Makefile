# Front door of the project. `make help` lists the targets.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
APP := app:create_app
QUEUES ?= credit_analysis simulation bank_validation contract signature_result disbursement status_webhook auction_webhook scheduler
PROCESSES ?= 1
THREADS ?= 4
ARGS ?=

.PHONY: help install run api worker cli test test-sqlite test-services clean

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
	$(BIN)/gunicorn --bind $${HOST:-127.0.0.1}:$${PORT:-8000} --workers $${WEB_CONCURRENCY:-2} --threads $${API_THREADS:-8} '$(APP)()'

worker: $(STAMP) ## a dramatiq pool: make worker QUEUES="credit_analysis" PROCESSES=2 THREADS=8
	$(BIN)/dramatiq rabbitmq.worker --processes $(PROCESSES) --threads $(THREADS) --queues $(foreach q,$(QUEUES),$${QUEUE_PREFIX}$(q))

cli: $(STAMP) ## ops commands: make cli ARGS="partners list"
	$(BIN)/flask --app '$(APP)' $(ARGS)

test: $(STAMP) ## the whole suite on SQLite, then on PostgreSQL + RabbitMQ (skipped if absent)
	$(BIN)/python -m pytest -q
	TEST_BACKEND=services $(BIN)/python -m pytest -q

test-sqlite: $(STAMP) ## the suite on SQLite + in-process broker only
	$(BIN)/python -m pytest -q

test-services: $(STAMP) ## the suite on PostgreSQL + RabbitMQ only
	TEST_BACKEND=services $(BIN)/python -m pytest -q

clean: ## remove the virtualenv and local databases
	rm -rf $(VENV) var
