# SPDX-License-Identifier: GPL-2.0
#
# The kselftest targets of one collection (one part of selftests/ with a
# lab-suites file), included by its Makefile. See Documentation/testing.rst,
# "Running the suites on a node (kselftest)".
#
#   TEST_PROGS   the collection's programs. By default the ones the part
#                registers in its lab-suites, the lines run_tests.sh reads,
#                so that a suite is registered once, for the lab and for
#                kselftest. A program must run without arguments.
#   TEST_FILES   what the programs need beside them: sourced helpers, data
#   settings     the runner's settings for the collection (timeout=SECONDS)
#
#   make install INSTALL_PATH=DIR   DIR/PROG..., DIR/FILE..., DIR/settings
#   make emit_tests                 one COLLECTION:PROG line per program,
#                                   as kselftest-list.txt has them
#
# The helpers every suite sources (selftests/lib/) and the runner are
# installed once, by selftests/Makefile.

COLLECTION ?= $(notdir $(CURDIR))

# "HOSTS TIMEOUT selftests/COLLECTION/PROG [ARGS]", '#' comments.
LAB_SUITE_PROGS := $(shell awk -v d=selftests/$(COLLECTION)/ \
	'$$1 !~ /^\#/ && NF >= 3 && index($$3, d) == 1 && !seen[$$3]++ \
	{ print substr($$3, length(d) + 1) }' lab-suites 2>/dev/null)
TEST_PROGS ?= $(LAB_SUITE_PROGS)

.PHONY: all install emit_tests

all:
	@for f in $(TEST_PROGS) $(TEST_FILES) settings; do \
		[ -e "$$f" ] || { echo "$(COLLECTION): $$f is missing" >&2; exit 1; }; \
	done
	@for f in $(TEST_PROGS); do \
		[ -x "$$f" ] || { echo "$(COLLECTION): $$f is not executable" >&2; exit 1; }; \
	done

install: all
ifndef INSTALL_PATH
	$(error set INSTALL_PATH to use install)
endif
	@install -d $(INSTALL_PATH)
	cp -pR $(TEST_PROGS) $(TEST_FILES) settings $(INSTALL_PATH)/

emit_tests:
	@for t in $(TEST_PROGS); do echo "$(COLLECTION):$$t"; done
