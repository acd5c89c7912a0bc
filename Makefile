# Developer entry points. `make test` is what CI runs (through .ci/run).
R ?= R
RSCRIPT ?= Rscript
LIB ?= $(CURDIR)/.rlib

.PHONY: install deps test test-fast check bench regtests clean format fuzz fuzz-ci valgrind

# what the tests need (testthat), installed into the user library if missing
deps:
	$(RSCRIPT) -e 'if (!requireNamespace("testthat", quietly = TRUE)) install.packages("testthat", repos = "https://cloud.r-project.org")'


install:
	mkdir -p $(LIB)
	$(R) CMD INSTALL --no-test-load --preclean -l $(LIB) .

# incremental: keeps object files in src/ between runs (R's build does not
# track header dependencies, so a changed header forces a full rebuild)
dev:
	mkdir -p $(LIB)
	@if [ -f src/rir.so ] && [ -n "$$(find src -name '*.h' -newer src/rir.so)" ]; then \
	  echo "headers changed: rebuilding all objects"; rm -f src/*.so; find src -name '*.o' -delete; fi
	$(R) CMD INSTALL --no-test-load -l $(LIB) .

# The suite in each test mode; run-tests.R checks that the mode took effect.
#   default tiering (native tier on, as users get it);
#   RIR_OPT_THRESHOLD=0 with RIR_NATIVE=1 (every closure compiled and
#   optimized to native code at its first call); RIR_DEOPT_CHAOS=10 with
#   RIR_OPT_THRESHOLD=2 and RIR_NATIVE=1 (optimized with feedback, about one
#   speculation in 10 fails on purpose).
test: deps install
	cd tests && R_LIBS=$(LIB) RIR_DEBUG=verify $(RSCRIPT) run-tests.R
	cd tests && R_LIBS=$(LIB) RIR_DEBUG=verify RIR_OPT_THRESHOLD=0 RIR_NATIVE=1 $(RSCRIPT) run-tests.R
	cd tests && R_LIBS=$(LIB) RIR_DEBUG=verify RIR_OPT_THRESHOLD=2 RIR_DEOPT_CHAOS=10 RIR_NATIVE=1 $(RSCRIPT) run-tests.R

test-fast: dev
	cd tests && R_LIBS=$(LIB) RIR_TEST_FILTER='diff|api|context' $(RSCRIPT) run-tests.R

# Differential fuzzing (docs/fuzzing.md): N random programs from SEED on,
# stock GNU R vs rir, in every test mode. Failures go to fuzz-out/.
N ?= 1000
SEED ?= 1
fuzz: install
	R_LIBS=$(LIB) $(RSCRIPT) tools/fuzz/run.R --n $(N) --seed $(SEED) --mode all --jobs 2 --out fuzz-out

# CI's fixed budget: 2000 programs per mode, two modes at a time (about 18
# minutes on two cores: the native modes cost 0.2-0.4 s a program); the
# package must already be installed in $(LIB) (`make test` does it)
# It gates on values, printed output, visibility, and the messages and calls
# of warnings and errors.
FUZZ_CI_N ?= 2000
fuzz-ci:
	R_LIBS=$(LIB) $(RSCRIPT) tools/fuzz/run.R --n $(FUZZ_CI_N) --seed 1 --mode all --jobs 2 --out fuzz-out

# The gctorture snippets under valgrind's memcheck, native code at the first
# call (tools/valgrind.sh; about 10 minutes)
valgrind: install
	R_LIBS=$(LIB) tools/valgrind.sh valgrind.log

regtests: install
	R_LIBS=$(LIB) tools/gnur-regtests.sh --mode default

bench: install
	R_LIBS=$(LIB) $(RSCRIPT) inst/benchmarks/run.R

# R CMD build, no object file in the tarball, R CMD check with the tests
# (in .check/; CI runs this)
check:
	tools/check-package.sh

clean:
	./cleanup
	rm -rf $(LIB) rir.Rcheck rir_*.tar.gz .check

format:
	clang-format -i src/*/*.cpp src/*/*.h
