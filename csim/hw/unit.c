/* Generic unit port: instances, modes, lockstep comparison and tracing (see unit.h). */
#include "unit.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HW_INST_MAX 128

struct hw_unit {
  const hw_unit_desc *desc;
  char inst[HW_INST_MAX];
  hw_mode mode;
  int64_t params[HW_MAX_PARAMS];
  unsigned *width;          /* per port */
  unsigned *depth;          /* per port: entries of a memory, else 0 */
  void *in;                 /* masked copy of the inputs */
  unsigned char *in_mask;   /* per byte of the inputs: its port's bits within the port's width,
                               0 in padding (a step ANDs the inputs with it at once) */
  void *ref_state, *ref_out;
  void *rtl_state, *rtl_out;
  const hw_rtl_ops *rtl;
  void *model;
  char *rtl_wave;           /* the Verilated model's own FST, or NULL */
  hw_wave *wave;
  int *wh;                  /* per port: wave handle (port value) */
  int *wh_ref;              /* per port: wave handle of the C reference's value (lockstep) */
                            /* (a memory: the handle of entry 0; entry k is handle + k) */
};

int hw_mode_parse(const char *s, hw_mode *mode) {
  if (strcmp(s, "c") == 0) *mode = HW_C;
  else if (strcmp(s, "rtl") == 0) *mode = HW_RTL;
  else if (strcmp(s, "lockstep") == 0) *mode = HW_LOCKSTEP;
  else return -1;
  return 0;
}

const char *hw_mode_name(hw_mode mode) {
  return mode == HW_C ? "c" : mode == HW_RTL ? "rtl" : "lockstep";
}

void hw_params_default(const hw_unit_desc *desc, int64_t *p) {
  for (unsigned i = 0; i < desc->nparams; i++) p[i] = desc->params[i].dflt;
}

int hw_param_index(const hw_unit_desc *desc, const char *name) {
  for (unsigned i = 0; i < desc->nparams; i++)
    if (strcmp(desc->params[i].name, name) == 0) return (int)i;
  return -1;
}

int hw_param_set(const hw_unit_desc *desc, int64_t *p, const char *name, int64_t value,
                 rf_diag *d) {
  int i = hw_param_index(desc, name);
  if (i < 0) return rf_fail(d, "unit %s: no parameter named %s", desc->name, name);
  p[i] = value;
  return 0;
}

uint64_t hw_field_get(const hw_port_desc *port, const void *base) {
  const char *b = (const char *)base + port->offset;
  if (!port->words) {
    uint64_t v;
    memcpy(&v, b, sizeof v);
    return v;
  }
  uint32_t w[2] = {0, 0};
  memcpy(w, b, (port->words > 1 ? 2 : 1) * sizeof(uint32_t));
  return (uint64_t)w[0] | ((uint64_t)w[1] << 32);
}

void hw_field_set(const hw_port_desc *port, void *base, uint64_t v) {
  char *b = (char *)base + port->offset;
  if (!port->words) {
    memcpy(b, &v, sizeof v);
    return;
  }
  uint32_t *w = (uint32_t *)(void *)b;
  for (unsigned i = 0; i < port->words; i++)
    w[i] = i == 0 ? (uint32_t)v : i == 1 ? (uint32_t)(v >> 32) : 0;
}

/* Masks a field in place to width bits. */
static void field_mask(const hw_port_desc *port, void *base, unsigned width) {
  char *b = (char *)base + port->offset;
  if (!port->words) {
    uint64_t v;
    memcpy(&v, b, sizeof v);
    if (width < 64) v &= ((uint64_t)1 << width) - 1;
    memcpy(b, &v, sizeof v);
    return;
  }
  uint32_t *w = (uint32_t *)(void *)b;
  for (unsigned i = 0; i < port->words; i++) {
    unsigned lo = i * 32;
    if (lo >= width) w[i] = 0;
    else if (width - lo < 32) w[i] &= ((uint32_t)1 << (width - lo)) - 1;
  }
}

static int field_equal(const hw_port_desc *port, const void *a, const void *b, unsigned width) {
  const char *pa = (const char *)a + port->offset, *pb = (const char *)b + port->offset;
  if (!port->words) {
    uint64_t x, y;
    memcpy(&x, pa, sizeof x);
    memcpy(&y, pb, sizeof y);
    uint64_t m = width < 64 ? ((uint64_t)1 << width) - 1 : ~(uint64_t)0;
    return ((x ^ y) & m) == 0;
  }
  for (unsigned i = 0; i < port->words; i++) {
    uint32_t x, y;
    memcpy(&x, pa + 4 * i, 4);
    memcpy(&y, pb + 4 * i, 4);
    unsigned lo = i * 32;
    if (lo >= width) break;
    uint32_t m = width - lo < 32 ? ((uint32_t)1 << (width - lo)) - 1 : ~(uint32_t)0;
    if ((x ^ y) & m) return 0;
  }
  return 1;
}

const char *hw_field_hex(const hw_port_desc *port, const void *base, unsigned width, char *buf,
                         size_t len) {
  const char *b = (const char *)base + port->offset;
  if (!port->words) {
    uint64_t v;
    memcpy(&v, b, sizeof v);
    if (width < 64) v &= ((uint64_t)1 << width) - 1;
    snprintf(buf, len, "0x%" PRIx64, v);
    return buf;
  }
  size_t pos = (size_t)snprintf(buf, len, "0x");
  int leading = 1;
  for (int i = (int)port->words - 1; i >= 0; i--) {
    uint32_t x;
    memcpy(&x, b + 4 * i, 4);
    unsigned lo = (unsigned)i * 32;
    if (lo >= width) continue;
    if (width - lo < 32) x &= ((uint32_t)1 << (width - lo)) - 1;
    if (leading && x == 0 && i > 0) continue;
    if (pos < len)
      pos += (size_t)snprintf(buf + pos, len - pos, leading ? "%" PRIx32 : "%08" PRIx32, x);
    leading = 0;
  }
  return buf;
}

static void trace_fields(hw_unit *u, const int *handles, hw_dir dir, const void *base) {
  const hw_unit_desc *desc = u->desc;
  for (unsigned i = 0; i < desc->nports; i++) {
    const hw_port_desc *p = &desc->ports[i];
    if (p->dir != dir || handles[i] < 0) continue;
    if (p->dir == HW_DIR_MEM) {
      const uint64_t *m = (const uint64_t *)(const void *)((const char *)base + p->offset);
      for (unsigned k = 0; k < u->depth[i]; k++) wave_set(u->wave, handles[i] + (int)k, m[k]);
      continue;
    }
    if (p->words)
      wave_set_words(u->wave, handles[i],
                     (const uint32_t *)(const void *)((const char *)base + p->offset));
    else
      wave_set(u->wave, handles[i], hw_field_get(p, base));
  }
}

/* Every field is set each traced step, so steps outside the window can be skipped. */
static void trace_all(hw_unit *u, uint64_t cycle, const void *out, const void *state) {
  if (!wave_in_window(u->wave, cycle)) return;
  trace_fields(u, u->wh, HW_DIR_IN, u->in);
  trace_fields(u, u->wh, HW_DIR_OUT, out);
  trace_fields(u, u->wh, HW_DIR_STATE, state);
  trace_fields(u, u->wh, HW_DIR_MEM, state);
  if (u->mode == HW_LOCKSTEP) {
    trace_fields(u, u->wh_ref, HW_DIR_OUT, u->ref_out);
    trace_fields(u, u->wh_ref, HW_DIR_STATE, u->ref_state);
    trace_fields(u, u->wh_ref, HW_DIR_MEM, u->ref_state);
  }
}

static int64_t rtl_time(const hw_unit *u, uint64_t cycle) {
  if (!u->rtl_wave || !wave_in_window(u->wave, cycle)) return -1;
  return (int64_t)(cycle * 1000);
}

/* The waveform part of a mismatch message (after flushing the failing cycle). */
static const char *mismatch_wave(hw_unit *u, uint64_t cycle, char *wv, size_t len) {
  if (u->wave) {
    wave_tick(u->wave, cycle);
    wave_flush(u->wave);
  }
  if (u->wave && u->rtl_wave)
    snprintf(wv, len, "%s (RTL internals: %s)", wave_path(u->wave), u->rtl_wave);
  else
    snprintf(wv, len, "%s", u->wave ? wave_path(u->wave) : "none");
  return wv;
}

/* ---- memories (HW_MEM): compared entry by entry after the flops ---- */
static int compare_mems(hw_unit *u, uint64_t cycle, rf_diag *d) {
  const hw_unit_desc *desc = u->desc;
  for (unsigned i = 0; i < desc->nports; i++) {
    const hw_port_desc *p = &desc->ports[i];
    if (p->dir != HW_DIR_MEM) continue;
    const uint64_t *ref = (const uint64_t *)(const void *)((const char *)u->ref_state + p->offset);
    const uint64_t *act = (const uint64_t *)(const void *)((const char *)u->rtl_state + p->offset);
    uint64_t m = u->width[i] < 64 ? ((uint64_t)1 << u->width[i]) - 1 : ~(uint64_t)0;
    for (unsigned k = 0; k < u->depth[i]; k++) {
      if (((ref[k] ^ act[k]) & m) == 0) continue;
      char wv[600];
      return rf_fail(d,
                     "cycle %" PRIu64 ": unit %s: field %s[%u]: expected (C reference) 0x%" PRIx64
                     ", actual (RTL) 0x%" PRIx64 "; waveform: %s",
                     cycle, u->inst, p->name, k, ref[k] & m, act[k] & m,
                     mismatch_wave(u, cycle, wv, sizeof wv));
    }
  }
  return 0;
}

/* Compares outputs, then state, then memories; on the first difference fills d and returns
 * -1. */
static int compare(hw_unit *u, uint64_t cycle, rf_diag *d) {
  const hw_unit_desc *desc = u->desc;
  for (int pass = 0; pass < 2; pass++) {
    hw_dir dir = pass == 0 ? HW_DIR_OUT : HW_DIR_STATE;
    const void *ref = pass == 0 ? u->ref_out : u->ref_state;
    const void *act = pass == 0 ? u->rtl_out : u->rtl_state;
    for (unsigned i = 0; i < desc->nports; i++) {
      const hw_port_desc *p = &desc->ports[i];
      if (p->dir != dir || field_equal(p, ref, act, u->width[i])) continue;
      char xs[1100], ys[1100];
      hw_field_hex(p, ref, u->width[i], xs, sizeof xs);
      hw_field_hex(p, act, u->width[i], ys, sizeof ys);
      char wv[600];
      mismatch_wave(u, cycle, wv, sizeof wv);
      return rf_fail(d,
                     "cycle %" PRIu64 ": unit %s: field %s: expected (C reference) %s, "
                     "actual (RTL) %s; waveform: %s",
                     cycle, u->inst, p->name, xs, ys, wv);
    }
  }
  return compare_mems(u, cycle, d);
}

/* One signal per entry, <mem>_<index> (zero-padded), in the scope <group>.<mem>; the handles
 * are consecutive from *first. */
static int add_mem_signals(hw_unit *u, unsigned i, const char *group, int *first, rf_diag *d) {
  const hw_port_desc *p = &u->desc->ports[i];
  char scope[HW_INST_MAX + 80], name[80];
  snprintf(scope, sizeof scope, "%s.%s", group, p->name);
  unsigned digits = 1;
  for (unsigned n = u->depth[i] - 1; n >= 10; n /= 10) digits++;
  for (unsigned k = 0; k < u->depth[i]; k++) {
    char num[16];
    snprintf(num, sizeof num, "%010u", k); /* depth < 2^32: at most 10 digits */
    snprintf(name, sizeof name, "%.60s_%s", p->name, num + 10 - (digits > 10 ? 10 : digits));
    int h = wave_add_signal_ex(u->wave, scope, name, u->width[i], WAVE_POST,
                               u->width[i] == 1 ? WAVE_BIN : WAVE_HEX, d);
    if (h < 0) return -1;
    if (k == 0) *first = h;
    else if (h != *first + (int)k)
      return rf_fail(d, "unit %s: memory %s: waveform handles not consecutive", u->inst, p->name);
  }
  return 0;
}

static int add_wave_signals(hw_unit *u, rf_diag *d) {
  const hw_unit_desc *desc = u->desc;
  char refgroup[HW_INST_MAX + 8];
  snprintf(refgroup, sizeof refgroup, "%s.ref", u->inst);
  for (unsigned i = 0; i < desc->nports; i++) {
    const hw_port_desc *p = &desc->ports[i];
    unsigned w = u->width[i];
    if (p->dir == HW_DIR_MEM) {
      if (add_mem_signals(u, i, u->inst, &u->wh[i], d) != 0) return -1;
      u->wh_ref[i] = -1;
      if (u->mode == HW_LOCKSTEP && add_mem_signals(u, i, refgroup, &u->wh_ref[i], d) != 0)
        return -1;
      continue;
    }
    wave_phase ph = p->dir == HW_DIR_IN ? WAVE_PRE : WAVE_POST;
    wave_fmt fmt = w == 1 ? WAVE_BIN : WAVE_HEX;
    u->wh[i] = wave_add_signal_ex(u->wave, u->inst, p->name, w, ph, fmt, d);
    if (u->wh[i] < 0) return -1;
    u->wh_ref[i] = -1;
    if (u->mode == HW_LOCKSTEP && p->dir != HW_DIR_IN) {
      u->wh_ref[i] = wave_add_signal_ex(u->wave, refgroup, p->name, w, ph, fmt, d);
      if (u->wh_ref[i] < 0) return -1;
    }
  }
  return 0;
}

static int params_equal(const hw_rtl_ops *r, const hw_unit *u) {
  if (r->nparams != u->desc->nparams) return 0;
  for (unsigned i = 0; i < r->nparams; i++)
    if (r->params[i] != u->params[i]) return 0;
  return 1;
}

/* "NAME=V NAME=V" of a parameter vector, into buf */
static void params_text(const hw_unit_desc *desc, const int64_t *p, unsigned n, char *buf,
                        size_t len) {
  size_t at = 0;
  buf[0] = 0;
  for (unsigned i = 0; i < n && i < desc->nparams && at < len; i++) {
    int k = snprintf(buf + at, len - at, "%s%s=%" PRId64, i ? " " : "", desc->params[i].name,
                     p[i]);
    if (k < 0) break;
    at += (size_t)k;
  }
}

/* The linked Verilated model (the default build or a variant) built with this instance's
 * parameters; otherwise an error listing the linked ones and how to add one. */
static int pick_rtl(hw_unit *u, rf_diag *d) {
  const hw_unit_desc *desc = u->desc;
  const hw_rtl_ops *linked[1 + 16];
  unsigned n = 0;
  if (desc->rtl && desc->rtl()) linked[n++] = desc->rtl();
  for (unsigned v = 0; v < desc->nvariants && n < sizeof linked / sizeof linked[0]; v++)
    if (desc->rtl_variants[v] && desc->rtl_variants[v]()) linked[n++] = desc->rtl_variants[v]();
  if (n == 0)
    return rf_fail(d,
                   "unit %s: -hw %s needs the Verilated RTL of %s, which is not linked into this "
                   "program (build it with hw.mk: link $(HW_RTL_LINK) or "
                   "$(call hw_rtl_link,%s))",
                   u->inst, hw_mode_name(u->mode), desc->name, desc->name);
  for (unsigned i = 0; i < n; i++)
    if (params_equal(linked[i], u)) {
      u->rtl = linked[i];
      return 0;
    }
  char want[400], have[800];
  size_t at = 0;
  params_text(desc, u->params, desc->nparams, want, sizeof want);
  have[0] = 0;
  for (unsigned i = 0; i < n && at < sizeof have; i++) {
    char one[400];
    params_text(desc, linked[i]->params, linked[i]->nparams, one, sizeof one);
    int k = snprintf(have + at, sizeof have - at, "%s(%s)", i ? ", " : "", one);
    if (k < 0) break;
    at += (size_t)k;
  }
  return rf_fail(d,
                 "unit %s: the linked RTL of %s was Verilated with %s; this run needs %s: add a "
                 "line to csim/hw/%s/%s.variants or rebuild with make HW_PARAMS_%s='%s' (or run "
                 "-hw c)",
                 u->inst, desc->name, have, want, desc->tech, desc->name, desc->name, want);
}

static int open_rtl(hw_unit *u, rf_diag *d) {
  if (pick_rtl(u, d) != 0) return -1;
  if (u->wave && u->rtl->traced) {
    const char *wp = wave_path(u->wave);
    size_t l = strlen(wp);
    size_t bl = (l > 4 && strcmp(wp + l - 4, ".fst") == 0) ? l - 4 : l;
    size_t n = bl + strlen(u->inst) + 16;
    u->rtl_wave = rf_calloc(n, 1, d);
    if (!u->rtl_wave) return -1;
    snprintf(u->rtl_wave, n, "%.*s.%s.rtl.fst", (int)bl, wp, u->inst);
  }
  char err[512] = "";
  u->model = u->rtl->create(u->inst, u->rtl_wave, err, sizeof err);
  if (!u->model) return rf_fail(d, "unit %s: cannot create the Verilated model: %s", u->inst, err);
  return 0;
}

hw_unit *hw_unit_new(const hw_unit_desc *desc, const char *inst, hw_mode mode,
                     const int64_t *params, hw_wave *wave, rf_diag *d) {
  if (desc->nparams > HW_MAX_PARAMS) {
    rf_fail(d, "unit %s: %u parameters, at most %d", desc->name, desc->nparams, HW_MAX_PARAMS);
    return NULL;
  }
  if (!inst) inst = desc->name;
  if (strlen(inst) >= HW_INST_MAX) {
    rf_fail(d, "unit %s: instance name longer than %d characters", desc->name, HW_INST_MAX - 1);
    return NULL;
  }
  hw_unit *u = rf_calloc(1, sizeof *u, d);
  if (!u) return NULL;
  u->desc = desc;
  u->mode = mode;
  u->wave = wave;
  snprintf(u->inst, sizeof u->inst, "%s", inst);
  if (params) memcpy(u->params, params, desc->nparams * sizeof *params);
  else hw_params_default(desc, u->params);
  u->width = rf_calloc(desc->nports + 1, sizeof *u->width, d);
  u->depth = rf_calloc(desc->nports + 1, sizeof *u->depth, d);
  u->wh = rf_calloc(desc->nports + 1, sizeof *u->wh, d);
  u->wh_ref = rf_calloc(desc->nports + 1, sizeof *u->wh_ref, d);
  u->in = rf_calloc(1, desc->in_size, d);
  u->in_mask = rf_calloc(1, desc->in_size, d);
  u->ref_state = rf_calloc(1, desc->state_size, d);
  u->ref_out = rf_calloc(1, desc->out_size, d);
  u->rtl_state = rf_calloc(1, desc->state_size, d);
  u->rtl_out = rf_calloc(1, desc->out_size, d);
  if (!u->width || !u->depth || !u->wh || !u->wh_ref || !u->in || !u->in_mask || !u->ref_state ||
      !u->ref_out || !u->rtl_state || !u->rtl_out)
    goto fail;
  for (unsigned i = 0; i < desc->nports; i++) {
    const hw_port_desc *p = &desc->ports[i];
    u->width[i] = desc->width(i, u->params);
    unsigned cap = p->words ? 32 * p->words : 64;
    if (u->width[i] < 1 || u->width[i] > cap) {
      rf_fail(d, "unit %s: port %s has width %u under these parameters, expected 1..%u",
              desc->name, p->name, u->width[i], cap);
      goto fail;
    }
    if (p->dir == HW_DIR_IN) { /* (all ones, masked to its width as its values are) */
      memset(u->in_mask + p->offset, 0xff, p->words ? 4 * (size_t)p->words : sizeof(uint64_t));
      field_mask(p, u->in_mask, u->width[i]);
    }
    if (p->dir == HW_DIR_MEM) {
      u->depth[i] = desc->depth(i, u->params);
      if (u->depth[i] < 1 || u->depth[i] > p->mem_max) {
        rf_fail(d, "unit %s: memory %s has %u entries under these parameters, expected 1..%u",
                desc->name, p->name, u->depth[i], p->mem_max);
        goto fail;
      }
    }
  }
  if (mode != HW_C && open_rtl(u, d) != 0) goto fail;
  if (wave && add_wave_signals(u, d) != 0) goto fail;
  if (hw_unit_reset(u, 0, NULL, d) != 0) goto fail;
  return u;
fail:
  hw_unit_free(u);
  return NULL;
}

void hw_unit_free(hw_unit *u) {
  if (!u) return;
  if (u->model) u->rtl->destroy(u->model);
  free(u->rtl_wave);
  free(u->width);
  free(u->depth);
  free(u->wh);
  free(u->wh_ref);
  free(u->in);
  free(u->in_mask);
  free(u->ref_state);
  free(u->ref_out);
  free(u->rtl_state);
  free(u->rtl_out);
  free(u);
}

int hw_unit_reset(hw_unit *u, uint64_t cycle, void *out, rf_diag *d) {
  const hw_unit_desc *desc = u->desc;
  memset(u->in, 0, desc->in_size);
  if (u->mode != HW_RTL) desc->ref_reset(u->ref_state, u->ref_out, u->params);
  if (u->mode != HW_C) u->rtl->reset(u->model, u->rtl_out, u->rtl_state, rtl_time(u, cycle));
  const void *o = u->mode == HW_C ? u->ref_out : u->rtl_out;
  const void *s = u->mode == HW_C ? u->ref_state : u->rtl_state;
  trace_all(u, cycle, o, s);
  if (out) memcpy(out, o, desc->out_size);
  if (u->mode == HW_LOCKSTEP) return compare(u, cycle, d);
  return 0;
}

int hw_unit_step(hw_unit *u, uint64_t cycle, const void *in, void *out, rf_diag *d) {
  const hw_unit_desc *desc = u->desc;
  /* every input port masked to its width (field_mask, done once to all ones: in_mask) */
  const unsigned char *src = in, *mask = u->in_mask;
  unsigned char *dst = u->in;
  for (size_t i = 0, n = desc->in_size; i < n; i++) dst[i] = src[i] & mask[i];
  int rc = 0;
  switch (u->mode) {
  case HW_C:
    desc->ref_step(u->ref_state, u->in, u->ref_out, u->params);
    memcpy(out, u->ref_out, desc->out_size);
    trace_all(u, cycle, u->ref_out, u->ref_state);
    break;
  case HW_RTL:
    u->rtl->step(u->model, u->in, u->rtl_out, u->rtl_state, rtl_time(u, cycle));
    memcpy(out, u->rtl_out, desc->out_size);
    trace_all(u, cycle, u->rtl_out, u->rtl_state);
    break;
  case HW_LOCKSTEP:
    desc->ref_step(u->ref_state, u->in, u->ref_out, u->params);
    u->rtl->step(u->model, u->in, u->rtl_out, u->rtl_state, rtl_time(u, cycle));
    memcpy(out, u->rtl_out, desc->out_size);
    trace_all(u, cycle, u->rtl_out, u->rtl_state);
    rc = compare(u, cycle, d);
    break;
  }
  return rc;
}

const hw_unit_desc *hw_unit_desc_of(const hw_unit *u) { return u->desc; }
const char *hw_unit_inst(const hw_unit *u) { return u->inst; }
hw_mode hw_unit_mode(const hw_unit *u) { return u->mode; }
const int64_t *hw_unit_params(const hw_unit *u) { return u->params; }
unsigned hw_unit_width(const hw_unit *u, unsigned port) {
  return port < u->desc->nports ? u->width[port] : 0;
}
unsigned hw_unit_depth(const hw_unit *u, unsigned port) {
  return port < u->desc->nports ? u->depth[port] : 0;
}
const void *hw_unit_state(const hw_unit *u) {
  return u->mode == HW_C ? u->ref_state : u->rtl_state;
}
const char *hw_unit_rtl_wave(const hw_unit *u) { return u->rtl_wave; }
