/* Declarations shared by the opcode groups (sass_op_*.c) and the tables (sass_isa_*.c): one
 * prepare step per instruction family. Each prepare step checks the operands and modifiers, stores
 * what its handler needs in the instruction's f/a/b/c/e/k fields and sets the handler. */
#ifndef RFSIM_SASS_OP_H
#define RFSIM_SASS_OP_H

#include "sass_ctx.h"
#include "sass_isa.h"

/* the condition code a handler computes for its lanes, written back in one step */
typedef struct sass_ccacc {
  uint32_t c, z, s, o;
} sass_ccacc;
static inline void sass_cc_lane(sass_ccacc *a, int lane, int c, int z, int s, int o) {
  uint32_t b = 1u << lane;
  if (c) a->c |= b;
  if (z) a->z |= b;
  if (s) a->s |= b;
  if (o) a->o |= b;
}
static inline void sass_cc_store(sass_warp *w, const sass_ccacc *a, uint32_t m) {
  w->cc_c = (w->cc_c & ~m) | a->c;
  w->cc_z = (w->cc_z & ~m) | a->z;
  w->cc_s = (w->cc_s & ~m) | a->s;
  w->cc_o = (w->cc_o & ~m) | a->o;
}

/* integer and logic (sass_op_int.c, sass_op_bits.c) */
int sass_prep_iadd(sass_prep *p);
int sass_prep_iadd32i(sass_prep *p);
int sass_prep_iadd3(sass_prep *p);
int sass_prep_iscadd(sass_prep *p);
int sass_prep_lea(sass_prep *p);
int sass_prep_xmad(sass_prep *p);
int sass_prep_imnmx(sass_prep *p);
int sass_prep_isetp(sass_prep *p);
int sass_prep_iset(sass_prep *p);
int sass_prep_icmp(sass_prep *p);
int sass_prep_sel(sass_prep *p);
int sass_prep_mov(sass_prep *p);
int sass_prep_psetp(sass_prep *p);
int sass_prep_csetp(sass_prep *p);
int sass_prep_p2r(sass_prep *p);
int sass_prep_r2p(sass_prep *p);
int sass_prep_lop(sass_prep *p);
int sass_prep_lop3(sass_prep *p);
int sass_prep_lop32i(sass_prep *p);
int sass_prep_shl(sass_prep *p);
int sass_prep_shr(sass_prep *p);
int sass_prep_shf(sass_prep *p);
int sass_prep_bfe(sass_prep *p);
int sass_prep_bfi(sass_prep *p);
int sass_prep_flo(sass_prep *p);
int sass_prep_popc(sass_prep *p);
int sass_prep_prmt(sass_prep *p);
int sass_prep_vabsdiff(sass_prep *p);
int sass_prep_vmnmx(sass_prep *p);
/* float (sass_op_float.c), double (sass_op_double.c), conversions (sass_op_conv.c) */
int sass_prep_fadd(sass_prep *p);
int sass_prep_fmul(sass_prep *p);
int sass_prep_ffma(sass_prep *p);
int sass_prep_fmnmx(sass_prep *p);
int sass_prep_fsetp(sass_prep *p);
int sass_prep_fset(sass_prep *p);
int sass_prep_fcmp(sass_prep *p);
int sass_prep_fchk(sass_prep *p);
int sass_prep_mufu(sass_prep *p);
int sass_prep_rro(sass_prep *p);
int sass_prep_dadd(sass_prep *p);
int sass_prep_dmul(sass_prep *p);
int sass_prep_dfma(sass_prep *p);
int sass_prep_dmnmx(sass_prep *p);
int sass_prep_dsetp(sass_prep *p);
int sass_prep_dset(sass_prep *p);
int sass_prep_f2f(sass_prep *p);
int sass_prep_f2i(sass_prep *p);
int sass_prep_i2f(sass_prep *p);
int sass_prep_i2i(sass_prep *p);
/* memory (sass_op_mem.c, sass_op_atom.c) */
int sass_prep_ld(sass_prep *p);
int sass_prep_st(sass_prep *p);
int sass_prep_ldc(sass_prep *p);
int sass_prep_atom(sass_prep *p);
int sass_prep_membar(sass_prep *p);
/* control (sass_op_ctrl.c) and warp-wide (sass_op_warp.c) */
int sass_prep_bra(sass_prep *p);
int sass_prep_push(sass_prep *p); /* SSY, PBK, PCNT */
int sass_prep_sync(sass_prep *p);
int sass_prep_brk(sass_prep *p);  /* BRK, CONT */
int sass_prep_cal(sass_prep *p);
int sass_prep_ret(sass_prep *p);
int sass_prep_exit(sass_prep *p);
int sass_prep_nop(sass_prep *p);  /* NOP, DEPBAR */
int sass_prep_bar(sass_prep *p);
int sass_prep_b2r(sass_prep *p);
int sass_prep_vote(sass_prep *p);
int sass_prep_shfl(sass_prep *p);
int sass_prep_s2r(sass_prep *p);

/* sm_70 (sass_op_int70.c, sass_op_float70.c, sass_op_ctrl70.c) */
int sass_prep_iadd3_70(sass_prep *p);
int sass_prep_imad(sass_prep *p);
int sass_prep_isetp70(sass_prep *p);
int sass_prep_lea70(sass_prep *p);
int sass_prep_shf70(sass_prep *p);
int sass_prep_unary70(sass_prep *p); /* IABS, BREV, BMSK, SGXT */
int sass_prep_plop3(sass_prep *p);
int sass_prep_fsel(sass_prep *p);
int sass_prep_frnd(sass_prep *p);
int sass_prep_dsetp70(sass_prep *p);
int sass_prep_bra70(sass_prep *p);
int sass_prep_bssy(sass_prep *p);
int sass_prep_bsync(sass_prep *p); /* BSYNC, BREAK */
int sass_prep_bmov(sass_prep *p);
int sass_prep_warpsync(sass_prep *p);
int sass_prep_call70(sass_prep *p);
int sass_prep_ret70(sass_prep *p);
int sass_prep_exit70(sass_prep *p);
int sass_prep_bar70(sass_prep *p);

/* shared by handlers: the active lanes' reconvergence bookkeeping after lanes leave */
void sass_simt_unwind(sass_warp *w);
/* barriers (sass_op_ctrl.c): the arriving lanes' part (id, count, reduction) and the warp's */
int sass_bar_lanes(sass_ctx *x, const sass_inst *in, uint32_t m, uint32_t *id);
void sass_bar_warp_arrives(sass_ctx *x, uint32_t id);

#endif
