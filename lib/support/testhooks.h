/* testhooks.h - the allocation hook's fault injection and counters (not
 * installed): for tests (test/reliability/test_faults.c, the unit tests),
 * the bench, and the library's own parsers, which tell an out-of-memory
 * from a parse error by the failure count.  Implemented in support.c. */
#ifndef AUTOAC_TESTHOOKS_H
#define AUTOAC_TESTHOOKS_H

#include "autoac/support.h"

/// Fault injection for tests: the `n`-th allocation from now (1-based) and
/// every later one fail when `n` > 0; 0 disables injection.
void acAllocFailAfter(int64_t n);
/// Number of allocations made through the hook since the process started.
int64_t acAllocCount(void);
/// Number of allocations through the hook that failed (injected or real)
/// since the process started: lets a caller tell an out-of-memory from the
/// error a library reports when it cannot allocate (jansson's parser).
int64_t acAllocFailCount(void);

#endif
