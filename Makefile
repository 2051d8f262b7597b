# make install [PREFIX=/usr/local] [DESTDIR=]   release build (Swift runtime linked in), man page, completions
# make uninstall [PREFIX=…]                     remove them
# make deb                                      out/authsh_VERSION_ARCH.deb (Depends from the binary's libraries)
PREFIX ?= /usr/local
DESTDIR ?=

.PHONY: install uninstall deb
install:
	scripts/install.sh --prefix "$(PREFIX)" --destdir "$(DESTDIR)"
uninstall:
	scripts/install.sh --prefix "$(PREFIX)" --destdir "$(DESTDIR)" --uninstall
deb:
	scripts/package-deb.sh
