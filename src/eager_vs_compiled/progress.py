"""The progress line of a long measurement run (standard library only)."""

from __future__ import annotations

import sys
import time


class ProgressBar:
    """One line, redrawn in place on a terminal; one line per step when piped into a log."""

    def __init__(self, total: int, stream=None):
        # sys.stderr when the bar is made, not when this module was imported: a stream replaced
        # since (a test's captured output, long closed) is not the one to write to.
        stream = stream if stream is not None else sys.stderr
        self.total, self.done, self.stream = max(total, 1), 0, stream
        self.t0 = time.monotonic()
        self.tty = stream.isatty()

    def step(self, msg: str) -> None:
        self.done = min(self.done + 1, self.total)
        self._draw(msg)

    def _draw(self, msg: str) -> None:
        width = 24
        fill = round(width * (self.done - 1) / self.total)
        elapsed = time.monotonic() - self.t0
        line = (f"[{'#' * fill}{'.' * (width - fill)}] {self.done}/{self.total} "
                f"{int(elapsed // 60)}m{int(elapsed % 60):02d}s  {msg}")
        if self.tty:
            self.stream.write("\r\033[K" + line[:150])
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
