"""Throughput (throughput.py): the cores split every way into worker processes that start together,
each checked against eager first; the record it writes loads as any record, and the page says latency
and throughput apart."""
import pytest

from eager_vs_compiled import records, throughput


@pytest.mark.parametrize("cores, expected", [(1, [1]), (2, [1, 2]), (6, [1, 2]), (8, [1, 2, 4, 8])])
def test_the_cores_split_evenly_into_streams(cores, expected):
    assert throughput.splits(cores) == expected


@pytest.mark.slow
def test_a_throughput_record_of_the_tiny_op_holds_each_modes_best_split(tmp_path, monkeypatch):
    said = []
    path = throughput.measure("tiny_op", ["default"], tmp_path, said.append, rounds_n=2, window_s=0.3)
    rec = records.load(path)  # the schema holds
    assert path.parent.name == throughput.KIND and [r.mode for r in rec.results] == ["eager", "default"]
    for r in rec.results:
        assert r.status == "ok" and len(r.samples_s) == 2 and r.throughput > 0, r
        assert "worker process" in r.message and r.processes[0]["protocol"].endswith("streams")
    assert rec.result("default").max_rel_err is not None  # every worker checked its answer against eager
    assert any("cold process" in s for s in said) and any("round 2" in s for s in said)
