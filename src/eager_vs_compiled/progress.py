"""The progress line of a long measurement run (standard library only)."""

from __future__ import annotations

import sys
import time


class ProgressBar:
    """One line, redrawn in place on a terminal; one line per step when piped into a log."""

    def __init__(self, total: int | None, stream=None):
        # sys.stderr when the bar is made, not when this module was imported: a stream replaced
        # since (a test's captured output, long closed) is not the one to write to.
        stream = stream if stream is not None else sys.stderr
        # total: the steps planned (None: not known ahead); adaptive work may add steps beyond it
        self.total, self.done, self.stream = (None if total is None else max(total, 1)), 0, stream
        self.t0 = time.monotonic()
        self.tty = stream.isatty()

    def step(self, msg: str) -> None:
        self.done += 1
        if self.total is not None and self.done > self.total:
            self.total = self.done  # more processes than planned (another round): the bar grows
        self._draw(msg)

    def _draw(self, msg: str) -> None:
        width = 24
        elapsed = time.monotonic() - self.t0
        clock = f"{int(elapsed // 60)}m{int(elapsed % 60):02d}s"
        if self.total is None:
            line = f"[step {self.done}] {clock}  {msg}"
        else:
            fill = round(width * (self.done - 1) / self.total)
            line = f"[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} {clock}  {msg}"
        if self.tty:
            self.stream.write("\r\033[K" + line[:150])
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
