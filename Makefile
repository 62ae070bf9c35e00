# colldet: build, test, benchmark and document the workspace.
CARGO ?= cargo

.PHONY: test fmt-check clippy cargo-test bench doc demo tour report-screenshot bench-peers-rust bench-peers-deps bench-peers bench-peers-distance bench-peers-test

## test: everything CI checks: formatting, lints, Rust tests, warning-free API docs, the C API.
test: fmt-check clippy cargo-test doc ffi-test ffi-test-sanitize ffi-install-test

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

cargo-test:
	$(CARGO) test --workspace

## demo: the main job: the Chung-Wang experiment (500 ellipsoids of 500 vertices, 300 frames).
demo:
	$(CARGO) run --release -p colldet-cli --bin colldet -- demo

## report-screenshot: writes `colldet demo --report` pages for a small fast demo run (60 ellipsoids
## of 60 vertices, 60 frames) and for each preset (60 frames), and screenshots each page with
## headless Chromium to $(REPORT_DIR)/NAME.png (NAME: demo, thesis-zoo, one-mover) for a person to
## look at. Needs chromium (Debian: apt-get install -y chromium; CHROMIUM=path picks another
## binary); not part of `make test`.
REPORT_DIR ?= target/report-screenshot
CHROMIUM ?= $(shell command -v chromium || command -v chromium-browser || command -v google-chrome)
REPORT_RUNS = demo:--objects=60:--vertices=60 thesis-zoo:--preset=thesis-zoo one-mover:--preset=one-mover
report-screenshot:
	@if [ -z "$(CHROMIUM)" ]; then \
	  echo "report-screenshot needs chromium: apt-get install -y chromium (or CHROMIUM=/path/to/chrome)" >&2; \
	  exit 1; fi
	$(CARGO) build --release -p colldet-cli
	@mkdir -p $(REPORT_DIR)
	@set -e; for run in $(REPORT_RUNS); do \
	  name=$${run%%:*}; args=$$(echo "$${run#*:}" | tr ':=' '  '); \
	  target/release/colldet demo $$args --frames 60 --threads 1 --report $(REPORT_DIR)/$$name \
	    > $(REPORT_DIR)/$$name.txt 2>&1; \
	  profile=$$(mktemp -d); \
	  "$(CHROMIUM)" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	    --disable-background-networking --disable-component-update --disable-sync \
	    --user-data-dir=$$profile --window-size=1000,2300 --hide-scrollbars \
	    --screenshot=$(CURDIR)/$(REPORT_DIR)/$$name.png \
	    file://$(CURDIR)/$(REPORT_DIR)/$$name/index.html > $(REPORT_DIR)/$$name.chromium.log 2>&1 \
	    || { cat $(REPORT_DIR)/$$name.chromium.log >&2; rm -rf $$profile; exit 1; }; \
	  rm -rf $$profile; \
	  test -s $(REPORT_DIR)/$$name.png || { echo "no screenshot for $$name" >&2; exit 1; }; \
	  echo "$(REPORT_DIR)/$$name.png ($(REPORT_DIR)/$$name/index.html)"; \
	done

## tour: the geometry tour (shapes, classification, support mapping), optimised.
tour:
	$(CARGO) run --release -p colldet-geom --example geometry_tour

## bench: criterion benchmarks (optimised build).
bench:
	$(CARGO) bench --workspace

## doc: API documentation in target/doc.
doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

## bench-peers-rust: colldet against parry3d-f64 on the shared scenes (cw-*, mesh-zoo, broad-10k,
## broad-100k), optimised; PEERS_ARGS passes options (--frames N, --threads N, --scenes DIR, names).
bench-peers-rust:
	$(CARGO) run --release -p colldet-benches --bin peers -- $(PEERS_ARGS)

## bench-peers-deps: the C++ peers' system packages (Debian/Ubuntu, as root):
##   apt-get install -y libfcl-dev libbullet-dev pkg-config   (run only when missing)
bench-peers-deps:
	$(MAKE) -C benches/peers deps

## bench-peers: builds benches/peers and plays every shared scene through FCL, Bullet and colldet
## (one table per scene); PEERS_ARGS passes options (--frames N, --only FCL,Bullet, names).
bench-peers:
	$(MAKE) -C benches/peers run ARGS="$(PEERS_ARGS)"

## bench-peers-distance: mesh-mesh distance and tolerance per query, colldet (C API) against FCL's
## distance on RSS and OBBRSS models, zoo pairs at four gaps (benches/peers/test/zoo-distance.poses).
bench-peers-distance:
	$(MAKE) -C benches/peers distance ARGS="$(PEERS_ARGS)"

## bench-peers-test: builds benches/peers and checks every library on a tiny scene (quick).
bench-peers-test:
	$(MAKE) -C benches/peers test

include ffi-tests/ffi.mk
