/* cleanup.c - temporary files removed when a signal ends the process.
 *
 * The file set (lib/report/report.c) stages each output in a temporary file
 * beside its target; a Ctrl-C or SIGTERM before the commit would leave it
 * behind.  Each temporary name is registered here while it may exist, and
 * the handler acSignalCleanupInstall puts on SIGINT, SIGTERM and SIGHUP
 * removes every registered file, then lets the signal do what it did before
 * (the previous handler, or the default: the process ends by the signal). */
#include "autoac/support.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#define AC_TEMP_SLOTS 64

static _Atomic(const char *) acTempSlots[AC_TEMP_SLOTS];

int acTempRegister(const char *path) {
  for (int i = 0; i < AC_TEMP_SLOTS; ++i) {
    const char *expected = NULL;
    if (atomic_compare_exchange_strong(&acTempSlots[i], &expected, path))
      return i;
  }
  return -1;
}

void acTempUnregister(int slot) {
  if (slot >= 0 && slot < AC_TEMP_SLOTS)
    atomic_store(&acTempSlots[slot], NULL);
}

void acTempRemoveAll(void) {
  for (int i = 0; i < AC_TEMP_SLOTS; ++i) {
    const char *p = atomic_load(&acTempSlots[i]);
    if (p)
      unlink(p);
  }
}

static const int acCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
#define AC_NUM_CLEANUP_SIGNALS 3
static struct sigaction acOldActions[AC_NUM_CLEANUP_SIGNALS];

/* Async-signal-safe: atomic loads, unlink, sigaction, raise. */
static void acCleanupHandler(int sig) {
  int saved = errno;
  acTempRemoveAll();
  for (int k = 0; k < AC_NUM_CLEANUP_SIGNALS; ++k)
    if (acCleanupSignals[k] == sig) {
      /* The previous disposition back, and the signal again: delivered when
       * this handler returns (it is blocked while the handler runs). */
      sigaction(sig, &acOldActions[k], NULL);
      raise(sig);
    }
  errno = saved;
}

void acSignalCleanupInstall(void) {
  static atomic_flag once = ATOMIC_FLAG_INIT;
  if (atomic_flag_test_and_set(&once))
    return;
  for (int k = 0; k < AC_NUM_CLEANUP_SIGNALS; ++k) {
    struct sigaction sa;
    if (sigaction(acCleanupSignals[k], NULL, &acOldActions[k]) != 0 ||
        (!(acOldActions[k].sa_flags & SA_SIGINFO) &&
         acOldActions[k].sa_handler == SIG_IGN))
      continue; /* ignored (nohup): stays ignored */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = acCleanupHandler;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(acCleanupSignals[k], &sa, NULL);
  }
}
