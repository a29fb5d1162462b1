# Profile-guided optimization of the simulator (issue 19). Included by the top-level Makefile
# (after LIB_SRC, LDLIBS, HW_B and the objects' rules).
#
# The library and bin/rfsim are compiled with GCC's -fprofile-use, from a profile of training
# runs on the project's own workloads (tools/pgo_train.sh): GCC then lays out the hot paths of a
# simulated cycle (the issue walk, the operand collector, the LD/ST unit) straight and inlines
# and unrolls where the runs spent their time. Neither the warm matrixmul x240 run nor the CUDA
# traces are among the training runs; callgrind counts 5-7% fewer instructions on them, and
# cachegrind's cycle estimate (misses and mispredicts weighed) is 4.5% lower on x240 (docs/speed.md,
# "The profile-guided build"). It changes no result: the statistics are byte-identical with and
# without it (tools/stats_identical.sh).
#
# The training build lives in build/pgo: the library compiled with -fprofile-generate and
# otherwise the same flags (the profile must match the use build's early inlining), an rfsim
# without the RTL units (weak references, as in the tools) and a tracegen for the training
# workloads. Any change of a source or header rebuilds it, runs the training again and
# recompiles the library with the new profile, about a minute more per change on two cores:
# `make PGO=` builds without (as the sanitizer build always does).
PGO    ?= 1
PGO_ON := $(if $(SAN_FLAGS),,$(PGO))
PGO_B  := $(BUILD)/pgo
PGO_PROFILE := $(PGO_B)/profile
PGO_DONE    := $(PGO_B)/profile.done

# Both builds compile a source under the same -dumpbase (its path without .c), which names its
# profile file and enters the ids of its static functions: the objects' own paths, which differ
# between the builds, would make the use build miss the static functions' counts.
PGO_GEN_FLAGS  = -fprofile-generate=$(abspath $(PGO_PROFILE)) -dumpbase $* \
                 -fprofile-update=single -Wno-maybe-uninitialized
# In the use build: code the runs did not reach (the SASS interpreter) stays optimized for speed,
# counts the read-ahead thread may have lost are smoothed (the counters are not atomic:
# tools/pgo_train.sh), and a source rfsim does not link (tracegen's) has no profile to miss.
PGO_USE_FLAGS  = -fprofile-use=$(abspath $(PGO_PROFILE)) -dumpbase $* \
                 -fprofile-partial-training -fprofile-correction -Wno-missing-profile

PGO_LIB_OBJ := $(LIB_SRC:%.c=$(PGO_B)/%.o)

$(PGO_B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO_CC) $(PGO_GEN_FLAGS) -c $< -o $@
$(PGO_B)/csim/trace/trace_cache_file.o: CFLAGS += -DTC_READER_ID=$(TRACE_READER_ID)
$(PGO_B)/csim/hw/wave.o: CFLAGS += -I$(HW_FST_DIR)
$(PGO_B)/csim/trace/trace_cache_file.o: $(TRACE_READER_SRC)

$(PGO_B)/librfsim.a: $(PGO_LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(PGO_B)/rfsim: $(PGO_B)/csim/main.o $(PGO_B)/librfsim.a | $(HW_B)/libfst.a
	$(CC) $(CFLAGS) -fprofile-generate $^ -o $@ $(LDLIBS)
$(PGO_B)/tracegen: $(PGO_B)/tools/tracegen.o $(PGO_B)/librfsim.a | $(HW_B)/libfst.a
	$(CC) $(CFLAGS) -fprofile-generate $^ -o $@ $(LDLIBS)

$(PGO_DONE): $(PGO_B)/rfsim $(PGO_B)/tracegen tools/pgo_train.sh tools/jobs.sh $(WORKLOAD_SPECS) \
             $(wildcard configs/*.config)
	@rm -f $@
	bash tools/pgo_train.sh $(PGO_B)
	@touch $@

ifneq ($(PGO_ON),)
# (private: the training build, a prerequisite, keeps its own flags)
$(LIB_OBJ) $(BUILD)/csim/main.o: private CFLAGS += $(PGO_USE_FLAGS)
$(LIB_OBJ) $(BUILD)/csim/main.o: $(PGO_DONE)
endif
