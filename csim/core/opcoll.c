/* Operand collectors: pipeline registers ID_OC and OC_EX, collector-unit sets, input ports and
 * dispatch ports, stepped as GPGPU-Sim's opndcoll_rfu_t::step (opcoll.h). */
#include <stdlib.h>
#include <string.h>

#include "../common/bits.h"
#include "opcoll.h"

typedef struct oc_reg {  /* a pipeline register set (GPGPU-Sim's register_set) */
  oc_inst *slot;
  uint64_t valid;        /* bit i: slot i holds an instruction (widths are at most 64) */
  int width, used;
  /* ID_OC: the slot of the oldest instruction while any (an instruction issued into a register
   * that holds some is younger than all of them, and allocation takes only the oldest) */
  int oldest;
} oc_reg;

typedef struct oc_cu {     /* a collector unit; whether it is busy is its set's bit */
  uint8_t out_cls;       /* OC_EX register it dispatches into */
  uint8_t next_start;    /* where its set's dispatch port starts after sending it (start_after,
                          * worked out once: a division per dispatch otherwise) */
  int remaining;         /* source reads not yet served */
  int reg_id;            /* sub-core model: the scheduler it serves */
  int set;               /* its set */
  oc_inst in;
} oc_cu;

typedef struct oc_set {
  int first, n, per_sched;
  /* Bit per unit of the set (at most 64): busy; busy with all operands read (dispatch looks
   * only at these). */
  uint64_t busy, collected;
  /* Sub-core model only: busy units with room in their OC_EX slot, and busy units per
   * pipeline they send into (room_changed). */
  uint64_t room, of_cls[UNIT_COUNT];
  const uint64_t *units_of; /* per scheduler: sched_units (its row of the collector's table) */
} oc_set;

typedef struct oc_dispatch {
  int set;
  int start; /* the unit its round robin tries first: after the one it sent last (sub-core:
                the first of the next scheduler's units) */
} oc_dispatch;

typedef struct oc_port {
  int n_in;
  uint32_t cls_mask;     /* bit per pipeline in in_cls */
  uint8_t in_cls[UNIT_COUNT];
  int nsets;
  uint8_t sets[2];
  int sig;               /* names the set list: ports with equal sig search the same units */
  int run_end;           /* the first later port without this one's sig and pipelines */
  /* Per mask of pipelines, the first of them in in_cls order (shared along a run), so that
   * allocation goes through the pipelines with work in the port's order without looking at
   * the others. */
  const uint8_t *first_of;
} oc_port;

struct opcoll {
  int sub_core, nsched, throughput;
  oc_reg id_oc[UNIT_COUNT], oc_ex[UNIT_COUNT];
  oc_cu *cu;
  int ncu;
  oc_set set[OC_SET_COUNT];
  oc_dispatch *disp;
  int ndisp;
  oc_port *port;
  int nport;
  rf_banks *rf;
  rf_counters *cnt;
  uint16_t *served;
  uint64_t next_uid;
  int in_id_oc, busy_cu, in_oc_ex;
  uint32_t sets_collected; /* bit per set whose `collected` is not empty */
  uint32_t sets_of_cls[UNIT_COUNT]; /* bit per set whose units may send into pipeline cls */
  uint64_t *units_of;      /* per set and scheduler: sched_units */
  uint8_t *first_tables;   /* the ports' first_of tables */
  /* Per scheduler, bit cls: its ID_OC slot of pipeline cls is taken (opcoll_issue_blocked).
   * Kept up to date when ID_OC changes, so the issue stage tests a bit per warp instead of
   * searching the register. */
  uint32_t *blocked;
  uint64_t unblocked;      /* bits of `blocked` cleared so far (opcoll_unblocked) */
  /* Bit cls: ID_OC / OC_EX of pipeline cls holds an instruction. Allocation looks only at
   * ports with work; the execute stage only at pipelines with collected instructions. */
  uint32_t id_oc_busy, oc_ex_busy;
  /* A step that found nothing to move keeps finding nothing until what it sees changes, so it
   * is not tried again until then (an allocation that fails counts its stalls again). Dispatch
   * sees the collected units and OC_EX's room (dispatch_seen bumped where they change);
   * allocation sees ID_OC and the busy units (allocate_seen). In a memory-bound phase a full
   * LD/ST queue keeps the collector so for hundreds of cycles; and the reads served and OC_EX
   * emptied while instructions wait in ID_OC for a unit change nothing allocation sees. */
  uint64_t dispatch_seen, allocate_seen, dispatch_failed, allocate_failed;
  uint64_t allocate_stalls; /* the stalls the failed allocation counted */
};

static int reg_init(oc_reg *r, int width, rf_diag *d) {
  r->width = width;
  if (width == 0) return 0;
  if (width > 64)
    return rf_fail(d, "operand collector: pipeline register width %d, at most 64", width);
  r->slot = rf_calloc((size_t)width, sizeof *r->slot, d);
  return r->slot ? 0 : -1;
}

static void reg_free(oc_reg *r) { free(r->slot); }

/* Sub-core: slot `sched` only; otherwise the lowest free slot. Returns the slot or -1. */
static inline int reg_free_slot(const oc_reg *r, int sub_core, int sched) {
  if (sub_core) return sched < r->width && !(r->valid >> sched & 1) ? sched : -1;
  if (r->used >= r->width) return -1;
  return __builtin_ctzll(~r->valid);
}

/* Field by field, not as one struct: the issue stage builds *in on the stack a field at a time,
 * and a struct copy reads it back in 16-byte loads that span several of those stores, which
 * the host cannot forward (a stall of a dozen cycles per issue); loads of the fields' own
 * sizes are forwarded, or the copy through the stack is not made at all. */
static inline void reg_put(oc_reg *r, int slot, const oc_inst *in) {
  oc_inst *to = &r->slot[slot];
  to->payload = in->payload;
  to->uid = in->uid;
  to->warp = in->warp;
  to->sched = in->sched;
  to->cls = in->cls;
  to->nsrc = in->nsrc;
  memcpy(to->src, in->src, sizeof to->src);
  r->valid |= 1ull << slot;
  r->used++;
}

static inline void reg_take(oc_reg *r, int slot) {
  r->valid &= ~(1ull << slot);
  r->used--;
}

/* Recomputes the blocked bit of pipeline cls after its ID_OC slot for scheduler sched changed:
 * in the sub-core model only that scheduler's own slot; otherwise the register is shared and
 * has a free slot while fewer than `width` are taken (reg_free_slot). */
static inline void update_blocked(opcoll *o, int cls, int sched) {
  const oc_reg *r = &o->id_oc[cls];
  uint32_t bit = 1u << cls;
  if (o->sub_core) {
    if (reg_free_slot(r, 1, sched) < 0) {
      o->blocked[sched] |= bit;
    } else if (o->blocked[sched] & bit) {
      o->blocked[sched] &= ~bit;
      o->unblocked++;
    }
    return;
  }
  int full = r->used >= r->width;
  /* (the same bit for every scheduler; most changes of the register leave it as it was) */
  if (full == !!(o->blocked[0] & bit)) return;
  if (!full) o->unblocked++;
  for (int q = 0; q < o->nsched; q++) {
    if (full) o->blocked[q] |= bit;
    else o->blocked[q] &= ~bit;
  }
}

static inline int reg_oldest(const oc_reg *r) {
  uint64_t m = r->valid;
  if (!m) return -1;
  int best = __builtin_ctzll(m);
  for (m &= m - 1; m; m &= m - 1) {
    int i = __builtin_ctzll(m);
    if (r->slot[i].uid < r->slot[best].uid) best = i;
  }
  return best;
}

/* The units of a set a unit of scheduler sched may take: in the sub-core model those that serve
 * it (unit i serves i / per_sched), otherwise all. */
static inline uint64_t sched_units(const oc_set *set, int sched) { return set->units_of[sched]; }

/* The sub-core model keeps each set's `room`: there a unit sends only into its scheduler's slot
 * of the OC_EX register, so most collected units wait for a slot another unit of theirs has
 * filled, and dispatch would look at each of them on every try (a quarter of an x240 run on
 * the TITAN V config went to the operand collector). Elsewhere a register has room for any
 * unit while it is not full, a unit seldom waits, and the few that do are looked up (keeping
 * the masks cost more than that there, +2% on the GTX 480 config). `free`: whether scheduler
 * slot's OC_EX slot of pipeline cls is free now (a pop just emptied it, a dispatch filled it). */
static inline void room_changed(opcoll *o, int cls, int slot, int free) {
  if (!o->sub_core) return;
  for (uint32_t m = o->sets_of_cls[cls]; m; m &= m - 1) {
    oc_set *set = &o->set[__builtin_ctz(m)];
    uint64_t units = set->of_cls[cls] & sched_units(set, slot);
    if (free) set->room |= units;
    else set->room &= ~units;
  }
}

/* Where a port of set s starts after sending unit `last`. */
static int start_after(const opcoll *o, int s, int last) {
  const oc_set *set = &o->set[s];
  if (set->n < 1) return 0; /* (a set without units has nothing to send) */
  int per = o->sub_core && set->per_sched > 0 ? set->per_sched : 1;
  int start = last + per - last % per;
  return start >= set->n ? start - set->n : start;
}

static int add_set(opcoll *o, int s, int n) {
  o->set[s].first = o->ncu;
  o->set[s].n = n;
  o->set[s].per_sched = o->sub_core ? n / o->nsched : n;
  o->set[s].units_of = &o->units_of[s * o->nsched];
  for (int i = 0; i < n; i++) {
    int reg_id = o->sub_core ? i / o->set[s].per_sched : 0;
    o->cu[o->ncu + i].reg_id = reg_id;
    o->cu[o->ncu + i].set = s;
    o->cu[o->ncu + i].next_start = (uint8_t)start_after(o, s, i);
    for (int q = 0; q < o->nsched; q++)
      if (!o->sub_core || q == reg_id) o->units_of[s * o->nsched + q] |= 1ull << i;
  }
  o->ncu += n;
  return 0;
}

static void add_dispatch(opcoll *o, int s, int n) {
  for (int i = 0; i < n; i++) o->disp[o->ndisp++] = (oc_dispatch){s, start_after(o, s, 0)};
}

opcoll *opcoll_create(const gpu_config *c, int max_write_ahead, rf_counters *cnt, rf_diag *d) {
  opcoll *o = rf_calloc(1, sizeof *o, d);
  if (!o) return NULL;
  o->sub_core = c->sub_core_model;
  o->nsched = c->num_sched_per_core;
  o->throughput = c->reg_file_port_throughput;
  o->cnt = cnt;
  /* (dispatch_failed and allocate_failed start at 0: never) */
  o->dispatch_seen = o->allocate_seen = 1;
  int total_cu = 0, total_disp = 0, total_ports = 0;
  for (int s = 0; s < OC_SET_COUNT; s++) {
    if (s != OC_GEN && !c->specialized_oc) continue;
    total_cu += c->oc_units[s];
    total_disp += c->oc_out_ports[s];
    total_ports += c->oc_in_ports[s];
  }
  int fail = 0;
  for (int u = 0; u < UNIT_COUNT; u++)
    if (u != UNIT_CTRL)
      fail |= reg_init(&o->id_oc[u], c->width_id_oc[u], d) |
              reg_init(&o->oc_ex[u], c->width_oc_ex[u], d);
  o->cu = rf_calloc((size_t)total_cu + 1, sizeof *o->cu, d);
  o->disp = rf_calloc((size_t)total_disp + 1, sizeof *o->disp, d);
  o->port = rf_calloc((size_t)total_ports + 1, sizeof *o->port, d);
  o->rf = rf_banks_create(c->num_reg_banks, c->reg_bank_use_warp_id, c->sub_core_model, o->nsched,
                          (total_cu + 1) * TRACE_MAX_SRC, max_write_ahead, cnt, d);
  o->served = rf_calloc((size_t)c->num_reg_banks, sizeof *o->served, d);
  o->blocked = rf_calloc((size_t)o->nsched, sizeof *o->blocked, d);
  o->units_of = rf_calloc((size_t)OC_SET_COUNT * (size_t)o->nsched, sizeof *o->units_of, d);
  if (fail || !o->cu || !o->disp || !o->port || !o->rf || !o->served || !o->blocked ||
      !o->units_of) {
    opcoll_destroy(o);
    return NULL;
  }
  _Static_assert(UNIT_COUNT <= 32, "blocked masks hold one bit per pipeline");
  for (int u = 0; u < UNIT_COUNT; u++)
    for (int q = 0; q < o->nsched; q++) update_blocked(o, u, q);
  /* GPGPU-Sim's order: the gen set and its ports first, then the specialized ones. */
  add_set(o, OC_GEN, c->oc_units[OC_GEN]);
  add_dispatch(o, OC_GEN, c->oc_out_ports[OC_GEN]);
  for (int i = 0; i < c->oc_in_ports[OC_GEN]; i++) {
    oc_port *p = &o->port[o->nport++];
    p->in_cls[p->n_in++] = UNIT_SP;
    p->in_cls[p->n_in++] = UNIT_SFU;
    p->in_cls[p->n_in++] = UNIT_MEM;
    if (c->num_units[UNIT_TENSOR] > 0) p->in_cls[p->n_in++] = UNIT_TENSOR;
    if (c->num_units[UNIT_DP] > 0) p->in_cls[p->n_in++] = UNIT_DP;
    if (c->num_units[UNIT_INT] > 0) p->in_cls[p->n_in++] = UNIT_INT;
    p->sets[p->nsets++] = OC_GEN;
  }
  if (c->specialized_oc) {
    static const uint8_t set_order[] = {UNIT_SP,  UNIT_DP,  UNIT_TENSOR,
                                        UNIT_SFU, UNIT_MEM, UNIT_INT};
    static const uint8_t port_order[] = {UNIT_SP,     UNIT_DP,  UNIT_SFU,
                                         UNIT_TENSOR, UNIT_MEM, UNIT_INT};
    for (int i = 0; i < 6; i++) {
      add_set(o, set_order[i], c->oc_units[set_order[i]]);
      add_dispatch(o, set_order[i], c->oc_out_ports[set_order[i]]);
    }
    for (int i = 0; i < 6; i++)
      for (int k = 0; k < c->oc_in_ports[port_order[i]]; k++) {
        oc_port *p = &o->port[o->nport++];
        p->in_cls[p->n_in++] = port_order[i];
        p->sets[p->nsets++] = port_order[i];
        p->sets[p->nsets++] = OC_GEN;
      }
  }
  for (int p = 0; p < o->nport; p++) {
    oc_port *port = &o->port[p];
    for (int i = 0; i < port->n_in; i++) port->cls_mask |= 1u << port->in_cls[i];
    for (int i = 0; i < port->n_in; i++)
      for (int k = 0; k < port->nsets; k++)
        if (o->set[port->sets[k]].n > 0) o->sets_of_cls[port->in_cls[i]] |= 1u << port->sets[k];
    port->sig = port->nsets | port->sets[0] << 4 | (port->nsets > 1 ? port->sets[1] : 0) << 12;
  }
  for (int p = o->nport - 1; p >= 0; p--) {
    const oc_port *next = p + 1 < o->nport ? &o->port[p + 1] : NULL;
    int alike = next && next->sig == o->port[p].sig && next->cls_mask == o->port[p].cls_mask;
    o->port[p].run_end = alike ? next->run_end : p + 1;
  }
  int runs = 0;
  for (int p = 0; p < o->nport; p = o->port[p].run_end) runs++;
  o->first_tables = rf_calloc((size_t)runs + 1, 1u << UNIT_COUNT, d);
  if (!o->first_tables) {
    opcoll_destroy(o);
    return NULL;
  }
  uint8_t *first = o->first_tables;
  for (int p = 0; p < o->nport; p = o->port[p].run_end, first += 1u << UNIT_COUNT) {
    const oc_port *head = &o->port[p];
    for (uint32_t m = 1; m < 1u << UNIT_COUNT; m++)
      for (int i = head->n_in - 1; i >= 0; i--)
        if (m >> head->in_cls[i] & 1) first[m] = head->in_cls[i];
    for (int q = p; q < head->run_end; q++) o->port[q].first_of = first;
  }
  return o;
}

void opcoll_destroy(opcoll *o) {
  if (!o) return;
  for (int u = 0; u < UNIT_COUNT; u++) {
    reg_free(&o->id_oc[u]);
    reg_free(&o->oc_ex[u]);
  }
  free(o->cu);
  free(o->disp);
  free(o->port);
  free(o->served);
  free(o->blocked);
  free(o->units_of);
  free(o->first_tables);
  rf_banks_destroy(o->rf);
  free(o);
}

const rf_banks *opcoll_banks(const opcoll *o) { return o->rf; }
int opcoll_in_flight(const opcoll *o) { return o->in_id_oc + o->busy_cu + o->in_oc_ex; }

int opcoll_can_issue(const opcoll *o, int cls, int sched) {
  return !(o->blocked[sched] & (1u << cls));
}

const uint32_t *opcoll_issue_blocked(const opcoll *o) { return o->blocked; }
const uint64_t *opcoll_unblocked(const opcoll *o) { return &o->unblocked; }

void opcoll_issue(opcoll *o, const oc_inst *in) {
  oc_reg *r = &o->id_oc[in->cls];
  int i = reg_free_slot(r, o->sub_core, in->sched);
  reg_put(r, i, in);
  r->slot[i].uid = o->next_uid++;
  if (r->used == 1) r->oldest = i;
  o->in_id_oc++;
  o->id_oc_busy |= 1u << in->cls;
  update_blocked(o, in->cls, in->sched);
  o->allocate_seen++;
}

void opcoll_write(opcoll *o, int warp, int sched, const uint8_t *regs, int n, uint64_t at) {
  rf_write(o->rf, regs, n, warp, sched, at);
}

int opcoll_ex_ready(const opcoll *o, int cls, int slot) {
  const oc_reg *r = &o->oc_ex[cls];
  if (slot >= 0) return slot < r->width && (r->valid >> slot & 1) ? slot : -1;
  return reg_oldest(r);
}

const oc_inst *opcoll_ex_inst(const opcoll *o, int cls, int slot) {
  return &o->oc_ex[cls].slot[slot];
}

void opcoll_ex_pop(opcoll *o, int cls, int slot) {
  reg_take(&o->oc_ex[cls], slot);
  room_changed(o, cls, slot, 1);
  if (o->oc_ex[cls].used == 0) o->oc_ex_busy &= ~(1u << cls);
  o->in_oc_ex--;
  o->dispatch_seen++;
}

uint32_t opcoll_ex_busy(const opcoll *o) { return o->oc_ex_busy; }

/* The first unit of `units` at `start` or after it, else the first before it (round robin). */
static inline int first_from(uint64_t units, int start) {
  uint64_t hi = units & (~0ull << start);
  return __builtin_ctzll(hi ? hi : units);
}

/* Each port tries the collected units of its set round robin from the one after its last and
 * sends the first whose OC_EX slot (its scheduler's in the sub-core model) has room: the first
 * with `room` where that is kept (room_changed). Elsewhere a unit found without room stays so
 * for the rest of the call (a send only fills a slot), so the set's later ports pass it over
 * without looking again. A set with no unit to send stays so for its other ports. */
static int dispatch(opcoll *o) {
  int moved = 0;
  uint32_t none_ready = 0, seen = 0; /* bit per set */
  uint64_t blocked[OC_SET_COUNT];    /* per set seen: its units found without room */
  for (int p = 0; p < o->ndisp && (o->sets_collected & ~none_ready); p++) {
    oc_dispatch *du = &o->disp[p];
    uint32_t bit = 1u << du->set;
    if (!(o->sets_collected & ~none_ready & bit)) continue;
    oc_set *s = &o->set[du->set];
    none_ready |= bit; /* cleared below if a unit moves */
    int c = -1, slot = -1;
    if (o->sub_core) {
      uint64_t ready = s->collected & s->room;
      if (ready) {
        c = first_from(ready, du->start);
        slot = o->cu[s->first + c].reg_id;
      }
    } else {
      if (!(seen & bit)) blocked[du->set] = 0;
      seen |= bit;
      for (uint64_t m = s->collected & ~blocked[du->set]; m && c < 0;) {
        int k = first_from(m, du->start);
        slot = reg_free_slot(&o->oc_ex[o->cu[s->first + k].out_cls], 0, 0);
        if (slot >= 0) c = k;
        else blocked[du->set] |= 1ull << k;
        m &= ~(1ull << k);
      }
    }
    if (c < 0) continue;
    uint64_t unit = 1ull << c;
    oc_cu *u = &o->cu[s->first + c];
    int cls = u->out_cls;
    du->start = u->next_start;
    reg_put(&o->oc_ex[cls], slot, &u->in);
    o->in_oc_ex++;
    o->oc_ex_busy |= 1u << cls;
    o->busy_cu--;
    s->busy &= ~unit;
    s->collected &= ~unit;
    if (o->sub_core) {
      s->room &= ~unit;
      s->of_cls[cls] &= ~unit;
      room_changed(o, cls, slot, 0);
    }
    if (!s->collected) o->sets_collected &= ~bit;
    moved = 1;
    o->dispatch_seen++;
    o->allocate_seen++;
    none_ready &= ~bit;
  }
  return moved;
}

static int reads(opcoll *o, uint64_t now, int first_step) {
  int n = rf_arbitrate(o->rf, now, first_step, o->served);
  for (int i = 0; i < n; i++) {
    int cu = o->served[i];
    oc_cu *u = &o->cu[cu];
    if (--u->remaining == 0) {
      o->set[u->set].collected |= 1ull << (cu - o->set[u->set].first);
      o->sets_collected |= 1u << u->set;
      o->dispatch_seen++;
    }
  }
  return n > 0;
}

/* A free unit of set s for scheduler sched, or -1. */
static inline int free_cu(const opcoll *o, int s, int sched) {
  const oc_set *set = &o->set[s];
  uint64_t free = ~set->busy & sched_units(set, sched);
  return free ? set->first + __builtin_ctzll(free) : -1;
}

/* When pipeline cls's oldest instruction finds no free unit through a port's sets, a later
 * port with the same sets finds none for it either (units only fill up here), until an
 * instruction of cls is allocated and another one is the oldest: such attempts are skipped. */
static int allocate(opcoll *o) {
  unsigned failed = 0, done = 0;
  int failed_sig[UNIT_COUNT]; /* (read only for the bits of `failed`, each written first) */
  int sig = -1;
  uint32_t skip = 0; /* pipelines with failed_sig[cls] == sig */
  for (int p = 0; p < o->nport && o->in_id_oc; p++) {
    const oc_port *port = &o->port[p];
    if (port->sig != sig) {
      sig = port->sig;
      skip = 0;
      for (uint32_t m = failed; m; m &= m - 1)
        if (failed_sig[__builtin_ctz(m)] == sig) skip |= m & -m;
    }
    /* the port's pipelines with instructions waiting, in the port's order (each one's
     * register is looked at once per port, and only this one can empty it), but not those
     * that would fail again (`failed` has their bit) */
    uint32_t todo = port->cls_mask & o->id_oc_busy & ~skip;
    /* the rest of its run would find the same nothing: ID_OC only empties here, and skip
     * keeps while the sig does */
    if (!todo) {
      p = port->run_end - 1;
      continue;
    }
    while (todo) {
      /* (a port of one pipeline, as every specialized one, reads it directly: through the
       * table the GTX 480 config ran 0.3% slower) */
      int cls = port->n_in == 1 ? port->in_cls[0] : port->first_of[todo];
      todo &= ~(1u << cls);
      oc_reg *r = &o->id_oc[cls];
      int slot = r->oldest;
      const oc_inst *in = &r->slot[slot];
      int cu = -1;
      for (int k = 0; k < port->nsets && cu < 0; k++) cu = free_cu(o, port->sets[k], in->sched);
      if (cu < 0) {
        failed |= 1u << cls;
        failed_sig[cls] = sig;
        skip |= 1u << cls;
        continue;
      }
      failed_sig[cls] = -1;
      oc_cu *u = &o->cu[cu];
      oc_set *set = &o->set[u->set];
      u->out_cls = (uint8_t)cls;
      u->in = *in;
      u->remaining = in->nsrc;
      uint64_t unit = 1ull << (cu - set->first);
      set->busy |= unit;
      if (o->sub_core) {
        set->of_cls[cls] |= unit;
        if (reg_free_slot(&o->oc_ex[cls], 1, u->reg_id) >= 0) set->room |= unit;
      }
      if (in->nsrc == 0) {
        set->collected |= 1ull << (cu - set->first);
        o->sets_collected |= 1u << u->set;
        o->dispatch_seen++;
      }
      for (int k = 0; k < in->nsrc; k++)
        rf_read_request(o->rf, rf_bank_of(o->rf, in->src[k], in->warp, in->sched), cu);
      reg_take(r, slot);
      if (r->used == 0) o->id_oc_busy &= ~(1u << cls);
      else r->oldest = reg_oldest(r);
      o->in_id_oc--;
      o->busy_cu++;
      update_blocked(o, cls, in->sched);
      done |= 1u << cls;
      o->allocate_seen++;
    }
  }
  o->cnt->oc_stalls += (uint64_t)rf_popcount32(failed & ~done);
  return done != 0;
}

int opcoll_cycle(opcoll *o, uint64_t now) {
  /* Nothing to dispatch, read or allocate that was not tried already (a memory-bound SM's
   * cycle, its LD/ST queue full): every step counts the failed allocation's stalls again. */
  if ((!o->busy_cu || o->dispatch_failed == o->dispatch_seen) && !rf_queued(o->rf) &&
      (!o->in_id_oc || o->allocate_failed == o->allocate_seen)) {
    if (o->in_id_oc) o->cnt->oc_stalls += o->allocate_stalls * (uint64_t)o->throughput;
    return 0;
  }
  int moved = 0;
  for (int step = 0; step < o->throughput; step++) {
    if (o->busy_cu && o->dispatch_failed != o->dispatch_seen) {
      if (dispatch(o)) moved = 1;
      else o->dispatch_failed = o->dispatch_seen;
    }
    if (rf_queued(o->rf)) moved |= reads(o, now, step == 0);
    if (o->in_id_oc) {
      if (o->allocate_failed == o->allocate_seen) {
        o->cnt->oc_stalls += o->allocate_stalls;
      } else {
        uint64_t before = o->cnt->oc_stalls;
        if (allocate(o)) {
          moved = 1;
        } else {
          o->allocate_failed = o->allocate_seen;
          o->allocate_stalls = o->cnt->oc_stalls - before;
        }
      }
    }
  }
  return moved;
}
