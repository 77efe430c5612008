"""The claims page: one line of measured evidence per claim, from this machine's records."""

from __future__ import annotations

from .. import measure, workloads
from .provenance import best, esc, speedup, verdict, fmt_bytes, fmt_time, shown


def evidence(workload_name: str, what: str = "speedup", mode: str | None = None) -> str:
    """A speedup, the compile time or the peak memory of one compiled mode (default: the fastest),
    with where it was measured."""
    rec = measure.ensure_record(workload_name)
    r = rec.result(mode) if mode else best(rec)
    where = (f"measured on `{rec.machine.get('slug')}`, {rec.date[:10]}, torch {rec.versions.get('torch')}, "
             f"[table](../benchmarks/{workloads.get(workload_name).family}.md)")
    if r is None or r.status != "ok":
        status = r.status if r is not None else "no compiled mode finished"
        return f"{esc(rec.title)}: **{esc(status)}**, not measured ({where}){shown(rec).strip()}"
    if what == "speedup":
        value = (f"{speedup(r)} with `{r.mode}`, {verdict(r)} (eager {fmt_time(r.eager_median_s)} → "
                 f"{fmt_time(r.median_s)})")
    elif what == "compile":
        value = f"compile **{fmt_time(r.compile_cold_s)}** cold, {fmt_time(r.compile_warm_s)} warm (`{r.mode}`)"
    elif what == "memory":
        eager = rec.result("eager")
        value = (f"peak memory eager {fmt_bytes(eager.peak_memory_bytes if eager else None)}, "
                 f"`{r.mode}` {fmt_bytes(r.peak_memory_bytes)}"
                 + (" (process peak RSS; the compiled process ran from a warm cache)"
                    if r.memory_kind == "process_peak_rss" else ""))
    else:
        raise ValueError(f"unknown evidence kind {what!r}: speedup, compile or memory")
    return f"{esc(rec.title)}: {value}; {where}{shown(rec).strip()}"


# --- verdicts computed from records -------------------------------------------------------------
# Each rule is stated in words on the claims page (RULES) and applied to this machine's records, so
# a rebuild on other hardware, or with another torch, can change the verdict.
MEMORY_NOISE = 0.10  # a peak-memory difference under this fraction is not called a change
RULES = {
    "range": "a claimed speedup range: **true** when the measured 95% interval lies inside it, **false** "
             "when it lies wholly outside it, **depends** when it overlaps a boundary",
    "faster": "a claim that compiling makes a workload faster: **true** when the interval lies above 1×, "
              "**false** when it lies below, **depends** when it straddles 1×",
    "compare": "a claim that one model gains more than another: **true** when the first one's interval lies "
               "wholly above the second one's, **false** when wholly below, **not shown here** when they overlap",
    "memory": f"a claim that compiling lowers peak memory: **true** when the compiled process peaks more than "
              f"{MEMORY_NOISE:.0%} lower than eager's, **false** when more than {MEMORY_NOISE:.0%} higher, "
              f"**depends** in between",
    "seconds": "a claimed range of compile times: **true** when the cold compile lies inside it, **false** outside",
    "usually": "a claim about most models: **true** when most measured workloads' best intervals lie wholly "
               "above the claimed speedup, **false** when most lie wholly below it, **depends** otherwise",
    "free": "a claim that compiling never costs: **false** when any measured workload is slower compiled "
            "(interval below 1×) or pays a cold compile, which every one does",
}


COMPUTED = " †"  # marks a verdict computed from records, explained under the claims tables


def _computed(fn):
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs) + COMPUTED
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _interval(name: str, mode: str | None = None):
    from .provenance import interval

    rec = measure.ensure_record(name)
    r = rec.result(mode) if mode else best(rec)
    return (r, interval(r)) if r is not None and r.status == "ok" else (r, None)


@_computed
def range_verdict(name: str, low: float, high: float, mode: str | None = None) -> str:
    _, ci = _interval(name, mode)
    if ci is None:
        return "unverifiable"
    if low <= ci[0] and ci[1] <= high:
        return "true"
    return "false" if ci[1] < low or ci[0] > high else "depends"


@_computed
def faster_verdict(name: str, mode: str | None = None) -> str:
    _, ci = _interval(name, mode)
    if ci is None:
        return "unverifiable"
    return "true" if ci[0] > 1 else "false" if ci[1] < 1 else "depends"


@_computed
def compare_verdict(first: str, second: str) -> str:
    (_, a), (_, b) = _interval(first), _interval(second)
    if a is None or b is None:
        return "unverifiable"
    return "true" if a[0] > b[1] else "false" if a[1] < b[0] else "not shown here"


@_computed
def memory_verdict(name: str) -> str:
    rec = measure.ensure_record(name)
    eager, fastest = rec.result("eager"), best(rec)
    if not (eager and fastest and eager.peak_memory_bytes and fastest.peak_memory_bytes):
        return "unverifiable"
    ratio = fastest.peak_memory_bytes / eager.peak_memory_bytes
    return "true" if ratio < 1 - MEMORY_NOISE else "false" if ratio > 1 + MEMORY_NOISE else "depends"


@_computed
def seconds_verdict(name: str, low_s: float, high_s: float) -> str:
    r, _ = _interval(name)
    if r is None or r.compile_cold_s is None:
        return "unverifiable"
    return "true" if low_s <= r.compile_cold_s <= high_s else "false"


@_computed
def usually_verdict(names: list[str], threshold: float) -> str:
    cis = [ci for ci in (_interval(n)[1] for n in names) if ci]
    above = sum(ci[0] > threshold for ci in cis)
    below = sum(ci[1] < threshold for ci in cis)
    return "true" if above * 2 > len(cis) else "false" if below * 2 > len(cis) else "depends"


@_computed
def free_verdict(names: list[str]) -> str:
    slower = [n for n in names if (ci := _interval(n)[1]) and ci[1] < 1]
    paid = [n for n in names if (r := _interval(n)[0]) is not None and (r.compile_cold_s or 0) > 0]
    return "false" if slower or paid else "true"


def rules() -> str:
    """The rules, as the claims page states them."""
    return "\n".join(f"- {text}." for text in RULES.values()) + "\n"
