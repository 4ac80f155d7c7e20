"""mmm.fit: `mmm fit --data RUNS.csv PROGRAM.xml... --format json`, the
calls of the command (src/cli/cmd_fit.c) through ctypes."""
import ctypes
import os

from . import _lib
from ._lib import lib, Struct, CONST


def _names(v):
    if v is None:
        return None
    if isinstance(v, str):
        v = [] if v == "none" else v.split(",")
    return list(v)


def _marks(fit, fix):
    n = CONST["MMM_TIME_NCONST"]
    marks = [1] * n
    only = _names(fit)
    if only is not None:
        marks = [0] * n
    for names, value in ((only or [], 1), (_names(fix) or [], 0)):
        for name in names:
            i = lib.mmm_time_const_find(name.encode())
            if i < 0:
                known = ", ".join(lib.mmm_time_const_name(j).decode() for j in range(n))
                raise ValueError("mmm: unknown time model constant %r (one of %s)"
                                 % (name, known))
            marks[i] = value
    return marks


def fit(runs, programs, machine, launch, fit_names, fix_names, output, name, fmt, params):
    from . import _Err, _notes_flush, _write, _launch, _value_text, Program, Error
    if isinstance(runs, (str, os.PathLike)):
        runs = [runs]
    if isinstance(programs, (str, os.PathLike, Program)):
        programs = [programs]
    runs = [os.fspath(r) for r in runs]
    paths = [p.path if isinstance(p, Program) else os.fspath(p) for p in programs]
    if not runs:
        raise ValueError("mmm.fit: no runs file")
    if not paths:
        raise ValueError("mmm.fit: no program")
    if output is not None and machine is None:
        raise ValueError("mmm.fit: output needs machine (the hardware limits the "
                         "written file keeps)")
    graph = 1 if _launch(launch) == 2 else 0
    marks = _marks(fit_names, fix_names)
    defs = ["%s=%s" % (k, _value_text(v)) for k, v in params.items()]
    err = _Err()
    io = Struct("mmm_import_options", lib.mmm_import_options_init)
    limits = ctypes.c_void_p(io.addr("load") + _lib.OFF["mmm_load_options.limits"])
    base = ctypes.c_void_p()
    progs = (ctypes.c_void_p * len(paths))()
    rr = (ctypes.c_void_p * len(runs))()
    fs = Struct("mmm_fit_samples")
    res = Struct("mmm_fit_result")
    notes = Struct("mmm_notes")
    try:
        if machine is not None:
            err.check(lib.mmm_machine_load_file(ctypes.byref(base), os.fspath(machine).encode(),
                                                limits, err.ptr))
        lo = ctypes.create_string_buffer(_lib.SIZE["mmm_load_options"] + 64)
        ctypes.memmove(lo, io.addr("load"), _lib.SIZE["mmm_load_options"])
        ctypes.c_void_p.from_buffer(lo, _lib.OFF["mmm_load_options.machine"]).value = base.value
        for i, p in enumerate(paths):
            pp = ctypes.c_void_p()
            err.check(lib.mmm_program_load_file(ctypes.byref(pp), p.encode(), lo, err.ptr))
            progs[i] = pp.value
        for i, r in enumerate(runs):
            pr = ctypes.c_void_p()
            err.check(lib.mmm_runs_read_file(ctypes.byref(pr), r.encode(), graph, err.ptr))
            rr[i] = pr.value
        cdefs = (ctypes.c_char_p * max(1, len(defs)))(*[d.encode() for d in defs])
        rc = lib.mmm_fit_samples_make(fs.ptr, rr, len(runs), progs, len(paths), cdefs,
                                      len(defs), notes.ptr, err.ptr)
        _notes_flush(notes)
        err.check(rc)
        m = ctypes.create_string_buffer(_lib.SIZE["mmm_time_machine"] + 64)
        inst0 = ctypes.cast(fs.get("inst", ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))[0]
        err.check(lib.mmm_time_machine_get(m, inst0, 0, err.ptr))
        fo = Struct("mmm_fit_options", lib.mmm_fit_options_init)
        n = CONST["MMM_TIME_NCONST"]
        fitted = (ctypes.c_int * n)(*marks)
        ctypes.memmove(fo.addr("fit"), fitted, ctypes.sizeof(fitted))
        nsamples = fs.get("n", ctypes.c_size_t)
        err.check(lib.mmm_time_fit(m, fs.get("samples", ctypes.c_void_p), nsamples, fo.ptr,
                                   res.ptr, err.ptr))
        if output is not None:
            note = ("Written by mmm fit (Python): the time model's constants fitted to "
                    "%d measured runs; the other parameters are those of %s."
                    % (nsamples, os.fspath(machine)))
            err.check(lib.mmm_time_machine_write(os.fspath(output).encode(),
                                                 name.encode() if name else None,
                                                 base, m, note.encode(), err.ptr))
        rep = Struct("mmm_fit_report")
        rep.set("machine", ctypes.c_void_p, ctypes.addressof(m))
        rep.set("fitted", ctypes.c_void_p, ctypes.addressof(fitted))
        rep.set("result", ctypes.c_void_p, res.addr())
        rep.set("runs", ctypes.c_void_p, fs.get("runs", ctypes.c_void_p))
        rep.set("nruns", ctypes.c_size_t, nsamples)
        rep.set("nprograms", ctypes.c_size_t, len(paths))
        out = os.fspath(output).encode() if output is not None else None
        rep.set("written", ctypes.c_char_p, out)
        return _write(lambda w, e: lib.mmm_write_fit(w, rep.ptr, e.ptr), fmt)
    finally:
        lib.mmm_fit_result_dispose(res.ptr)
        lib.mmm_fit_samples_dispose(fs.ptr)
        for r in rr:
            if r:
                lib.mmm_runs_free(r)
        for p in progs:
            if p:
                lib.mmm_program_free(p)
        if base.value:
            lib.mmm_machine_free(base)
