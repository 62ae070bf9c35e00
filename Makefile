# colldet: build, test, benchmark and document the workspace.
CARGO ?= cargo

.PHONY: test fmt-check clippy cargo-test bench doc demo

## test: everything CI checks: formatting, lints, Rust tests, warning-free API docs.
test: fmt-check clippy cargo-test doc

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

cargo-test:
	$(CARGO) test --workspace

## demo: the main job. Until the colldet runner exists: the geometry tour (shapes, classification,
## support mapping), optimised.
demo:
	$(CARGO) run --release -p colldet-geom --example geometry_tour

## bench: criterion benchmarks (optimised build).
bench:
	$(CARGO) bench --workspace

## doc: API documentation in target/doc.
doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps
