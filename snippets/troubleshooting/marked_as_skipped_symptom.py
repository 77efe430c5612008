"""Symptom: `fullgraph=True` refuses a call Dynamo skips on purpose: `warnings.warn`, or a torch helper."""
# expects: ^torch\._dynamo\.exc\.Unsupported: Attempted to call function marked as skipped$
import contextlib
import io
import traceback
import warnings

import torch


def scale(x):
    y = x.sin()
    warnings.warn("scale() is deprecated: multiply by 0.5 instead")  # library code often warns like this
    return y * 0.5


def jitter(x):  # a data-pipeline step that knows which DataLoader worker runs it
    y = x.sin()
    info = torch.utils.data.get_worker_info()  # None in the main process
    return y + (0 if info is None else info.seed)


x = torch.randn(8)
raised = []
for fn in (scale, jitter):
    try:
        torch.compile(fn, fullgraph=True)(x)
    except torch._dynamo.exc.Unsupported as err:
        print("".join(traceback.format_exception_only(err)), end="\n")  # as a traceback ends
        raised.append(str(err))
    else:
        raise AssertionError(f"{fn.__name__} compiled into one graph: the symptom is gone in this torch")

# The default fullgraph=False does not raise: each call is a graph break, and the run goes on.
for fn in (scale, jitter):
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        found = torch._dynamo.explain(fn)(x)
    print(f"{fn.__name__} with fullgraph=False: graph breaks {found.graph_break_count}, "
          f"reason: {found.break_reasons[0].reason.splitlines()[0]}")
    assert found.graph_break_count == 1

assert all(m.startswith("Attempted to call function marked as skipped") for m in raised)
assert "_warnings.warn" in raised[0] and "dont_skip_tracing" in raised[1]
