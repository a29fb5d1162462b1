# hw.mk: hardware units (rtl/, csim/hw/, tb/, synth/). Included by the top Makefile; also runs
# alone: `make -f hw.mk hw-test`.
#
# A unit is found by its descriptor csim/hw/<tech>/<unit>.def; its RTL is rtl/<tech>/<unit>.v
# (other modules it instantiates are found in rtl/<tech>/ by name), its C reference
# csim/hw/<tech>/<unit>.c, its test tests/test_hw_<unit>.c. Nothing here names a unit except
# the lockstep test's broken variant (HW_BROKEN_UNITS).
#
# Targets
#   hw-libs      Verilated model of every unit, cached: build/hw/<unit>/ (rebuilt when its RTL,
#                the descriptor or its parameters change)
#   hw-tests     build the unit tests ($(HW_TESTS)); hw-test builds and runs them
#   lint-rtl     verilator --lint-only -Wall, iverilog -g2005, yosys, descriptor-vs-RTL ports,
#                .gtkw files up to date
#   synth        Yosys + OpenSTA per unit and per technique: build/synth/*.txt, *.json,
#                build/synth/summary.txt (LIBERTY=file, SYNTH_MHZ=700)
#   hw-gtkw      regenerate rtl/<tech>/<unit>.gtkw from the descriptors
#   hw-bench     cost of one step in each mode, with and without FST (test_hw_wm_check)
# Variables for the including Makefile
#   HW_TESTS          the unit-test binaries (each prints a cmocka summary)
#   HW_C_LIBS         what a program using csim/hw (wave.c) must link: fstapi + zlib
#   HW_RTL_LINK       every technique unit's shim + model + Verilator runtime (link after
#                     librfsim.a, with g++ or -lstdc++)
#   $(call hw_rtl_link,u1 u2)  the same for chosen units only
#   HW_PARAMS_<unit>  parameter overrides for the Verilated model, e.g. 'CTA_SLOTS=16'
# Verilator's runtime carries its own copy of fstapi; HW_RTL_LINK places it before libfst.a so
# that one copy is used.

BUILD        ?= build
HW_B         := $(BUILD)/hw
# Where the Verilated models are built and found: here, or another build's (test-sanitize links
# the normal build's models, generated code it does not need to instrument, to its own shims).
HW_VB        ?= $(HW_B)
HW_VERILATOR ?= verilator
HW_VROOT     ?= /usr/share/verilator
HW_VINC      := $(HW_VROOT)/include
HW_FST_DIR   := $(HW_VINC)/gtkwave
HW_CC        ?= $(CC)
HW_CXX       ?= g++
HW_CFLAGS    ?= -O2 -g -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -MMD -MP
HW_CFLAGS    += $(SAN_FLAGS)
HW_CXXOPT    ?= -O2
# HW_TRACE=0 builds the models without --trace-fst (no Verilator FST; the C-written FST still
# works); the default keeps tracing compiled in and switches it on per run (see hw-bench).
HW_TRACE     ?= 1
HW_VFLAGS    := -O3 --x-assign fast --x-initial fast --noassert --timescale 1ns/1ps \
                $(if $(filter 1,$(HW_TRACE)),--trace-fst)
HW_VDEFS      = -DVM_COVERAGE=0 -DVM_SC=0 -DVM_TRACE_VCD=0
HW_VCXXFLAGS := -I$(HW_VINC) -I$(HW_VINC)/vltstd $(HW_VDEFS) -faligned-new -Wno-bool-operation \
                -Wno-sign-compare -Wno-uninitialized -Wno-unused-but-set-variable \
                -Wno-unused-parameter -Wno-unused-variable -Wno-shadow
LIBERTY      ?= /usr/share/qflow/tech/osu018/osu018_stdcells.lib
SYNTH_MHZ    ?= 700

HW_DEFS  := $(sort $(wildcard csim/hw/*/*.def))
HW_UNITS := $(basename $(notdir $(HW_DEFS)))
HW_TECHS := $(sort $(notdir $(patsubst %/,%,$(dir $(HW_DEFS)))))
hw_tech   = $(notdir $(patsubst %/,%,$(dir $(filter %/$(1).def,$(HW_DEFS)))))
hw_units_of = $(basename $(notdir $(wildcard csim/hw/$(1)/*.def)))

# Units whose test-only broken variant (Verilog `define BROKEN_FOR_TEST) is built as
# build/hw/<unit>-broken/, for the lockstep self-test.
HW_BROKEN_UNITS := wm_wlbuf fr_status fr_lrcache fr_idxdec fr_ptrtab fr_pcrf larf_amt larf_mc larf_wmerge

# C side, compiled here (own object dir) so the unit tests do not depend on the rest of csim/.
HW_C_SRC  := $(sort $(wildcard csim/hw/*.c csim/hw/*/*.c)) csim/common/diag.c
HW_C_OBJ  := $(HW_C_SRC:%.c=$(HW_B)/obj/%.o)
HW_C_LIBS  = $(HW_B)/libfst.a -lz
HW_RTL_LIBS = $(HW_B)/libverilated.a $(HW_C_LIBS) -lstdc++ -pthread -latomic -lm
hw_rtl_objs = $(foreach u,$(1),$(HW_B)/$(u)/shim.o $(HW_VB)/$(u)/obj/V$(firstword $(subst -, ,$(u)))__ALL.a)
hw_rtl_link = $(call hw_rtl_objs,$(1)) $(HW_RTL_LIBS)

# Variants: further parameter sets a unit is Verilated under, listed in
# csim/hw/<tech>/<unit>.variants as `HW_VARIANT(name, NAME=V NAME=V ...)` (the C side reads the
# same file, unit_desc.h). Variant v of unit u builds as $(HW_B)/u_v/ (class prefix Vu_v, entry
# point hw_rtl_u_v), so the paper's configuration and, say, a 32-CTA-slot one link together.
hw_variants_file   = $(wildcard csim/hw/$(call hw_tech,$(1))/$(1).variants)
hw_lp := (
hw_rp := )
hw_variants        = $(if $(call hw_variants_file,$(1)),$(shell sed -n 's/^HW_VARIANT$(hw_lp)\([A-Za-z0-9_]*\),.*/\1/p' $(call hw_variants_file,$(1))))
hw_variant_params  = $(shell sed -n 's/^HW_VARIANT$(hw_lp)$(2), *\([^$(hw_rp)]*\)$(hw_rp).*/\1/p' $(call hw_variants_file,$(1)))
hw_with_variants   = $(foreach u,$(1),$(u) $(addprefix $(u)_,$(call hw_variants,$(u))))
HW_VARIANT_BUILDS := $(filter-out $(HW_UNITS),$(call hw_with_variants,$(HW_UNITS)))
HW_RTL_LINK = $(call hw_rtl_link,$(call hw_with_variants,$(filter-out $(call hw_units_of,selftest),$(HW_UNITS))))

# The lead's objects for csim/hw/wave.c need fstapi.h.
$(BUILD)/csim/hw/wave.o: CFLAGS += -I$(HW_FST_DIR)
$(HW_B)/obj/csim/hw/wave.o $(HW_B)/obj/tests/test_hw_port.o: HW_OBJ_CFLAGS := -I$(HW_FST_DIR)

.PHONY: hw-libs hw-tests hw-test lint-rtl synth hw-gtkw hw-bench hw-clean FORCE
FORCE:

$(HW_B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(HW_CC) $(HW_CFLAGS) $(HW_OBJ_CFLAGS) -c $< -o $@

# ---- fstapi (from Verilator's tree, not copied) and the Verilator runtime, built once ----
HW_FST_OBJ := $(HW_B)/fst/fstapi.o $(HW_B)/fst/lz4.o $(HW_B)/fst/fastlz.o
$(HW_B)/fst/%.o: $(HW_FST_DIR)/%.c
	@mkdir -p $(dir $@)
	$(HW_CC) -O2 -w -I$(HW_FST_DIR) -DFST_CONFIG_INCLUDE='"fst_config.h"' -c $< -o $@
$(HW_B)/libfst.a: $(HW_FST_OBJ)
	@rm -f $@
	ar rcs $@ $^

HW_VRT_OBJ := $(addprefix $(HW_B)/vrt/,verilated.o verilated_dpi.o verilated_fst_c.o verilated_threads.o)
$(HW_B)/vrt/%.o: $(HW_VINC)/%.cpp
	@mkdir -p $(dir $@)
	$(HW_CXX) $(HW_CXXOPT) $(HW_VCXXFLAGS) -DVM_TRACE=1 -DVM_TRACE_FST=1 -c $< -o $@
$(HW_B)/libverilated.a: $(HW_VRT_OBJ)
	@rm -f $@
	ar rcs $@ $^

# ---- per unit: generator, parameter stamp, Verilated model, shim ----
# $(1) = build name (unit, unit-broken or unit_<variant>), $(2) = unit, $(3) = extra verilator
# flags, $(4) = parameter assignments (NAME=V ...), $(5) = variant suffix of the model's class
# prefix and entry point (empty, or _<variant>: Vunit_<variant>, hw_rtl_unit_<variant>)
define hw_unit_rules
$(HW_B)/$(1)/gen: tb/hw_gen.c csim/hw/$(call hw_tech,$(2))/$(2).c csim/hw/$(call hw_tech,$(2))/$(2).h \
                  csim/hw/$(call hw_tech,$(2))/$(2).def csim/hw/unit_types.h csim/hw/unit_desc.h \
                  csim/hw/unit_def_expand.h csim/hw/unit.h
	@mkdir -p $$(dir $$@)
	$$(HW_CC) -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror \
	  -DHW_GEN_SRC='"../csim/hw/$(call hw_tech,$(2))/$(2).c"' -DHW_GEN_DESC=$(2)_desc $$< -o $$@

# rewritten only when the resolved parameters (or flags) change, so models stay cached
$(HW_B)/$(1)/params.txt: $(HW_B)/$(1)/gen FORCE
	@{ $(HW_B)/$(1)/gen params $(4) && echo 'flags: $(3) trace=$(HW_TRACE)'; } > $$@.tmp || { rm -f $$@.tmp; exit 1; }
	@if cmp -s $$@.tmp $$@; then rm -f $$@.tmp; else mv $$@.tmp $$@; fi

$(HW_VB)/$(1)/obj/V$(2)$(5).mk: $(HW_VB)/$(1)/params.txt $(wildcard rtl/$(call hw_tech,$(2))/*.v)
	@rm -rf $(HW_VB)/$(1)/obj
	$$(HW_VERILATOR) --cc $$(HW_VFLAGS) $(3) --top-module $(2) --prefix V$(2)$(5) \
	  -y rtl/$(call hw_tech,$(2)) rtl/$(call hw_tech,$(2))/$(2).v \
	  $$$$($(HW_VB)/$(1)/gen vflags $(4)) --Mdir $(HW_VB)/$(1)/obj

$(HW_VB)/$(1)/obj/V$(2)$(5)__ALL.a: $(HW_VB)/$(1)/obj/V$(2)$(5).mk
	$$(MAKE) -s -C $(HW_VB)/$(1)/obj -f V$(2)$(5).mk V$(2)$(5)__ALL.a CXX="$$(HW_CXX)" \
	  OPT_FAST=$$(HW_CXXOPT) OPT_SLOW=-O1 OPT_GLOBAL=$$(HW_CXXOPT) VM_PARALLEL_BUILDS=0
	@rm -f $(HW_VB)/$(1)/obj/*.d  # Verilator's own .d files, unneeded here, would confuse a top-level -include

$(HW_B)/$(1)/shim.o: csim/hw/rtl_shim.cpp $(HW_VB)/$(1)/obj/V$(2)$(5)__ALL.a csim/hw/unit_types.h \
                    csim/hw/unit_def_expand.h csim/hw/unit.h csim/hw/$(call hw_tech,$(2))/$(2).def
	@mkdir -p $$(dir $$@)
	$$(HW_CXX) $$(HW_CXXOPT) -std=c++17 -Wall -Wextra -Werror $$(HW_VCXXFLAGS) -Icsim/hw \
	  -DVM_TRACE=$$(HW_TRACE) -DVM_TRACE_FST=$$(HW_TRACE) \
	  -I$(HW_VB)/$(1)/obj -DHW_SHIM_NAME=$(2) -DHW_SHIM_DEF='"$(call hw_tech,$(2))/$(2).def"' \
	  -DHW_SHIM_VARIANT=$(5) -DHW_VTOP=V$(2)$(5) -DHW_VTOP_H='"V$(2)$(5).h"' \
	  -DHW_VROOT_H='"V$(2)$(5)___024root.h"' \
	  -DHW_RTL_PARAMS="$$$$($(HW_VB)/$(1)/gen cparams $(4))" \
	  -DHW_RTL_NPARAMS=$$$$($(HW_VB)/$(1)/gen nparams) \
	  -DHW_RTL_BUILD='"verilator $$(HW_VFLAGS) $(3)"' -c $$< -o $$@
endef
$(foreach u,$(HW_UNITS),$(eval $(call hw_unit_rules,$(u),$(u),,$$(HW_PARAMS_$(u)),)))
$(foreach u,$(HW_BROKEN_UNITS),$(eval $(call hw_unit_rules,$(u)-broken,$(u),+define+BROKEN_FOR_TEST,$$(HW_PARAMS_$(u)),)))
# The broken variants serve the lockstep self-tests only, which stop at the fault's first
# firing (a few hundred to a few thousand cycles): their models are compiled unoptimized
# (larf_amt's in 30 s instead of three minutes at -O2, on CI's critical path).
HW_BROKEN_CXXOPT ?= -O0
$(foreach u,$(HW_BROKEN_UNITS),$(HW_VB)/$(u)-broken/obj/V$(u)__ALL.a): HW_CXXOPT = $(HW_BROKEN_CXXOPT)
$(foreach u,$(HW_UNITS),$(foreach v,$(call hw_variants,$(u)),\
  $(eval $(call hw_unit_rules,$(u)_$(v),$(u),,$(call hw_variant_params,$(u),$(v)),_$(v)))))

hw-libs: $(call hw_rtl_objs,$(HW_UNITS) $(HW_VARIANT_BUILDS)) $(HW_B)/libverilated.a $(HW_B)/libfst.a

# ---- unit tests: tests/test_hw_<name>.c ----
# test_hw_<unit> links <unit>'s RTL; others say which with HW_TEST_UNITS_<test>.
HW_TEST_SRC := $(sort $(wildcard tests/test_hw_*.c))
HW_TESTS    := $(HW_TEST_SRC:tests/%.c=$(BUILD)/tests/%)
HW_TEST_UNITS_test_hw_port  := wm_wlbuf-broken
HW_TEST_UNITS_test_hw_larf_broken := larf_amt-broken larf_mc-broken larf_wmerge-broken
HW_TEST_UNITS_test_hw_synth :=
HW_TEST_UNITS_test_hw_fr_broken := $(patsubst %,%-broken,$(filter fr_%,$(HW_BROKEN_UNITS)))
HW_TEST_UNITS_test_hw_fr_switch := $(call hw_units_of,finereg)
hw_test_units = $(if $(filter undefined,$(origin HW_TEST_UNITS_$(1))),$(call hw_with_variants,$(filter $(1:test_hw_%=%),$(HW_UNITS))),$(HW_TEST_UNITS_$(1)))

define hw_test_rules
$(BUILD)/tests/$(1): $(HW_B)/obj/tests/$(1).o $(HW_C_OBJ) $(call hw_rtl_objs,$(call hw_test_units,$(1))) \
                     $(HW_B)/libfst.a $(if $(call hw_test_units,$(1)),$(HW_B)/libverilated.a)
	@mkdir -p $$(dir $$@)
	$$(HW_CXX) $$(SAN_FLAGS) $(HW_B)/obj/tests/$(1).o $$(HW_C_OBJ) $(call hw_rtl_objs,$(call hw_test_units,$(1))) \
	  $(if $(call hw_test_units,$(1)),$$(HW_RTL_LIBS),$$(HW_C_LIBS) -lm) -lcmocka -o $$@
endef
$(foreach t,$(HW_TEST_SRC:tests/%.c=%),$(eval $(call hw_test_rules,$(t))))

# the flop-count checks read the synthesis reports of the workload buffer, sharing and FineReg
# units
$(BUILD)/tests/test_hw_synth: $(BUILD)/synth/wm_wlbuf.json $(BUILD)/synth/rs_share.json \
                              $(BUILD)/synth/sp_share.json \
                              $(foreach u,$(call hw_units_of,finereg),$(BUILD)/synth/$(u).json)

hw-tests: $(HW_TESTS)
hw-test: $(HW_TESTS)
	@mkdir -p $(HW_B)/wave
	@fail=0; for t in $(HW_TESTS); do echo "== $$t"; $$t || fail=1; done; exit $$fail

# ---- lint ----
lint-rtl: $(foreach u,$(HW_UNITS),$(HW_B)/$(u)/gen)
	@set -e; for u in $(HW_UNITS); do \
	  t=$$(dirname $$(ls csim/hw/*/$$u.def)); t=$${t#csim/hw/}; \
	  echo "lint $$u (rtl/$$t)"; \
	  $(HW_VERILATOR) --lint-only -Wall --top-module $$u -y rtl/$$t rtl/$$t/$$u.v; \
	  $(HW_VERILATOR) --lint-only -Wall --top-module $$u -y rtl/$$t rtl/$$t/$$u.v \
	    $$($(HW_B)/$$u/gen vflags); \
	  iverilog -g2005 -Wall -y rtl/$$t -s $$u -o $(HW_B)/$$u/lint.vvp rtl/$$t/$$u.v \
	    2> $(HW_B)/$$u/iverilog.log; \
	  if [ -s $(HW_B)/$$u/iverilog.log ]; then cat $(HW_B)/$$u/iverilog.log; exit 1; fi; \
	  bash synth/ports.sh $$u rtl/$$t $(HW_B)/$$u/gen $(HW_B)/$$u; \
	  $(HW_B)/$$u/gen gtkw | cmp -s - rtl/$$t/$$u.gtkw || \
	    { echo "rtl/$$t/$$u.gtkw is stale: run make hw-gtkw"; exit 1; }; \
	done; echo "lint-rtl: $(words $(HW_UNITS)) units clean"

hw-gtkw: $(foreach u,$(HW_UNITS),$(HW_B)/$(u)/gen)
	@for u in $(HW_UNITS); do t=$$(dirname $$(ls csim/hw/*/$$u.def)); t=$${t#csim/hw/}; \
	  $(HW_B)/$$u/gen gtkw > rtl/$$t/$$u.gtkw && echo "wrote rtl/$$t/$$u.gtkw"; done

# ---- synthesis ----
# Extra Yosys `synth` flags per unit. larf_amt: a 200-entry CAM; its 200 copies of the entry
# logic are all active at once, so the SAT-based `share` pass can merge nothing and only costs
# time.
HW_SYNTH_FLAGS_larf_amt := -noshare
# The ABC script of the liberty mapping, per unit, when Yosys's default will not do ({D}: the
# clock period). larf_amt's 200 k generic gates keep the default script's &dch busy for about
# 14 minutes; dc2 and a delay-targeted map take 41 s and gave a smaller netlist (README, LARF
# section). The unit's report and summary row name the script.
HW_SYNTH_ABC_larf_amt := strash; dc2; dretime; map {D}; buffer; upsize {D}; dnsize {D}; stime -p
# Techniques synthesized: every technique folder but the machinery's self-test.
HW_SYNTH_TECHS := $(filter-out selftest,$(HW_TECHS))
HW_SYNTH_UNITS := $(foreach t,$(HW_SYNTH_TECHS),$(call hw_units_of,$(t)))
HW_SYNTH_SH    := synth/synth.sh synth/technique.sh synth/summary.sh synth/reference.txt
# rewritten only when the liberty or the clock changes, so reports stay cached
$(BUILD)/synth/config.txt: FORCE
	@mkdir -p $(dir $@)
	@echo "$(LIBERTY) $(SYNTH_MHZ)" > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
define hw_synth_rules
$(BUILD)/synth/$(1).json: $(HW_B)/$(1)/params.txt $(wildcard rtl/$(call hw_tech,$(1))/*.v) \
                          $(BUILD)/synth/config.txt $(HW_SYNTH_SH)
	@SYNTH_FLAGS='$$(HW_SYNTH_FLAGS_$(1))' SYNTH_ABC_SCRIPT='$$(HW_SYNTH_ABC_$(1))' \
	  bash synth/synth.sh $(1) rtl/$(call hw_tech,$(1)) $(HW_B)/$(1)/gen $(BUILD)/synth \
	  "$$(LIBERTY)" $$(SYNTH_MHZ) $$(HW_PARAMS_$(1))
endef
$(foreach u,$(HW_SYNTH_UNITS),$(eval $(call hw_synth_rules,$(u))))

$(BUILD)/synth/summary.txt: $(foreach u,$(HW_SYNTH_UNITS),$(BUILD)/synth/$(u).json) $(HW_SYNTH_SH)
	@for t in $(HW_SYNTH_TECHS); do bash synth/technique.sh $$t $(BUILD)/synth; done && \
	bash synth/summary.sh $(BUILD)/synth synth/reference.txt $(HW_SYNTH_TECHS) > $@.tmp
	@mv $@.tmp $@

synth: $(BUILD)/synth/summary.txt
	@cat $<

# ---- cost of the RTL step, with and without tracing ----
hw-bench: $(BUILD)/tests/test_hw_wm_check
	@HW_BENCH=1 $(BUILD)/tests/test_hw_wm_check

hw-clean:
	rm -rf $(HW_B) $(BUILD)/synth $(HW_TESTS)

-include $(shell find $(HW_B)/obj -name '*.d' 2>/dev/null)
