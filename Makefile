# Convenience entry points; CMake does the building.
#   make run   - install what is missing, build, open gsw
#   make test  - install what is missing, build three times (GCC Release
#                -Werror; Clang with AddressSanitizer + UBSan; Clang libFuzzer)
#                and run every default test, then each fuzz target for 10 s
JOBS ?= $(shell nproc)
RELEASE := build/release
ASAN := build/asan
export LSAN_OPTIONS := suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS := print_stacktrace=1:halt_on_error=1

.PHONY: deps release asan run test test-release test-asan test-slow test-crash test-fuzz bench clean

deps:
	@tools/install-deps.sh

release: deps
	cmake -S . -B $(RELEASE) -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=gcc -DGSW_WERROR=ON >/dev/null
	cmake --build $(RELEASE) -j $(JOBS)

asan: deps
	cmake -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DGSW_WERROR=ON -DGSW_SANITIZE=ON >/dev/null
	cmake --build $(ASAN) -j $(JOBS)

run: release
	$(RELEASE)/gsw

test-release: release
	cd $(RELEASE) && ctest --output-on-failure -j $(JOBS) -LE slow

test-asan: asan
	cd $(ASAN) && ctest --output-on-failure -j $(JOBS) -LE 'slow|release'

test: test-release test-asan test-fuzz

test-slow: release
	cd $(RELEASE) && GSW_SLOW=1 ctest --output-on-failure -L slow

# SIGKILL at random moments: 50 kills in each of the three cases
test-crash: release
	GSW_BIN=$(CURDIR)/$(RELEASE)/gsw GSW_TEST_DATA=$(CURDIR)/tests/data bash tests/crash/crash.sh 50

# libFuzzer (Clang): every target in tests/fuzz/ for 10 s from its corpus (GSW_FUZZ_SECONDS)
FUZZ := build/fuzz
test-fuzz: deps
	cmake -S . -B $(FUZZ) -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang -DGSW_FUZZ=ON >/dev/null
	cmake --build $(FUZZ) -j $(JOBS) --target fuzz_all
	cd $(FUZZ) && ctest --output-on-failure -j $(JOBS) -L fuzz

clean:
	rm -rf build
