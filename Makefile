# Builds and installs libcrawlsched (shared + static library, header,
# pkg-config file, CMake package). Usage:
#   make                                  # cargo build --release
#   make install PREFIX=/usr/local DESTDIR=/tmp/stage
#   make uninstall PREFIX=/usr/local DESTDIR=/tmp/stage
# The installed libraries are stripped; the shared library's debug info goes
# to $(LIBDIR)/.debug/<real name>.debug (found by gdb through its
# .gnu_debuglink). NO_STRIP=1 installs them as built. Outside the system
# library directories the pkg-config file adds an rpath, so a program built
# with `pkg-config --cflags --libs crawlsched` runs without LD_LIBRARY_PATH.
# LIBDIR and INCLUDEDIR default to $(PREFIX)/lib and $(PREFIX)/include and
# must lie under PREFIX (the CMake package is relocatable relative to it).
# The soname policy is in docs/c-api.md ("Soname and symbol exports").

PREFIX     ?= /usr/local
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
DESTDIR    ?=
CARGO      ?= cargo
# Set NO_BUILD=1 to install what target/release holds without running cargo
# (e.g. `sudo make install NO_BUILD=1` where root has no Rust toolchain).
NO_BUILD   ?=
INSTALL    ?= install
STRIP      ?= strip
OBJCOPY    ?= objcopy
NO_STRIP   ?=

BUILD_DIR := target/release
VERSION   := $(shell sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
VMAJOR    := $(word 1,$(subst ., ,$(VERSION)))
VMINOR    := $(word 2,$(subst ., ,$(VERSION)))
VPATCH    := $(word 3,$(subst ., ,$(VERSION)))
ABI       := $(shell sed -n 's/^\#define CRAWLSCHED_ABI_VERSION \([0-9]*\)/\1/p' include/crawlsched.h)
SONAME    := libcrawlsched.so.$(ABI)
REALNAME  := libcrawlsched.so.$(ABI).$(VMINOR).$(VPATCH)
CMAKEDIR  := $(LIBDIR)/cmake/crawlsched
COMMA     := ,
MULTIARCH := $(shell $(CC) -print-multiarch 2>/dev/null)
SYSTEM_LIBDIRS := /lib /lib64 /usr/lib /usr/lib64 $(if $(MULTIARCH),/lib/$(MULTIARCH) /usr/lib/$(MULTIARCH))
# The .pc file's Libs: an rpath unless the dynamic linker searches LIBDIR anyway.
PC_LIBS   := -L$${libdir}$(if $(filter $(LIBDIR),$(SYSTEM_LIBDIRS)),, -Wl$(COMMA)-rpath$(COMMA)$${libdir}) -lcrawlsched
DEBUGFILE := $(LIBDIR)/.debug/$(REALNAME).debug
# Paths the relocatable CMake config uses, relative to its own directory.
CMAKE_TO_PREFIX = $(shell realpath -m --relative-to=$(CMAKEDIR) $(PREFIX))
LIBDIR_REL      = $(shell realpath -m --relative-to=$(PREFIX) $(LIBDIR))
INCLUDEDIR_REL  = $(shell realpath -m --relative-to=$(PREFIX) $(INCLUDEDIR))

SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
	-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
	-e 's|@VERSION_MAJOR@|$(VMAJOR)|g' -e 's|@VERSION_MINOR@|$(VMINOR)|g' \
	-e 's|@ABI@|$(ABI)|g' \
	-e 's|@SONAME@|$(SONAME)|g' -e 's|@REALNAME@|$(REALNAME)|g' \
	-e 's|@CMAKE_TO_PREFIX@|$(CMAKE_TO_PREFIX)|g' \
	-e 's|@LIBDIR_REL@|$(LIBDIR_REL)|g' -e 's|@INCLUDEDIR_REL@|$(INCLUDEDIR_REL)|g' \
	-e 's|@PC_LIBS@|$(PC_LIBS)|g'

.PHONY: all build install uninstall check-vars pc-uninstalled
all: build

# The soname link lets programs linked against target/release (e.g. the
# bindings' tests) find libcrawlsched.so.$(ABI) at run time without installing.
build:
ifeq ($(NO_BUILD),)
	$(CARGO) build --release --lib
	ln -sf libcrawlsched.so $(BUILD_DIR)/$(SONAME)
endif

check-vars:
	@test -n "$(VERSION)" || { echo "cannot read version from Cargo.toml" >&2; exit 1; }
	@test -n "$(ABI)" || { echo "cannot read CRAWLSCHED_ABI_VERSION from include/crawlsched.h" >&2; exit 1; }
	@case "$(LIBDIR)/" in "$(PREFIX)"/*) ;; *) echo "LIBDIR must be under PREFIX" >&2; exit 1;; esac
	@case "$(INCLUDEDIR)/" in "$(PREFIX)"/*) ;; *) echo "INCLUDEDIR must be under PREFIX" >&2; exit 1;; esac
	@test -f $(BUILD_DIR)/libcrawlsched.so -a -f $(BUILD_DIR)/libcrawlsched.a || \
	  { echo "$(BUILD_DIR)/libcrawlsched.{so,a} missing: run make first" >&2; exit 1; }

install: build check-vars
	$(INSTALL) -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(CMAKEDIR)
	$(INSTALL) -m 644 $(BUILD_DIR)/libcrawlsched.so $(DESTDIR)$(LIBDIR)/$(REALNAME)
	ln -sf $(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libcrawlsched.so
	$(INSTALL) -m 644 $(BUILD_DIR)/libcrawlsched.a $(DESTDIR)$(LIBDIR)/libcrawlsched.a
ifeq ($(NO_STRIP),)
	$(INSTALL) -d $(DESTDIR)$(LIBDIR)/.debug
	$(OBJCOPY) --only-keep-debug $(DESTDIR)$(LIBDIR)/$(REALNAME) $(DESTDIR)$(DEBUGFILE)
	chmod 644 $(DESTDIR)$(DEBUGFILE)
	$(STRIP) --strip-unneeded --remove-section=.comment $(DESTDIR)$(LIBDIR)/$(REALNAME)
	cd $(DESTDIR)$(LIBDIR) && $(OBJCOPY) --add-gnu-debuglink=.debug/$(REALNAME).debug $(REALNAME)
	$(STRIP) --strip-debug $(DESTDIR)$(LIBDIR)/libcrawlsched.a
endif
	$(INSTALL) -m 644 include/crawlsched.h $(DESTDIR)$(INCLUDEDIR)/crawlsched.h
	$(SUBST) packaging/crawlsched.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/crawlsched.pc
	$(SUBST) packaging/crawlsched-static.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/crawlsched-static.pc
	$(SUBST) packaging/crawlsched-config.cmake.in > $(DESTDIR)$(CMAKEDIR)/crawlsched-config.cmake
	$(SUBST) packaging/crawlsched-config-version.cmake.in > $(DESTDIR)$(CMAKEDIR)/crawlsched-config-version.cmake
	chmod 644 $(DESTDIR)$(LIBDIR)/pkgconfig/crawlsched*.pc $(DESTDIR)$(CMAKEDIR)/*.cmake

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/$(REALNAME) $(DESTDIR)$(LIBDIR)/$(SONAME) \
	  $(DESTDIR)$(LIBDIR)/libcrawlsched.so $(DESTDIR)$(LIBDIR)/libcrawlsched.a \
	  $(DESTDIR)$(INCLUDEDIR)/crawlsched.h $(DESTDIR)$(LIBDIR)/pkgconfig/crawlsched.pc \
	  $(DESTDIR)$(LIBDIR)/pkgconfig/crawlsched-static.pc \
	  $(DESTDIR)$(CMAKEDIR)/crawlsched-config.cmake $(DESTDIR)$(CMAKEDIR)/crawlsched-config-version.cmake \
	  $(DESTDIR)$(DEBUGFILE)
	-rmdir $(DESTDIR)$(CMAKEDIR) $(DESTDIR)$(LIBDIR)/.debug 2>/dev/null

# pkg-config files for the uninstalled tree (target/pkgconfig/): the header
# in include/, the libraries in target/release (rpath included). scripts/go-env
# points PKG_CONFIG_PATH here, so the Go binding builds in a checkout the
# way it builds against an installed library.
pc-uninstalled:
	@mkdir -p target/pkgconfig
	@ln -sf libcrawlsched.so $(BUILD_DIR)/$(SONAME)
	@$(MAKE) --no-print-directory -s PREFIX=$(CURDIR) LIBDIR=$(CURDIR)/$(BUILD_DIR) INCLUDEDIR=$(CURDIR)/include pc-files

pc-files:
	@$(SUBST) packaging/crawlsched.pc.in > target/pkgconfig/crawlsched.pc
	@$(SUBST) packaging/crawlsched-static.pc.in > target/pkgconfig/crawlsched-static.pc
