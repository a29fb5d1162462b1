/* A fault of the program being run (a bad address, a stack overflow, a deadlock inside a
 * warp): every part of the interpreter reports one here, the first kept, so that none of them
 * depends on the run loop (sass_run.c) for it. */
#include <stdarg.h>
#include <stdio.h>

#include "sass_ctx.h"
#include "sass_module.h"

int sass_fault(sass_ctx *x, const sass_inst *in, int lane, const char *fmt, ...) {
  if (x->fault) return -1; /* keep the first */
  x->fault = 1;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  char where[64] = "";
  if (lane >= 0) snprintf(where, sizeof where, ", lane %d (thread %d)", lane, x->w->id * 32 + lane);
  return rf_fail(x->d, "kernel %s, CTA (%u,%u,%u), warp %d%s, PC 0x%04x%s%s: %s",
                 x->g->k->info->name, x->c->id[0], x->c->id[1], x->c->id[2], x->w->id, where,
                 in ? in->pc : x->w->pc, in ? ", " : "", in ? in->opcode : "", msg);
}
