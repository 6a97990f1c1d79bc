/* allocator.c - how ac-opt's heap is configured (docs/bench.md, "From the
 * command line").
 *
 * ac-opt is linked with jemalloc (Debian's libjemalloc2) unless the build is
 * instrumented (AUTOAC_SANITIZE, AUTOAC_FUZZ) or AUTOAC_JEMALLOC is off.
 * Every allocation of the process goes through it: MLIR's parser and
 * printer, the IR the split builds, autoac's own arrays.  A 100k-op graph
 * makes the process touch about 160 MB of fresh heap; with glibc's malloc
 * in 4 KiB pages that is about 40k page faults, which on a virtual machine
 * cost about a third of the run.  jemalloc asks for transparent huge pages
 * on its mappings (the kernel's "madvise" mode suffices; where THP is off it
 * falls back to 4 KiB pages), keeps what it freed instead of handing it back
 * to the kernel between the stages (the process is short-lived), and uses
 * one arena (autoac's context is single-threaded).
 *
 * jemalloc reads `malloc_conf` from the executable when it starts, before
 * any allocation; the MALLOC_CONF environment variable still overrides it. */
const char *malloc_conf = "thp:always,metadata_thp:always,dirty_decay_ms:-1,"
                          "muzzy_decay_ms:-1,narenas:1";
