"""Page builders, one module per docs section: Markdown and SVG strings generated from records and
snippet runs. A page asks for one in a line of its own, `{{ snippet("how-to/x.py") }}`, which the
build hook expands with `directive`; markdown-exec blocks may call the same functions."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

def docs_root() -> Path:
    """The pages this build renders (the hook anchors them at its docs_dir; `docs` beside the checkout)."""
    from .. import paths

    return paths.docs()


# directive name -> "module:function" under eager_vs_compiled
DIRECTIVES = {
    "snippet": "pages.code:snippet", "snippet_index": "pages.code:snippet_index",
    "symptom": "pages.troubleshooting:symptom", "error_index": "pages.troubleshooting:error_index",
    "workload": "pages.benchmarks:workload", "family": "pages.benchmarks:family",
    "overview_speedups": "pages.benchmarks:overview_speedups",
    "overview_memory": "pages.benchmarks:overview_memory", "amortisation": "pages.benchmarks:amortisation",
    "compile_times": "pages.benchmarks:compile_times", "pointwise": "pages.benchmarks:pointwise",
    "best_recipe": "pages.recipe:ranking", "recipe_profile": "pages.recipe:where_the_time_goes", "timer_agreement": "pages.methodology:timer_agreement",
    "harness_settings": "pages.methodology:harness_settings", "protocols": "pages.methodology:protocols",
    "calibration": "pages.methodology:calibration", "slow_processes": "pages.methodology:slow_processes",
    "term_choice": "pages.methodology:term_choice",
    "run_term": "pages.methodology:run_term",
    "run_speed": "pages.methodology:run_speed", "host_fit": "pages.hostfit:table",
    "headline": "pages.home:headline", "speedup_chart": "pages.home:speedup_chart",
    "machines": "pages.machines:machines", "record_outline": "pages.machines:record_outline",
    "build_machine": "pages.machines:build_machine", "needs_gpu": "pages.machines:needs_gpu",
    "releases": "pages.releases:compare", "releases_summary": "pages.releases:summary",
    "evidence": "pages.claims:evidence", "claims_rules": "pages.claims:rules",
    "claims_table": "pages.claims:table", "claims_tally": "pages.claims:tally",
    "model_report": "pages.report:model_report",
    "glossary": "pages.glossary:glossary",
    "engines_table": "pages.engines:table", "engines_verdict": "pages.engines:conclusion",
    "engines_summary": "pages.engines:summary", "engines_chart": "pages.engines:chart",
    "engines_interference": "pages.interference:table",
    "engines_throughput": "pages.throughput:table", "engines_footprint": "pages.deployment:table",
}


def directive(name: str, args: str) -> str:
    """Render `name(args)`: the arguments, positional or keyword, are Python literals."""
    if name not in DIRECTIVES:
        raise KeyError(f"unknown directive {name!r}; known: {', '.join(sorted(DIRECTIVES))}")
    try:
        call = ast.parse(f"f({args})", mode="eval").body
        values = [ast.literal_eval(a) for a in call.args]
        keywords = {k.arg: ast.literal_eval(k.value) for k in call.keywords}
    except (ValueError, SyntaxError) as err:
        raise ValueError(f"arguments must be Python literals, not {args!r} ({err})") from None
    module, function = DIRECTIVES[name].split(":")
    return getattr(importlib.import_module(f"eager_vs_compiled.{module}"), function)(*values, **keywords)
