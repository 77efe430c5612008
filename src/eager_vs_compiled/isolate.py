"""Fresh processes: the one way the harness, the peaks and the snippet runner start a child.

Each child runs in a session (process group) of its own, so that on a timeout, or when this
process is interrupted, the child and everything it started (inductor's compile workers) are
killed together. Standard library only.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

from . import paths

PACKAGE_PARENT = str(Path(__file__).resolve().parents[1])  # what `-m eager_vs_compiled.x` needs on the path


def run(cmd: list[str], env: dict, timeout: float, cwd: str | None = None) -> tuple[int | None, str, str]:
    """Run `cmd`: (returncode, or None on timeout, stdout, stderr)."""
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        out, err = proc.communicate()
        return None, out, err
    except BaseException:  # Ctrl-C or a termination signal in this process: the child goes too
        _kill_group(proc)
        proc.communicate()
        raise


def _kill_group(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def children(parent: int | None = None) -> list[tuple[int, int]]:
    """(pid, process group) of each child of `parent` (default: this process), read from /proc: Linux only."""
    parent = os.getpid() if parent is None else parent
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid, group = (int(f) for f in stat.read_text().rsplit(")", 1)[1].split()[1:3])
        except (OSError, ValueError, IndexError):  # gone meanwhile
            continue
        if ppid == parent:
            found.append((int(stat.parent.name), group))
    return found


def kill_children() -> None:
    """Kill every child of this process, with its process group when it leads one (started by `run`).

    For an interrupt that lands while a child is being started, before `run` holds it: the child
    would otherwise outlive this process."""
    for pid, group in children():
        try:
            os.killpg(pid, signal.SIGKILL) if group == pid else os.kill(pid, signal.SIGKILL)
        except OSError:  # gone meanwhile
            pass


def module(name: str, args: list[str], env: dict | None, timeout: float,
           cwd: str | None = None) -> tuple[int | None, str, str]:
    """`python -m <name> ARGS` with this interpreter, this package importable (no install needed)."""
    env = {**os.environ, **paths.child_env(), **(env or {})}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [PACKAGE_PARENT, os.environ.get("PYTHONPATH")]))
    return run([sys.executable, "-m", name, *args], env, timeout, cwd)


def peak_rss(status: str = "/proc/self/status") -> tuple[int, str]:
    """This process's own peak resident memory in bytes, and its kind: VmHWM on Linux ("process_hwm").
    Not getrusage's ru_maxrss there: it survives execve, so a child started by a parent holding torch
    and a model reports at least the parent's peak (tests/test_rebuilds.py measures it). Where there is
    no /proc, ru_maxrss ("process_peak_rss": bytes on macOS, KiB on Linux; an upper bound)."""
    hwm = proc_kib(status, "VmHWM")
    if hwm is not None:
        return hwm, "process_hwm"
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak * (1 if sys.platform == "darwin" else 1024), "process_peak_rss"


def proc_kib(path: str, key: str) -> int | None:
    """A `key:  N kB` line of a /proc file (status, smaps_rollup) in bytes; None without it or /proc."""
    try:
        with open(path, encoding="ascii") as f:
            return int(next(line for line in f if line.startswith(f"{key}:")).split()[1]) * 1024
    except (OSError, StopIteration, ValueError, IndexError):
        return None
