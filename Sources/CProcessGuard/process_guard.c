#include "authsh_process_guard.h"

#include <errno.h>
#include <sys/resource.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

int authsh_guard_process(void) {
  int failure = 0;
#if defined(__linux__)
  if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0) failure = errno;
#endif
  struct rlimit none = {0, 0};
  if (setrlimit(RLIMIT_CORE, &none) != 0 && failure == 0) failure = errno;
  return failure;
}
