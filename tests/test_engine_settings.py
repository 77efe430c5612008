"""Every engine setting the harness states (engines.settings) is the one the engine runs with: each
engine builds a tiny model as the harness does (engines.convert) and the setting is read back from the
engine's own API, not from our code. The "How" column says each of them, with the vendor's page, and
every mode is timed on the caller's float32, contiguous input (recipes.adapt_inputs)."""
import importlib.util

import pytest
import torch

from eager_vs_compiled import child, engines, models, recipes, workloads
from eager_vs_compiled.pages import engines as page


def _tiny():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU()).eval(), (torch.randn(2, 8),)


def _convert(engine, knobs, tmp_path, protocol="alone"):
    if importlib.util.find_spec(engines.NEEDS[engine][0] if engines.NEEDS[engine] else "torch") is None:
        pytest.skip(f"{engine} is not installed")
    module, inputs = _tiny()
    with torch.no_grad():
        run = engines.convert(engine, frozenset(knobs), module, inputs, tmp_path, "tiny", protocol)
        torch.testing.assert_close(run(*inputs), module(*inputs))  # it computes what eager does
    return run


@pytest.mark.parametrize("protocol, spin", [("alone", "1"), ("interleaved", "0")])
def test_onnxruntime_spins_as_its_documentation_defaults_unless_eager_shares_the_process(tmp_path, protocol, spin):
    import onnxruntime as ort

    options = _convert("onnxruntime", (), tmp_path, protocol).session.get_session_options()
    stated = engines.settings("onnxruntime", frozenset(), protocol)
    for key in ("session.intra_op.allow_spinning", "session.inter_op.allow_spinning"):
        assert options.get_session_config_entry(key) == stated[key] == spin
    assert options.graph_optimization_level == getattr(ort.GraphOptimizationLevel, stated["graph_optimization_level"])
    assert options.intra_op_num_threads == torch.get_num_threads()


@pytest.mark.parametrize("knobs, static", [((), True), (("dynamic",), False)])
def test_openvino_shapes_precision_hint_and_pinning_read_back_from_the_compiled_model(tmp_path, knobs, static):
    compiled = _convert("openvino", knobs, tmp_path).compiled
    stated = engines.settings("openvino", frozenset(knobs))
    assert stated["input shapes"] == ("static" if static else "dynamic")
    assert [i.get_partial_shape().is_static for i in compiled.inputs] == [static]
    if static:
        assert [list(i.get_partial_shape().to_shape()) for i in compiled.inputs] == [[2, 8]]
    assert compiled.get_property("ENABLE_CPU_PINNING") is stated["ENABLE_CPU_PINNING"] is True
    assert str(compiled.get_property("PERFORMANCE_HINT")) == stated["PERFORMANCE_HINT"] == "LATENCY"
    assert str(compiled.get_property("INFERENCE_PRECISION_HINT")) in ("<Type: 'float32'>", "f32")
    assert compiled.get_property("INFERENCE_NUM_THREADS") == torch.get_num_threads()


@pytest.mark.slow
@pytest.mark.parametrize("freezing", [True, False])
def test_aotinductor_freezing_comes_from_its_inductor_configs_and_shows_in_the_package(tmp_path, freezing):
    # A frozen package holds the weights as its own constants (`_frozen_param…`); an unfrozen one
    # keeps them as the module's parameters, by name. Nothing global is set: the package's configs decide.
    import torch._inductor.config as inductor_config

    assert inductor_config.freezing is False
    package = _convert("aotinductor", ("freezing",) if freezing else (), tmp_path)
    assert engines.settings("aotinductor", frozenset({"freezing"} if freezing else ())) == {"freezing": freezing}
    names = package.get_constant_fqns()
    assert names and all(n.startswith("_frozen_param") == freezing for n in names), names


@pytest.mark.parametrize("mode", ["onnxruntime", "onnxruntime+transformers", "openvino", "openvino+bf16",
                                  "openvino+dynamic", "aotinductor+freezing"])
def test_the_how_column_states_every_setting_and_links_the_vendors_page(mode):
    r = recipes.parse(mode)
    cell = page.how(mode)
    for key, value in engines.settings(r.engine, r.knobs).items():
        assert str(value) in cell, (key, value, cell)
    assert f"({engines.DOCS[r.engine]})" in cell


def test_an_older_record_keeps_the_settings_it_ran_with():
    # Before the spec named each mode's settings, ONNX Runtime ran without spinning and OpenVINO with
    # dynamic shapes: an older record's How column says so, not what this version would do.
    older = type("Rec", (), {"spec": {}})()
    assert "allow_spinning=0" in page.how("onnxruntime", older)
    assert "input shapes left dynamic" in page.how("openvino", older)
    stated = type("Rec", (), {"spec": {"mode_settings": {"onnxruntime": engines.describe("onnxruntime", frozenset())}}})()
    assert "allow_spinning=1" in page.how("onnxruntime", stated)


def test_a_workloads_engine_settings_are_part_of_its_spec():
    w = workloads.get("engines_tiny_op")
    assert w.mode_settings("cpu")["onnxruntime"] == engines.describe("onnxruntime", frozenset())
    assert "mode_settings" not in workloads.get("tiny_op").spec("cpu")  # a workload without engines: unchanged


@pytest.mark.parametrize("knobs", [{"cl"}, {"bf16"}, {"cl", "bf16"}])
def test_a_mode_built_for_another_layout_or_dtype_gets_the_callers_input_converted_in_its_call(knobs):
    w = workloads.get("resnet50_infer_fp32")
    module = torch.nn.Conv2d(3, 4, 3)
    x = torch.randn(2, 3, 8, 8)
    own = models.instantiate(w, module, (x,), torch.device("cpu"), frozenset(knobs)).inputs[0]
    got = recipes.adapt_inputs(frozenset(knobs), "inference", (x,))[0]
    assert x.is_contiguous() and x.dtype == torch.float32  # what the caller holds, and eager takes
    assert got.dtype == own.dtype and got.stride() == own.stride() and torch.equal(got, own)


def test_dynamic_is_a_knob_of_openvino_only():
    assert recipes.unsupported(recipes.parse("openvino+dynamic"), "inference", "cpu") is None or \
        "not installed" in recipes.unsupported(recipes.parse("openvino+dynamic"), "inference", "cpu")
    assert "dynamic" in recipes.unsupported(recipes.parse("default+dynamic"), "inference", "cpu")
    assert "takes no knob dynamic" in recipes.unsupported(recipes.parse("onnxruntime+dynamic"), "inference", "cpu")
    assert "transformer optimizer" in recipes.unsupported(recipes.parse("default+transformers"), "inference", "cpu")
    assert "takes no knob transformers" in recipes.unsupported(recipes.parse("openvino+transformers"), "inference", "cpu")


@pytest.mark.slow
def test_onnxruntime_transformer_optimizer_fuses_attention_and_says_so(tmp_path):
    # ONNX Runtime's documented route for transformer models, over the graph torch.onnx.export gives:
    # the fused operators are read back from the saved model, and the mode still computes what eager does.
    pytest.importorskip("onnxruntime.transformers")
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(32, 4, 64, dropout=0.0, batch_first=True, norm_first=True,
                                             activation="gelu").eval()
    x = torch.randn(2, 5, 32)
    with torch.no_grad():
        run = engines.convert("onnxruntime", frozenset({"transformers"}), layer, (x,), tmp_path, "block")
        torch.testing.assert_close(run(x), layer(x), rtol=1e-4, atol=1e-4)
    fused = engines.fused_operators(tmp_path)
    assert fused["SkipLayerNormalization"] and fused["Gelu"], fused
    # What the compile-or-convert page says: on the graph torch.onnx.export (dynamo=True) gives, ONNX
    # Runtime's fusions find no attention to fuse, heads and width given or not. Should a release find
    # it, this fails, and the page's sentence is to be rewritten.
    assert fused["Attention"] + fused["MultiHeadAttention"] == 0, fused
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".onnx") == ["model.onnx"]  # only what ships


def test_the_idle_protocol_times_eager_with_the_mode_loaded_then_the_mode(monkeypatch):
    from eager_vs_compiled.records import ModeResult

    calls = []
    cfg = {**child.timing.TIMING["cpu"], "n_min": 3, "n_max": 3, "budget_s": 0.01, "min_sample_s": 0.0}
    result = ModeResult("onnxruntime", "ok", threads=1)
    eager = child._timed("idle", result, lambda *_: calls.append("e"), lambda *_: calls.append("m"), (),
                         (lambda: None, cfg, "rerun"))
    assert "".join(calls).rstrip("m").replace("e", "") == ""  # every eager call before the first mode call
    assert len(eager.samples_s) == len(result.eager_samples_s) == result.processes[0]["eager_n"] == 3
    assert len(result.samples_s) == 3 and "loaded and idle" in eager.message
    assert result.processes[0]["protocol"] == "idle" and eager.processes[0]["n"] == 3
    assert "eager_n" not in eager.processes[0]  # eager's own entry, not a copy of the mode's


def test_the_interference_table_judges_each_condition_by_its_interval():
    from eager_vs_compiled import stats
    from eager_vs_compiled.pages import interference

    same = stats.ratio_interval([1.0, 1.02, 0.99], [1.01, 0.98, 1.0])
    slower = stats.ratio_interval([1.30, 1.32, 1.29], [1.01, 0.98, 1.0])
    assert same[1] < 1 < same[2] and "no measurable difference" in interference._moved(same)
    assert slower[1] > 1 and "eager slower" in interference._moved(slower)
    with pytest.raises(ValueError, match="two processes on each side"):
        stats.ratio_interval([1.0], [1.0, 1.1])
