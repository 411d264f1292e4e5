"""The native tool's commands as Python calls (sysgym.memtier.estimate, ...)."""

import os

import pytest

import sysgym


def test_a_family_tool_returns_its_json_report():
    report = sysgym.tensorplace.sweep(model="resnet50", batch=8, ratios="0,1:1")
    assert report["model"] == "resnet50" and len(report["rows"]) == 2
    assert "sync" in report["optimizers"]


def test_the_same_report_as_the_command_line(tmp_path):
    out = tmp_path / "pair.bin"
    data = os.environ["SYSGYM_DATA"]
    sysgym.memtier.preprocess(ddr=f"{data}/synth/phased.ddr.csv",
                              hbm=f"{data}/synth/phased.hbm.csv", output=str(out))
    estimate = sysgym.memtier.estimate(input=str(out), hbm_range="0x7f3a00000000:0x7f3a01000000")
    assert estimate == sysgym.run_tool("memtier", "estimate", input=str(out),
                                       hbm_range="0x7f3a00000000:0x7f3a01000000")
    assert estimate["estimated_ms"] > 0


def test_family_namespaces_list_their_tools():
    assert {"estimate", "preprocess", "inspect"} <= set(dir(sysgym.memtier))
    assert {"sweep", "ilp"} <= set(sysgym.tensorplace.tools())
    assert "memtier" in dir(sysgym)
    with pytest.raises(AttributeError):
        sysgym.nosuchfamily


def test_a_failing_tool_raises_the_kind_it_printed(tmp_path):
    with pytest.raises(sysgym.IoError, match="missing.bin"):
        sysgym.memtier.estimate(input=str(tmp_path / "missing.bin"))
    with pytest.raises(sysgym.UnknownNameError, match="resnet"):
        sysgym.tensorplace.sweep(model="resnet5")
    with pytest.raises(sysgym.ToolError, match="no-such-flag"):
        sysgym.tensorplace.sweep(model="resnet50", no_such_flag=True)
