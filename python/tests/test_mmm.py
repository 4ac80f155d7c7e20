"""The package against the command: the same JSON for every bundled
program and command covered, errors with FILE:LINE, exact integers."""
import glob
import json
import os
import warnings

import pytest

import mmm
from conftest import ROOT, cli, cli_json

PROGRAMS = sorted(f for f in glob.glob("dags/**/*.xml", recursive=True, root_dir=ROOT)
                  if not f.startswith("dags/machines/"))
H100 = "dags/machines/h100-calibrated.xml"
H200 = "dags/machines/h200-calibrated.xml"


def same_as_cli(fn, *args):
    """fn()'s result equals `mmm ARGS --format json`, or both fail with the
    same FILE:LINE: error line."""
    status, out, err = cli(*args, "--format", "json", check=False)
    if status == 0:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", mmm.Note)
            assert fn() == json.loads(out)
    else:
        with pytest.raises(mmm.Error) as e:
            fn()
        assert str(e.value) in err.splitlines()


def test_bundled_programs_found():
    assert len(PROGRAMS) >= 30
    assert "dags/cumodp/mul.xml" in PROGRAMS


@pytest.mark.parametrize("path", PROGRAMS)
def test_analyze_equals_cli(path):
    same_as_cli(lambda: mmm.load(path).analyze(), "analyze", path)


@pytest.mark.parametrize("path", PROGRAMS)
def test_analyze_all_models_equals_cli(path):
    same_as_cli(lambda: mmm.load(path, machine=H100).analyze(model="all"),
                "analyze", path, "--machine", H100, "--model", "all")


@pytest.mark.parametrize("path", ["dags/cumodp/mul.xml", "dags/cumodp/div_opt.xml",
                                  "dags/poly_mul.xml"])
def test_time_model_equals_cli(path):
    same_as_cli(lambda: mmm.load(path, machine=H200).analyze(model="time"),
                "analyze", path, "--machine", H200, "--model", "time")
    t = mmm.load(path, machine=H200).time()
    assert t == cli_json("analyze", path, "--machine", H200, "--model", "time")["time"]


def test_params_and_p():
    prog = mmm.load("dags/poly_div_opt.xml", n="2^20")
    assert prog.analyze(p=16) == cli_json("analyze", "dags/poly_div_opt.xml",
                                          "-D", "n=2^20", "-p", "16")
    # a later call with other values re-evaluates; the load's stay
    assert prog.analyze(n=2**16) == cli_json("analyze", "dags/poly_div_opt.xml",
                                             "-D", "n=65536")
    assert prog.analyze() == cli_json("analyze", "dags/poly_div_opt.xml", "-D", "n=2^20")


def test_exact_integers():
    # 2^53 + 1 stays 2^53 + 1 (a double would round it)
    a = mmm.load("dags/fork_join.xml").analyze()
    for v in a["metrics"].values():
        assert not isinstance(v, float) or v != int(v) or abs(v) < 2**53
    big = mmm.load("dags/poly_mul.xml").analyze(n="2^40")
    ref = cli_json("analyze", "dags/poly_mul.xml", "-D", "n=2^40")
    assert big == ref
    assert all(type(big["metrics"][k]) is int for k in ("W", "S", "O", "N", "L", "C"))


SWEEPS = [
    ("dags/poly_mul.xml", {"s": range(1, 65)}, ["--param", "s", "--from", "1", "--to", "64"]),
    ("dags/poly_mul.xml", {"s": [1, 2, 4, 8, 16]}, ["--param", "s", "--values", "1,2,4,8,16"]),
    ("dags/poly_div_opt.xml", {"s": range(2, 40, 3), "objective": "corollary"},
     ["--param", "s", "--from", "2", "--to", "38", "--step", "3", "--objective", "corollary"]),
    ("dags/cumodp/mul.xml", {"s": [1, 2, 4, 8, 16, 32], "l": [64, 128, 256, 512, 1024],
                             "objective": "time"},
     ["--param", "s", "--values", "1,2,4,8,16,32", "--param", "l", "--values",
      "64,128,256,512,1024", "--objective", "time", "--machine", H100]),
]


@pytest.mark.parametrize("path,kw,args", SWEEPS)
def test_sweep_equals_optimize(path, kw, args):
    machine = H100 if "--machine" in args else None
    prog = mmm.load(path, machine=machine)
    doc = prog.optimize(**kw)
    ref = cli_json("optimize", path, *args)
    assert doc == ref
    table = prog.sweep(**kw)
    rows = table.to_dict("records") if hasattr(table, "to_dict") else table
    assert len(rows) == len(ref["sweep"])
    for row, r in zip(rows, ref["sweep"]):
        for k, v in list(r["params"].items()) + [(k, v) for k, v in r.items() if k != "params"]:
            got = row.get(k)
            if v is None:
                assert got is None or str(got) in ("nan", "<NA>")
            else:
                assert got == v and (type(v) is not int or int(got) == v), (k, got, v)


def test_sweep_list_without_pandas(monkeypatch):
    import builtins
    real = builtins.__import__

    def no_pandas(name, *a, **k):
        if name == "pandas":
            raise ImportError("no pandas")
        return real(name, *a, **k)
    monkeypatch.setattr(builtins, "__import__", no_pandas)
    rows = mmm.load("dags/poly_mul.xml").sweep(s=[1, 2])
    assert rows[0]["s"] == 1 and type(rows[0]["W"]) is int


@pytest.mark.parametrize("args", [["-p", "8"], ["-p", "4", "--policy", "all"]])
def test_simulate_equals_cli(args):
    p = int(args[1])
    policy = args[3] if len(args) > 2 else "fifo"
    assert mmm.load("dags/poly_mul.xml").simulate(p, policy=policy) == \
        cli_json("simulate", "dags/poly_mul.xml", *args)


def test_simulate_list_equals_cli():
    assert mmm.load("dags/diamond.xml").simulate([1, 2, 4]) == \
        cli_json("simulate", "dags/diamond.xml", "-p", "1,2,4")


def test_scale_equals_cli():
    assert mmm.load("dags/poly_div_opt.xml").scale() == \
        cli_json("scale", "dags/poly_div_opt.xml")
    assert mmm.load("dags/diamond.xml").scale(p="1..6", policy="all") == \
        cli_json("scale", "dags/diamond.xml", "-p", "1..6", "--policy", "all")


def test_text_format_equals_cli():
    assert mmm.load("dags/poly_mul.xml").analyze(format="text") == \
        cli("analyze", "dags/poly_mul.xml")[1]


BAD = sorted(glob.glob("tests/data/bad/*.xml", root_dir=ROOT))


@pytest.mark.parametrize("path", BAD)
def test_errors_carry_file_and_line(path):
    status, out, err = cli("analyze", path, check=False)
    if status == 0:
        pytest.skip("a limit test: fails only with its option")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", mmm.Note)
        with pytest.raises(mmm.Error) as e:
            mmm.load(path).analyze()
    assert str(e.value) in err.splitlines()
    assert e.value.status < 0 and e.value.status_name
    if e.value.line:
        assert str(e.value).startswith("%s:%d: error: " % (e.value.file, e.value.line))


def test_error_fields():
    with pytest.raises(mmm.Error) as e:
        mmm.load("dags/poly_mul.xml").analyze(s=3)
    assert e.value.file == "dags/poly_mul.xml" and e.value.line == 64
    assert e.value.status_name == "EINFEASIBLE"
    with pytest.raises(mmm.Error) as e:
        mmm.load("no/such/file.xml")
    assert e.value.status_name == "EIO"
    with pytest.raises(mmm.Error):
        mmm.load("dags/poly_mul.xml").analyze(nn=3)  # not declared


def test_load_text():
    text = open(os.path.join(ROOT, "dags/diamond.xml")).read()
    a = mmm.load(text).analyze()
    b = cli_json("analyze", "dags/diamond.xml")
    assert a["metrics"] == b["metrics"] and a["kernels"] == b["kernels"]


IMPORTS = sorted(f for f in glob.glob("tests/data/import/*/*", root_dir=ROOT)
                 if not f.endswith(("README", "README.md")) and os.path.isfile(os.path.join(ROOT, f)))


@pytest.mark.parametrize("path", IMPORTS)
def test_convert_equals_cli(path):
    status, out, err = cli("convert", path, "-o", "-", check=False)
    if status == 0:
        assert mmm.convert(path) == out
    else:
        with pytest.raises((mmm.Error, ImportError)):
            mmm.convert(path)


def test_render():
    try:
        r = mmm.load("dags/diamond.xml").render()
    except ImportError as e:
        assert "drawing library" in str(e)
        pytest.skip(str(e))
    assert r._repr_svg_().lstrip().startswith(("<?xml", "<svg", "<!DOCTYPE"))
    status, out, err = cli("render", "dags/diamond.xml", "-o", "-", "--format", "svg")
    assert r.data.decode() == out
    # the options of large pictures are the command's
    r = mmm.load("dags/fork_join.xml").render(condense="always", view="critical", rankdir="LR",
                                               format="dot")
    status, out, err = cli("render", "dags/fork_join.xml", "-o", "-", "--format", "dot",
                           "--condense", "always", "--view", "critical", "--rankdir", "LR")
    # (a process that laid a graph out before declares node [label="\\N"])
    strip = lambda t: t.replace('\tnode [label="\\N"];\n', "")
    assert strip(r.data.decode()) == strip(out)
    assert "rankdir=LR" in out and "condensed=critical" in out
    with pytest.raises(ValueError):
        mmm.load("dags/fork_join.xml").render(rankdir="up")


def test_fit_equals_cli():
    ref = cli_json("fit", "--data", "dags/cumodp/runs_stream.csv", "dags/cumodp/mul.xml",
                   "dags/cumodp/div_naive.xml", "dags/cumodp/div_opt.xml",
                   "--machine", H100)
    got = mmm.fit("dags/cumodp/runs_stream.csv",
                  ["dags/cumodp/mul.xml", "dags/cumodp/div_naive.xml",
                   "dags/cumodp/div_opt.xml"], machine=H100)
    assert got == ref


def test_layout_matches_library():
    # a struct that changed would show in the sizes the init functions fill
    assert mmm.version() == cli("--version")[1].split()[-1]
