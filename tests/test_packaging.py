"""Packaging: the license, version bounds that hold here, GPU extras on one RAPIDS release, one
version, and a wheel that builds."""
from __future__ import annotations

import importlib.metadata
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import gframe

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
requirements = pytest.importorskip("packaging.requirements")


def _reqs(items):
    return {r.name: r for r in map(requirements.Requirement, items)}


def test_license_is_apache_2():
    text = (ROOT / "LICENSE").read_text()
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION" in text
    assert "END OF TERMS AND CONDITIONS" in text
    assert PYPROJECT["project"]["license"] == "Apache-2.0"


def test_version_is_single_sourced():
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "gframe._version.__version__"}
    from gframe._version import __version__

    assert gframe.__version__ == __version__


def test_core_dependencies_are_bounded_and_hold_here():
    reqs = _reqs(PYPROJECT["project"]["dependencies"])
    for name in ("pandas", "pyarrow", "polars", "numpy"):
        spec = reqs[name].specifier
        assert any(s.operator == "<" for s in spec), f"{name} has no upper bound"
        assert any(s.operator == ">=" for s in spec), f"{name} has no lower bound"
        assert spec.contains(importlib.metadata.version(name), prereleases=True), \
            f"installed {name} {importlib.metadata.version(name)} is outside {spec}"
    assert reqs["pandas"].specifier.contains("3.0.0") and not reqs["pandas"].specifier.contains("2.2.3")


def test_gpu_extras_pin_one_rapids_release():
    extras = PYPROJECT["project"]["optional-dependencies"]
    for cuda in ("cu12", "cu13"):
        reqs = _reqs(extras[cuda])
        assert str(reqs[f"pylibcudf-{cuda}"].specifier) == "==26.10.*"
        assert str(reqs[f"rmm-{cuda}"].specifier) == "==26.10.*"
        assert not reqs["numpy"].specifier.contains("2.5.0") and reqs["numpy"].specifier.contains("2.4.6")
        assert reqs["numba-cuda"].specifier and any(s.operator == "<" for s in reqs["numba-cuda"].specifier)
        assert any(n.startswith("cupy-cuda") for n in reqs)


def test_project_urls_and_entry_point():
    urls = PYPROJECT["project"]["urls"]
    assert {"Homepage", "Source", "Issues"} <= set(urls) and all(u.startswith("https://") for u in urls.values())
    assert PYPROJECT["project"]["scripts"]["gframe"] == "gframe.__main__:main"


def test_readme_states_the_pandas_3_requirement():
    readme = (ROOT / "README.md").read_text()
    assert "pandas >= 3" in readme or "pandas 3" in readme


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("build") is None, reason="`build` is not installed")
def test_wheel_builds(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info",
                                                             "__pycache__", ".pytest_cache", "benchmarks"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), str(src)],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    if proc.returncode != 0 and ("Could not find a version" in proc.stderr + proc.stdout
                                 or "No matching distribution" in proc.stderr + proc.stdout):
        pytest.skip("no package index for the isolated build environment")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("gframe-*.whl")
    assert wheel.name.startswith(f"gframe-{gframe.__version__}-")
    names = zipfile.ZipFile(wheel).namelist()
    assert "gframe/__main__.py" in names and "gframe/frontend/arrow.py" in names
    assert any(n.endswith("licenses/LICENSE") for n in names)
    meta = zipfile.ZipFile(wheel).read(f"gframe-{gframe.__version__}.dist-info/METADATA").decode()
    assert "License-Expression: Apache-2.0" in meta and "Requires-Dist: polars<3,>=1.28" in meta
