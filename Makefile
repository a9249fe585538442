# waymark — the two commands a newcomer needs are `make demo` and `make test`.
# Every target first runs scripts/setup.sh, which installs missing Debian packages (a no-op
# when everything is there).

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

.PHONY: all setup release asan tsan demo test test-release test-asan test-tsan bench fuzz clean

all: release

setup:
	@bash scripts/setup.sh

release: setup
	cmake -S . -B $(RELEASE_DIR) -DCMAKE_BUILD_TYPE=Release -DWAYMARK_WERROR=ON
	cmake --build $(RELEASE_DIR) -j $(JOBS)

# Sanitizer build of the library, CLI and tests (AddressSanitizer + UndefinedBehaviorSanitizer).
# -O1 -g1: a third less compile time than -O2 -g, with line numbers in every report.
asan: setup
	cmake -S . -B $(ASAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAYMARK_WERROR=ON \
	  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DWAYMARK_SANITIZE=ON -DWAYMARK_BUILD_BENCH=OFF
	cmake --build $(ASAN_DIR) -j $(JOBS)

# ThreadSanitizer build of the library and the concurrency tests only (threads sharing
# planners, tables and pattern databases; the parallel pattern-database build).
tsan: setup
	cmake -S . -B $(TSAN_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAYMARK_WERROR=ON -DWAYMARK_TSAN=ON \
	  -DWAYMARK_BUILD_APPS=OFF -DWAYMARK_BUILD_BENCH=OFF -DWAYMARK_BUILD_EXAMPLES=OFF
	cmake --build $(TSAN_DIR) -j $(JOBS) --target waymark_concurrency_tests

# The main job on bundled data: every query of the bundled Moving AI scenarios, a summary,
# and a picture of the longest path.
demo: release
	@mkdir -p $(BUILD_DIR)/demo
	$(WAYMARK) scen data/maps/arena.map.scen data/maps/den520d.map.scen --png $(BUILD_DIR)/demo/longest_path.png

test-release: release
	cd $(RELEASE_DIR) && ctest $(CTEST_FLAGS)

test-asan: asan
	cd $(ASAN_DIR) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 ctest $(CTEST_FLAGS)

# Address-space randomisation off (setarch -R): GCC 12's TSan runtime refuses the layout of
# kernels with more mmap randomisation bits. --no-tests=error: a renamed suite fails loudly.
test-tsan: tsan
	cd $(TSAN_DIR) && TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
	  setarch $$(uname -m) -R ctest $(CTEST_FLAGS) --no-tests=error -R '^Concurrency\.'

# The whole suite, twice: optimised with warnings as errors, then under ASan+UBSan; and the
# concurrency tests under ThreadSanitizer.
test: test-release test-asan test-tsan

# Benchmarks (not tests): results go to bench/results/.
bench: release
	bash bench/run.sh $(RELEASE_DIR) $(SHARED_DATA)

# Every libFuzzer target in fuzz/ for FUZZ_SECONDS each, or FUZZ_RUNS executions each when it
# is set (clang + libclang-rt-14-dev, installed by scripts/setup.sh fuzz). Exits non-zero on
# any finding; crashers land in build/fuzz/findings.
fuzz:
	@bash scripts/setup.sh fuzz
	CC=clang CXX=clang++ cmake -S . -B $(FUZZ_DIR) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWAYMARK_FUZZ=ON \
	  -DWAYMARK_BUILD_TESTS=OFF -DWAYMARK_BUILD_APPS=OFF -DWAYMARK_BUILD_BENCH=OFF \
	  -DWAYMARK_BUILD_EXAMPLES=OFF -DWAYMARK_BUILD_RENDER=OFF
	cmake --build $(FUZZ_DIR) -j $(JOBS)
	bash fuzz/run.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_RUNS)

clean:
	rm -rf $(BUILD_DIR)
