"""Inline SVG charts drawn from records: text in currentColor so they follow light and dark mode.

Only the site build imports this (matplotlib is a docs dependency, not a measurement one).
"""

from __future__ import annotations

import html
import io
import re
import warnings
from contextlib import contextmanager

from .lang import tr

INK = "#010101"  # replaced by currentColor in the SVG
GOOD, BAD, EAGER, COMPILED = "#2e7d32", "#c62828", "#1565c0", "#e65100"


@contextmanager
def _figure(salt: str, width: float, height: float):
    import matplotlib

    matplotlib.use("svg")
    import matplotlib.pyplot as plt

    # Chinese labels: the SVG keeps them as text (svg.fonttype none) for the reader's fonts to draw;
    # matplotlib's own fonts, used only to lay them out, lack the glyphs and would say so.
    warnings.filterwarnings("ignore", message=r"Glyph \d+ .* missing from (current )?font")

    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": salt, "text.color": INK,
                         "axes.labelcolor": INK, "axes.edgecolor": INK, "xtick.color": INK,
                         "ytick.color": INK, "font.size": 12, "legend.frameon": False}):
        fig, ax = plt.subplots(figsize=(width, height))
        yield fig, ax
        plt.close(fig)


def _svg(fig, ax, title: str) -> str:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.set_facecolor("none")
    fig.patch.set_alpha(0)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):].replace(INK, "currentColor")
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)
    label = html.escape(title, quote=True)  # titles name machines from records: text, never markup
    svg = re.sub(r'<svg([^>]*?) width="[^"]*" height="[^"]*"',
                 lambda m: f'<svg{m.group(1)} role="img" aria-label="{label}" class="evc-chart"', svg, count=1)
    figure = f'<figure class="evc-figure">\n{svg}\n<figcaption>{label}.</figcaption>\n</figure>\n'
    # Inside a tab the figure is indented, and Markdown reads its text: a record's [x](url) in a
    # label must not become a link there, nor its backticks a code span over the SVG's tags
    # (matplotlib's SVG itself has neither).
    return figure.replace("[", "&#91;").replace("]", "&#93;").replace("`", "&#96;")


NEUTRAL = "#757575"  # a difference inside the noise: neither green nor red


def _log_axis(ax, left: float, right: float) -> None:
    """A log x axis from `left` to `right` with plain tick labels (0.5, 1, 2, 5, 10 ...)."""
    from matplotlib.ticker import FixedLocator, NullFormatter, NullLocator

    ax.set_xscale("log")
    ax.set_xlim(left, right)
    ticks = [t for t in (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500) if left <= t <= right]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xticklabels([f"{t:g}" for t in ticks])


def bars(rows: list[tuple], title: str, xlabel: str, salt: str, unit: str = "×", baseline: float | None = 1.0) -> str:
    """Horizontal bars, one per (label, value[, (low, high)]); value None = failed / not measured.

    With an interval the bar is green or red only when the interval lies wholly above or below the
    baseline, grey when it straddles it, and a whisker shows it. A log axis is used when the values
    span more than 10×, so that one large value does not flatten the others."""
    labels = [r[0] for r in rows][::-1]
    values = [r[1] for r in rows][::-1]
    cis = [(r[2] if len(r) > 2 else None) for r in rows][::-1]
    got = [v for v in values if v]
    log = len(got) > 1 and min(got) > 0 and max(got) / min(got) > 10
    with _figure(salt, 7.2, 0.42 * len(rows) + 1.3) as (fig, ax):
        left = min([v for v in got] + [ci[0] for ci in cis if ci] + [baseline or 1]) / 1.5 if log else 0
        for y, (v, ci) in enumerate(zip(values, cis)):
            if not v:
                ax.text(left or 0, y, " " + tr("not measured"), va="center", fontsize=10)
                continue
            lo, hi = ci if ci else (v, v)
            above, below = (lo > baseline, hi < baseline) if baseline is not None else (True, False)
            color = GOOD if above else BAD if below else NEUTRAL
            ax.barh([y], [v - left], left=left, color=color, height=0.7)
            if ci:
                ax.errorbar([v], [y], xerr=[[v - lo], [hi - v]], fmt="none", ecolor=INK, capsize=3, linewidth=1)
            ax.text(hi, y, f" {v:.2f}{unit}", va="center", fontsize=10)
        ax.set_yticks(range(len(labels)), labels)
        if baseline is not None:
            ax.axvline(baseline, color=INK, linewidth=1, linestyle="--")
        ax.set_xlabel(xlabel)
        top = max([v for v in got] + [ci[1] for ci in cis if ci] + [baseline or 0] + [1])
        if log:
            _log_axis(ax, left, top * 2.5)
        else:
            ax.set_xlim(0, top * 1.3)
        return _svg(fig, ax, title)


def paired_bars(rows: list[tuple[str, float | None, float | None]], title: str, xlabel: str, salt: str,
                names: tuple[str, str] | None = None) -> str:
    """Two bars per row (e.g. eager and compiled peak memory)."""
    names = names or ("eager", tr("compiled"))
    with _figure(salt, 6.4, 0.6 * len(rows) + 1.4) as (fig, ax):
        n = len(rows)
        ys = list(range(n))[::-1]
        a = [r[1] or 0 for r in rows]
        b = [r[2] or 0 for r in rows]
        ax.barh([y + 0.2 for y in ys], a, height=0.38, color=EAGER, label=names[0])
        ax.barh([y - 0.2 for y in ys], b, height=0.38, color=COMPILED, label=names[1])
        for y, v1, v2 in zip(ys, a, b):
            ax.text(v1, y + 0.2, f" {v1:.0f}" if v1 else " —", va="center", fontsize=9)
            ax.text(v2, y - 0.2, f" {v2:.0f}" if v2 else " —", va="center", fontsize=9)
        ax.set_yticks(ys, [r[0] for r in rows])
        ax.set_xlabel(xlabel)
        ax.set_xlim(0, max(a + b + [1]) * 1.2)
        ax.legend(loc="lower right")
        return _svg(fig, ax, title)


def amortisation(eager_s: float, compiled_s: float, compile_s: float, breakeven: float | None,
                 title: str, salt: str) -> str:
    """Cumulative time vs calls: eager from 0, compiled from its compile time; they cross at break-even."""
    horizon = (breakeven * 2.2) if breakeven else max(compile_s / max(eager_s, 1e-12), 10) * 1.5
    xs = [horizon * i / 50 for i in range(51)]
    with _figure(salt, 6.4, 3.6) as (fig, ax):
        ax.plot(xs, [x * eager_s for x in xs], color=EAGER, label="eager")
        ax.plot(xs, [compile_s + x * compiled_s for x in xs], color=COMPILED,
                label=tr("compiled (cold compile first)"), linestyle="-.")
        if breakeven:
            ax.axvline(breakeven, color=INK, linewidth=1, linestyle="--")
            ax.text(breakeven, compile_s * 0.35, " " + tr("break-even ≈ {n} calls", n=f"{breakeven:,.0f}"), fontsize=10)
        ax.set_xlabel(tr("calls"))
        ax.set_ylabel(tr("cumulative seconds"))
        ax.set_xlim(0, horizon)
        ax.set_ylim(0, None)
        ax.legend(loc="upper left")
        return _svg(fig, ax, title)


def lines(series: dict[str, list[tuple[float, float]]], title: str, xlabel: str, ylabel: str, salt: str,
          logx: bool = True) -> str:
    """One line with markers per series name; points are (x, y)."""
    styles = [(EAGER, "o", "-"), (COMPILED, "s", "-."), (GOOD, "^", ":"), (BAD, "d", "--")]
    with _figure(salt, 6.4, 3.8) as (fig, ax):
        for (name, pts), (color, marker, style) in zip(series.items(), styles):
            pts = sorted(p for p in pts if p[1] is not None)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=color, marker=marker,
                    linestyle=style, label=name)
        if logx:
            ax.set_xscale("log", base=2)
            ticks = sorted({p[0] for pts in series.values() for p in pts})
            ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.set_ylim(0, None)
        ax.legend(loc="upper left")
        return _svg(fig, ax, title)


def roofline(peak_tflops: float, bandwidth_gb_s: float, points: list[tuple[str, float, float]],
             title: str, salt: str) -> str:
    """Log-log roofline: min(peak, bandwidth × intensity), and (label, FLOP/byte, TFLOP/s) points."""
    xs = [p[1] for p in points] or [1.0]
    lo, hi = min(xs + [1.0]) / 4, max(xs + [peak_tflops * 1e12 / (bandwidth_gb_s * 1e9)]) * 4
    grid = [lo * (hi / lo) ** (i / 60) for i in range(61)]
    with _figure(salt, 6.4, 4.0) as (fig, ax):
        ax.plot(grid, [min(peak_tflops, bandwidth_gb_s * 1e9 * x / 1e12) for x in grid], color=INK,
                label=tr("roof: measured matmul peak and copy bandwidth"))
        markers = ["o", "s", "^", "d", "v", "P", "X", "*"]
        for (label, x, y), marker in zip(points, markers * 4):
            ax.plot([x], [y], marker=marker, linestyle="none", label=label, markersize=8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel(tr("arithmetic intensity (FLOP per byte of eager traffic)"))
        ax.set_ylabel("TFLOP/s")
        ax.legend(loc="lower right", fontsize=9)
        return _svg(fig, ax, title)


SERIES = [EAGER, COMPILED, GOOD, "#6a1b9a", "#00838f", "#5d4037"]  # one colour per series (release)
HATCHES = ["", "//", "..", "xx", "\\\\", "--"]  # and a pattern, so no reader depends on colour


def grouped_bars(rows: list[str], series: dict[str, list[tuple[float, float, float] | None]], title: str,
                 xlabel: str, salt: str, baseline: float | None = 1.0) -> str:
    """Horizontal bars, one group per row label and one bar per series (e.g. per torch release).

    Each value is (point, low, high) drawn with its interval as an error bar, or None (not
    measured). A log axis is used when the values span more than 10×, so small bars stay readable."""
    names = list(series)
    k = max(len(names), 1)
    height = 0.8 / k
    with _figure(salt, 7.2, (0.3 + 0.24 * k) * len(rows) + 1.6) as (fig, ax):
        ys = list(range(len(rows)))[::-1]
        points = [v[0] for vals in series.values() for v in vals if v]
        lows = [v[1] for vals in series.values() for v in vals if v]
        log = bool(points) and min(lows) > 0 and max(points) / min(points) > 10
        left = min(lows) / 1.5 if log else 0  # a log axis has no zero: bars start below the smallest
        for j, name in enumerate(names):
            labelled = False
            offs = [y + (k - 1) / 2 * height - j * height for y in ys]
            for y, v in zip(offs, series[name]):
                if v is None:
                    ax.text(left or (baseline or 0), y, f" {name}: " + tr("not measured"), va="center", fontsize=8)
                    continue
                point, lo, hi = v
                ax.barh([y], [point - left], left=left, height=height * 0.9, color=SERIES[j % len(SERIES)],
                        hatch=HATCHES[j % len(HATCHES)], edgecolor=INK, linewidth=0.3,
                        label=None if labelled else name)
                ax.errorbar([point], [y], xerr=[[max(point - lo, 0)], [max(hi - point, 0)]], fmt="none",
                            ecolor=INK, capsize=2, linewidth=1)
                labelled = True
                ax.text(hi, y, f" {point:.2f}", va="center", fontsize=9)
        if baseline is not None:
            ax.axvline(baseline, color=INK, linewidth=1, linestyle="--")
        if log:
            _log_axis(ax, left, max(points) * 2.5)
        else:
            ax.set_xlim(0, max(points + [baseline or 0]) * 1.25 if points else 1)
        ax.set_yticks(ys, rows)
        ax.set_xlabel(xlabel)
        ax.legend(loc="lower right", fontsize=9)
        return _svg(fig, ax, title)
