"""What breaks when a model leaves torch: a branch on the data, another input shape, a silent precision."""
# requires: onnxruntime, openvino
import logging
import re
import tempfile
import warnings

import onnxruntime
import openvino
import torch

warnings.filterwarnings("ignore")
logging.disable(logging.WARNING)  # the exporters log the failing graph; their exception says it in one line
DIR = tempfile.mkdtemp()  # the exported files
POS, NEG = torch.ones(2, 4), -torch.ones(2, 4)


class Gate(torch.nn.Module):
    def forward(self, x):
        if x.sum() > 0:  # a branch on the data, not on shapes
            return x * 2
        return x + 1


def first_line(e: Exception, lines: int = 1) -> str:
    text = re.sub(r"\x1b\[[0-9;]*m", "", " ".join(str(e).strip().splitlines()[:lines]))  # no terminal colours
    return f"{type(e).__name__}: {text}"


gate = Gate().eval()
graphs = []
compiled = torch.compile(gate, backend=lambda gm, ex: graphs.append(gm) or gm.forward)
assert torch.equal(compiled(POS), gate(POS)) and torch.equal(compiled(NEG), gate(NEG))
print(f"torch.compile: runs both branches, {len(graphs)} graphs (a graph break at the `if`)")
errors = {}
for name, export in (("torch.export.export", lambda: torch.export.export(gate, (POS,))),
                     ("torch.onnx.export", lambda: torch.onnx.export(gate, (POS,), f"{DIR}/gate.onnx",
                                                                      dynamo=True, verbose=False))):
    try:
        export()
    except Exception as e:  # noqa: BLE001 (the exporter's own error is the point)
        errors[name] = first_line(e)
        print(f"{name}: fails with {errors[name]}")
        if e.__cause__ is not None:  # torch.onnx wraps torch.export's error
            print(f"    caused by {first_line(e.__cause__)}")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ov_gate = openvino.Core().compile_model(openvino.convert_model(gate, example_input=POS), "CPU")
tracer = [str(w.message).split(".")[0] for w in caught if type(w.message).__name__ == "TracerWarning"]
print(f"openvino.convert_model traces the module: no error, only warnings, e.g. TracerWarning: {tracer[0]}")
got_pos, got_neg = (torch.from_numpy(ov_gate(x.numpy())[0]) for x in (POS, NEG))
print(f"  then runs: x > 0: {got_pos[0, 0]:g} (eager {gate(POS)[0, 0]:g}), "
      f"x < 0: {got_neg[0, 0]:g} (eager {gate(NEG)[0, 0]:g}): it traced one branch and kept it")
# (b) exported at batch 2, called at batch 3
model = torch.nn.Linear(4, 3).eval()
x2, x3 = torch.randn(2, 4), torch.randn(3, 4)
with torch.no_grad():
    torch.onnx.export(model, (x2,), f"{DIR}/static.onnx", dynamo=True, verbose=False, input_names=["x"])
    static = onnxruntime.InferenceSession(f"{DIR}/static.onnx", providers=["CPUExecutionProvider"])
    batch_error = ""
    try:
        static.run(None, {"x": x3.numpy()})
    except Exception as e:  # noqa: BLE001
        batch_error = first_line(e, lines=2)
    print(f"ONNX Runtime, exported at batch 2, called at batch 3: {batch_error}")
    torch.onnx.export(model, (x2,), f"{DIR}/dynamic.onnx", dynamo=True, verbose=False, input_names=["x"],
                      dynamic_shapes={"input": {0: torch.export.Dim("batch")}})
    dynamic = onnxruntime.InferenceSession(f"{DIR}/dynamic.onnx", providers=["CPUExecutionProvider"])
    out3 = torch.from_numpy(dynamic.run(None, {"x": x3.numpy()})[0])
    print(f"with dynamic_shapes={{'input': {{0: Dim('batch')}}}}: batch 3 runs, output {tuple(out3.shape)}")
    torch.testing.assert_close(out3, model(x3), rtol=1e-5, atol=1e-6)
    ov_model = openvino.convert_model(model, example_input=x2)
print(f"OpenVINO's converted input shape: {ov_model.inputs[0].get_partial_shape()} (? = dynamic, by default)")
hint = openvino.Core().get_property("CPU", "INFERENCE_PRECISION_HINT").get_type_name()
print(f"OpenVINO's CPU default INFERENCE_PRECISION_HINT here: {hint} (unless you state f32 or bf16)")

assert len(graphs) >= 2, "torch.compile split the function at the data-dependent branch"
assert set(errors) == {"torch.export.export", "torch.onnx.export"}, errors
assert torch.equal(got_pos, gate(POS)) and not torch.equal(got_neg, gate(NEG)), "OpenVINO kept one branch"
assert tracer and ov_model.inputs[0].get_partial_shape().is_dynamic and "dimensions" in batch_error
