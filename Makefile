# Faultline: `make run` runs the scenarios and writes the reports,
# `make test` runs the test suite. Both install missing system packages first.

SWIFT ?= swift
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
RELEASE_BIN = .build/release

.PHONY: run test test-suite test-packages build system-packages test-system-packages bench-system-packages bench bench-probes bench-log bench-model fuzz-predicates update-baseline clean

# The suite at the baseline's scale: counters must equal Reports/baseline.json.
BASELINE_RUN = run --scale 0.02 --iterations 3 --warmup 1 --quiet

system-packages:
	@scripts/install-system-packages.sh

test-system-packages:
	@scripts/install-system-packages.sh --test

bench-system-packages:
	@scripts/install-system-packages.sh --bench

build: system-packages
	$(SWIFT) build -c release -j $(JOBS)

run: build
	$(RELEASE_BIN)/perf-run run

# The package's build, then its suite and the packages that depend on
# Faultline side by side: the suite's processes leave a core idle much of
# the time, which the other packages' builds take (the output is grouped
# per part). Started with the package's build, they slow it down more than
# they gain.
test: test-system-packages
	$(SWIFT) build --build-tests -j $(JOBS)
	$(MAKE) --no-print-directory -j 2 --output-sync=target test-suite test-packages
	# Comparisons judged on this machine's own noise (20 A/A pairs and a 2x
	# slowdown): alone, as a CI job compares two runs, not beside the
	# suite's builds and processes.
	$(SWIFT) test --skip-build --filter ComparisonStabilityTests

# The package's own tests, then the suite at the baseline's scale: its
# counters must equal Reports/baseline.json.
test-suite:
	$(SWIFT) test --skip-build --parallel --num-workers $(JOBS) --skip ComparisonStabilityTests
	.build/debug/perf-run $(BASELINE_RUN) --json .build/baseline-check.json --html .build/baseline-check.html
	.build/debug/perf-run compare Reports/baseline.json .build/baseline-check.json --exact-counters

# An application's package and the benchmark's, each depending on Faultline,
# built without debug information (a smoke build: about a tenth faster) into
# one scratch directory: the second package reuses the first one's build of
# Faultline's modules (the benchmark's build takes 19 s instead of 65 s).
PACKAGES_BUILD = $(CURDIR)/.build/packages
PACKAGE_BUILD = $(SWIFT) build -j $(JOBS) -debug-info-format none --scratch-path $(PACKAGES_BUILD)
# Their runs keep their data sets apart from the suite's, which runs beside them.
test-packages: export TMPDIR := $(CURDIR)/.build/test-packages-tmp
test-packages:
	mkdir -p $(TMPDIR)
	# SwiftPM keeps a path dependency's file list in the build plan: a file
	# added to Faultline stays unseen until the plan is made again.
	rm -f $(PACKAGES_BUILD)/*.yaml
	# An application's package that depends on Faultline: its tests measure its queries.
	$(PACKAGE_BUILD) --package-path Examples/Blog --build-tests
	$(SWIFT) test --package-path Examples/Blog --scratch-path $(PACKAGES_BUILD) --skip-build
	$(PACKAGE_BUILD) --package-path Examples/Blog --product blog-perf
	$(PACKAGES_BUILD)/debug/blog-perf run --scale 0.1 --iterations 2 --warmup 1 --quiet --json .build/blog-check.json --html .build/blog-check.html
	# The benchmark is not timed here, but a change that breaks it is caught:
	# its tests (the targets judged and printed, make bench's and make
	# bench-probes'), then one small round checks that the variants agree
	# (no callgrind).
	# One scratch directory for two packages: the build plan is made again
	# for each (SwiftPM would take the last package's plan for this one).
	rm -f $(PACKAGES_BUILD)/*.yaml
	$(PACKAGE_BUILD) --package-path Benchmarks --build-tests
	$(SWIFT) test --package-path Benchmarks --scratch-path $(PACKAGES_BUILD) --skip-build
	$(PACKAGES_BUILD)/debug/faultline-benchmark run --rounds 1 --scale 0.02 --callgrind-scale 0 --json .build/bench-check.json
	# Instruction counts under callgrind for one pattern: the benchmark
	# stops unless the C limit's count is one replay's (its run without
	# the warm-up replay counts the same).
	$(PACKAGES_BUILD)/debug/faultline-benchmark run --rounds 1 --scale 0.02 --callgrind-scale 0.02 --patterns SingleFault --json .build/bench-callgrind-check.json

# Rewrites the committed baseline: do it on purpose, when the engine's
# behaviour changed, and say so in the commit.
update-baseline: system-packages
	$(SWIFT) build -j $(JOBS)
	.build/debug/perf-run $(BASELINE_RUN) --json Reports/baseline.json --html .build/baseline.html
	@echo "Reports/baseline.json rewritten: commit it with the reason its counters changed."

# Faultline against the SQLite C API doing the same SQL and against GRDB, in
# one run (not part of make test): docs/performance.md. BASE=<results.json>
# says which ratios moved beyond their spread since that run; BENCH_ARGS
# passes more options (--rounds, --scale, --patterns, --callgrind-scale).
BENCH_RESULTS = Benchmarks/results
bench: bench-system-packages
	$(SWIFT) build -c release -j $(JOBS) --product perf-run
	rm -f Benchmarks/.build/*.yaml
	$(SWIFT) build -c release -j $(JOBS) --package-path Benchmarks
	mkdir -p $(BENCH_RESULTS)
	Benchmarks/.build/release/faultline-benchmark run --perf-run $(RELEASE_BIN)/perf-run \
		--json $(BENCH_RESULTS)/latest.json $(if $(BASE),--base $(BASE)) $(BENCH_ARGS)
	cp $(BENCH_RESULTS)/latest.json $(BENCH_RESULTS)/bench-$$(date -u +%Y%m%dT%H%M%SZ).json

# What instrumentation costs (not part of make test): docs/performance.md.
bench-probes: system-packages
	scripts/bench-probes.sh

# The predicate parser against a million generated strings (make test runs 20,000).
fuzz-predicates: test-system-packages
	$(SWIFT) build --build-tests -j $(JOBS)
	FAULTLINE_FUZZ_COUNT=1000000 $(SWIFT) test --skip-build --filter PredicateFuzzTests

clean:
	rm -rf .build .build-nosinks Benchmarks/.build Examples/Blog/.build

bench-log: system-packages
	scripts/bench-log.sh

# perf-run model import on a 20,000-entity model and a 1,000-deep chain.
bench-model: system-packages
	scripts/bench-model.sh
