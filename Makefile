# colldet: build, test, benchmark and document the workspace.
CARGO ?= cargo

.PHONY: test fmt-check clippy cargo-test bench doc

## test: everything CI checks: formatting, lints, Rust tests.
test: fmt-check clippy cargo-test

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

cargo-test:
	$(CARGO) test --workspace

## bench: criterion benchmarks (optimised build).
bench:
	$(CARGO) bench --workspace

## doc: API documentation in target/doc.
doc:
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps
