"""mmm from Python: the Many-core Machine Model analyzer (libmmm) through ctypes.

    import mmm
    prog = mmm.load("dags/poly_mul.xml", n=2**20)
    prog.analyze(p=16)["metrics"]["W"]          # as `mmm analyze --format json`
    prog.sweep(s=range(1, 65))                  # a DataFrame, one row per point
    prog.time(machine="dags/machines/h100-calibrated.xml")

Every result is what the `mmm` command prints with --format json, parsed
by Python's json (integers stay Python ints).  Errors raise mmm.Error with
the library's status, file and line.  docs/python.md describes it all.
"""
import ctypes
import json
import os
import tempfile
import warnings
from fractions import Fraction

from . import _lib
from ._lib import lib, Struct, CONST

__all__ = ["load", "fit", "convert", "Program", "Rendering", "Error", "Note",
           "version", "library_path"]

_JSON, _TEXT, _CSV = 1, 0, 2
_FORMATS = {"json": _JSON, "text": _TEXT, "csv": _CSV}
_STATUS = {0: "OK", -1: "EIO", -2: "EPARSE", -3: "EINPUT", -4: "ECYCLE",
           -5: "EOVERFLOW", -6: "EDOMAIN", -7: "EINFEASIBLE", -8: "ELIMIT",
           -9: "ENOMEM", -10: "EINVAL"}

library_path = _lib.path


def version():
    """The version of the libmmm loaded ("0.3.0")."""
    return lib.mmm_version().decode()


class Note(UserWarning):
    """A note or warning of the library (a line such as
    "dags/x.xml: note: -D n ignored: ..."), issued with warnings.warn."""


class Error(Exception):
    """An error of libmmm: status (the negative mmm_status), status_name
    ("EINPUT", ...), file and line (None when unknown), message (the one
    line), and str() as the command prints it: "FILE:LINE: error: message"."""

    def __init__(self, status, message, file=None, line=None, text=None):
        self.status = status
        self.status_name = _STATUS.get(status, str(status))
        self.message = message
        self.file = file or None
        self.line = line or None
        super().__init__(text or message)


class _Err:
    __slots__ = ("s",)

    def __init__(self):
        self.s = Struct("mmm_error")

    @property
    def ptr(self):
        return self.s.ptr

    def error(self, rc):
        s = self.s
        code = s.get("code", ctypes.c_int) or rc
        line = s.get("line", ctypes.c_long)
        file = ctypes.string_at(s.addr("file")).decode("utf-8", "replace")
        msg = ctypes.string_at(s.addr("message")).decode("utf-8", "replace")
        if not msg:
            msg = lib.mmm_status_str(rc).decode()
        buf = ctypes.create_string_buffer(2048)
        lib.mmm_error_format(s.ptr, buf, len(buf))
        return Error(code, msg, file, line, buf.value.decode("utf-8", "replace"))

    def check(self, rc):
        if rc < 0:
            raise self.error(rc)
        return rc


def _notes_flush(notes):
    n = notes.get("n", ctypes.c_size_t)
    if n:
        lines = ctypes.cast(notes.get("line", ctypes.c_void_p),
                            ctypes.POINTER(ctypes.c_char_p))
        for i in range(n):
            warnings.warn(lines[i].decode("utf-8", "replace"), Note, stacklevel=3)
    lib.mmm_notes_dispose(notes.ptr)


def _value_text(v):
    """A parameter value as the constant expression -D takes."""
    if isinstance(v, bool):
        return str(int(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, Fraction):
        return "%d/%d" % (v.numerator, v.denominator)
    if isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise ValueError("mmm: a parameter value must be finite, not %r" % v)
        return repr(v)
    if isinstance(v, str):
        return v
    raise TypeError("mmm: a parameter value is an int, a float, a Fraction or an "
                    "expression string, not %r" % (v,))


def _cstrs(items):
    arr = (ctypes.c_char_p * max(1, len(items)))()
    for i, s in enumerate(items):
        arr[i] = s.encode()
    return arr


def _write(fill, fmt="json"):
    """Make a memory writer, call fill(writer, err) and return its output:
    parsed JSON for "json", the text otherwise.  fill's error raises after
    the writer is freed (what it wrote is attached as .output)."""
    if fmt not in _FORMATS:
        raise ValueError("mmm: format is json, text or csv, not %r" % (fmt,))
    w = ctypes.c_void_p()
    err = _Err()
    err.check(lib.mmm_writer_new_memory(ctypes.byref(w), _FORMATS[fmt], err.ptr))
    try:
        rc = fill(w, err)
        n = ctypes.c_size_t()
        data = lib.mmm_writer_data(w, ctypes.byref(n))
        text = ctypes.string_at(data, n.value).decode("utf-8") if data else ""
    finally:
        lib.mmm_writer_free(w)
    if rc < 0:
        e = err.error(rc)
        e.output = text
        raise e
    return json.loads(text) if fmt == "json" else text


def _launch(launch):
    if launch is None:
        return 0
    out = ctypes.c_int()
    if lib.mmm_launch_parse(ctypes.byref(out), launch.encode()) < 0:
        raise ValueError("mmm: launch is stream or graph, not %r" % (launch,))
    return out.value


def _import_options(opt, prefix, input_format=None, time_unit=None, path=None):
    """Set the reader's options of an mmm_open_options (input format, time
    unit, the DOT readers when the file may be DOT)."""
    base = _lib.OFF["mmm_open_options.io"]
    if input_format not in (None, "auto"):
        for i in range(1, 16):
            name = lib.mmm_input_format_name(i)
            if name is None or name.decode() == "unknown":
                break
            if name.decode() == input_format:
                ctypes.c_int.from_buffer(opt.buf, base + _lib.OFF["mmm_import_options.format"]).value = i
                break
        else:
            raise ValueError("mmm: input_format is auto, mmm, stg, wfcommons, dax, dot or "
                             "cuda-dot, not %r" % (input_format,))
    if time_unit is not None:
        u = ctypes.c_int()
        if lib.mmm_time_unit_parse(time_unit.encode(), ctypes.byref(u)) < 0:
            raise ValueError("mmm: time_unit is s, ms, us or ns, not %r" % (time_unit,))
        ctypes.c_int.from_buffer(opt.buf, base + _lib.OFF["mmm_import_options.time_unit"]).value = u.value
    want_dot = input_format in ("dot", "cuda-dot") or (
        path is not None and os.path.splitext(path)[1].lower() in (".dot", ".gv"))
    if want_dot:
        dot, cuda_dot = _lib.dot_readers()
        if dot:
            ctypes.c_void_p.from_buffer(opt.buf, base + _lib.OFF["mmm_import_options.dot_reader"]).value = dot
            ctypes.c_void_p.from_buffer(opt.buf, base + _lib.OFF["mmm_import_options.cuda_dot_reader"]).value = cuda_dot


def _is_text(source):
    return "\n" in source or source.lstrip().startswith("<")


class Program:
    """A program opened by mmm.load: its parameters (the load's), the
    machine file, and the methods of the commands."""

    def __init__(self, source, machine=None, params=None, launch=None,
                 input_format=None, time_unit=None, name=None):
        self._prog = self._inst = None
        self._tmp = None
        if isinstance(source, os.PathLike):
            source = os.fspath(source)
        if not isinstance(source, str):
            raise TypeError("mmm.load takes a path or the text of a program")
        if _is_text(source) and not os.path.exists(source):
            fd, tmp = tempfile.mkstemp(prefix="mmm-", suffix=".xml")
            with os.fdopen(fd, "w") as f:
                f.write(source)
            self._tmp = path = tmp
        else:
            path = source
        self.file = name or path
        self.path = path
        self.machine = os.fspath(machine) if machine is not None else None
        self.params = dict(params or {})
        self.launch = launch
        self._evaluated = None
        opt = Struct("mmm_open_options", lib.mmm_open_options_init)
        _import_options(opt, "io", input_format, time_unit, path)
        self._time_unit = ctypes.c_int.from_buffer(
            opt.buf, _lib.OFF["mmm_open_options.io"] + _lib.OFF["mmm_import_options.time_unit"]).value
        if self.machine is not None:
            m = self.machine.encode()
            opt.set("machine", ctypes.c_char_p, m, keep=m)
        opt.set("no_eval", ctypes.c_int, 1)
        opened = Struct("mmm_opened")
        err = _Err()
        rc = lib.mmm_program_open(opened.ptr, path.encode(), opt.ptr, err.ptr)
        notes = Struct("mmm_notes")
        ctypes.memmove(notes.buf, opened.addr("notes"), _lib.SIZE["mmm_notes"])
        _notes_flush(notes)
        ctypes.memset(opened.addr("notes"), 0, _lib.SIZE["mmm_notes"])
        if rc < 0:
            lib.mmm_opened_dispose(opened.ptr)
            self._cleanup()
            raise err.error(rc)
        self._prog = opened.get("program", ctypes.c_void_p)
        self._inst = opened.get("instance", ctypes.c_void_p)
        self._report = ctypes.string_at(opened.addr("report"), _lib.SIZE["mmm_import_report"])
        opened.set("program", ctypes.c_void_p, None)
        opened.set("instance", ctypes.c_void_p, None)
        lib.mmm_opened_dispose(opened.ptr)
        # the overrides of the load's own parameters are checked at once
        self._overrides({})

    def _cleanup(self):
        if self._tmp:
            try:
                os.unlink(self._tmp)
            except OSError:
                pass
            self._tmp = None

    def __del__(self):
        try:
            if self._inst:
                lib.mmm_instance_free(self._inst)
            if self._prog:
                lib.mmm_program_free(self._prog)
            self._inst = self._prog = None
            self._cleanup()
        except Exception:
            pass

    def __repr__(self):
        return "<mmm.Program %s%s>" % (self.file, "".join(
            " %s=%s" % kv for kv in sorted(self.params.items())))

    # ---- parameters ----

    def _split(self, params):
        merged = dict(self.params)
        merged.update(params)
        p = merged.pop("p", None)
        if p is not None:
            if isinstance(p, bool) or not isinstance(p, int) or p <= 0:
                raise ValueError("mmm: p (the number of SMs) is a positive int, not %r" % (p,))
        defs = ["%s=%s" % (k, _value_text(v)) for k, v in merged.items()]
        return defs, p or 0

    def _overrides(self, params):
        """The overrides of -D and -p for params merged over the load's:
        (buffer, count, p, key)."""
        defs, p = self._split(params)
        ov = ctypes.create_string_buffer(_lib.SIZE["mmm_override"] * (len(defs) + 1) + 64)
        nov = ctypes.c_size_t()
        err = _Err()
        notes = Struct("mmm_notes")
        rc = lib.mmm_overrides_parse(self._prog, _cstrs(defs), len(defs), p,
                                     CONST["MMM_DEFINE_STRICT"], ov, ctypes.byref(nov),
                                     notes.ptr, err.ptr)
        _notes_flush(notes)
        err.check(rc)
        return ov, nov.value, p, (tuple(defs), p)

    def _eval(self, params):
        ov, nov, p, key = self._overrides(params)
        if self._evaluated != key:
            self._evaluated = None
            err = _Err()
            err.check(lib.mmm_instance_eval_p(self._inst, ov, nov, p, err.ptr))
            self._evaluated = key
        return ov, nov, p

    def _metrics(self, flags=0):
        m = Struct("mmm_metrics")
        err = _Err()
        rc = lib.mmm_metrics_compute(m.ptr, self._inst, flags, err.ptr)
        if rc < 0:
            lib.mmm_metrics_dispose(m.ptr)
            raise err.error(rc)
        return m

    # ---- analyze ----

    def analyze(self, model=None, launch=None, format="json", max_rows=200,
                totals=False, **params):
        """`mmm analyze --format json [--model MODEL]` at params (merged
        over the load's; p is -p): a dict."""
        which = ctypes.c_uint()
        if lib.mmm_models_parse(ctypes.byref(which), (model or "mmm").encode()) < 0:
            raise ValueError("mmm: model is mmm, tmm, balance, time, all or a comma "
                             "list, not %r" % (model,))
        self._eval(params)
        m = self._metrics()
        models = Struct("mmm_models")
        try:
            err = _Err()
            err.check(lib.mmm_models_compute(models.ptr, self._inst, which.value,
                                             _launch(launch or self.launch), err.ptr))
            return _write(lambda w, e: lib.mmm_write_analysis(
                w, self._inst, m.ptr, models.ptr, max_rows, int(bool(totals)), e.ptr), format)
        finally:
            lib.mmm_models_dispose(models.ptr)
            lib.mmm_metrics_dispose(m.ptr)

    def time(self, launch=None, **params):
        """The time model's section of `analyze --model time` (needs a
        machine file with the time model's constants)."""
        return self.analyze(model="time", launch=launch, **params)["time"]

    def tmm(self, **params):
        """The TMM section of `analyze --model tmm`."""
        return self.analyze(model="tmm", **params)["tmm"]

    def balance(self, **params):
        """The balance principle's section of `analyze --model balance`."""
        return self.analyze(model="balance", **params)["balance"]

    # ---- optimize ----

    def optimize(self, axes=None, objective=None, baseline=None, max_points=None,
                 launch=None, format="json", max_rows=60, **kw):
        """`mmm optimize --format json`: the whole document (the sweep, the
        best point, the baseline).  Swept parameters are keyword arguments
        whose value is a range, a list or a tuple (or axes, a dict, for
        names such as "bx,by" with values "8x8"); a keyword argument with
        one value is a parameter (-D, or p for -p)."""
        sweep_axes = dict(axes or {})
        params = {}
        for k, v in kw.items():
            if isinstance(v, (range, list, tuple)):
                sweep_axes[k] = v
            else:
                params[k] = v
        if not sweep_axes:
            raise ValueError("mmm: sweep what? give a parameter as a range or a list, "
                             "e.g. sweep(s=range(1, 65))")
        ov, nov, p, _ = self._overrides(params)
        n = len(sweep_axes)
        asz = _lib.SIZE["mmm_sweep_axis_text"]
        arr = ctypes.create_string_buffer(asz * n + 64)
        keep = []

        def put(i, field, text):
            if text is None:
                return
            b = text.encode()
            keep.append(b)
            ctypes.c_char_p.from_buffer(arr, i * asz + _lib.OFF["mmm_sweep_axis_text." + field]).value = b

        for i, (name, v) in enumerate(sweep_axes.items()):
            put(i, "name", name)
            if isinstance(v, range):
                if len(v) == 0:
                    raise ValueError("mmm: the range of %s is empty" % name)
                put(i, "from", str(v[0]))
                put(i, "to", str(v[-1]))
                put(i, "step", str(v.step))
            elif isinstance(v, dict):
                for f in ("from", "to", "step", "values"):
                    if v.get(f) is not None:
                        put(i, f, _value_text(v[f]))
            elif isinstance(v, str):
                put(i, "values", v)
            else:
                if len(v) == 0:
                    raise ValueError("mmm: no values for %s" % name)
                put(i, "values", ",".join(
                    "x".join(_value_text(y) for y in x) if isinstance(x, (tuple, list))
                    else _value_text(x) for x in v))
        spec = Struct("mmm_sweep_spec", lib.mmm_sweep_spec_init)
        spec.set("fixed", ctypes.c_void_p, ctypes.addressof(ov))
        spec.set("nfixed", ctypes.c_size_t, nov)
        spec.set("has_p", ctypes.c_int, 1 if p else 0)
        spec.set("p", ctypes.c_int64, p)
        spec.set("max_points", ctypes.c_uint64, int(max_points or 0))
        spec.set("launch", ctypes.c_int, _launch(launch or self.launch))
        if objective is not None and lib.mmm_objective_parse(
                ctypes.c_void_p(spec.addr("objective")), objective.encode()) < 0:
            raise ValueError("mmm: objective is overhead, bound, corollary or time, "
                             "not %r" % (objective,))
        if baseline is not None and not isinstance(baseline, str):
            if isinstance(baseline, dict):
                baseline = ",".join("%s=%s" % (k, _value_text(x)) for k, x in baseline.items())
            elif isinstance(baseline, (list, tuple)):
                baseline = ",".join(_value_text(x) for x in baseline)
            else:
                baseline = _value_text(baseline)
        err = _Err()
        notes = Struct("mmm_notes")
        rc = lib.mmm_sweep_spec_parse(spec.ptr, self._prog, arr, n,
                                      baseline.encode() if baseline is not None else None,
                                      notes.ptr, err.ptr)
        _notes_flush(notes)
        try:
            err.check(rc)
            res = Struct("mmm_sweep_result")
            self._evaluated = None  # the sweep leaves the instance at its best point
            return _write(lambda w, e: lib.mmm_write_sweep(
                w, res.ptr, self._inst, spec.ptr, max_rows, None, None, e.ptr), format)
        finally:
            lib.mmm_sweep_spec_dispose(spec.ptr)
            del keep

    def sweep(self, axes=None, objective=None, baseline=None, max_points=None,
              launch=None, **kw):
        """The rows of optimize's sweep, one per point: the swept
        parameters, then every measure, as a pandas DataFrame when pandas
        is importable (else a list of dicts).  The rest of optimize's
        document is in the DataFrame's attrs["optimize"]."""
        doc = self.optimize(axes=axes, objective=objective, baseline=baseline,
                            max_points=max_points, launch=launch, **kw)
        return _table(doc)

    # ---- simulate, scale ----

    def _policies(self, policy):
        if policy == "all":
            return None
        if not lib.mmm_sim_policy_find(policy.encode()):
            names = [ctypes.cast(lib.mmm_sim_policy_at(i), ctypes.POINTER(ctypes.c_char_p))[0]
                     for i in range(lib.mmm_sim_policy_count())]
            raise ValueError("mmm: unknown policy %r (one of %s, or all)"
                             % (policy, ", ".join(n.decode() for n in names)))
        return lib.mmm_sim_policy_find(policy.encode())

    def simulate(self, p=None, policy="fifo", seed=1, max_launches=None, format="json",
                 **params):
        """`mmm simulate -p P --format json`: p an int or a list of ints
        (None: the program's or the machine's p)."""
        pol = self._policies(policy)
        plist = list(p) if isinstance(p, (list, tuple, range)) else None
        is_list = plist is not None and len(plist) > 1
        if plist is not None and len(plist) == 1:
            p, plist = plist[0], None
        if not is_list:
            if p is not None:
                params["p"] = p
            self._eval(params)
        bad = []

        def run_at(w, err):
            m = self._metrics(CONST["MMM_METRICS_NO_K"] | CONST["MMM_METRICS_NO_PATHS"])
            gb = m.get("graham_brent", ctypes.c_double)
            lib.mmm_metrics_dispose(m.ptr)
            opt = Struct("mmm_sim_options", lib.mmm_sim_options_init)
            opt.set("policy", ctypes.c_void_p, pol)
            opt.set("seed", ctypes.c_uint64, seed)
            opt.set("max_launches", ctypes.c_int64, max_launches or 0)
            runs = Struct("mmm_sim_runs")
            notes = Struct("mmm_notes")
            rc = lib.mmm_simulate_policies(runs.ptr, self._inst, opt.ptr, int(pol is None),
                                           gb, notes.ptr, err.ptr)
            _notes_flush(notes)
            if runs.get("nbad", ctypes.c_size_t):
                bad.append(1)
            if runs.get("n", ctypes.c_size_t):
                rc2 = lib.mmm_write_simulation(
                    w, runs.get("runs", ctypes.c_void_p), runs.get("n", ctypes.c_size_t),
                    int(pol is None), runs.get("best", ctypes.c_size_t), gb,
                    err.ptr if rc >= 0 else None)
                rc = rc if rc < 0 else rc2
            lib.mmm_sim_runs_dispose(runs.ptr)
            return rc

        def fill(w, err):
            rc = lib.mmm_write_simulation_begin(w, self._prog, self.file.encode(),
                                                int(is_list), err.ptr)
            if rc < 0:
                return rc
            if is_list:
                for q in plist:
                    try:
                        self._eval(dict(params, p=q))
                    except Error:
                        lib.mmm_write_simulation_end(w, None)
                        raise
                    rc = run_at(w, err)
                    if rc < 0:
                        break
            else:
                rc = run_at(w, err)
            lib.mmm_write_simulation_end(w, None)
            return rc

        out = _write(fill, format)
        if bad:
            raise Error(-10, "a simulation ran outside its bounds (a bug of the "
                        "simulator; see the notes)")
        return out

    def scale(self, p=None, policy="fifo", seed=1, max_launches=None, format="json",
              **params):
        """`mmm scale --format json`: p a list of ints or "A..B" (None: the
        default list)."""
        pol = self._policies(policy)
        pol_all = policy == "all"
        ov, nov, _pp, _key = self._overrides(params)
        self._eval(params)
        so = Struct("mmm_speedup_options", lib.mmm_speedup_options_init)
        plist = ctypes.c_void_p()
        np_ = ctypes.c_size_t()
        err = _Err()
        if p is not None:
            text = p if isinstance(p, str) else ",".join(str(int(x)) for x in (
                p if isinstance(p, (list, tuple, range)) else [p]))
            rc = lib.mmm_speedup_parse_p(ctypes.byref(plist), ctypes.byref(np_),
                                         text.encode(), err.ptr)
            if rc < 0:
                raise ValueError("mmm: p: %s" % err.error(rc).message)
        n = lib.mmm_sim_policy_count() if pol_all else 1
        pols = (ctypes.c_void_p * n)(*([lib.mmm_sim_policy_at(i) for i in range(n)]
                                       if pol_all else [pol]))
        so.set("npolicies", ctypes.c_size_t, n)
        so.set("policies", ctypes.c_void_p, ctypes.addressof(pols))
        so.set("p", ctypes.c_void_p, plist.value)
        so.set("np", ctypes.c_size_t, np_.value)
        so.set("seed", ctypes.c_uint64, seed)
        so.set("max_launches", ctypes.c_int64, max_launches or 0)
        s = Struct("mmm_speedup")
        try:
            err.check(lib.mmm_speedup_compute(s.ptr, self._inst, ov, nov, so.ptr, err.ptr))
            return _write(lambda w, e: lib.mmm_write_speedup(
                w, self._prog, self.file.encode(), s.ptr, int(pol_all), e.ptr), format)
        finally:
            lib.mmm_speedup_dispose(s.ptr)
            if plist.value:
                _lib.free(plist.value)

    # ---- render ----

    def render(self, level="kernel", color="auto", format="svg", max_nodes=None,
               dpi=None, condense="auto", view="all", rankdir="TB", **params):
        """`mmm render -o - --format svg`: a Rendering (its .data the bytes;
        in a notebook an SVG shows inline).  Needs the drawing library
        (Graphviz): without it, ImportError says why.  A DAG of more than
        200 kernels is drawn condensed (condense="never" draws each one)."""
        d = _lib.draw()
        opt = Struct("mmm_render_options", d.mmm_render_options_init)
        for field, fn, val, what in (
                ("format", d.mmm_render_format_parse, format, "svg, png, pdf or dot"),
                ("level", d.mmm_render_level_parse, level, "kernel or block"),
                ("color", d.mmm_render_color_parse, color,
                 "auto, overhead, work, span, cost, type or none"),
                ("condense", d.mmm_render_condense_parse, condense, "auto, always or never"),
                ("view", d.mmm_render_view_parse, view, "all or critical"),
                ("rankdir", d.mmm_render_rankdir_parse, rankdir, "TB, LR, BT or RL")):
            if fn(ctypes.c_void_p(opt.addr(field)), val.encode()) < 0:
                raise ValueError("mmm: render %s is %s, not %r" % (field, what, val))
        if max_nodes:
            opt.set("max_nodes", ctypes.c_size_t, int(max_nodes))
        if dpi:
            opt.set("dpi", ctypes.c_double, float(dpi))
        self._eval(params)
        m = self._metrics()
        data = ctypes.c_void_p()
        n = ctypes.c_size_t()
        err = _Err()
        try:
            err.check(d.mmm_render_memory(ctypes.byref(data), ctypes.byref(n), self._inst,
                                          m.ptr, opt.ptr, err.ptr))
            out = ctypes.string_at(data, n.value)
        finally:
            if data.value:
                _lib.free(data.value)
            lib.mmm_metrics_dispose(m.ptr)
        return Rendering(out, format)

    def _repr_svg_(self):
        try:
            return self.render()._repr_svg_()
        except (ImportError, Error):
            return None


class Rendering:
    """A drawn DAG: data (bytes) in format ("svg", "png", "pdf", "dot")."""

    def __init__(self, data, format):
        self.data = data
        self.format = format

    def _repr_svg_(self):
        return self.data.decode("utf-8") if self.format == "svg" else None

    def _repr_png_(self):
        return self.data if self.format == "png" else None

    def save(self, path):
        with open(path, "wb") as f:
            f.write(self.data)

    def __repr__(self):
        return "<mmm.Rendering %s, %d bytes>" % (self.format, len(self.data))


def _column(values, pandas):
    """A column keeping exact integers exact: ints with gaps (infeasible
    points) as pandas' nullable Int64, ints past 64 bits as objects."""
    kinds = set(map(type, values))
    if kinds <= {int, type(None)} and int in kinds:
        import numpy
        try:
            if type(None) not in kinds:
                return numpy.array(values, dtype=numpy.int64)
            mask = numpy.fromiter((v is None for v in values), dtype=bool, count=len(values))
            data = numpy.array([0 if v is None else v for v in values], dtype=numpy.int64)
            return pandas.arrays.IntegerArray(data, mask)
        except OverflowError:
            return numpy.array(values, dtype=object)
    return values


def _table(doc):
    sweep = doc.get("sweep", [])
    names = []
    seen = set()
    for r in sweep[:1] + sweep[-1:]:
        for k in list(r.get("params", {})) + [k for k in r if k != "params"]:
            if k not in seen:
                seen.add(k)
                names.append(k)
    for r in sweep:  # a key only some rows have (reason, ...)
        if len(r) + len(r.get("params", ())) - 1 != len(names):
            for k in list(r.get("params", {})) + [k for k in r if k != "params"]:
                if k not in seen:
                    seen.add(k)
                    names.append(k)
    try:
        import pandas
    except ImportError:
        rows = []
        for r in sweep:
            row = dict(r.get("params", {}))
            row.update((k, v) for k, v in r.items() if k != "params")
            rows.append(row)
        return rows
    cols = {}
    pv = [r.get("params", {}) for r in sweep]
    first = set(pv[0]) if pv else set()
    for k in names:
        vals = [d.get(k) for d in pv] if k in first else [r.get(k) for r in sweep]
        cols[k] = _column(vals, pandas)
    df = pandas.DataFrame(cols, columns=names)
    df.attrs["optimize"] = {k: v for k, v in doc.items() if k != "sweep"}
    return df


def load(source, machine=None, launch=None, input_format=None, time_unit=None,
         **params):
    """Open a program: a path (mmm XML or a task graph: STG, WfCommons,
    DAX, DOT), or the XML text itself.  machine: a machine file.
    params: -D NAME=VALUE (an int, float, Fraction or an expression string
    such as "2^20"); p: the number of SMs (-p)."""
    return Program(source, machine=machine, params=params, launch=launch,
                   input_format=input_format, time_unit=time_unit)


def convert(source, output=None, input_format=None, time_unit=None, **params):
    """`mmm convert IN -o OUT.xml`: a task graph as mmm's XML.  Returns the
    XML text (and writes output, replaced atomically, when given)."""
    prog = Program(source, params=params, input_format=input_format, time_unit=time_unit)
    prog._eval({})
    comment = ctypes.create_string_buffer(2048)
    rep = ctypes.create_string_buffer(prog._report, len(prog._report) + 64)
    lib.mmm_import_comment(comment, len(comment), prog.path.encode(), rep,
                           prog._time_unit)
    err = _Err()
    if output is not None:
        err.check(lib.mmm_program_save_xml(os.fspath(output).encode(), prog._inst,
                                           comment.value, err.ptr))
        with open(output) as f:
            return f.read()
    fd, tmp = tempfile.mkstemp(prefix="mmm-", suffix=".xml")
    os.close(fd)
    try:
        err.check(lib.mmm_program_save_xml(tmp.encode(), prog._inst, comment.value, err.ptr))
        with open(tmp) as f:
            return f.read()
    finally:
        os.unlink(tmp)


def fit(runs, programs, machine=None, launch="stream", fit=None, fix=None,
        output=None, name=None, format="json", **params):
    """`mmm fit --data RUNS.csv PROGRAM.xml... --format json`: the time
    model's constants fitted to measured runs.  runs: a path or a list of
    them; programs: a path, a Program or a list of them; fit/fix: constant
    names (a list or a comma string); output: write the fitted machine
    file (needs machine)."""
    from . import _fit
    return _fit.fit(runs, programs, machine, launch, fit, fix, output, name, format, params)
