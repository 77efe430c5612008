"""Snippet runs, each in a process forked from an interpreter that has already imported torch.

A fresh interpreter spends about 3 CPU seconds importing torch, torchvision, Dynamo and Inductor
before a snippet's first line; most snippets take less than that themselves. The test suite runs
every snippet, and the site build runs the snippets that time nothing side by side, so both start a
server (`serve`, in the snippets' own environment) that imports those once and then forks one
process per snippet: as `python SNIPPET` would, the child runs the file as `__main__` in a scratch
folder, in a session of its own, with stdout and stderr in files, and exits with the code the
interpreter would give. A snippet that leaned on a module the server imported (and forgot its own
import) is caught by tests/test_snippet_isolation.py (every global it reads is bound by it).

Snippets that change the environment, start processes or look at their own process (memory, argv)
still get a fresh interpreter: see FRESH. A build forks the snippets that time something, one at a
time, from a server that imported torch alone (TIMED_PRELOAD): their timed regions then load Dynamo
and Inductor lazily, as in a reader's `python SNIPPET`, and only the import of torch (a second and a
half of CPU before the first line) is shared.

Protocol: one JSON line per request on stdin ({"path", "cwd", "out", "err", "status"}), answered
with one line holding the child's pid; the child writes its exit code into the "status" file last.
Standard library only at import: the server imports torch when it starts.
"""
import atexit
import contextlib
import json
import os
import re
import runpy
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

PRELOAD = ("torch", "torchvision", "torch._dynamo", "torch._inductor.compile_fx")
TIMED_PRELOAD = ("torch",)
# `environ`, not `os.environ`: `from os import environ` and `import os as o` change it too.
FRESH = re.compile(r"\benviron\b|putenv|unsetenv|subprocess|multiprocessing|torch\.distributed|maxrss"
                   r"|/proc/self|__main__|sys\.argv")


def needs_fresh(code: str) -> bool:
    return bool(FRESH.search(code))


# --- the server side -------------------------------------------------------------------------------
def _exit_code(e: SystemExit) -> int:
    if e.code is None or isinstance(e.code, int):
        return e.code or 0
    print(e.code, file=sys.stderr)
    return 1


def _child(request: dict) -> int:
    """In the forked process: run the snippet as `python PATH` would. Returns its exit code."""
    os.setsid()
    os.chdir(request["cwd"])
    for fd, name in ((1, "out"), (2, "err")):
        target = os.open(request[name], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # the server reaps by ignoring it; a snippet's subprocesses need it
    path = request["path"]
    sys.argv, sys.path[0] = [path], os.path.dirname(path)
    try:
        runpy.run_path(path, run_name="__main__")
        code = 0
    except SystemExit as e:
        code = _exit_code(e)
    except BaseException as e:  # noqa: BLE001 -- shown as the interpreter shows it: the snippet's frames only
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb or e.__traceback__)
        code = 1
    with contextlib.suppress(BaseException):
        atexit._run_exitfuncs()
    return code


def serve(preload: tuple[str, ...] = PRELOAD) -> None:
    for name in preload:
        __import__(name)
    if "torch._inductor.compile_fx" in preload:
        from torch._inductor import cpu_vec_isa
        cpu_vec_isa.pick_vec_isa()  # the instruction set Inductor compiles for, known to every fork
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped by the kernel
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = _child(request)
            finally:
                with contextlib.suppress(BaseException):
                    sys.stdout.flush()
                    sys.stderr.flush()
                    Path(request["status"]).write_text(str(code))
                os._exit(code)
        sys.stdout.write(json.dumps({"pid": pid}) + "\n")
        sys.stdout.flush()


# --- the client side (the snippet pool) ------------------------------------------------------------
class Server:
    def __init__(self, env: dict, preload: tuple[str, ...] = PRELOAD):
        self.env = env
        # Not `python forks.py`: the package's folder first on sys.path would hide modules of the standard
        # library (our profile.py is cProfile's `profile`). The package is found where this module was.
        start = (f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r}); "
                 f"from eager_vs_compiled.forks import serve; del sys.path[0]; serve({tuple(preload)!r})")
        self.proc = subprocess.Popen([sys.executable, "-c", start], env=env, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, start_new_session=True)
        self.live: set[int] = set()  # pids of the snippets running now (killed with the pool)

    def run(self, path: str, timeout: float, cwd: str, lock) -> tuple[int | None, str, str]:
        """As isolate.run([python, path], env, timeout, cwd): (returncode or None on timeout, stdout, stderr)."""
        scratch = Path(tempfile.mkdtemp(prefix="evc-fork-"))  # beside the snippet's folder, not in it
        files = {k: str(scratch / k) for k in ("out", "err", "status")}
        with lock:  # one request and its answer at a time
            self.proc.stdin.write(json.dumps({"path": path, "cwd": cwd, **files}) + "\n")
            self.proc.stdin.flush()
            answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError(f"the snippet fork server stopped (exit {self.proc.poll()})")
        pid = json.loads(answer)["pid"]
        self.live.add(pid)
        code = self._wait(pid, files["status"], timeout)
        self.live.discard(pid)
        out, err = (Path(files[k]).read_text(errors="replace") for k in ("out", "err"))
        shutil.rmtree(scratch, ignore_errors=True)
        return code, out, err

    @staticmethod
    def _wait(pid: int, status: str, timeout: float) -> int | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if os.path.exists(status):
                while _alive(pid):  # written last: the process is ending
                    time.sleep(0.02)
                return int(Path(status).read_text())
            if not _alive(pid):  # killed before it could say its code (the signal is not known here)
                return int(Path(status).read_text()) if os.path.exists(status) else -signal.SIGKILL
            time.sleep(0.05)
        _kill_group(pid)
        return None

    def stop(self) -> None:
        for pid in list(self.live):
            _kill_group(pid)
        self.proc.kill()


class Runner:
    """Stands in for the `isolate` module of a snippet run: `run` forks from a server where it may
    (the snippet's own environment, a scratch folder, nothing that needs a fresh interpreter)."""

    def __init__(self, preload: tuple[str, ...] = PRELOAD):
        import threading

        self.lock, self.server, self.preload = threading.Lock(), None, preload

    def run(self, cmd: list[str], env: dict, timeout: float, cwd: str | None = None):
        from . import isolate

        path = cmd[-1]
        if cmd[:-1] != [sys.executable] or cwd is None or needs_fresh(Path(path).read_text(encoding="utf-8")):
            return isolate.run(cmd, env, timeout, cwd)
        with self.lock:
            if self.server is None:
                self.server = Server(env, self.preload)
        if env != self.server.env:  # the server's imports saw another environment
            return isolate.run(cmd, env, timeout, cwd)
        return self.server.run(path, timeout, cwd, self.lock)

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()


def _kill_group(pid: int) -> None:
    """A forked snippet and whatever it started: each child made itself a session leader (setsid)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
