import os
import subprocess
import json

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MMM = os.path.abspath(os.environ.get("MMM_BIN") or os.path.join(ROOT, "build", "mmm"))


def cli(*args, check=True):
    """Run the mmm command (in the source tree, as the tests name files
    relative to it): (exit status, stdout, stderr)."""
    r = subprocess.run([MMM] + [str(a) for a in args], cwd=ROOT, capture_output=True,
                       text=True)
    if check and r.returncode != 0:
        raise AssertionError("mmm %s: %s" % (" ".join(map(str, args)), r.stderr))
    return r.returncode, r.stdout, r.stderr


def cli_json(*args):
    return json.loads(cli(*args, "--format", "json")[1])


@pytest.fixture(autouse=True)
def _in_root(monkeypatch):
    monkeypatch.chdir(ROOT)
