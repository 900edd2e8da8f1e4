# SeatMap: `make demo` renders the examples, `make test` runs the tests.
# Both install missing system packages first (scripts/install-deps.sh).

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
EXAMPLES := $(sort $(wildcard Examples/*.json))
SEATMAP := .build/debug/seatmap

PREFIX ?= /usr/local

# The installed binary (and the benchmark's): the Swift runtime linked in, and
# generic types' metadata reached through their accessors instead of looked up
# by mangled name at run time (each first lookup scanned the binary's ~5,300
# protocol conformances: ~3 ms of a 45 ms cinema render). No $ORIGIN run
# path: nothing is loaded from beside the binary, and the loader otherwise
# looked for each of the 41 libraries there first (~50 failed opens, 2-4 % of
# a small render's process). Same code otherwise.
RELEASE := -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors

# `$(call swift-build,ARGS)`: swift build, tried once more when it fails.
# SwiftPM 6.3's build-plugin runner has crashed on Linux (signal 11 in
# libdispatch while running a plugin), in `make test`'s build and in a
# release build for the cluster test; a real compile error fails again.
swift-build = $(SWIFT) build $(1) || $(SWIFT) build $(1)

.PHONY: deps build demo test test-all test-picker test-api test-browser test-load test-cluster golden bench bench-sale bench-peers fuzz fuzz-smoke install uninstall clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(call swift-build,--product seatmap)
	$(call swift-build,--product seatmap-serve)

THEMES := light dark print high-contrast

# Every example in every theme (PNG, plus SVG and PDF in the light theme),
# a phone viewport with the minimap and pinned row labels, and an e-ticket.
demo: build
	@mkdir -p out
	@for t in $(THEMES); do \
	  $(SEATMAP) render $(EXAMPLES) --out-dir out/$$t --theme $$t --scale 2 || exit 1; \
	done
	@$(SEATMAP) render $(EXAMPLES) --out-dir out/svg --format svg || exit 1
	@$(SEATMAP) render $(EXAMPLES) --out-dir out/pdf --format pdf --page a4 || exit 1
	@$(SEATMAP) render Examples/imax-3-sections.json -o out/imax-phone.png --zoom 2 --scale 3 \
	  --viewport 375,667 --offset 300,120 --minimap --pin-row-labels --select 2-5-13,2-5-14 || exit 1
	@$(SEATMAP) render Examples/cinema-12x18.json -o out/ticket.pdf --theme print --ticket 1-8-8,1-8-9 --page a4 || exit 1
	@$(SEATMAP) render Examples/cinema-12x18.json -o out/ticket.png --ticket 1-8-8,1-8-9 || exit 1
	@$(SEATMAP) render Examples/theatre-curved.json -o out/theatre-balcony.png --level 1 --scale 2 || exit 1
	@$(SEATMAP) import pretix Tests/Fixtures/pretix/pretix-screenshots-plan-en.json -o out/pretix-theatre.json \
	  --prices "Parkett vorne=45,Parkett mitte=38,Parkett hinten=30,Balkon vorne=28,Balkon hinten=22" 2>/dev/null || exit 1
	@$(SEATMAP) render out/pretix-theatre.json -o out/pretix-theatre.png --scale 2 || exit 1
	@$(SEATMAP) export pretix Examples/arena-blocks.json -o out/arena-blocks.pretix.json || exit 1
	@$(SEATMAP) render Tests/Fixtures/text/world-stage.json -o out/world-stage-ar.png --locale ar --scale 2 || exit 1
	@$(SEATMAP) render Tests/Fixtures/text/world-stage.json -o out/world-stage-de.svg --locale de --svg-text paths || exit 1
	@echo "Rendered into out/"

# The fast tier: every module's tests on SQLite and memory stores, built
# first (see swift-build), then run once. The sweeps (every pixel, every
# example under every flag, the documentation's snippets, PostgreSQL) are
# skipped and say so; `make test-all` runs them.
test: deps
	$(call swift-build,--build-tests)
	$(SWIFT) test --skip-build
	$(MAKE) test-picker

# The picker page's script, module by module, with Node's own test runner
# (Debian's nodejs; no npm): Picker/*.test.js.
test-picker: deps
	node --test Picker/*.test.js

# Everything CI runs: the sweeps and the store contract on a private
# PostgreSQL server (scripts/with-postgres.sh), the consumer package
# (Examples/Consumer depends on SeatMap by path and snapshot-tests its own
# theme with SeatMapTesting; its build must print no warning:
# scripts/consumer.sh), the browser suites and the cluster.
test-all: deps
	$(call swift-build,--build-tests)
	SEATMAP_TESTS=all bash scripts/with-postgres.sh $(SWIFT) test --skip-build
	$(MAKE) test-picker
	SWIFT=$(SWIFT) bash scripts/consumer.sh
	$(MAKE) test-api
	$(MAKE) test-browser
	$(MAKE) test-cluster

# Schemathesis (PyPI, in .build/browser-venv) against a live service on its
# own OpenAPI document: no server error, every answer as documented.
test-api: deps
	bash scripts/install-browser-deps.sh
	$(call swift-build,--product seatmap)
	$(call swift-build,--product seatmap-serve)
	.build/browser-venv/bin/python Tests/API/schemathesis_test.py --seatmap $(SEATMAP)

# The picker page in a real browser (Debian chromium + chromium-driver,
# Selenium from PyPI in .build/browser-venv): clicks at two zoom levels
# checked against `seatmap hit`, a drag, the total, the keyboard; the buyer's
# whole purchase on phone and desktop; the rendered SVG hit-tested by
# Chromium against `seatmap hit` (labels and marks past a seat's edge); the
# QA tools: probes agreed with by hit and Chromium, the verify-taps and
# snapshot review pages (axe, screenshots in .build/browser-screenshots).
test-browser: deps
	bash scripts/install-browser-deps.sh
	$(call swift-build,--product seatmap)
	$(call swift-build,--product seatmap-serve)
	.build/browser-venv/bin/python Tests/Browser/picker_test.py --seatmap $(SEATMAP)
	.build/browser-venv/bin/python Tests/Browser/buyer_test.py --seatmap $(SEATMAP)
	.build/browser-venv/bin/python Tests/Browser/product_test.py --seatmap $(SEATMAP)
	.build/browser-venv/bin/python Tests/Browser/svg_hit_test.py --seatmap $(SEATMAP)
	.build/browser-venv/bin/python Tests/Browser/qa_tools_test.py --seatmap $(SEATMAP)

# 200 concurrent clients x 20 mixed requests against `seatmap serve` on
# 127.0.0.1 (release build): no error, no lost selection; prints requests/s
# and p50/p99 latency.
test-load: deps
	$(call swift-build,-c release --product seatmap)
	$(call swift-build,-c release --product seatmap-serve)
	python3 Tests/Load/load_test.py --seatmap .build/release/seatmap

# Three `seatmap serve` instances sharing one PostgreSQL behind nginx (round
# robin), 200 clients racing for the seats of two shows, one instance killed
# with SIGKILL midway; then orders per second with one instance and three.
test-cluster: deps
	$(call swift-build,-c release --product seatmap)
	$(call swift-build,-c release --product seatmap-serve)
	bash scripts/with-postgres.sh python3 Tests/Cluster/cluster_test.py --seatmap .build/release/seatmap

# Re-record every golden image (the run fails on purpose: look at the new
# references in Golden/ before committing them).
golden: deps
	SEATMAP_RECORD=1 $(SWIFT) test --filter GoldenTests || true
	@echo "Golden/ re-recorded: open the images and look at them before committing."

# Speed and memory, as ratios measured in one run (release build); with the
# peers (skia-python, resvg, Chromium) when scripts/install-bench-peers.sh has
# set them up (make bench-peers).
# seatmap is built as `make install` builds it (the Swift runtime linked in),
# so the whole-process figures are those of the installed binary.
bench: deps
	@mkdir -p out
	$(call swift-build,$(RELEASE) --product seatmap)
	$(call swift-build,$(RELEASE) --product seatmap-serve)
	$(call swift-build,$(RELEASE) --product seatmap-cairo-reference)
	$(call swift-build,$(RELEASE) --product seatmap-bench)
	"$$($(SWIFT) build $(RELEASE) --show-bin-path)/seatmap-bench" --json out/bench.json

# Selling over HTTP against the stores' own rates (SQLite, and PostgreSQL on a
# private server of its own): seatmap-bench --only sale.
bench-sale: deps
	@mkdir -p out
	$(call swift-build,$(RELEASE) --product seatmap-bench)
	bash scripts/with-postgres.sh bash -c 'SEATMAP_BENCH_POSTGRES=$$SEATMAP_TEST_POSTGRES "$$($(SWIFT) build $(RELEASE) --show-bin-path)/seatmap-bench" --only sale --json out/bench-sale.json'

bench-peers:
	bash scripts/install-bench-peers.sh

# Fuzzing (libFuzzer + AddressSanitizer): every reader of outside input.
# fuzz: 1,000,000 executions per target; fuzz-smoke: 10,000 (a check that it works).
fuzz: deps
	bash scripts/fuzz.sh build
	bash scripts/fuzz.sh run 1000000

fuzz-smoke: deps
	bash scripts/fuzz.sh build
	bash scripts/fuzz.sh run 10000

# A release build with the Swift runtime linked in, so the installed binary
# needs only Debian's runtime libraries (cairo, pango, libpng, sqlite, fontconfig)
# and finds its themes inside itself.
install: deps
	$(call swift-build,$(RELEASE) --product seatmap)
	$(call swift-build,$(RELEASE) --product seatmap-serve)
	install -D -m 755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/seatmap" "$(DESTDIR)$(PREFIX)/bin/seatmap"
	install -D -m 755 "$$($(SWIFT) build $(RELEASE) --show-bin-path)/seatmap-serve" "$(DESTDIR)$(PREFIX)/bin/seatmap-serve"
	@mkdir -p "$(DESTDIR)$(PREFIX)/share/man/man1" "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" \
	  "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	"$(DESTDIR)$(PREFIX)/bin/seatmap" man > "$(DESTDIR)$(PREFIX)/share/man/man1/seatmap.1"
	"$(DESTDIR)$(PREFIX)/bin/seatmap" completions bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/seatmap"
	"$(DESTDIR)$(PREFIX)/bin/seatmap" completions zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_seatmap"
	"$(DESTDIR)$(PREFIX)/bin/seatmap" completions fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/seatmap.fish"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/seatmap (and seatmap-serve beside it: the stores and serve), its man page and bash, zsh and fish completions"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/seatmap" "$(DESTDIR)$(PREFIX)/bin/seatmap-serve" "$(DESTDIR)$(PREFIX)/share/man/man1/seatmap.1" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/seatmap" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_seatmap" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/seatmap.fish"

clean:
	rm -rf .build out
