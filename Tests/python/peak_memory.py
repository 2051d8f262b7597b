"""A command's own peak resident memory, measured in a small launcher process.

`os.wait4` on a child of the test's own Python is not that: Linux carries the peak of the
address space a process had before `exec` into its `ru_maxrss`, and a child that Python starts
(vfork, posix_spawn or fork) had the parent's. After a few hundred tests a pytest worker holds
well over 100 MB, and every child it measured "peaked" there. The launcher here is a fresh
`python -I -S` (about 10 MB) that forks the command, waits for it with `wait4` and writes its
figures to a file; what it adds is its own size, reported as `launcher_bytes`.
"""
import os
import subprocess
import sys
import tempfile
import time

_LAUNCHER = r"""
import os, sys
out = sys.argv[1]
pid = os.fork()
if pid == 0:
    try:
        os.execv(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
with open(out, "w") as f:
    f.write(f"{pid}\n")
_, status, usage = os.wait4(pid, 0)
with open(out, "a") as f:
    f.write(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss * 1024}\n")
"""


class Measured:
    """A command started under the launcher. `pid` is the command's own (to signal it)."""

    def __init__(self, args, **popen):
        self._figures = tempfile.NamedTemporaryFile("r", prefix="peak-", delete=False)
        self._launcher = subprocess.Popen([sys.executable, "-I", "-S", "-c", _LAUNCHER, self._figures.name,
                                           *args], **popen)
        self.pid = None
        while self.pid is None:
            lines = open(self._figures.name).read().splitlines()
            if lines:
                self.pid = int(lines[0])
            elif self._launcher.poll() is not None:
                raise RuntimeError(f"the launcher ended ({self._launcher.returncode}) before starting {args[0]}")
            else:
                time.sleep(0.01)

    def running(self):
        return self._launcher.poll() is None

    def wait(self, timeout=None):
        """(exit status as subprocess gives it, peak resident bytes of the command)."""
        self._launcher.wait(timeout)
        lines = open(self._figures.name).read().splitlines()
        os.unlink(self._figures.name)
        status, peak = lines[1].split()
        return int(status), int(peak)


def run(args, **popen):
    """Runs `args` to its end: (exit status, peak resident bytes of the command)."""
    return Measured(args, **popen).wait()


def launcher_bytes():
    """The launcher's own share of a peak: the peak of a command that does almost nothing."""
    return run(["/bin/true"])[1]
