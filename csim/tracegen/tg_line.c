#include "tg_line.h"

#include <inttypes.h>
#include <string.h>

#define APPEND(...)                                                       \
  do {                                                                    \
    int n_ = snprintf(buf + len, len < (int)size ? size - (size_t)len : 0, \
                      __VA_ARGS__);                                       \
    if (n_ < 0) return -1;                                                \
    len += n_;                                                            \
  } while (0)

int tg_format_addrs(char *buf, size_t size, uint32_t mask, const uint64_t addrs[32]) {
  int len = 0;
  if (!mask) { /* NVBit's tracer: its base+stride test passes vacuously, base and stride 0 */
    APPEND("1 0x0 0 ");
    return len;
  }
  int first = __builtin_ctz(mask), last = 31 - __builtin_clz(mask);
  int contiguous = (mask >> first) == (last - first == 31 ? 0xffffffffu
                                                          : (1u << (last - first + 1)) - 1u);
  int64_t stride = 0;
  int stride_ok = contiguous && last > first;
  if (stride_ok) {
    stride = (int64_t)(addrs[first + 1] - addrs[first]);
    for (int l = first + 1; l <= last && stride_ok; l++)
      stride_ok = (int64_t)(addrs[l] - addrs[l - 1]) == stride;
    stride_ok = stride_ok && stride >= INT32_MIN && stride <= INT32_MAX;
  }
  if (stride_ok) {
    APPEND("1 0x%" PRIx64 " %" PRId64 " ", addrs[first], stride);
    return len;
  }
  int deltas_ok = 1;
  for (int l = first + 1, prev = first; l <= last; l++) {
    if (!(mask >> l & 1u)) continue;
    int64_t delta = (int64_t)(addrs[l] - addrs[prev]);
    if (delta < INT32_MIN || delta > INT32_MAX) deltas_ok = 0;
    prev = l;
  }
  if (deltas_ok) {
    APPEND("2 0x%" PRIx64 " ", addrs[first]);
    for (int l = first + 1, prev = first; l <= last; l++) {
      if (!(mask >> l & 1u)) continue;
      APPEND("%" PRId64 " ", (int64_t)(addrs[l] - addrs[prev]));
      prev = l;
    }
    return len;
  }
  APPEND("0 ");
  for (int l = first; l <= last; l++)
    if (mask >> l & 1u) APPEND("0x%016" PRIx64 " ", addrs[l]);
  return len;
}

int tg_format_line(char *buf, size_t size, const tg_line_inst *li) {
  int len = 0;
  APPEND("%04" PRIx32 " %08" PRIx32 " %d ", li->pc, li->mask, li->dst >= 0);
  if (li->dst >= 0) APPEND("R%d ", li->dst);
  APPEND("%s %d ", li->op, li->nsrc);
  for (int i = 0; i < li->nsrc; i++) APPEND("R%d ", li->src[i]);
  APPEND("%d ", li->width);
  if (li->width) {
    int n = tg_format_addrs(buf + len, len < (int)size ? size - (size_t)len : 0, li->mask,
                            li->addrs);
    if (n < 0) return -1;
    len += n;
  }
  return len < (int)size ? len : -1;
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
