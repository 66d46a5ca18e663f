# Faultline: `make run` runs the scenarios and writes the reports,
# `make test` runs the test suite. Both install missing system packages first.

SWIFT ?= swift
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE_BIN = .build/release

.PHONY: run test build system-packages test-system-packages bench-probes fuzz-predicates clean

system-packages:
	@scripts/install-system-packages.sh

test-system-packages:
	@scripts/install-system-packages.sh --test

build: system-packages
	$(SWIFT) build -c release -j $(JOBS)

run: build
	$(RELEASE_BIN)/perf-run run

test: test-system-packages
	$(SWIFT) build --build-tests -j $(JOBS)
	$(SWIFT) test --skip-build --parallel --num-workers $(JOBS)

# What instrumentation costs (not part of make test): docs/performance.md.
bench-probes: system-packages
	scripts/bench-probes.sh

# The predicate parser against a million generated strings (make test runs 20,000).
fuzz-predicates: test-system-packages
	$(SWIFT) build --build-tests -j $(JOBS)
	FAULTLINE_FUZZ_COUNT=1000000 $(SWIFT) test --skip-build --filter PredicateFuzzTests

clean:
	rm -rf .build .build-nosinks
