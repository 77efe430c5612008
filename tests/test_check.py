"""The correctness check before timing (child._check): compiled against eager, outputs and gradients,
on tiny real tensors. Errors are relative to the largest magnitude of eager's values, as child.py
computes them; the expected errors below are worked out by hand."""
import pytest
import torch

from eager_vs_compiled import child
from eager_vs_compiled.records import ModeResult

TOLERANCE = 1e-3
EAGER_OUT = torch.tensor([1.0, -2.0, 4.0])  # largest magnitude 4


def checked(pairs, tolerance: float = TOLERANCE) -> ModeResult:
    result = ModeResult("default", "ok")
    child._check(result, pairs, tolerance)
    return result


def test_an_output_off_by_more_than_the_tolerance_is_a_mismatch_naming_the_error():
    got = torch.tensor([1.0, -2.0, 4.0625])  # off by 1/16 on a scale of 4: relative error 1/64
    result = checked([(got, EAGER_OUT)])
    assert result.status == "mismatch"
    assert result.message == "outputs: max relative error 1.56e-02 > tolerance 1e-03"
    assert result.max_abs_err == 0.0625 and result.max_rel_err == 0.015625


def test_an_output_within_the_tolerance_stays_ok_with_its_error_recorded():
    got = torch.tensor([1.0, -2.0, 4.00390625])  # off by 1/256 on a scale of 4: 1/1024, under 1e-3
    result = checked([(got, EAGER_OUT)])
    assert result.status == "ok" and result.message == ""
    assert result.max_rel_err == 2**-10


def test_an_error_equal_to_the_tolerance_is_still_ok():
    got = torch.tensor([1.0, -2.0, 4.00390625])  # relative error exactly 2**-10
    assert checked([(got, EAGER_OUT)], tolerance=2**-10).status == "ok"
    assert checked([(got, EAGER_OUT)], tolerance=2**-11).status == "mismatch"


def _linear_grads(bump: float = 0.0) -> list[torch.Tensor]:
    """Gradients of sum(Linear(x)) for x = [[1, 2]]: weight [[1, 2]], bias [1]; `bump` is added to
    the weight's second gradient, as a wrong compiled backward would."""
    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 1)
    layer(torch.tensor([[1.0, 2.0]])).sum().backward()
    weight, bias = layer.weight.grad.clone(), layer.bias.grad.clone()
    weight[0, 1] += bump
    return [weight, bias]


def test_gradients_off_by_twice_the_tolerance_are_a_mismatch_though_the_outputs_agree():
    eager_grads = _linear_grads()
    assert [g.tolist() for g in eager_grads] == [[[1.0, 2.0]], [1.0]]
    # off by 1/256 on a largest gradient of 2: relative error 1/512, about twice the tolerance
    wrong = _linear_grads(bump=2**-8)
    result = checked([(EAGER_OUT.clone(), EAGER_OUT), (wrong, eager_grads)])
    assert result.status == "mismatch"
    assert result.message == "outputs or gradients: max relative error 1.95e-03 > tolerance 1e-03"
    assert result.max_rel_err == 2**-9


def test_gradients_that_agree_leave_the_mode_ok():
    result = checked([(EAGER_OUT.clone(), EAGER_OUT), (_linear_grads(), _linear_grads())])
    assert result.status == "ok" and result.max_rel_err == 0.0


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_non_finite_gradient_is_a_mismatch_with_no_error_figure(bad):
    wrong = _linear_grads(bump=bad)
    result = checked([(EAGER_OUT.clone(), EAGER_OUT), (wrong, _linear_grads())])
    assert result.status == "mismatch"
    assert result.message == "outputs or gradients: NaN or inf where eager's are finite"
    assert result.max_rel_err is None and result.max_abs_err is None


def test_a_nan_in_any_leaf_of_a_tuple_output_is_a_mismatch():
    # Python's max() keeps its first argument when comparing with a NaN: a NaN in the second output
    # must not hide behind the first output's error of 0
    got = (EAGER_OUT.clone(), torch.tensor([float("nan"), 1.0]))
    result = checked([(got, (EAGER_OUT, torch.tensor([1.0, 1.0])))])
    assert result.status == "mismatch"
    assert result.message == "outputs: NaN or inf where eager's are finite"


def test_an_all_zero_eager_output_makes_the_error_absolute():
    # no magnitude to be relative to: the scale is 1, so the relative error is the absolute one
    assert child._max_errors(torch.tensor([0.0, 0.25]), torch.tensor([0.0, 0.0])) == (0.25, 0.25)
    assert child._max_errors((torch.tensor([0.5]), torch.tensor([1.0])), (torch.tensor([0.0]), torch.tensor([0.0]))) \
        == (1.0, 1.0)
