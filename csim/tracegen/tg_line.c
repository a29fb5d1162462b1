#include "tg_line.h"

#include <inttypes.h>
#include <string.h>

/* A line is built by hand rather than with snprintf: formatting was half of rfsim-trace's
 * time. The output is byte for byte that of the printf formats noted beside each call. */
typedef struct lb {
  char *p, *end;
} lb;

static void put_ch(lb *b, char c) {
  if (b->p < b->end) *b->p = c;
  b->p++;
}
static void put_str(lb *b, const char *s) {
  while (*s) put_ch(b, *s++);
}
/* "%0*" PRIx64 with width w (1: no padding) */
static void put_hex(lb *b, uint64_t v, int w) {
  char t[16];
  int n = 0;
  do {
    t[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v);
  while (n < w) t[n++] = '0';
  while (n) put_ch(b, t[--n]);
}
/* "%" PRId64 */
static void put_dec(lb *b, int64_t v) {
  char t[20];
  int n = 0;
  uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  do {
    t[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (v < 0) put_ch(b, '-');
  while (n) put_ch(b, t[--n]);
}
/* the length written, NUL-terminated as snprintf would; -1 if it did not fit */
static int lb_len(lb *b, char *start) {
  if (b->p >= b->end) return -1;
  *b->p = '\0';
  return (int)(b->p - start);
}

static void addrs(lb *b, uint32_t mask, const uint64_t a[32]) {
  if (!mask) { /* NVBit's tracer: its base+stride test passes vacuously, base and stride 0 */
    put_str(b, "1 0x0 0 ");
    return;
  }
  int first = __builtin_ctz(mask), last = 31 - __builtin_clz(mask);
  int contiguous = (mask >> first) == (last - first == 31 ? 0xffffffffu
                                                          : (1u << (last - first + 1)) - 1u);
  int64_t stride = 0;
  int stride_ok = contiguous && last > first;
  if (stride_ok) {
    stride = (int64_t)(a[first + 1] - a[first]);
    for (int l = first + 1; l <= last && stride_ok; l++)
      stride_ok = (int64_t)(a[l] - a[l - 1]) == stride;
    stride_ok = stride_ok && stride >= INT32_MIN && stride <= INT32_MAX;
  }
  if (stride_ok) { /* "1 0x%" PRIx64 " %" PRId64 " " */
    put_str(b, "1 0x");
    put_hex(b, a[first], 1);
    put_ch(b, ' ');
    put_dec(b, stride);
    put_ch(b, ' ');
    return;
  }
  int deltas_ok = 1;
  for (int l = first + 1, prev = first; l <= last; l++) {
    if (!(mask >> l & 1u)) continue;
    int64_t delta = (int64_t)(a[l] - a[prev]);
    if (delta < INT32_MIN || delta > INT32_MAX) deltas_ok = 0;
    prev = l;
  }
  if (deltas_ok) { /* "2 0x%" PRIx64 " ", then "%" PRId64 " " per lane */
    put_str(b, "2 0x");
    put_hex(b, a[first], 1);
    put_ch(b, ' ');
    for (int l = first + 1, prev = first; l <= last; l++) {
      if (!(mask >> l & 1u)) continue;
      put_dec(b, (int64_t)(a[l] - a[prev]));
      put_ch(b, ' ');
      prev = l;
    }
    return;
  }
  put_str(b, "0 "); /* then "0x%016" PRIx64 " " per lane */
  for (int l = first; l <= last; l++)
    if (mask >> l & 1u) {
      put_str(b, "0x");
      put_hex(b, a[l], 16);
      put_ch(b, ' ');
    }
}

int tg_format_addrs(char *buf, size_t size, uint32_t mask, const uint64_t a[32]) {
  lb b = {buf, buf + size};
  addrs(&b, mask, a);
  return lb_len(&b, buf);
}

int tg_format_line(char *buf, size_t size, const tg_line_inst *li) {
  lb b = {buf, buf + size};
  put_hex(&b, li->pc, 4); /* "%04x %08x %d " */
  put_ch(&b, ' ');
  put_hex(&b, li->mask, 8);
  put_str(&b, li->dst >= 0 ? " 1 R" : " 0 ");
  if (li->dst >= 0) { /* "R%d " */
    put_dec(&b, li->dst);
    put_ch(&b, ' ');
  }
  put_str(&b, li->op); /* "%s %d " */
  put_ch(&b, ' ');
  put_dec(&b, li->nsrc);
  put_ch(&b, ' ');
  for (int i = 0; i < li->nsrc; i++) {
    put_ch(&b, 'R');
    put_dec(&b, li->src[i]);
    put_ch(&b, ' ');
  }
  put_dec(&b, li->width);
  put_ch(&b, ' ');
  if (li->width) addrs(&b, li->mask, li->addrs);
  return lb_len(&b, buf);
}

int tg_put_kernel_header(FILE *f, const tg_kernel_header *h) {
  return fprintf(f,
                 "-kernel name = %s\n-kernel id = %d\n-grid dim = (%u,%u,%u)\n"
                 "-block dim = (%u,%u,%u)\n-shmem = %u\n-nregs = %u\n-binary version = %d\n"
                 "-cuda stream id = 0\n-shmem base_addr = 0x%016llx\n"
                 "-local mem base_addr = 0x%016llx\n-accelsim tracer version = %d\n"
                 "-enable lineinfo = 0\n\n#traces format = [line_num] PC mask dest_num "
                 "[reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] "
                 "[mem_addresses]\n\n\n",
                 h->name, h->id, h->grid[0], h->grid[1], h->grid[2], h->block[0], h->block[1],
                 h->block[2], h->shmem, h->nregs, h->binary_version,
                 (unsigned long long)h->shmem_base, (unsigned long long)h->local_base,
                 h->tracer_version) < 0 ? -1 : 0;
}

int tg_put_tb_begin(FILE *f, long x, long y, long z) {
  return fprintf(f, "\n#BEGIN_TB\n\nthread block = %ld,%ld,%ld\n", x, y, z) < 0 ? -1 : 0;
}

int tg_put_warp_header(FILE *f, int warp, long insts) {
  return fprintf(f, "\nwarp = %d\ninsts = %ld\n", warp, insts) < 0 ? -1 : 0;
}

int tg_put_tb_end(FILE *f) { return fputs("\n#END_TB\n", f) < 0 ? -1 : 0; }
