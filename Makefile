# SeatMap: `make demo` renders the examples, `make test` runs the tests.
# Both install missing system packages first (scripts/install-deps.sh).

SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
EXAMPLES := $(sort $(wildcard Examples/*.json))
SEATMAP := .build/debug/seatmap

.PHONY: deps build demo test golden bench clean

deps:
	@bash scripts/install-deps.sh

build: deps
	$(SWIFT) build --product seatmap

demo: build
	@mkdir -p out
	@for f in $(EXAMPLES); do \
	  echo "== $$f"; \
	  $(SEATMAP) info "$$f" || exit 1; \
	done

test: deps
	$(SWIFT) test

clean:
	rm -rf .build out
