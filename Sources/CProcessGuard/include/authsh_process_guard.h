#ifndef AUTHSH_PROCESS_GUARD_H
#define AUTHSH_PROCESS_GUARD_H

// Keeps secrets in memory out of core files and out of other processes' reach, as ssh-agent and
// gpg-agent do: the process is made not dumpable (PR_SET_DUMPABLE 0: no core, /proc/PID/mem and
// ptrace closed to the same user) and its core limit set to 0 (RLIMIT_CORE, soft and hard, so a
// child cannot raise it again). Returns 0, or the errno of the first call that failed.
int authsh_guard_process(void);

#endif
