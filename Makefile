# rfsim top-level build. `make` builds bin/rfsim and the trace tools; `make test` runs every test;
# `make demo` runs the bundled example end to end; `make bench` prints the speed figures;
# `make calibrate` compares rfsim with Accel-Sim (configs/reference/accelsim.tsv).
#
# The goals a user types (RFSIM_DEPS_GOALS) first install missing Debian packages (tools/deps.sh)
# when run as root or with password-less sudo. make resolves tool paths and caches directory
# contents while it reads the makefiles, so packages installed from inside that same run would
# stay invisible to it (a first `make demo` on a bare machine stopped at "No rule to make target
# build/hw/vrt/verilated.o"). So these goals run in two makes: this one reads nothing but the
# lines up to `else` below and runs $(RFSIM_DEPS); then a fresh make, which sees the installed
# tools, does every goal. RFSIM_DEPS may name a stand-in (tests/test_bootstrap.c uses one).
RFSIM_DEPS       ?= bash tools/deps.sh
RFSIM_DEPS_GOALS := all demo test bench bench-count calibrate synth lint-rtl hw-libs hw-tests hw-test hw-bench \
                    workloads waves waves-screenshot occupancy-tables \
                    experiments-warpman experiments-regshare experiments-finereg compare fuzz test-sanitize \
                    cuda-toolkit cuda-traces
rfsim_goals      := $(or $(MAKECMDGOALS),all)
FUZZ_PACKAGES    := clang libclang-rt-14-dev  # only `make fuzz` needs them
COUNT_PACKAGES   := valgrind                   # only `make bench-count` needs it
ifeq ($(RFSIM_DEPS_CHECKED),)
ifneq ($(filter $(RFSIM_DEPS_GOALS),$(rfsim_goals)),)
rfsim_entry := 1
endif
endif

ifdef rfsim_entry
.PHONY: $(rfsim_goals) rfsim-deps-then-make
$(rfsim_goals): rfsim-deps-then-make
	@:
rfsim-deps-then-make:
	@$(RFSIM_DEPS) $(if $(filter fuzz,$(rfsim_goals)),$(FUZZ_PACKAGES)) \
	  $(if $(filter bench-count,$(rfsim_goals)),$(COUNT_PACKAGES))
	@$(MAKE) --no-print-directory RFSIM_DEPS_CHECKED=1 $(MAKECMDGOALS)
else

# Every core unless the user chose (-j N): a first `make test` builds some 40 Verilated models,
# which on one core of a 2-core machine took 13 minutes.
ifeq ($(filter -j% j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 1)
endif

CC      ?= cc
CFLAGS  ?= -O3 -g
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -pthread -Wall -Wextra -Werror -MMD -MP $(SAN_FLAGS)
# Link-time optimization of bin/rfsim (issue 19): the simulator's hot calls cross files (the
# operand collector into the register file, the LD/ST unit into the L1D), and inlining them
# took 6-9% off the warm matrixmul x240 run. The objects keep their machine code beside the
# compiler's IR (fat), so the tests and tools link them as before, without paying for a
# whole-program link each; the sanitizer build has none of it. LTO= turns it off.
LTO     ?= -flto=auto
LTO_CC  := $(if $(SAN_FLAGS),,$(if $(LTO),$(LTO) -ffat-lto-objects))
LTO_LD  := $(if $(LTO_CC),$(LTO))
NO_LTO  := $(if $(LTO_CC),-fno-lto)
# csim/hw (unit ports, FST writer) is part of librfsim, so every program links fstapi + zlib;
# csim/trace reads, and csim/tracegen writes, xz-compressed traces with liblzma.
TRACE_LIBS := -llzma
LDLIBS  += $(HW_C_LIBS) $(TRACE_LIBS) -lm -pthread
BUILD   := build
BIN     := bin
SHARED  ?= ../shared

LIB_SRC  := $(filter-out csim/main.c csim/hw/selftest/% csim/cudart/%,$(shell find csim -name "*.c" | sort))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TOOL_SRC := $(sort $(wildcard tools/*.c))
TOOLS    := $(TOOL_SRC:tools/%.c=$(BIN)/%)
TEST_SRC := $(filter-out tests/test_hw_%,$(sort $(wildcard tests/test_*.c)))
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

# The stand-in CUDA runtime (bin/cudart/libcudart.so.11.0) that rfsim-trace puts in front of a
# program built with -cudart shared: the runtime API, the SASS interpreter and the trace line
# writer, position-independent, exporting only the runtime's symbols under its version node.
CUDART_LIB  := $(BIN)/cudart/libcudart.so.11.0
CUDART_SRC  := $(sort $(wildcard csim/cudart/*.c) $(wildcard csim/sass/*.c)) \
               csim/tracegen/tg_line.c csim/tracegen/tg_stream.c csim/common/diag.c \
               csim/common/read_file.c
CUDART_OBJ  := $(CUDART_SRC:%.c=$(BUILD)/pic/%.o)
$(BUILD)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -fvisibility=hidden -c $< -o $@
$(CUDART_LIB): $(CUDART_OBJ) csim/cudart/libcudart.map
	@mkdir -p $(dir $@)
	$(CC) $(SAN_FLAGS) -shared -Wl,-soname,libcudart.so.11.0 \
	  -Wl,--version-script=csim/cudart/libcudart.map $(CUDART_OBJ) -o $@ $(TRACE_LIBS) -lm

.PHONY: fidelity paper-table cuda-toolkit cuda-traces compare fuzz test-sanitize all deps test demo occupancy-tables waves waves-screenshot bench bench-count calibrate clean workloads experiments-warpman experiments-regshare experiments-finereg experiments-larf
.SECONDARY:
all: $(BIN)/rfsim $(TOOLS) $(CUDART_LIB)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

# The trace cache records a hash of the trace reader's sources (and of config.h, whose unit
# numbers it stores), so that a cache written by another build is rebuilt, never decoded with
# this one's tables; the object is rebuilt whenever they change.
TRACE_READER_SRC := $(sort $(wildcard csim/trace/*.c csim/trace/*.h)) csim/config/config.h
TRACE_READER_ID  := 0x$(shell cat $(TRACE_READER_SRC) | sha256sum | cut -c1-16)ull
$(BUILD)/csim/trace/trace_cache_file.o: CFLAGS += -DTC_READER_ID=$(TRACE_READER_ID)
$(BUILD)/csim/trace/trace_cache_file.o: $(TRACE_READER_SRC)

# (private: not passed on to prerequisites, among them the profile-guided build's training
# objects, pgo.mk)
$(LIB_OBJ) $(BUILD)/csim/main.o: private CFLAGS += $(LTO_CC)
$(BUILD)/librfsim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/%: $(BUILD)/tools/%.o $(BUILD)/librfsim.a | $(BUILD)/hw/libfst.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(NO_LTO) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/tests/common/test_util.o $(BUILD)/librfsim.a \
                  | $(BUILD)/hw/libfst.a
	$(CC) $(CFLAGS) $(NO_LTO) $(filter %.o,$^) $(filter %.a,$^) -o $@ $(LDLIBS) -lcmocka

deps:
	@$(RFSIM_DEPS)


include traces/workloads.mk
include hw.mk
include pgo.mk

# bin/rfsim links the Verilated model of every technique unit (so -hw rtl|lockstep work), with
# g++ for the Verilator runtime. build/hw/rfsim-broken is the same program with the test-only
# broken variants of HW_BROKEN_UNITS (the lockstep self-test of the whole simulator).
SIM_UNITS        := $(call hw_with_variants,$(filter-out $(call hw_units_of,selftest),$(HW_UNITS)))
SIM_BROKEN_UNITS := $(foreach u,$(SIM_UNITS),\
                      $(if $(filter $(u),$(HW_BROKEN_UNITS)),$(u)-broken,$(u)))
SIM_RTL_DEPS      = $(call hw_rtl_objs,$(1)) $(HW_B)/libverilated.a $(HW_B)/libfst.a

$(BIN)/rfsim: $(BUILD)/csim/main.o $(BUILD)/librfsim.a $(call SIM_RTL_DEPS,$(SIM_UNITS))
	@mkdir -p $(BIN)
	$(HW_CXX) $(SAN_FLAGS) $(LTO_LD) $(BUILD)/csim/main.o $(BUILD)/librfsim.a \
	  $(call hw_rtl_link,$(SIM_UNITS)) $(TRACE_LIBS) -o $@

# The technique tests run policies with their units in -hw rtl and lockstep, so they link the
# units' RTL; test_warpman also runs bin/rfsim and build/hw/rfsim-broken.
SIM_TESTS := test_warpman test_sharing test_larf
$(SIM_TESTS:%=$(BUILD)/tests/%): $(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/tests/common/test_util.o \
                             $(BUILD)/librfsim.a $(call SIM_RTL_DEPS,$(SIM_UNITS)) \
                             | $(BIN)/rfsim $(HW_B)/rfsim-broken
	$(HW_CXX) $(SAN_FLAGS) $(NO_LTO) $< $(BUILD)/tests/common/test_util.o $(BUILD)/librfsim.a \
	  $(call hw_rtl_link,$(SIM_UNITS)) $(TRACE_LIBS) -lcmocka -o $@

# test_finereg runs bin/rfsim (FineReg's units in lockstep) and build/hw/rfsim-broken
$(BUILD)/tests/test_finereg: | $(BIN)/rfsim $(HW_B)/rfsim-broken

# the fuzz targets' one-input functions, replayed on the inputs fuzzing found
$(BUILD)/tests/test_fuzz_regressions: $(BUILD)/tests/fuzz/fuzz_targets.o $(BUILD)/tests/fuzz/fuzz_sass.o

$(HW_B)/rfsim-broken: $(BUILD)/csim/main.o $(BUILD)/librfsim.a \
                      $(call SIM_RTL_DEPS,$(SIM_BROKEN_UNITS))
	$(HW_CXX) $(SAN_FLAGS) $(NO_LTO) $(BUILD)/csim/main.o $(BUILD)/librfsim.a \
	  $(call hw_rtl_link,$(SIM_BROKEN_UNITS)) $(TRACE_LIBS) -o $@

# tests/run.sh runs the binaries on every core, in the order given: the long ones first
TESTS_LONG := test_suite_runs test_bootstrap test_sharing test_warpman test_finereg test_threads
long_first  = $(foreach t,$(TESTS_LONG),$(filter %/$(t),$(1))) \
              $(filter-out $(addprefix %/,$(TESTS_LONG)),$(1))
test: all $(TESTS) $(HW_TESTS) workloads
	@SHARED=$(SHARED) bash tests/run.sh $(call long_first,$(TESTS) $(HW_TESTS))

# The tests again, built with AddressSanitizer and UBSan (CI runs it after `make test`), and
# with RFSIM_SELF_CHECK: state the simulator keeps instead of working out again each cycle is
# compared with a fresh answer there (cta_switch.c's CTA classifications). The
# test binaries, the library they link and the RTL shims are rebuilt instrumented in build/san/;
# the Verilated models are the normal build's (HW_VB: generated code, not instrumented, and
# rebuilding them all at -O1 took longer than every test run). They run from here, on the
# normal build's workloads and tools. Left out: test_bootstrap (it runs whole
# makes, no code of ours to instrument) and test_hw_synth (it reads Yosys reports, which would
# have to be synthesized again under build/san/). test_suite_runs runs each workload on one
# config there (RFSIM_SUITE_ROTATE), every config still covered.
SAN_FLAGS ?=
SAN_B     := $(BUILD)/san
SAN_SKIP  := test_bootstrap test_hw_synth
san_tests  = $(filter-out $(SAN_SKIP:%=$(1)/tests/%),$(TESTS:$(BUILD)/%=$(1)/%) $(HW_TESTS:$(BUILD)/%=$(1)/%))
#
# Then test_threads (every policy on 1, 2 and 4 threads, each technique where it acts) built with
# ThreadSanitizer in build/tsan/: the SMs' threads must not touch what another may be writing
# while they step (a read of a neighbouring SM's sleep, for a prefetch, once slipped in unseen).
TSAN_B     := $(BUILD)/tsan
TSAN_TESTS := $(TSAN_B)/tests/test_threads
test-sanitize: all workloads $(call san_tests,$(BUILD))
	@$(MAKE) --no-print-directory BUILD=$(SAN_B) BIN=$(SAN_B)/bin HW_CXXOPT=-O1 HW_VB=$(HW_B) \
	  SAN_FLAGS='-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -DRFSIM_SELF_CHECK' \
	  $(call san_tests,$(SAN_B))
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
	  RFSIM_SUITE_ROTATE=1 SHARED=$(SHARED) bash tests/run.sh $(call long_first,$(call san_tests,$(SAN_B)))
	@$(MAKE) --no-print-directory BUILD=$(TSAN_B) BIN=$(TSAN_B)/bin HW_CXXOPT=-O1 HW_VB=$(HW_B) \
	  SAN_FLAGS='-O1 -fsanitize=thread' $(TSAN_TESTS)
	@TSAN_OPTIONS=halt_on_error=1 SHARED=$(SHARED) bash tests/run.sh $(TSAN_TESTS)

# Debian 12's CUDA 11.8 toolkit (the newest that compiles for Pascal and Volta) through a private
# apt sources list; only cuda-traces needs it, never make or make test.
cuda-toolkit:
	@bash tools/cuda_toolkit.sh

# Builds and traces every program in cuda/ with rfsim-trace (installing the toolkit if missing),
# then runs each trace with every technique in lockstep with the RTL (tools/cuda_traces.sh).
cuda-traces: all
	@bash tools/cuda_toolkit.sh
	@bash tools/cuda_traces.sh

demo: all $(BUILD)/traces/warpman_st/kernelslist.g $(BUILD)/synth/summary.txt
	@bash tools/demo.sh

# Opens the demo's waveform in GTKWave; waves-screenshot renders it headless (Xvfb) to
# docs/demo_waves.png, the picture in the README.
waves:
	@bash tools/waves.sh
waves-screenshot:
	@bash tools/waves.sh --screenshot docs/demo_waves.png

# WarpMan modes on the WarpMan workloads: out/experiments/warpman.md and .png (about a minute).
experiments-warpman: all workloads
	@bash tools/experiments_warpman.sh

# FineReg, VT, Reg+DRAM, VT+RegMutex on the FineReg analogs (gtx980): out/experiments/finereg.md
experiments-finereg: all workloads
	@bash tools/experiments_finereg.sh

# Register and scratchpad sharing on Set-1/2/3 (tesla_c2050): out/experiments/regshare.md, .png
experiments-regshare: all workloads
	@bash tools/experiments_regshare.sh

# Every technique on one suite and the shipped configs, beside its synthesized cost:
# out/experiments/compare.md and .png (tools/compare.sh; COMPARE_CONFIGS, COMPARE_SUITE, JOBS)
compare: all workloads $(BUILD)/synth/summary.txt
	@bash tools/compare.sh

# Locality-aware register file on the larf_* workloads: out/experiments/larf.md, .png
# The papers' benchmark rows beside the traced cuda/ programs (needs make cuda-traces first).
paper-table: all
	@bash tools/paper_table.sh

# Each paper's experiment on its own benchmarks (the cuda/ programs), out/experiments/fidelity.md.
fidelity: all
	@bash tools/experiments_papers.sh

experiments-larf: all workloads
	@bash tools/experiments_larf.sh

# resource_sharing Tables VI and VIII (resident TBs with register / scratchpad sharing), each
# entry beside the paper's; fails if any differs.
REGSHARE_SET1 := backprop btree hotspot lib mum mriq sgemm stencil
SPSHARE_SET2  := conv1 conv2 lavamd nw1 nw2 srad1 srad2
occupancy-tables: all workloads
	@bin/occupancy -config configs/tesla_c2050.config -resource registers \
	  -paper traces/paper/resource_sharing_table6.txt \
	  $(foreach w,$(REGSHARE_SET1),$(BUILD)/traces/regshare_$(w)/kernelslist.g)
	@echo
	@bin/occupancy -config configs/tesla_c2050_scratchpad.config -resource scratchpad \
	  -paper traces/paper/resource_sharing_table8.txt \
	  $(foreach w,$(SPSHARE_SET2),$(BUILD)/traces/spshare_$(w)/kernelslist.g)

# rfsim beside Accel-Sim on the shared traces and matrixmul tiled to 1, 60, 240 and 960 TBs
# (configs/reference/accelsim.tsv; CALIBRATE_ROWS selects rows, e.g. 'x60|x240').
CALIBRATE_TILES := 1 60 240 960
calibrate: all $(CALIBRATE_TILES:%=$(BUILD)/traces/matrixmul_x%/kernelslist.g)
	@SHARED=$(SHARED) BUILD=$(BUILD) bash tools/calibrate.sh

bench: all $(BUILD)/traces/matrixmul_x240/kernelslist.g $(BUILD)/traces/matrixmul_x240_xz/kernelslist.g \
       $(BUILD)/traces/warpman_ray/kernelslist.g
	@bash tools/bench.sh

# The host instructions of the warm x240 run per config (callgrind): a count that does not move
# with the host's load, to compare a change by (tools/bench_count.sh).
bench-count: all $(BUILD)/traces/matrixmul_x240/kernelslist.g
	@bash tools/bench_count.sh

# ---- fuzzing: libFuzzer (clang) with AddressSanitizer and UBSan over the parsers users feed ----
# Every library source is rebuilt instrumented in build/fuzz/; each target in tests/fuzz/ gets
# its own binary. `make fuzz FUZZ_SECONDS=300` for longer runs.
FUZZ_B        := $(BUILD)/fuzz
FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_TARGETS  := kernel_trace kernelslist config tracegen_spec trace_cache xz_trace sass_listing cubin
FUZZ_CFLAGS   := -g -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
                 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
FUZZ_OBJ      := $(LIB_SRC:%.c=$(FUZZ_B)/%.o) $(FUZZ_B)/tests/fuzz/fuzz_targets.o \
                 $(FUZZ_B)/tests/fuzz/fuzz_sass.o
# (-MMD -MP: an object whose headers changed is rebuilt; a stale one read structs by their old
# layout and its messages lost their file and line)
$(FUZZ_B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c $< -o $@
$(FUZZ_B)/csim/hw/wave.o: FUZZ_CFLAGS += -I$(HW_FST_DIR)
$(FUZZ_B)/csim/trace/trace_cache_file.o: FUZZ_CFLAGS += -DTC_READER_ID=$(TRACE_READER_ID)
$(FUZZ_B)/csim/trace/trace_cache_file.o: $(TRACE_READER_SRC)
$(FUZZ_B)/fuzz_%: tests/fuzz/fuzz_entry.c $(FUZZ_OBJ) $(HW_B)/libfst.a
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_TARGET_NAME='"$*"' $^ -lz $(TRACE_LIBS) -lm -o $@
fuzz: $(FUZZ_TARGETS:%=$(FUZZ_B)/fuzz_%)
	@bash tools/fuzz.sh $(FUZZ_B) $(FUZZ_SECONDS) $(SHARED) $(FUZZ_TARGETS)

clean:
	rm -rf $(BUILD) $(BIN) out

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

endif # rfsim_entry
