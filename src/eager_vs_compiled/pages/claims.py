"""The claims page: one line of measured evidence per claim, from this machine's records."""

from __future__ import annotations


from .. import workloads
from . import docs_root
from .context import current, fresh_record, measure_command
from .lang import is_zh, tr
from .provenance import best, esc, speedup, verdict, fmt_bytes, fmt_time, shown
from .tables import RSS_KINDS


def evidence(workload_name: str, what: str = "speedup", mode: str | None = None) -> str:
    """A speedup, the compile time or the peak memory of one compiled mode (default: the fastest),
    with where it was measured."""
    rec = fresh_record(workload_name)
    if rec is None:
        return tr("{name}: not measured on this machine ({command})", name=f"`{workload_name}`",
                  command=measure_command(workload_name))
    r = rec.result(mode) if mode else best(rec)
    where = tr("measured on `{slug}`, {date}, torch {torch}, [table](../benchmarks/{family}.md)",
               slug=esc(rec.machine.get("slug")), date=esc(rec.date[:10]), torch=esc(rec.versions.get("torch")),
               family=workloads.get(workload_name).family)
    if r is None or r.status != "ok":
        status = r.status if r is not None else tr("no compiled mode finished")
        return tr("{title}: **{status}**, not measured ({where})", title=esc(rec.title), status=esc(status),
                  where=where) + shown(rec).strip()
    if what == "speedup":
        value = tr("{speedup} with `{mode}`, {verdict} (eager {eager} → {compiled})", speedup=speedup(r),
                   mode=esc(r.mode), verdict=verdict(r), eager=fmt_time(r.eager_median_s), compiled=fmt_time(r.median_s))
    elif what == "compile":
        value = tr("compile **{cold}** cold, {warm} warm (`{mode}`)", cold=fmt_time(r.compile_cold_s),
                   warm=fmt_time(r.compile_warm_s), mode=esc(r.mode))
    elif what == "memory":
        eager = rec.result("eager")
        value = tr("peak memory eager {eager}, `{mode}` {compiled}", eager=fmt_bytes(eager.peak_memory_bytes if eager else None),
                   mode=esc(r.mode), compiled=fmt_bytes(r.peak_memory_bytes))
        if r.memory_kind in RSS_KINDS:
            value += tr(" (process peak RSS; the compiled process ran from a warm cache)")
    else:
        raise ValueError(f"unknown evidence kind {what!r}: speedup, compile or memory")
    return f"{esc(rec.title)}: {value}; {where}{shown(rec).strip()}"


# --- verdicts computed from records -------------------------------------------------------------
# Each rule is stated in words on the claims page (RULES) and applied to this machine's records, so
# a rebuild on other hardware, or with another torch, can change the verdict.
MEMORY_NOISE = 0.10  # a peak-memory difference under this fraction is not called a change
RULES = {  # str.format templates ({noise}: MEMORY_NOISE); the Chinese of each is in zh.WORDS
    "range": "a claimed speedup range: **true** when the measured 95% interval lies inside it, **false** "
             "when it lies wholly outside it, **depends** when it overlaps a boundary",
    "faster": "a claim that compiling makes a workload faster: **true** when the interval lies above 1×, "
              "**false** when it lies below, **depends** when it straddles 1×",
    "compare": "a claim that one model gains more than another: **true** when the first one's interval lies "
               "wholly above the second one's, **false** when wholly below, **not shown here** when they overlap",
    "memory": "a claim that compiling lowers peak memory: **true** when the compiled process peaks more than "
              "{noise:.0%} lower than eager's, **false** when more than {noise:.0%} higher, **depends** in between",
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

    rec = fresh_record(name)
    if rec is None:
        return None, None
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
    rec = fresh_record(name)
    if rec is None:
        return "unverifiable"
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
    return "\n".join("- " + tr(text, noise=MEMORY_NOISE) + "." for text in RULES.values()) + "\n"


# --- the claims tables ----------------------------------------------------------------------------
LINKS = {  # the cited sources of the evidence texts in docs/claims/claims.yml
    "PT2": "[PyTorch 2.0 release](https://pytorch.org/blog/pytorch-2.0-release/)",
    "GET": "[PyTorch 2.x get-started page](https://pytorch.org/get-started/pytorch-2.0/)",
    "PAPER": "[PyTorch 2 paper, ASPLOS 2024](https://dl.acm.org/doi/10.1145/3620665.3640366)",
    "HF": "[Hugging Face torch.compile benchmark, A100, torch 2.0.1](https://huggingface.co/docs/transformers/perf_torch_compile)",
    "TIMM": "[timm benchmark results](https://github.com/huggingface/pytorch-image-models/tree/main/results)",
    "JIT": "[TorchScript docs](https://docs.pytorch.org/docs/stable/jit.html)",
    "MINCUT": "[min-cut recomputation in AOTAutograd](https://dev-discuss.pytorch.org/t/min-cut-optimal-recomputation-i-e-activation-checkpointing-with-aotautograd/467)",
    "BUDGET": "[`activation_memory_budget` in torch/_functorch/config.py](https://github.com/pytorch/pytorch/blob/main/torch/_functorch/config.py)",
    "CUDA": "[CUDA semantics: asynchronous execution](https://docs.pytorch.org/docs/stable/notes/cuda.html#asynchronous-execution)",
    "T": "../troubleshooting/",
}
VERDICT_RULES = {"range": range_verdict, "faster": faster_verdict, "compare": compare_verdict,
                 "memory": memory_verdict, "seconds": seconds_verdict, "usually": usually_verdict,
                 "free": free_verdict}


class _Measured(dict):
    """{speed[mlp]} in an evidence text: the evidence line, read from the record when first asked."""

    def __init__(self, what: str):
        super().__init__()
        self.what = what

    def __missing__(self, workload_name: str) -> str:
        self[workload_name] = evidence(workload_name, self.what)
        return self[workload_name]


def _claims() -> dict:
    import yaml

    path = docs_root() / "claims" / "claims.yml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _measured_names() -> list[str]:
    return [w.name for w in workloads.in_profile(current().profile)]


def claim_verdict(claim: dict) -> str:
    """The claim's verdict word (with † when a rule computed it from this build's records)."""
    v = claim["verdict"]
    if isinstance(v, str):
        return v
    args = list(v.get("args", ()))
    if v["rule"] in ("usually", "free"):
        args.insert(0, _measured_names())
    return VERDICT_RULES[v["rule"]](*args)


def _words(verdict_word: str) -> str:
    word, mark = verdict_word.removesuffix(COMPUTED), COMPUTED if verdict_word.endswith(COMPUTED) else ""
    return tr(word) + mark


def table(article: str) -> str:
    """The claims of article "A" or "B": the quote, (in English) what it says, the verdict, the evidence."""
    context = {**LINKS, "speed": _Measured("speedup"), "mem": _Measured("memory"),
               "compile": _Measured("compile"), "mlp_max_autotune": evidence("mlp", "speedup", "max-autotune")}
    zh = is_zh()
    head = ["#", tr("Claim (original)")] + ([] if zh else ["In English"]) + [tr("Verdict"), tr("Evidence")]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for i, claim in enumerate(_claims()[article], 1):
        text = claim["evidence_zh"] if zh else claim["evidence_en"]
        if not text:
            raise ValueError(f"claims.yml, article {article}, claim {i}: no evidence_{'zh' if zh else 'en'}")
        # the source article's words as it wrote them: the Chinese edition's style checks leave a quotation alone
        cells = [str(i), f'<span class="evc-seed-quote">“{claim["quote"]}”</span>'] + ([] if zh else [claim["en"]])
        cells += [f"**{_words(claim_verdict(claim))}**", text.format_map(context)]
        rows.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(rows) + "\n"


def tally() -> str:
    """How many claims got each verdict, and what † means."""
    counts: dict[str, int] = {}
    claims = [c for article in _claims().values() for c in article]
    for claim in claims:
        word = claim_verdict(claim).removesuffix(COMPUTED)
        counts[word] = counts.get(word, 0) + 1
    parts = ", ".join(f"{tr(word)} {n}" for word, n in sorted(counts.items()))
    return (tr("**Tally** of the {n} claims: {parts}.", n=len(claims), parts=parts) + "\n\n"
            + tr("† A verdict computed from this build's records by the rules under [how the verdicts are "
                 "computed](index.md#how-the-verdicts-are-computed); the others rest on the cited sources.") + "\n")
