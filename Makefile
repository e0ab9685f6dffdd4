# tick: build, test, install and demo.
#
# Every target that compiles depends on `deps`, which installs the C libraries tick
# builds against (Debian's libcmark-dev and liblz4-dev) when they are missing. On a machine that has
# them, `deps` does nothing but one pkg-config check.

SWIFT ?= swift
PREFIX ?= /usr/local
DESTDIR ?=
# Where SwiftPM keeps its build products; pass BUILD_DIR=/tmp/somewhere to keep
# parallel checkouts from sharing (and locking) one build folder.
BUILD_DIR ?= .build

# The Swift toolchain tarball unpacks to /opt/swift, and a login shell puts its
# usr/bin on PATH (/etc/profile.d). A plain `bash -c` or cron shell does not, so
# fall back to that location when swift is not already on PATH.
# A shell started with an empty environment (env -i bash -c) exports no PATH at all;
# then start from the usual system one.
SWIFT_TOOLCHAIN_BIN ?= /opt/swift/usr/bin
ifeq ($(shell command -v $(SWIFT) 2>/dev/null),)
export PATH := $(SWIFT_TOOLCHAIN_BIN):$(or $(PATH),/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
endif

SWIFTPM_FLAGS = --scratch-path $(BUILD_DIR)
# The tests' build: the debug configuration (test hooks and `@testable import`) optimised with -O,
# assertions kept, in a build folder of its own so that it and `make build` do not rebuild each
# other. `make test TEST_OPTIMIZE=` builds them without optimisation, as `swift test` does.
TEST_OPTIMIZE ?= -Xswiftc -O -Xswiftc -assert-config -Xswiftc Debug
TEST_BUILD_DIR ?= $(BUILD_DIR)/tests
TEST_FLAGS = --scratch-path $(TEST_BUILD_DIR) $(TEST_OPTIMIZE)
# The test binary of that build, which `make test` runs in parts (scripts/test-shards).
TEST_BINARY = $(shell PATH="$(PATH)" $(SWIFT) build $(TEST_FLAGS) --show-bin-path)/tickPackageTests.xctest
# Release configuration: -O with whole-module optimisation (SwiftPM's default for -c release).
RELEASE_FLAGS = $(SWIFTPM_FLAGS) -c release --static-swift-stdlib
# The directory holding the release binary; asked of SwiftPM when a recipe needs it.
RELEASE_BIN = $(shell PATH="$(PATH)" $(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)
TICK = $(RELEASE_BIN)/tick

# apt-get as root, or through sudo for anyone else.
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
APT_INSTALL = $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get
# What the tests call, one CHECK:PACKAGE pair per Debian package: CHECK is a command on PATH, or
# py3.MODULE for a module that Debian's /usr/bin/python3 must import. Add a pair for a new tool.
TEST_TOOLS = cmark-gfm:cmark-gfm git:git py3.icalendar:python3-icalendar systemd-analyze:systemd zsh:zsh fish:fish groff:groff-base task:taskwarrior todo-txt:todotxt-cli py3.pty:python3 radicale:radicale vdirsyncer:vdirsyncer py3.caldav:python3-caldav py3.vobject:python3-vobject nvim:neovim strace:strace

.PHONY: all deps test-deps build release test install install-files demo clean

all: build

deps:
	@command -v $(SWIFT) >/dev/null 2>&1 || { \
		echo "make: '$(SWIFT)' not found: install a Swift 6 toolchain (swift.org) and put its usr/bin on PATH" >&2; \
		exit 1; }
	@if ! pkg-config --exists libcmark liblz4 2>/dev/null; then \
		echo "make: installing libcmark-dev, liblz4-dev and pkg-config"; \
		$(APT_INSTALL) update && \
		$(APT_INSTALL) install -y --no-install-recommends libcmark-dev liblz4-dev pkg-config && \
		pkg-config --exists libcmark liblz4 || { \
			echo "make: pkg-config still cannot find libcmark or liblz4 after installing them" >&2; \
			exit 1; }; \
	fi

test-deps:
	@missing=""; \
	for pair in $(TEST_TOOLS); do \
		check=$${pair%%:*}; package=$${pair#*:}; \
		case $$check in \
		py3.*) /usr/bin/python3 -c "import $${check#py3.}" >/dev/null 2>&1 || missing="$$missing $$package" ;; \
		*) command -v $$check >/dev/null 2>&1 || missing="$$missing $$package" ;; \
		esac; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "make: installing$$missing"; \
		$(APT_INSTALL) update && \
		$(APT_INSTALL) install -y --no-install-recommends $$missing; \
	fi

build: deps
	$(SWIFT) build $(SWIFTPM_FLAGS)

release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# The CLI tests run the command line in-process (TickCLI) and, where a run needs a process, the
# tick binary: TickCLITests depends on the tick target, and the build makes sure the binary is there.
# scripts/test-shards runs the test binary in four parts at once (the tests that wait on other
# programs apart from the rest; Swift Testing runs each part's tests concurrently), then the
# concurrency tests alone, and
# scripts/test-summary repeats the failures at the end of the output, where a short log keeps them.
test: deps test-deps
	$(SWIFT) build --build-tests $(TEST_FLAGS)
	scripts/test-summary scripts/test-shards "$(TEST_BINARY)"

# The binary, the man page (generated from the command table and README.md by the binary itself) and
# the completion scripts, where bash-completion, zsh and fish look under PREFIX. install-files does
# the copying with the binary TICK_BIN names, without building (the tests run it on their build).
install: release
	$(MAKE) install-files TICK_BIN="$(TICK)"

install-files:
	@test -x "$(TICK_BIN)" || { echo "make: TICK_BIN='$(TICK_BIN)' is not an executable tick" >&2; exit 1; }
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
		"$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
		"$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$(TICK_BIN)" "$(DESTDIR)$(PREFIX)/bin/tick"
	"$(TICK_BIN)" __manpage README.md > "$(DESTDIR)$(PREFIX)/share/man/man1/tick.1"
	"$(TICK_BIN)" completions bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/tick"
	"$(TICK_BIN)" completions zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tick"
	"$(TICK_BIN)" completions fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tick.fish"
	chmod 644 "$(DESTDIR)$(PREFIX)/share/man/man1/tick.1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/tick" \
		"$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tick" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tick.fish"

# Runs the freshly built tick on the example folder. Add one line per command to show.
demo: release
	$(TICK) --dir examples check
	$(TICK) --dir examples --now 2026-11-30T10:00
	$(TICK) --dir examples --now 2026-11-30T10:00 today

# Times tick against the floors (cat, rg), cmark and the peers (Taskwarrior, todo.txt-cli, topydo,
# installed from Debian when missing) and writes bench/RESULTS.md; see bench/README.md.
# BENCH_SIZES=1000 makes a quick run.
.PHONY: bench
bench: release
	TICK="$(TICK)" bench/run
	TICK="$(TICK)" bench/lsp

# The language server's latency (didChange to diagnostics, completion, code actions) and memory on a
# 10,000-line list; writes bench/RESULTS-LSP.md and exits 1 when a target is not held.
.PHONY: bench-lsp
bench-lsp: release
	TICK="$(TICK)" bench/lsp

# make bench BENCH_REPEAT times (3 by default) and writes one report: the last run in full, and a
# section with the targets that must hold in every run. The earlier runs' results stay in
# bench/work/results.1, results.2, ...
BENCH_REPEAT ?= 3
.PHONY: bench-repeat
bench-repeat: release
	@work=$${BENCH_WORK:-bench/work}; rm -rf $$work/results.[0-9]*; earlier=""; \
	for k in $$(seq 1 $$(( $(BENCH_REPEAT) - 1 ))); do \
		TICK="$(TICK)" bench/run || exit 1; \
		mv $$work/results $$work/results.$$k; earlier="$$earlier $$work/results.$$k"; \
	done; \
	TICK="$(TICK)" bench/run || exit 1; \
	python3 bench/report $$work/results $$earlier > $${BENCH_RESULTS:-bench/RESULTS.md}

# The bad inputs at full size through the release binary: a 100 MB list, 1 MB and 100 MB lines,
# 10,000 nested levels, lines built to be slow, 100 MB of binary. Checks what tick finds in each and
# prints the times (see docs/BAD-INPUT.md); SLOW_SCALE=100 makes a quick run.
.PHONY: slow
slow: release
	TICK="$(TICK)" bench/pathological

# The concurrency soak (Tests/TickCLITests/Safety/ConcurrencyTests.swift) for TICK_SOAK_SECONDS (60 by default):
# four tick writers with rename, in-place, append and blind-append editors on the same lists. It takes a minute,
# so it is not part of `make test`, which runs the short concurrency tests. TICK_SOAK_DUMP=DIR
# copies the folder there at the end, to look at after a failure.
TICK_SOAK_SECONDS ?= 60
.PHONY: soak
soak: deps test-deps
	$(SWIFT) build $(TEST_FLAGS)
	TICK_SOAK_SECONDS=$(TICK_SOAK_SECONDS) $(SWIFT) test $(TEST_FLAGS) --filter 'ConcurrencyTests.*soak'

# The long property and stress tests at their whole size (Tests/*/Support/LongRuns.swift): refs over
# 1,000 and 400 seeded steps, 10,000 cache mutations, 8 tick processes of 100 changes each and 25
# with a reader and an editor. `make test` runs the first part of each, seeded the same way.
.PHONY: properties
properties: deps test-deps
	$(SWIFT) build $(TEST_FLAGS)
	TICK_PROPERTIES=full scripts/test-summary $(SWIFT) test $(TEST_FLAGS) --parallel \
		--filter 'RefPropertyTests|TwinRefPropertyTests|CacheCorruptionTests|ConcurrencyTests'

# Every system call that touches files, of add, mv, rm, list rm, undo and import, failing (EIO) at
# every call number, under strace -e inject (Tests/TickCLITests/Safety/SyscallFaultTests.swift).
# `make test` runs a seeded sample of these cases; this runs them all and prints the matrix's size
# and result. It takes about a quarter of an hour.
.PHONY: faults
faults: deps test-deps
	$(SWIFT) build $(TEST_FLAGS)
	TICK_FAULT_MATRIX=full $(SWIFT) test $(TEST_FLAGS) --filter 'SyscallFaultTests'

# libFuzzer over parse, serialize, a random edit and re-parse (Tests/Fuzz), with cmark's arena
# (Sources/CCmarkArena) built by the toolchain's clang. FUZZ_SECONDS sets
# how long it runs; new inputs go to $(BUILD_DIR)/fuzz/corpus, seeded from Tests/Fuzz/corpus.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz: deps
	mkdir -p $(BUILD_DIR)/fuzz/corpus
	cp Tests/Fuzz/corpus/* $(BUILD_DIR)/fuzz/corpus/
	$(dir $(shell command -v $(SWIFT)c))clang -fsanitize=address -O2 -c Sources/CCmarkArena/cmark_arena.c \
		-ISources/CCmarkArena/include -o $(BUILD_DIR)/fuzz/cmark_arena.o
	$(SWIFT)c -sanitize=fuzzer,address -parse-as-library -O -module-name TickFuzz -I Sources/CCmark \
		-I Sources/CCmarkArena/include Sources/TickFormat/*.swift Tests/Fuzz/FuzzTarget.swift \
		$(BUILD_DIR)/fuzz/cmark_arena.o -lcmark -o $(BUILD_DIR)/fuzz/tick-fuzz
	$(BUILD_DIR)/fuzz/tick-fuzz -max_len=8192 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 $(BUILD_DIR)/fuzz/corpus

# libFuzzer over TickCore's query parser (`make fuzz-query`, Tests/Fuzz/QueryFuzzTarget.swift) and
# its date words (`make fuzz-dates`, Tests/Fuzz/DatesFuzzTarget.swift). TickFormat and TickCore are
# built as modules with coverage into $(BUILD_DIR)/fuzz-core, the C parts by the toolchain's clang;
# each target's new inputs go to $(BUILD_DIR)/fuzz-NAME/corpus, seeded from Tests/Fuzz/corpus-NAME.
FUZZ_CORE = $(BUILD_DIR)/fuzz-core
FUZZ_CLANG = $(dir $(shell command -v $(SWIFT)c))clang
FUZZ_SWIFTC = $(SWIFT)c -sanitize=fuzzer,address -parse-as-library -O -I Sources/CCmark -I Sources/CCmarkArena/include \
	-I Sources/CLz4 -I $(FUZZ_CORE) -I $(FUZZ_CORE)/CTickSystem
FUZZ_CORE_OBJECTS = $(addprefix $(FUZZ_CORE)/,TickCore.o TickFormat.o cmark_arena.o tick_system.o)
.PHONY: fuzz-core fuzz-query fuzz-dates
fuzz-core: $(FUZZ_CORE_OBJECTS)
$(FUZZ_CORE)/cmark_arena.o: Sources/CCmarkArena/cmark_arena.c | deps
	mkdir -p $(FUZZ_CORE)
	$(FUZZ_CLANG) -fsanitize=address -O2 -c $< -ISources/CCmarkArena/include -o $@
$(FUZZ_CORE)/tick_system.o: Sources/CTickSystem/tick_system.c Sources/CTickSystem/include/tick_system.h
	mkdir -p $(FUZZ_CORE)/CTickSystem
	printf 'module CTickSystem {\n    header "%s/Sources/CTickSystem/include/tick_system.h"\n    export *\n}\n' "$(CURDIR)" \
		> $(FUZZ_CORE)/CTickSystem/module.modulemap
	$(FUZZ_CLANG) -fsanitize=address -O2 -c $< -ISources/CTickSystem/include -o $@
$(FUZZ_CORE)/TickFormat.o: $(wildcard Sources/TickFormat/*.swift) | deps
	mkdir -p $(FUZZ_CORE)
	$(FUZZ_SWIFTC) -wmo -module-name TickFormat -emit-module -emit-module-path $(FUZZ_CORE)/TickFormat.swiftmodule \
		-c Sources/TickFormat/*.swift -o $@
$(FUZZ_CORE)/TickCore.o: $(FUZZ_CORE)/TickFormat.o $(FUZZ_CORE)/tick_system.o $(shell find Sources/TickCore -name '*.swift')
	$(FUZZ_SWIFTC) -wmo -module-name TickCore -emit-module -emit-module-path $(FUZZ_CORE)/TickCore.swiftmodule \
		-c $$(find Sources/TickCore -name '*.swift' | sort) -o $@
fuzz-query fuzz-dates: fuzz-%: fuzz-core
	mkdir -p $(BUILD_DIR)/fuzz-$*/corpus
	cp Tests/Fuzz/corpus-$*/* $(BUILD_DIR)/fuzz-$*/corpus/
	$(FUZZ_SWIFTC) -module-name TickFuzz Tests/Fuzz/$(if $(filter query,$*),Query,Dates)FuzzTarget.swift \
		$(FUZZ_CORE_OBJECTS) -lcmark -llz4 -o $(BUILD_DIR)/fuzz-$*/tick-fuzz
	$(BUILD_DIR)/fuzz-$*/tick-fuzz -max_len=4096 -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		-artifact_prefix=$(BUILD_DIR)/fuzz-$*/ $(BUILD_DIR)/fuzz-$*/corpus

# The test suite under AddressSanitizer, then ThreadSanitizer, each in its own build folder. The
# tick binary the end-to-end tests run is built with the same sanitizer first (no test target
# depends on it), so every tick run of the suite is checked too. Leaks inside the toolchain's
# Foundation, reached by the test harness, are suppressed (Tests/Sanitizers/lsan.supp).
# TICK_TEST_SANITIZER=thread skips the one test ThreadSanitizer's runtime cannot run (a file-size limit).
.PHONY: sanitize
sanitize: deps test-deps
	$(SWIFT) build --scratch-path $(BUILD_DIR)/asan --sanitize=address
	LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp \
		$(SWIFT) test --scratch-path $(BUILD_DIR)/asan --sanitize=address --parallel
	$(SWIFT) build --scratch-path $(BUILD_DIR)/tsan --sanitize=thread
	TICK_TEST_SANITIZER=thread $(SWIFT) test --scratch-path $(BUILD_DIR)/tsan --sanitize=thread --parallel

# Writes Sources/TickCore/Values/FoldingTable.swift, the search folding's table, from the Unicode data
# in UNICODE_DATA (Debian's unicode-data package, installed when missing). A developer tool: the
# table is committed and nothing else runs the generator.
UNICODE_DATA ?= /usr/share/unicode
.PHONY: folding-table
folding-table:
	@if [ ! -f "$(UNICODE_DATA)/UnicodeData.txt" ] && [ "$(UNICODE_DATA)" = /usr/share/unicode ]; then \
		echo "make: installing unicode-data"; \
		$(APT_INSTALL) update && $(APT_INSTALL) install -y --no-install-recommends unicode-data; \
	fi
	scripts/generate-folding-table "$(UNICODE_DATA)"

clean:
	rm -rf "$(BUILD_DIR)"
