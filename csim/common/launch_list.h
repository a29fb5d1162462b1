/* One item of rfsim-trace's -kernels list (comma-separated): a launch number n >= 1, a range a-b
 * with 1 <= a <= b, or a kernel name (an identifier: a symbol or a function's name). Read by
 * rfsim-trace, which refuses a malformed list before the program runs, and by the stand-in
 * runtime, which matches each launch against the items. */
#ifndef RFSIM_LAUNCH_LIST_H
#define RFSIM_LAUNCH_LIST_H

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>

/* The item of n bytes at p (it ends at a ',' or the string's end): 1, a launch range [*a, *b]
 * (a number is the range n-n); 0, a name; -1, neither. An item that starts with a digit is a
 * number or a range. */
static inline int launch_item_parse(const char *p, size_t n, long *a, long *b) {
  if (!n) return -1;
  if (!isdigit((unsigned char)p[0])) {
    for (size_t k = 0; k < n; k++)
      if (!isalnum((unsigned char)p[k]) && p[k] != '_') return -1;
    return 0;
  }
  char *e;
  *a = *b = strtol(p, &e, 10);
  if (*e == '-' && isdigit((unsigned char)e[1])) *b = strtol(e + 1, &e, 10);
  return e == p + n && *a >= 1 && *a <= *b ? 1 : -1;
}

#endif
