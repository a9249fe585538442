# waymark — the two commands a newcomer needs are `make demo` and `make test`.
# Every target first runs scripts/setup.sh with what it needs (demo: the compiler and the CLI's
# libraries; test: also GoogleTest, Boost, Chromium...), which installs missing Debian packages
# and is a no-op when everything is there. docs/build.md: where the build time goes, the budget.

JOBS        ?= $(shell nproc)
BUILD_DIR   ?= build
RELEASE_DIR := $(BUILD_DIR)/release
ASAN_DIR    := $(BUILD_DIR)/asan
TSAN_DIR    := $(BUILD_DIR)/tsan
FUZZ_DIR    := $(BUILD_DIR)/fuzz
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?= 0
WAYMARK     := $(RELEASE_DIR)/bin/waymark
SHARED_DATA ?= ../shared/data
CTEST_FLAGS := --output-on-failure -j $(JOBS)
# Each step's wall time goes to this file; `make test` prints them at the end.
TIMES       := $(BUILD_DIR)/times.txt
TIMED        = bash scripts/timed.sh $(TIMES)
# Ninja (scripts/setup.sh installs it): keeps both cores busy across targets, and
# scripts/build_times.sh reads its log. A tree made by another generator is made again.
CONFIGURE    = bash scripts/configure.sh

# The release tree: optimised, warnings as errors. The demo builds only the CLI in it; the test
# build adds the tests, the examples and a compile-only check of the benchmarks' sources;
# make bench builds the benchmark programs. The library's and the CLI's flags are the same in
# all three, so switching between them rebuilds none of it.
RELEASE_FLAGS := -DCMAKE_BUILD_TYPE=Release -DWAYMARK_WERROR=ON
DEMO_FLAGS    := -DWAYMARK_BUILD_TESTS=OFF -DWAYMARK_BUILD_EXAMPLES=OFF -DWAYMARK_BUILD_BENCH=OFF
TEST_FLAGS    := -DWAYMARK_BUILD_TESTS=ON -DWAYMARK_BUILD_EXAMPLES=ON -DWAYMARK_BUILD_BENCH=OFF -DWAYMARK_CHECK_BENCH=ON
BENCH_FLAGS   := -DWAYMARK_BUILD_TESTS=ON -DWAYMARK_BUILD_EXAMPLES=ON -DWAYMARK_BUILD_BENCH=ON -DWAYMARK_CHECK_BENCH=OFF

.PHONY: all setup release asan tsan demo test test-release test-asan test-tsan test-steps bench fuzz clean

all: release

setup:
	@bash scripts/setup.sh

# The main job on bundled data: every query of the bundled Moving AI scenarios, a summary,
# and a picture of the longest path. Installs and builds only what the CLI needs.
demo:
	@bash scripts/setup.sh demo
	$(CONFIGURE) $(RELEASE_DIR) $(RELEASE_FLAGS) $(DEMO_FLAGS)
	cmake --build $(RELEASE_DIR) -j $(JOBS) --target waymark
	@mkdir -p $(BUILD_DIR)/demo
	$(WAYMARK) scen data/maps/arena.map.scen data/maps/den520d.map.scen --png $(BUILD_DIR)/demo/longest_path.png

release:
	@bash scripts/setup.sh test
	$(TIMED) "release: configure" $(CONFIGURE) $(RELEASE_DIR) $(RELEASE_FLAGS) $(TEST_FLAGS)
	$(TIMED) "release: build" cmake --build $(RELEASE_DIR) -j $(JOBS)

# Sanitizer build of the library, CLI and tests (AddressSanitizer + UndefinedBehaviorSanitizer),
# compiled by clang: a third less compile time than GCC for these flags, and a second compiler
# whose warnings are errors (the release and TSan builds use GCC). -O1 -g1: a third less compile
# time than -O2 -g, with line numbers in every report.
asan:
	@bash scripts/setup.sh test
	$(TIMED) "asan: configure" env CC=clang CXX=clang++ $(CONFIGURE) $(ASAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAYMARK_WERROR=ON \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DWAYMARK_SANITIZE=ON -DWAYMARK_BUILD_BENCH=OFF \
	  -DWAYMARK_REFERENCE_CLI=$(CURDIR)/$(WAYMARK)
	$(TIMED) "asan: build" cmake --build $(ASAN_DIR) -j $(JOBS)

# ThreadSanitizer build of the library and the concurrency tests only (threads sharing
# planners, tables and pattern databases; the parallel pattern-database build). -O1 -g1 as
# for ASan: the reports keep their line numbers.
tsan:
	@bash scripts/setup.sh test
	$(TIMED) "tsan: configure" $(CONFIGURE) $(TSAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAYMARK_WERROR=ON \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DWAYMARK_TSAN=ON \
	  -DWAYMARK_BUILD_APPS=OFF -DWAYMARK_BUILD_BENCH=OFF -DWAYMARK_BUILD_EXAMPLES=OFF -DWAYMARK_BUILD_C_API=OFF
	$(TIMED) "tsan: build" cmake --build $(TSAN_DIR) -j $(JOBS) --target waymark_concurrency_tests

test-release: release
	$(TIMED) "release: tests" bash -c 'cd $(RELEASE_DIR) && ctest $(CTEST_FLAGS)'

test-asan: asan
	$(TIMED) "asan: tests" bash -c 'cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1 LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  ctest $(CTEST_FLAGS)'

# Address-space randomisation off (setarch -R): GCC 12's TSan runtime refuses the layout of
# kernels with more mmap randomisation bits. --no-tests=error: a renamed suite fails loudly.
test-tsan: tsan
	$(TIMED) "tsan: tests" bash -c 'cd $(TSAN_DIR) && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  setarch $$(uname -m) -R ctest $(CTEST_FLAGS) --no-tests=error -L concurrency'

test-steps: test-release test-asan test-tsan

# The whole suite, twice: optimised with warnings as errors, then under ASan+UBSan; and the
# concurrency tests under ThreadSanitizer. Ends with the wall time of each step and in all
# (budget: 15 minutes from a clean clone on 2 cores, docs/build.md).
test:
	@mkdir -p $(BUILD_DIR) && rm -f $(TIMES)
	@start=$$(date +%s); $(MAKE) --no-print-directory test-steps; rc=$$?; \
	  bash scripts/timed.sh --report $(TIMES) $$start; exit $$rc

# Benchmarks (not tests): results go to bench/results/.
bench:
	@bash scripts/setup.sh bench
	$(CONFIGURE) $(RELEASE_DIR) $(RELEASE_FLAGS) $(BENCH_FLAGS)
	cmake --build $(RELEASE_DIR) -j $(JOBS)
	bash bench/run.sh $(RELEASE_DIR) $(SHARED_DATA)

# Every libFuzzer target in fuzz/ for FUZZ_SECONDS each, or FUZZ_RUNS executions each when it
# is set (clang + libclang-rt-14-dev, installed by scripts/setup.sh fuzz). Exits non-zero on
# any finding; crashers land in build/fuzz/findings.
fuzz:
	@bash scripts/setup.sh fuzz
	CC=clang CXX=clang++ $(CONFIGURE) $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAYMARK_FUZZ=ON \
	  -DWAYMARK_BUILD_TESTS=OFF -DWAYMARK_BUILD_APPS=OFF -DWAYMARK_BUILD_BENCH=OFF \
	  -DWAYMARK_BUILD_EXAMPLES=OFF -DWAYMARK_BUILD_RENDER=OFF -DWAYMARK_BUILD_C_API=OFF
	cmake --build $(FUZZ_DIR) -j $(JOBS)
	bash fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_RUNS)

clean:
	rm -rf $(BUILD_DIR)
