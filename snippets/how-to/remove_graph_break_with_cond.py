"""Find a graph break with torch._dynamo.explain, then remove it with torch.cond."""
import torch


def branchy(x):
    # Python `if` on a tensor value: Dynamo cannot know the branch while tracing,
    # so it ends the graph here (a graph break) and resumes in a second graph.
    if x.sum() > 0:
        return torch.sin(x) * 2
    return torch.cos(x) / 2


def with_cond(x):
    # torch.cond puts both branches in the graph; the choice happens at run time.
    return torch.cond(x.sum() > 0, lambda t: torch.sin(t) * 2, lambda t: torch.cos(t) / 2, (x,))


x = torch.randn(64)

before = torch._dynamo.explain(branchy)(x)
print(f"with `if`:        graphs={before.graph_count}, graph breaks={before.graph_break_count}")
for reason in before.break_reasons:
    print("  break reason:", reason.reason.strip().splitlines()[0])

after = torch._dynamo.explain(with_cond)(x)
print(f"with torch.cond:  graphs={after.graph_count}, graph breaks={after.graph_break_count}")

compiled = torch.compile(with_cond, fullgraph=True)  # fullgraph=True: fail loudly on any break
for sample in (x, -x.abs()):  # exercise both branches
    torch.testing.assert_close(compiled(sample), branchy(sample))
print("torch.cond version matches eager on both branches")

assert before.graph_break_count == 1 and after.graph_break_count == 0
assert after.graph_count == 1
