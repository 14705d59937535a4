"""Options are pandas' options: one registry, pandas' keys and errors, gframe's settings under ``gframe.``."""
from __future__ import annotations

import os
import subprocess
import sys
import warnings

import numpy as np
import pandas
import pytest
from pandas._config import config as pandas_config

import gframe
from gframe.testing import assert_raises_like_pandas

PANDAS_KEYS = sorted(k for k in pandas_config._registered_options if not k.startswith("gframe."))


def test_gframe_options_functions_are_pandas_registry():
    assert gframe.get_option is pandas.get_option
    assert gframe.set_option is pandas.set_option
    assert gframe.reset_option is pandas.reset_option
    assert gframe.describe_option is pandas.describe_option


@pytest.mark.parametrize("key", PANDAS_KEYS)
def test_every_pandas_key_reads_the_same(key):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # deprecated keys warn, on both sides alike
        assert gframe.get_option(key) is pandas.get_option(key) or gframe.get_option(key) == pandas.get_option(key)
        # attribute access through gframe.options walks the same tree
        node = gframe.options
        for part in key.split("."):
            node = getattr(node, part)
        assert node == pandas.get_option(key)


def test_setting_through_gframe_is_seen_by_pandas_and_back():
    with gframe.option_context("display.max_rows", 20):
        assert pandas.get_option("display.max_rows") == 20
        assert pandas.options.display.max_rows == 20
    gframe.options.display.max_rows = 33
    try:
        assert pandas.get_option("display.max_rows") == 33
    finally:
        gframe.reset_option("display.max_rows")
    assert gframe.options.display.max_rows == pandas_config.get_default_val("display.max_rows")
    pandas.set_option("compute.use_numexpr", False)
    try:
        assert gframe.options.compute.use_numexpr is False
    finally:
        pandas.reset_option("compute.use_numexpr")


def test_mode_copy_on_write_line_of_real_scripts():
    # the first line of many pandas scripts (deprecated, a no-op in pandas 3; it must not fail)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gframe.options.mode.copy_on_write = True
        pandas.options.mode.copy_on_write = True
        assert gframe.get_option("mode.copy_on_write") is pandas.get_option("mode.copy_on_write")
        gframe.reset_option("mode.copy_on_write")


def test_gframe_keys_in_pandas_tree():
    assert pandas.options.gframe.engine == gframe.options.engine == gframe.get_option("gframe.engine")
    with pandas.option_context("gframe.fallback", "raise"):
        assert gframe.options.fallback == "raise"
        assert gframe.options.gframe.fallback == "raise"
        with pytest.raises(gframe.FallbackError):
            gframe.DataFrame({"a": [1]}).to_xarray()  # not native: refused in strict mode
    before = gframe.options.optimize
    pandas.options.gframe.optimize = not before
    try:
        assert gframe.options.optimize is (not before)
    finally:
        pandas.set_option("gframe.optimize", before)


def test_gframe_keys_validate_with_value_error():
    with pytest.raises(ValueError, match="engine"):
        gframe.set_option("gframe.engine", "tpu")
    with pytest.raises(ValueError, match="fallback"):
        pandas.options.gframe.fallback = "sometimes"
    with pytest.raises(ValueError, match="optimize"):
        gframe.options.optimize = "yes"
    with pytest.raises(ValueError, match="disabled_passes"):
        gframe.options.disabled_passes = "limit_pushdown"  # a string, not a collection of names


def test_disabled_passes_stored_as_frozenset():
    with gframe.option_context("gframe.disabled_passes", ["limit_pushdown"]):
        assert gframe.options.disabled_passes == frozenset({"limit_pushdown"})
        assert isinstance(pandas.get_option("gframe.disabled_passes"), frozenset)
    assert gframe.options.disabled_passes == frozenset()


@pytest.mark.parametrize("call", [
    lambda pd: pd.get_option("display.no_such_key"),
    lambda pd: pd.set_option("display.no_such_key", 1),
    lambda pd: pd.reset_option("no.such.key"),
    lambda pd: pd.describe_option("no_such_key_anywhere"),
    lambda pd: setattr(pd.options.display, "no_such_key", 1),
    lambda pd: pd.options.display.no_such_key,
    lambda pd: pd.options.no_such_section,
    lambda pd: pd.set_option("max_rows"),  # odd number of arguments
    lambda pd: pd.set_option("display.max_rows", "many"),
    lambda pd: pd.set_option("display.precision", -1.5),
    lambda pd: pd.set_option("display.show_dimensions", "maybe"),
    lambda pd: setattr(pd.options.display, "max_rows", "many"),
    lambda pd: pd.option_context("display.max_rows").__enter__(),
])
def test_errors_are_pandas_errors(call):
    exc = assert_raises_like_pandas(call)  # the same type as pandas (OptionError, ValueError)
    assert issubclass(exc, (KeyError, ValueError))


def test_unknown_key_error_is_key_and_attribute_error():
    with pytest.raises(KeyError):
        gframe.get_option("no.such.key")
    with pytest.raises(AttributeError):
        gframe.options.no_such_key = 1
    with pytest.raises(gframe.errors.OptionError):
        gframe.set_option("gframe.no_such_key", 1)


def test_option_context_forms():
    with gframe.option_context("display.max_rows", 7, "gframe.fallback", "warn"):
        assert pandas.get_option("display.max_rows") == 7 and gframe.options.fallback == "warn"
    with gframe.option_context({"display.precision": 3}):
        assert pandas.get_option("display.precision") == 3
    with gframe.option_context("display.precision", 2, fallback="raise") as opts:
        assert opts.fallback == "raise" and pandas.get_option("display.precision") == 2
    assert pandas.get_option("display.precision") == 6 and gframe.options.fallback == "silent"
    with pytest.raises(gframe.errors.OptionError), gframe.option_context(no_such_gframe_key=1):
        pass


def test_reset_and_describe():
    gframe.set_option("gframe.oom", "cpu")
    gframe.reset_option("gframe.oom")
    assert gframe.options.oom == pandas_config.get_default_val("gframe.oom")
    text = gframe.describe_option("gframe.engine", _print_desc=False)
    assert "gframe.engine" in text and "GFRAME_ENGINE" in text
    assert "display.max_rows" in gframe.describe_option("display.max_rows", _print_desc=False)
    # regex patterns, as pandas: every gframe key
    assert all(f"gframe.{k}" in gframe.describe_option("gframe", _print_desc=False) for k in gframe.config.GFRAME_KEYS)


def test_reset_by_pattern_resets_gframe_keys_to_their_defaults():
    # (reset_option("all") needs matplotlib for plotting.backend's callback, in pandas too)
    gframe.set_option("gframe.fallback", "warn")
    gframe.set_option("gframe.oom", "cpu")
    gframe.reset_option("^gframe")
    assert gframe.options.fallback == pandas_config.get_default_val("gframe.fallback")
    assert gframe.options.oom == pandas_config.get_default_val("gframe.oom")


def test_monkeypatch_restores_gframe_option(monkeypatch):
    before = gframe.options.verify_optimizer
    monkeypatch.setattr(gframe.options, "verify_optimizer", not before)
    assert pandas.get_option("gframe.verify_optimizer") is (not before)
    monkeypatch.undo()
    assert gframe.options.verify_optimizer is before


def _run(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=120)


def test_environment_sets_defaults_in_pandas_registry():
    out = _run("import gframe, pandas as pd\n"
               "print(pd.get_option('gframe.engine'), pd.options.gframe.fallback, gframe.options.disabled_passes == {'a', 'b'})\n"
               "pd.reset_option('gframe.engine'); print(gframe.options.engine)",
               GFRAME_ENGINE="CPU", GFRAME_FALLBACK="warn", GFRAME_DISABLED_PASSES="a, b")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["cpu", "warn", "True", "cpu"]  # the default is the environment's


def test_invalid_environment_fails_at_import():
    out = _run("import gframe", GFRAME_ENGINE="tpu")
    assert out.returncode != 0 and "ValueError" in out.stderr and "engine" in out.stderr


# ------------------------------------------------------------------ display.* changes gframe's repr as pandas'
def _frames() -> dict[str, tuple[object, object]]:
    rng = np.random.default_rng(0)
    data = {f"column_{i}": rng.normal(size=100) for i in range(12)}
    data["text"] = ["x" * i for i in range(100)]
    pdf, gdf = pandas.DataFrame(data), gframe.DataFrame(data)
    return {"frame": (pdf, gdf), "small": (pdf.head(5), gdf.head(5)),
            "series": (pdf.column_1, gdf.column_1), "small series": (pdf.column_1.head(3), gdf.column_1.head(3))}


@pytest.mark.parametrize(("key", "value"), [
    ("display.max_rows", 10), ("display.max_rows", 200), ("display.max_rows", None), ("display.max_rows", 0),
    ("display.min_rows", 4), ("display.min_rows", 5), ("display.max_columns", 4), ("display.max_columns", None),
    ("display.precision", 2), ("display.width", 40), ("display.max_colwidth", 10),
    ("display.expand_frame_repr", False), ("display.show_dimensions", False), ("display.show_dimensions", True),
    ("display.float_format", "{:.1f}".format), ("display.colheader_justify", "left"), ("display.large_repr", "info"),
])
def test_display_options_change_repr_as_pandas(key, value):
    for name, (expected, result) in _frames().items():
        with gframe.option_context(key, value):
            assert repr(result) == repr(expected), name
            if name in ("frame", "small"):
                assert result._repr_html_() == expected._repr_html_(), name
