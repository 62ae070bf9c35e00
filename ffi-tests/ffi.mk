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
FFI_C_TESTS := lifecycle errors callbacks continuous example random_sequence double_precision \
  flat_meshes proximity contact events ray_cast tolerance ttc concurrent
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

## ffi-test: builds libcolldet.a, compiles the C11 and C++17 tests against it, runs them; then
## out_of_memory under a 1 GB address-space limit (not under the sanitizers, which reserve more).
ffi-test: ffi-lib
	$(call ffi_build_and_run,,plain)
	$(CC) $(FFI_CFLAGS) ffi-tests/out_of_memory.c $(FFI_LIB_DIR)/libcolldet.a $(FFI_SYSLIBS) \
	  -o $(FFI_BUILD)/plain/out_of_memory
	echo "== plain/out_of_memory (ulimit -v 1000000)"; \
	  (ulimit -v 1000000 && $(FFI_BUILD)/plain/out_of_memory)

## ffi-test-sanitize: the same programs under AddressSanitizer and UndefinedBehaviorSanitizer.
ffi-test-sanitize: ffi-lib
	$(call ffi_build_and_run,$(FFI_SANITIZE),sanitize)

## header: regenerates include/colldet.h from crates/colldet-ffi (cbindgen, pinned).
header:
	COLLDET_BLESS=1 $(CARGO) test -p colldet-ffi --test header

PREFIX ?= /usr/local
FFI_PACKAGE := crates/colldet-ffi/package
FFI_PREFIX := $(CURDIR)/$(FFI_BUILD)/prefix
FFI_CONSUMER := $(FFI_BUILD)/consumer

.PHONY: install ffi-install-test

## install: release build, then PREFIX/lib/libcolldet.a and libcolldet.so, PREFIX/include/colldet.h,
## PREFIX/lib/pkgconfig/colldet.pc (shared: -lcolldet), colldet-static.pc (the archive itself, so
## static even beside libcolldet.so) and PREFIX/lib/cmake/colldet/ (find_package(colldet), static).
# The system libraries a static link needs are what rustc reports for the standard library
# (colldet links no other native library), asked of an empty staticlib so they are always printed.
install:
	$(CARGO) build --release -p colldet-ffi
	mkdir -p $(FFI_BUILD)/native
	printf '' > $(FFI_BUILD)/native/empty.rs
	set -e; \
	libs="$$(rustc --crate-type staticlib --print native-static-libs \
	  -o $(FFI_BUILD)/native/libempty.a $(FFI_BUILD)/native/empty.rs 2>&1 \
	  | sed -n 's/.*native-static-libs: //p')"; \
	test -n "$$libs"; \
	version="$$($(CARGO) pkgid -p colldet-ffi | sed 's/.*[#@]//')"; \
	install -d "$(PREFIX)/include" "$(PREFIX)/lib/pkgconfig" "$(PREFIX)/lib/cmake/colldet"; \
	install -m 644 include/colldet.h "$(PREFIX)/include/"; \
	install -m 644 target/release/libcolldet.a "$(PREFIX)/lib/"; \
	install -m 755 target/release/libcolldet.so "$(PREFIX)/lib/"; \
	sed -e "s|@VERSION@|$$version|" -e "s|@LIBS_PRIVATE@|$$libs|" \
	  $(FFI_PACKAGE)/colldet.pc.in > "$(PREFIX)/lib/pkgconfig/colldet.pc"; \
	sed -e "s|@VERSION@|$$version|" -e "s|@LIBS_PRIVATE@|$$libs|" \
	  $(FFI_PACKAGE)/colldet-static.pc.in > "$(PREFIX)/lib/pkgconfig/colldet-static.pc"; \
	sed -e "s|@CMAKE_LIBS@|$$(echo $$libs | tr ' ' ';')|" \
	  $(FFI_PACKAGE)/colldetConfig.cmake.in > "$(PREFIX)/lib/cmake/colldet/colldetConfig.cmake"; \
	sed -e "s|@VERSION@|$$version|" $(FFI_PACKAGE)/colldetConfigVersion.cmake.in \
	  > "$(PREFIX)/lib/cmake/colldet/colldetConfigVersion.cmake"; \
	echo "installed colldet $$version in $(PREFIX) (static link also needs: $$libs)"

## ffi-install-test: installs into a temporary prefix (libcolldet.a and libcolldet.so side by side),
## then builds ffi-tests/example.c against it through pkg-config (colldet-static with --static:
## no libcolldet.so needed; colldet: shared) and through CMake find_package, and runs each.
ffi-install-test:
	rm -rf $(FFI_PREFIX) $(FFI_CONSUMER)
	$(MAKE) --no-print-directory install PREFIX=$(FFI_PREFIX)
	mkdir -p $(FFI_CONSUMER)
	set -e; export PKG_CONFIG_PATH=$(FFI_PREFIX)/lib/pkgconfig; \
	version="$$($(CARGO) pkgid -p colldet-ffi | sed 's/.*[#@]//')"; \
	test "$$(pkg-config --modversion colldet)" = "$$version"; \
	test "$$(pkg-config --modversion colldet-static)" = "$$version"; \
	libdir="$$(pkg-config --variable=libdir colldet)"; \
	test -f "$$libdir/libcolldet.a" && test -f "$$libdir/libcolldet.so"; \
	static_libs="$$(pkg-config --libs --static colldet-static)"; \
	echo "== pkg-config --static colldet-static: $$static_libs"; \
	case " $$static_libs " in *"/libcolldet.a "*) ;; \
	  *) echo "colldet-static does not name libcolldet.a" >&2; exit 1;; esac; \
	$(CC) -std=c11 $(FFI_WARNINGS) $$(pkg-config --cflags --static colldet-static) \
	  ffi-tests/example.c $$static_libs -o $(FFI_CONSUMER)/example-static; \
	if readelf -d $(FFI_CONSUMER)/example-static | grep 'NEEDED' | grep -q 'libcolldet'; then \
	  echo "example-static needs libcolldet.so" >&2; exit 1; fi; \
	env -u LD_LIBRARY_PATH $(FFI_CONSUMER)/example-static > /dev/null; \
	echo "== pkg-config, shared"; \
	$(CC) -std=c11 $(FFI_WARNINGS) ffi-tests/example.c $$(pkg-config --cflags --libs colldet) \
	  -Wl,-rpath,"$$libdir" -o $(FFI_CONSUMER)/example-shared; \
	readelf -d $(FFI_CONSUMER)/example-shared | grep -q 'libcolldet.so'; \
	$(FFI_CONSUMER)/example-shared > /dev/null; \
	echo "== CMake find_package(colldet $$version EXACT)"; \
	cmake -S ffi-tests/consumer -B $(FFI_CONSUMER)/cmake -DCMAKE_PREFIX_PATH=$(FFI_PREFIX) \
	  -DCOLLDET_VERSION=$$version -DCOLLDET_EXAMPLE=$(CURDIR)/ffi-tests/example.c > /dev/null; \
	cmake --build $(FFI_CONSUMER)/cmake > /dev/null; \
	$(FFI_CONSUMER)/cmake/example > /dev/null; \
	echo "ffi-install-test: ok"
