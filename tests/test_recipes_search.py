"""The recipe search: every recipe is checked for correctness against fp32 eager on a tiny model;
a recipe this machine cannot run is recorded as skipped with the reason, never dropped."""
import pytest
import torch

from eager_vs_compiled import child, measure, models, recipes, workloads


def _tiny(step: str) -> workloads.Workload:
    w = workloads.Workload(
        name=f"small_cnn_{step}", family="resnet", title="a small CNN", about="test", builder=models.small_cnn,
        sizes={"cpu": {"batch": 2, "image": 16}}, modes={"cpu": ("eager",)}, items="images", step=step)
    workloads.register(w)
    return w


def test_recipe_names_parse_and_unknown_knobs_are_named():
    assert recipes.parse("default+cl+freezing").name == "default+freezing+cl"
    with pytest.raises(ValueError, match=r"unknown knob\(s\) \['turbo'\]"):
        recipes.parse("default+turbo")
    with pytest.raises(ValueError, match="unknown mode 'fast'"):
        recipes.parse("fast+cl")


def test_a_recipe_this_cpu_cannot_run_is_skipped_with_its_reason(monkeypatch):
    monkeypatch.setattr(recipes, "cpu_flags", lambda: {"avx2", "fma"})
    w = workloads.get("resnet50_infer_recipes")
    why = measure._skip(w, "default+freezing+cl+bf16", None, None, "cpu", "cpu")
    assert why and "AMX or AVX512-BF16" in why
    assert "freezing applies to compiled inference only" == measure._skip(_tiny("training"), "default+freezing",
                                                                          None, None, "cpu", "cpu")
    assert "training only" in measure._skip(_tiny("inference"), "default+compiled-optimizer", None, None, "cpu", "cpu")


def test_every_cpu_recipe_of_the_suite_is_planned_or_skipped_with_a_reason():
    w = workloads.get("resnet50_infer_recipes")
    for mode in w.modes["cpu"]:
        recipe = recipes.parse(mode)  # every planned name is a valid recipe
        why = recipes.unsupported(recipe, w.step, "cpu")
        assert why is None or len(why) > 20, (mode, why)
    assert {"freezing", "cl", "bf16", "physical-cores"} <= {k for m in w.modes["cpu"] for k in recipes.parse(m).knobs}
    gpu = workloads.get("resnet50_infer_recipes").modes["gpu"]
    assert {"reduce-overhead+cl+bf16", "max-autotune+cl+bf16", "default+freezing+cl+bf16"} <= set(gpu)


@pytest.mark.slow
@pytest.mark.beside_build
@pytest.mark.parametrize("step, modes", [
    ("inference", workloads.CPU_RECIPES),
    ("training", ("default", "default+compiled-optimizer", "eager+cl", "default+cl+bf16", "default+cl")),
])
def test_every_recipe_matches_fp32_eager_on_a_tiny_model(step, modes, monkeypatch):
    w = _tiny(step)
    monkeypatch.setitem(child.timing.TIMING, "cpu", {**child.timing.TIMING["cpu"], "n_min": 3, "n_max": 3, "budget_s": 0.1})
    for mode in modes:
        if recipes.unsupported(recipes.parse(mode), step, "cpu"):
            continue  # recorded as skipped by the harness (the test above)
        torch._dynamo.reset()
        torch._inductor.config.freezing = False
        got = child._time(w, "cpu", mode, torch.device("cpu"), lambda: None, {})
        if mode != "eager":
            assert got[mode].status == "ok", (mode, got[mode].message)
            assert got[mode].max_rel_err <= recipes.tolerance(recipes.parse(mode), w.tolerance, step)
    torch._inductor.config.freezing = False
