# rfsim top-level build. `make` builds bin/rfsim and the trace tools; `make test` runs every test;
# `make demo` runs the bundled example end to end; `make bench` prints the speed figures.
# Both `demo` and `test` first install missing Debian packages (tools/deps.sh) when run as root
# or with sudo available, and say what they install.

CC      ?= cc
CFLAGS  ?= -O3 -g
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -MMD -MP
LDLIBS  += -lm
BUILD   := build
BIN     := bin
SHARED  ?= ../shared

LIB_SRC  := $(filter-out csim/main.c csim/hw/%,$(shell find csim -name "*.c" | sort))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
TOOL_SRC := $(sort $(wildcard tools/*.c))
TOOLS    := $(TOOL_SRC:tools/%.c=$(BIN)/%)
TEST_SRC := $(filter-out tests/test_hw_%,$(sort $(wildcard tests/test_*.c)))
TESTS    := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)

.PHONY: all deps test demo bench clean workloads
.SECONDARY:
all: $(BIN)/rfsim $(TOOLS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/librfsim.a: $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN)/rfsim: $(BUILD)/csim/main.o $(BUILD)/librfsim.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BIN)/%: $(BUILD)/tools/%.o $(BUILD)/librfsim.a
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS)

$(BUILD)/tests/%: $(BUILD)/tests/%.o $(BUILD)/tests/common/test_util.o $(BUILD)/librfsim.a
	$(CC) $(CFLAGS) $^ -o $@ $(LDLIBS) -lcmocka

deps:
	@bash tools/deps.sh

include traces/workloads.mk
include hw.mk

test: deps all $(TESTS) $(HW_TESTS) workloads
	@SHARED=$(SHARED) bash tests/run.sh $(TESTS) $(HW_TESTS)

demo: deps all $(BUILD)/traces/warpman_st/kernelslist.g
	@bash tools/demo.sh

bench: all $(BUILD)/traces/matrixmul_x240/kernelslist.g
	@bash tools/bench.sh

clean:
	rm -rf $(BUILD) $(BIN) out

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
