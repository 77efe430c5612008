"""print() and breakpoint() split a compiled function in two; four ways to look inside instead."""
import re
import sys

import torch

frames = []  # a stand-in for pdb: record the frame breakpoint() would open, never stop in it
sys.breakpointhook = lambda *a, **k: frames.append(sorted(sys._getframe(1).f_locals))


def with_print(x):
    h = torch.sin(x) * 2
    print("    print   : h.mean() =", h.mean())
    return torch.cos(h) + 1


def with_breakpoint(x):
    h = torch.sin(x) * 2
    breakpoint()  # noqa: T100 - the point of the example; the hook above records, never stops
    return torch.cos(h) + 1


def with_hop_print(x):
    h = torch.sin(x) * 2
    torch._higher_order_ops.print("    hop print: h.mean() = {}", h.mean())  # a graph op
    return torch.cos(h) + 1


torch.manual_seed(0)
x = torch.randn(64)
graphs = {}


def explain(label, fn):
    print(label)
    torch._dynamo.reset()
    report = torch._dynamo.explain(fn)(x)  # traces and runs fn once, counting graphs
    graphs[label] = (report.graph_count, report.graph_break_count)
    print(f"    graphs={report.graph_count}, graph breaks={report.graph_break_count}")
    for reason in report.break_reasons:
        first = reason.reason.strip().splitlines()[0]
        print(f"    break reason: {first}", *re.findall(r"operator (`\w+`)", reason.reason))


explain("1. print() inside the compiled function", with_print)
explain("2. breakpoint() inside the compiled function", with_breakpoint)
print("    locals breakpoint() sees:", frames[-1])

print("3. the same function under set_stance('force_eager')")
with torch.compiler.set_stance("force_eager"):  # every torch.compile ignored: plain Python
    torch.compile(with_breakpoint)(x)
print("    locals breakpoint() sees:", frames[-1])

torch._dynamo.config.reorderable_logging_functions.add(print)  # print moved after the graph
explain("4. print() in reorderable_logging_functions", with_print)
torch._dynamo.config.reorderable_logging_functions.discard(print)
explain("5. torch._higher_order_ops.print instead of print()", with_hop_print)

counts = list(graphs.values())
assert counts[0] == counts[1] == (2, 1), counts  # print and breakpoint: two graphs, one break
assert "h" not in frames[0] and "h" in frames[1]  # compiled: h lives in the graph, not the frame
assert counts[2] == counts[3] == (1, 0), counts  # both logging alternatives: one graph
