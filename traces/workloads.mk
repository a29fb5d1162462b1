# The project's generated workload suite: build/traces/<name>/kernelslist.g for every
# traces/<name>.spec. Included by the top-level Makefile (which defines BIN and BUILD).
# A trace folder is regenerated only when its spec or bin/tracegen changes; tracegen writes the
# folder atomically, so an interrupted make never leaves a folder that looks complete.

WORKLOAD_SPECS := $(sort $(wildcard traces/*.spec))
WORKLOAD_NAMES := $(WORKLOAD_SPECS:traces/%.spec=%)
WORKLOAD_LISTS := $(WORKLOAD_NAMES:%=$(BUILD)/traces/%/kernelslist.g)

workloads: $(WORKLOAD_LISTS)

$(BUILD)/traces/%/kernelslist.g: traces/%.spec $(BIN)/tracegen
	@mkdir -p $(BUILD)/traces
	$(BIN)/tracegen $< $(BUILD)/traces/$*

# The real matrixmul trace (1 TB, 4,416 warp insts) tiled to N identical TBs: x240 (1,059,840
# warp insts) for the speed benchmark, x1, x60, x240 and x960 for `make calibrate`. Built on
# demand (`make bench`, `make calibrate` or by name), not by `test`.
$(BUILD)/traces/matrixmul_x%/kernelslist.g: $(SHARED)/traces/matrixmul_sm61/kernelslist.g \
    $(BIN)/tracetile
	@mkdir -p $(BUILD)/traces
	$(BIN)/tracetile $< $(BUILD)/traces/matrixmul_x$* --tbs $*

# ... and x240 as xz-compressed kernel files (kernel-1.traceg.xz), for the reader's speed on
# archives against the text (an explicit rule, so the pattern above never sees it).
$(BUILD)/traces/matrixmul_x240_xz/kernelslist.g: $(SHARED)/traces/matrixmul_sm61/kernelslist.g \
    $(BIN)/tracetile
	@mkdir -p $(BUILD)/traces
	$(BIN)/tracetile $< $(BUILD)/traces/matrixmul_x240_xz --tbs 240 --xz
