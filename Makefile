# colldet: build, test, benchmark and document the workspace.
CARGO ?= cargo

.PHONY: test fmt-check clippy cargo-test bench doc demo tour bench-peers-rust bench-peers-deps bench-peers bench-peers-test

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

## bench-peers-test: builds benches/peers and checks every library on a tiny scene (quick).
bench-peers-test:
	$(MAKE) -C benches/peers test

include ffi-tests/ffi.mk
