# colldet C ABI: the library, its header, the C/C++ tests and the installed package.
# Included by the top-level Makefile (which defines CARGO).

FFI_PROFILE ?= debug
FFI_LIB_DIR := target/$(FFI_PROFILE)
FFI_BUILD := ffi-tests/build
FFI_WARNINGS := -Wall -Wextra -Wpedantic -Werror
FFI_CFLAGS := -std=c11 -g $(FFI_WARNINGS) -Iinclude
FFI_CXXFLAGS := -std=c++17 -g $(FFI_WARNINGS) -Iinclude
FFI_SYSLIBS := -lpthread -ldl -lm
FFI_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FFI_C_TESTS := lifecycle errors callbacks
FFI_CXX_TESTS := api

.PHONY: ffi-lib ffi-test ffi-test-sanitize header

ffi-lib:
	$(CARGO) build -p colldet-ffi $(if $(filter release,$(FFI_PROFILE)),--release)

# Compiles every test program with $(1) extra flags into $(FFI_BUILD)/$(2), then runs each.
define ffi_build_and_run
	mkdir -p $(FFI_BUILD)/$(2)
	set -e; for t in $(FFI_C_TESTS); do \
	  $(CC) $(FFI_CFLAGS) $(1) ffi-tests/$$t.c $(FFI_LIB_DIR)/libcolldet.a $(FFI_SYSLIBS) \
	    -o $(FFI_BUILD)/$(2)/$$t; \
	done
	set -e; for t in $(FFI_CXX_TESTS); do \
	  $(CXX) $(FFI_CXXFLAGS) $(1) ffi-tests/$$t.cpp $(FFI_LIB_DIR)/libcolldet.a $(FFI_SYSLIBS) \
	    -o $(FFI_BUILD)/$(2)/$$t; \
	done
	set -e; for t in $(FFI_C_TESTS) $(FFI_CXX_TESTS); do \
	  echo "== $(2)/$$t"; $(FFI_BUILD)/$(2)/$$t; \
	done
endef

## ffi-test: builds libcolldet.a, compiles the C11 and C++17 tests against it, runs them.
ffi-test: ffi-lib
	$(call ffi_build_and_run,,plain)

## ffi-test-sanitize: the same programs under AddressSanitizer and UndefinedBehaviorSanitizer.
ffi-test-sanitize: ffi-lib
	$(call ffi_build_and_run,$(FFI_SANITIZE),sanitize)

## header: regenerates include/colldet.h from crates/colldet-ffi (cbindgen, pinned).
header:
	COLLDET_BLESS=1 $(CARGO) test -p colldet-ffi --test header
