"""Float group sums and means as pandas 3.1 computes them: numpy's reduceat where its group codes
are non-decreasing over the rows (each group's rows one run; sorted keys for ``sort=True``), its
Cython kernels elsewhere. The CPU engine reads that order from the codes its ordered pass makes
(``_GroupOrder.from_codes``) or from the rows (``_rows_in_group_order``); every layout below is
compared with pandas bit for bit."""
from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

import gframe as gf

# the GPU engine's float64 group sums are its fixed chunked order from 0, not numpy's reduceat
# (docs/fuzzing.md, G3's GPU half; the device showed it here). The first test's float32 column
# sends its whole group-by to the CPU engine there.
_GPU = os.environ.get("GFRAME_ENGINE", "").lower() == "gpu"
_G3 = "G3: the GPU engine's float64 group sums in group order are not numpy's reduceat"


def _values(n: int, seed: int) -> np.ndarray:
    # magnitudes far apart, so that the order of the additions shows in the last bits
    rng = np.random.default_rng(seed)
    return rng.standard_normal(n) * 10.0 ** rng.integers(-8, 9, n)


def _layouts(n: int) -> dict[str, np.ndarray]:
    runs = np.repeat(np.arange(7), n // 7 + 1)[:n]
    return {
        "runs": runs,                                   # each group one run, in key order
        "runs_unsorted": (6 - runs) * 3 % 7,            # one run each, keys not sorted
        "interleaved": np.arange(n) % 7,                # groups met again
        "one_group": np.zeros(n, dtype=np.int64),
        "all_distinct": np.arange(n)[::-1].copy(),      # every row its own group
    }


@pytest.mark.parametrize("layout", ["runs", "runs_unsorted", "interleaved", "one_group", "all_distinct"])
@pytest.mark.parametrize("sort", [True, False])
@pytest.mark.parametrize("key_kind", ["int", "str", "two"])
def test_float_group_sums_follow_pandas_order(layout: str, sort: bool, key_kind: str) -> None:
    n = 3000
    k = _layouts(n)[layout]
    data = {"v": _values(n, 1), "w": _values(n, 2).astype(np.float32)}
    if key_kind == "int":
        data["k"] = k
        keys: list[str] | str = "k"
    elif key_kind == "str":
        data["k"] = np.array([f"g{i:05d}" for i in k], dtype=object)
        keys = "k"
    else:
        data["k"], data["j"] = k, k % 2
        keys = ["k", "j"]
    pdf = pd.DataFrame(data)
    expected = pdf.groupby(keys, sort=sort).agg({"v": ["sum", "mean"], "w": ["sum", "mean"]})
    got = gf.DataFrame(pdf).groupby(keys, sort=sort).agg({"v": ["sum", "mean"], "w": ["sum", "mean"]})
    pd.testing.assert_frame_equal(got.to_pandas(), expected, check_exact=True)


@pytest.mark.parametrize("where", [
    pytest.param("first", marks=pytest.mark.xfail(_GPU, strict=True, reason=_G3)),
    pytest.param("middle", marks=pytest.mark.xfail(_GPU, strict=True, reason=_G3)),
    "all"])
def test_missing_keys_break_the_order_unless_first(where: str) -> None:
    """pandas' code -1 of a row whose key ``dropna`` drops: the codes stay non-decreasing only where
    every such row comes first (and some row is left)."""
    n = 2000
    k = np.repeat(np.arange(5.0), n // 5)
    if where == "first":
        k[:50] = np.nan
    elif where == "middle":
        k[1000:1050] = np.nan
    else:
        k[:] = np.nan
    pdf = pd.DataFrame({"k": k, "v": _values(n, 3)})
    for sort in (True, False):
        expected = pdf.groupby("k", sort=sort)["v"].sum()
        got = gf.DataFrame(pdf).groupby("k", sort=sort)["v"].sum()
        pd.testing.assert_series_equal(got.to_pandas(), expected, check_exact=True)
