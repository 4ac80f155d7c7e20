"""Finding and loading libmmm (and the drawing library) through ctypes.

libmmm is looked for, in order, at:
  1. the path in the environment variable MMM_LIBRARY;
  2. the build tree of the source tree this package sits in
     (build/libmmm.so of a shared build, build/python/libmmm.so of a static
     one);
  3. the folders cmake --install wrote into _install.py (relative to this
     package);
  4. the system's (ctypes.util.find_library("mmm")).
The drawing functions (render) come from libmmm-draw.so or the plugin
mmm-draw.so: MMM_DRAW_LIBRARY, else beside libmmm, else the system's.
"""
import ctypes
import ctypes.util
import os

from . import _layout

c_int, c_long, c_size_t, c_int64, c_uint64, c_double, c_char_p, c_void_p, c_uint = (
    ctypes.c_int, ctypes.c_long, ctypes.c_size_t, ctypes.c_int64, ctypes.c_uint64,
    ctypes.c_double, ctypes.c_char_p, ctypes.c_void_p, ctypes.c_uint)
P = c_void_p
PP = ctypes.POINTER(c_void_p)

_HERE = os.path.dirname(os.path.abspath(__file__))


def _candidates():
    env = os.environ.get("MMM_LIBRARY")
    if env:
        return [env], True
    out = []
    repo = os.path.dirname(os.path.dirname(_HERE))
    for d in ("build", "build/python"):
        out.append(os.path.join(repo, d, "libmmm.so"))
    try:
        from . import _install
        for d in _install.LIBRARY_DIRS:
            out.append(os.path.normpath(os.path.join(_HERE, d, "libmmm.so")))
    except ImportError:
        pass
    found = ctypes.util.find_library("mmm")
    if found:
        out.append(found)
    return out, False


def _load_core():
    names, forced = _candidates()
    tried = []
    for n in names:
        if os.path.sep in n and not os.path.exists(n):
            tried.append(n)
            continue
        try:
            return ctypes.CDLL(n), n
        except OSError as e:
            if forced:
                raise ImportError("mmm: cannot load MMM_LIBRARY=%s: %s" % (n, e))
            tried.append("%s (%s)" % (n, e))
    raise ImportError("mmm: libmmm.so not found (tried %s); build it (cmake --build "
                      "build), install it, or name it with MMM_LIBRARY=PATH"
                      % ", ".join(tried))


lib, path = _load_core()

_SIGS = {
    # name: (restype, argtypes)
    "mmm_version": (c_char_p, []),
    "mmm_status_str": (c_char_p, [c_int]),
    "mmm_error_clear": (None, [P]),
    "mmm_error_format": (c_char_p, [P, ctypes.c_char_p, c_size_t]),
    "mmm_notes_dispose": (None, [P]),
    "mmm_import_options_init": (None, [P]),
    "mmm_open_options_init": (None, [P]),
    "mmm_program_open": (c_int, [P, c_char_p, P, P]),
    "mmm_opened_dispose": (None, [P]),
    "mmm_program_free": (None, [P]),
    "mmm_instance_free": (None, [P]),
    "mmm_input_format_name": (c_char_p, [c_int]),
    "mmm_time_unit_parse": (c_int, [c_char_p, P]),
    "mmm_overrides_parse": (c_int, [P, P, c_size_t, c_int64, c_int, P, P, P, P]),
    "mmm_instance_eval_p": (c_int, [P, P, c_size_t, c_int64, P]),
    "mmm_metrics_compute": (c_int, [P, P, c_uint, P]),
    "mmm_metrics_dispose": (None, [P]),
    "mmm_models_parse": (c_int, [P, c_char_p]),
    "mmm_launch_parse": (c_int, [P, c_char_p]),
    "mmm_models_compute": (c_int, [P, P, c_uint, c_int, P]),
    "mmm_models_dispose": (None, [P]),
    "mmm_writer_new_memory": (c_int, [P, c_int, P]),
    "mmm_writer_data": (P, [P, P]),
    "mmm_writer_free": (None, [P]),
    "mmm_write_analysis": (c_int, [P, P, P, P, c_int64, c_int, P]),
    "mmm_sweep_spec_init": (None, [P]),
    "mmm_sweep_spec_parse": (c_int, [P, P, P, c_size_t, c_char_p, P, P]),
    "mmm_sweep_spec_dispose": (None, [P]),
    "mmm_objective_parse": (c_int, [P, c_char_p]),
    "mmm_write_sweep": (c_int, [P, P, P, P, c_int64, P, P, P]),
    "mmm_sim_options_init": (None, [P]),
    "mmm_sim_policy_find": (P, [c_char_p]),
    "mmm_sim_policy_count": (c_size_t, []),
    "mmm_sim_policy_at": (P, [c_size_t]),
    "mmm_simulate_policies": (c_int, [P, P, P, c_int, c_double, P, P]),
    "mmm_sim_runs_dispose": (None, [P]),
    "mmm_write_simulation_begin": (c_int, [P, P, c_char_p, c_int, P]),
    "mmm_write_simulation": (c_int, [P, P, c_size_t, c_int, c_size_t, c_double, P]),
    "mmm_write_simulation_end": (c_int, [P, P]),
    "mmm_speedup_options_init": (None, [P]),
    "mmm_speedup_parse_p": (c_int, [P, P, c_char_p, P]),
    "mmm_speedup_compute": (c_int, [P, P, P, c_size_t, P, P]),
    "mmm_speedup_dispose": (None, [P]),
    "mmm_write_speedup": (c_int, [P, P, c_char_p, P, c_int, P]),
    "mmm_import_comment": (c_char_p, [ctypes.c_char_p, c_size_t, c_char_p, P, c_int]),
    "mmm_program_save_xml": (c_int, [c_char_p, P, c_char_p, P]),
    "mmm_machine_load_file": (c_int, [P, c_char_p, P, P]),
    "mmm_machine_free": (None, [P]),
    "mmm_program_load_file": (c_int, [P, c_char_p, P, P]),
    "mmm_runs_read_file": (c_int, [P, c_char_p, c_int, P]),
    "mmm_runs_free": (None, [P]),
    "mmm_fit_samples_make": (c_int, [P, P, c_size_t, P, c_size_t, P, c_size_t, P, P]),
    "mmm_fit_samples_dispose": (None, [P]),
    "mmm_time_machine_get": (c_int, [P, P, c_int, P]),
    "mmm_fit_options_init": (None, [P]),
    "mmm_time_fit": (c_int, [P, P, c_size_t, P, P, P]),
    "mmm_fit_result_dispose": (None, [P]),
    "mmm_time_const_find": (c_int, [c_char_p]),
    "mmm_time_const_name": (c_char_p, [c_int]),
    "mmm_time_machine_write": (c_int, [c_char_p, c_char_p, P, P, c_char_p, P]),
    "mmm_write_fit": (c_int, [P, P, P]),
}

for _name, (_res, _args) in _SIGS.items():
    _f = getattr(lib, _name)
    _f.restype = _res
    _f.argtypes = _args

_libc = ctypes.CDLL(None)
_libc.free.restype = None
_libc.free.argtypes = [P]
free = _libc.free

_DRAW_SIGS = {
    "mmm_draw_available": (c_int, [P]),
    "mmm_render_options_init": (None, [P]),
    "mmm_render_format_parse": (c_int, [P, c_char_p]),
    "mmm_render_level_parse": (c_int, [P, c_char_p]),
    "mmm_render_color_parse": (c_int, [P, c_char_p]),
    "mmm_render_condense_parse": (c_int, [P, c_char_p]),
    "mmm_render_view_parse": (c_int, [P, c_char_p]),
    "mmm_render_rankdir_parse": (c_int, [P, c_char_p]),
    "mmm_render_memory": (c_int, [P, P, P, P, P, P]),
}

_draw = None
_draw_why = None


def draw():
    """The drawing library, or raise an ImportError saying why there is none."""
    global _draw, _draw_why
    if _draw is not None:
        return _draw
    if _draw_why is not None:
        raise ImportError(_draw_why)
    env = os.environ.get("MMM_DRAW_LIBRARY")
    d = os.path.dirname(path)
    names = [env] if env else [
        os.path.join(d, "libmmm-draw.so"), os.path.join(d, "mmm-draw.so"),
        os.path.join(d, "..", "mmm-draw.so"), os.path.join(d, "mmm", "mmm-draw.so")]
    if not env:
        found = ctypes.util.find_library("mmm-draw")
        if found:
            names.append(found)
    tried = []
    for n in names:
        if os.path.sep in n and not os.path.exists(n):
            continue
        try:
            lib_d = ctypes.CDLL(n)
            for name, (res, args) in _DRAW_SIGS.items():
                f = getattr(lib_d, name)
                f.restype, f.argtypes = res, args
            why = ctypes.c_char_p()
            if not lib_d.mmm_draw_available(ctypes.byref(why)):
                tried.append("%s: %s" % (n, (why.value or b"").decode()))
                continue
            _draw = lib_d
            return _draw
        except (OSError, AttributeError) as e:
            tried.append("%s (%s)" % (n, e))
    _draw_why = ("mmm: the drawing library (libmmm-draw.so or the plugin mmm-draw.so, "
                 "built with Graphviz) is not available%s; name it with "
                 "MMM_DRAW_LIBRARY=PATH" % (": " + "; ".join(tried) if tried else ""))
    raise ImportError(_draw_why)


def dot_readers():
    """(mmm_dot_read, mmm_cuda_dot_read) as addresses, or (None, None)."""
    try:
        d = draw()
        return (ctypes.cast(d.mmm_dot_read, c_void_p).value,
                ctypes.cast(d.mmm_cuda_dot_read, c_void_p).value)
    except (ImportError, AttributeError):
        return None, None


SIZE = _layout.SIZE
OFF = _layout.OFF
CONST = _layout.CONST


class Struct:
    """A zeroed buffer the size of a C struct (generously padded), with
    fields read and written at the offsets of _layout."""

    __slots__ = ("name", "buf", "keep")

    def __init__(self, name, init=None):
        self.name = name
        self.buf = ctypes.create_string_buffer(SIZE[name] + 64)
        self.keep = []
        if init is not None:
            init(self.buf)

    @property
    def ptr(self):
        return ctypes.cast(self.buf, c_void_p)

    def addr(self, field=None):
        base = ctypes.addressof(self.buf)
        return base if field is None else base + OFF[self.name + "." + field]

    def get(self, field, ctype):
        return ctype.from_buffer(self.buf, OFF[self.name + "." + field]).value

    def set(self, field, ctype, value, keep=None):
        ctype.from_buffer(self.buf, OFF[self.name + "." + field]).value = value
        if keep is not None:
            self.keep.append(keep)
