// Generic extern "C" shim over one Verilated unit. Nothing in here is written per signal: the
// unit's descriptor (an X-macro file) is expanded into the input, output and state copies.
// hw.mk compiles this file once per unit (build/hw/<unit>/shim.o) with:
//   -DHW_SHIM_NAME=<unit>  -DHW_SHIM_DEF='"<tech>/<unit>.def"'  -DHW_SHIM_VARIANT=[_<v>]
//   -DHW_VTOP=V<unit>[_<v>]  -DHW_VTOP_H='"V<unit>[_<v>].h"'  -DHW_VROOT_H='"V..___024root.h"'
//   -DHW_RTL_PARAMS='{...}' -DHW_RTL_NPARAMS=n  -DHW_RTL_BUILD='"..."'
// and exports  const hw_rtl_ops *hw_rtl_<unit>[_<v>](void)  (a variant <v>, another parameter
// set of the same unit, is Verilated under its own class prefix so both can be linked).
// Timing (see unit.h): inputs are applied with clk_i low, then clk_i rises; outputs and state
// are read after the edge. The FST, when asked for, is written to <path>.partial and renamed
// when the model is destroyed.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif

#include HW_VTOP_H
#include HW_VROOT_H

#define HW_UNIT_NAME HW_SHIM_NAME
#define HW_UNIT_DEF HW_SHIM_DEF
#include "unit_types.h"
#define HW_UNIT_DEF HW_SHIM_DEF  // unit_types.h undefined it; the expansions below read it

#define HW_S_(suffix) HW_CAT(HW_SHIM_NAME, suffix)

namespace {

// A port declared wide (HW_*W, uint32_t words) is a VlWide only when its width under the
// Verilated parameters exceeds 64 bits; under others (the paper's 8 CTA slots) Verilator makes
// it a CData..QData scalar, which the plain overloads below carry word by word.
template <typename T> inline void put(T &dst, uint64_t v) { dst = static_cast<T>(v); }
template <std::size_t N> inline void putw(VlWide<N> &dst, const uint32_t *src, unsigned words) {
  for (std::size_t i = 0; i < N; i++) dst[i] = i < words ? src[i] : 0;
}
template <typename T> inline void putw(T &dst, const uint32_t *src, unsigned words) {
  uint64_t v = words > 0 ? src[0] : 0;
  if (words > 1) v |= static_cast<uint64_t>(src[1]) << 32;
  dst = static_cast<T>(v);
}
template <typename T> inline uint64_t get(const T &src) { return static_cast<uint64_t>(src); }
template <std::size_t N> inline void getw(const VlWide<N> &src, uint32_t *dst, unsigned words) {
  for (std::size_t i = 0; i < words; i++) dst[i] = i < N ? src[i] : 0;
}
template <typename T> inline void getw(const T &src, uint32_t *dst, unsigned words) {
  const uint64_t v = static_cast<uint64_t>(src);
  for (unsigned i = 0; i < words; i++) dst[i] = i < 2 ? static_cast<uint32_t>(v >> (32 * i)) : 0;
}
// ---- memories (HW_MEM): reg [W-1:0] name [0:D-1] /*verilator public_flat_rd*/, W <= 64 ----
template <typename T, std::size_t N>
inline void getm(const VlUnpacked<T, N> &src, uint64_t *dst, unsigned max_depth) {
  for (std::size_t i = 0; i < max_depth; i++) dst[i] = i < N ? static_cast<uint64_t>(src[i]) : 0;
}
// ---- end memories ----

struct Model {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<HW_VTOP> top;
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> fst;
#endif
  std::string path, tmp;
};

void set_inputs(Model *m, const HW_S_(_in) * in) {
  HW_VTOP &t = *m->top;
  (void)t;
  (void)in;
#define HW_IN(n, w) put(t.n, in->n);
#define HW_INW(n, w, mw) putw(t.n, in->n, HW_WORDS(mw));
#include "unit_def_expand.h"
}

void zero_inputs(Model *m) {
  HW_S_(_in) z;
  std::memset(&z, 0, sizeof z);
  set_inputs(m, &z);
}

void get_outputs(Model *m, HW_S_(_out) * out, HW_S_(_state) * st) {
  HW_VTOP &t = *m->top;
  (void)t;
  (void)out;
  (void)st;
#define HW_OUT(n, w) out->n = get(t.n);
#define HW_OUTW(n, w, mw) getw(t.n, out->n, HW_WORDS(mw));
#define HW_STATE(n, w) st->n = get(t.rootp->HW_CAT3(HW_SHIM_NAME, __DOT__, n));
#define HW_STATEW(n, w, mw) getw(t.rootp->HW_CAT3(HW_SHIM_NAME, __DOT__, n), st->n, HW_WORDS(mw));
// ---- memories (HW_MEM) ----
#define HW_MEM(n, w, d, md) getm(t.rootp->HW_CAT3(HW_SHIM_NAME, __DOT__, n), st->n, (md));
// ---- end memories ----
#include "unit_def_expand.h"
}

void dump(Model *m, int64_t t) {
#if VM_TRACE
  if (m->fst && t >= 0) m->fst->dump(static_cast<uint64_t>(t));
#else
  (void)m;
  (void)t;
#endif
}

void *create(const char *inst, const char *fst_path, char *err, size_t errlen) {
  (void)inst;
  Model *m = new (std::nothrow) Model;
  if (!m) {
    std::snprintf(err, errlen, "out of memory");
    return nullptr;
  }
  m->ctx.reset(new VerilatedContext);
  m->ctx->debug(0);
  m->ctx->randReset(0);
  if (fst_path) m->ctx->traceEverOn(true);
  m->top.reset(new HW_VTOP(m->ctx.get(), "TOP"));
  if (fst_path) {
#if !VM_TRACE
    std::snprintf(err, errlen, "model built without --trace-fst (HW_TRACE=0): no waveform");
    delete m;
    return nullptr;
#else
    m->path = fst_path;
    m->tmp = m->path + ".partial";
    FILE *probe = std::fopen(m->tmp.c_str(), "wb");
    if (!probe) {
      std::snprintf(err, errlen, "cannot create %s", m->tmp.c_str());
      delete m;
      return nullptr;
    }
    std::fclose(probe);
    m->fst.reset(new VerilatedFstC);
    m->top->trace(m->fst.get(), 99);
    m->fst->open(m->tmp.c_str());
#endif
  }
  return m;
}

void destroy(void *p) {
  Model *m = static_cast<Model *>(p);
  m->top->final();
#if VM_TRACE
  if (m->fst) {
    m->fst->close();
    if (std::rename(m->tmp.c_str(), m->path.c_str()) != 0) std::remove(m->tmp.c_str());
  }
#endif
  delete m;
}

void reset(void *p, void *out, void *state, int64_t t) {
  Model *m = static_cast<Model *>(p);
  HW_VTOP &top = *m->top;
  zero_inputs(m);
  top.clk_i = 0;
  top.rst_ni = 1;
  top.eval();
  top.rst_ni = 0;  // asynchronous assertion
  top.eval();
  dump(m, t);
  top.clk_i = 1;
  top.eval();
  top.rst_ni = 1;
  top.eval();
  dump(m, t < 0 ? t : t + 500);
  get_outputs(m, static_cast<HW_S_(_out) *>(out), static_cast<HW_S_(_state) *>(state));
}

void step(void *p, const void *in, void *out, void *state, int64_t t) {
  Model *m = static_cast<Model *>(p);
  HW_VTOP &top = *m->top;
  set_inputs(m, static_cast<const HW_S_(_in) *>(in));
  top.clk_i = 0;
  top.eval();
  dump(m, t);
  top.clk_i = 1;
  top.eval();
  dump(m, t < 0 ? t : t + 500);
  get_outputs(m, static_cast<HW_S_(_out) *>(out), static_cast<HW_S_(_state) *>(state));
}

const int64_t built_params[] = HW_RTL_PARAMS;

const hw_rtl_ops ops = {
    built_params,
    HW_RTL_NPARAMS,
    HW_RTL_BUILD,
    VM_TRACE,
    create,
    destroy,
    reset,
    step,
};

}  // namespace

#ifndef HW_SHIM_VARIANT
#define HW_SHIM_VARIANT
#endif
extern "C" const hw_rtl_ops *HW_CAT3(hw_rtl_, HW_SHIM_NAME, HW_SHIM_VARIANT)(void) { return &ops; }
