"""GPU interop: the CUDA array interface, DLPack, CuPy and cudf, in and out (``frontend/device.py``,
``engines/gpu/exchange.py``, ``engines/gpu/dlpack.py``).

Three groups, by what the machine has:

* everywhere: the DLPack producer over host memory, read by NumPy (the same code exports device
  memory); with the CPU engine in effect the protocol attributes do not exist (``hasattr`` False,
  pandas' ``AttributeError``);
* the GPU engine on the host stand-in (``GFRAME_ENGINE=gpu`` with ``fake_pylibcudf``): the stand-in's
  "device" memory is host memory, so NumPy is the consumer: zero-copy (the column's own pointer),
  lifetime (the array outlives the Series), dtypes, missing values, device input;
* a real GPU with CuPy and cudf (``gpu`` marker): the same through CuPy, cudf and DLPack.
"""
from __future__ import annotations

import gc
import os
import sys

import numpy as np
import pandas
import pandas.testing as pdt
import pyarrow as pa
import pytest

import gframe
from gframe import engines
from gframe.engines.gpu import dlpack

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_TEST_SELFCHECK") == "1", reason="gframe-only behaviour")

NO_GPU = engines.gpu_unavailable_reason()
STAND_IN = NO_GPU is None and bool(getattr(sys.modules.get("pylibcudf"), "__host_stand_in__", False))
REAL_GPU = NO_GPU is None and not STAND_IN


def needs_stand_in(fn):
    return pytest.mark.skipif(not STAND_IN, reason="needs the GPU engine on the host stand-in")(fn)


def needs_device(fn):
    return pytest.mark.gpu(pytest.mark.skipif(not REAL_GPU, reason=f"needs a GPU: {NO_GPU or 'host stand-in'}")(fn))


NUMERIC = ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64", "float32", "float64", "bool"]


def _values(dtype: str, n: int = 2000) -> np.ndarray:
    """Numbers of ``dtype``, more rows than a frame that stays on the host (support.SMALL_HOST_ROWS)."""
    if dtype == "bool":
        return np.arange(n) % 3 == 0
    return (np.arange(n) % 100).astype(dtype)


# ------------------------------------------------------------------------------- everywhere

class _HostExporter:
    def __init__(self, arr: np.ndarray) -> None:
        self.arr = arr

    def __dlpack_device__(self) -> tuple[int, int]:
        return (dlpack.CPU, 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return dlpack.capsule(self.arr.ctypes.data, self.arr.size, self.arr.dtype, (dlpack.CPU, 0), self)


@pytest.mark.parametrize("dtype", NUMERIC)
def test_dlpack_producer_zero_copy_and_lifetime(dtype):
    src = _values(dtype, 50)
    before = dlpack.held()
    out = np.from_dlpack(_HostExporter(src))
    assert out.dtype == src.dtype and out.shape == src.shape
    assert out.ctypes.data == src.ctypes.data  # the producer's memory, not a copy
    np.testing.assert_array_equal(out, src)
    assert dlpack.held() == before + 1  # the owner is held while the consumer's array lives
    del src
    gc.collect()
    np.testing.assert_array_equal(out, _values(dtype, 50))
    del out
    gc.collect()
    assert dlpack.held() == before  # released by the consumer's deleter call


def test_dlpack_capsule_dropped_unconsumed_releases_its_owner():
    before = dlpack.held()
    capsule = _HostExporter(np.arange(3)).__dlpack__()
    assert dlpack.held() == before + 1
    del capsule
    gc.collect()
    assert dlpack.held() == before


def test_dlpack_byte_offset_starts_a_slice():
    src = np.arange(10, dtype="int32")

    class Sliced(_HostExporter):
        def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
            # a column sliced 3 rows in: the allocation's pointer and the offset of its first row
            return dlpack.capsule(self.arr.ctypes.data, 7, self.arr.dtype, (dlpack.CPU, 0), self, 3 * 4)

    out = np.from_dlpack(Sliced(src))
    assert out.tolist() == list(range(3, 10)) and out.ctypes.data == src.ctypes.data + 12


def test_dlpack_refuses_other_dtypes():
    with pytest.raises(BufferError, match="datetime64"):
        dlpack.capsule(0, 0, np.dtype("datetime64[ns]"), (dlpack.CPU, 0), None)


def test_cpu_engine_has_no_device_protocols():
    s = gframe.Series([1.0, 2.0, 3.0])
    with gframe.option_context(engine="cpu"):
        for name in ("__cuda_array_interface__", "__dlpack__", "__dlpack_device__"):
            assert not hasattr(s, name)  # consumers take the host path (``__array__``), as for pandas
            with pytest.raises(AttributeError, match="GPU engine only"):
                getattr(s, name)
        assert not hasattr(gframe.DataFrame({"a": [1]}), "__cuda_array_interface__")
        assert s.sum() == 6.0


def test_cpu_engine_to_cupy_and_to_cudf_copy_host_memory():
    cupy = pytest.importorskip("cupy")
    s = gframe.Series([1.0, None, 3.0])
    with gframe.option_context(engine="cpu"):
        out = s.to_cupy()
        assert isinstance(out, cupy.ndarray)
        np.testing.assert_array_equal(out.get(), np.array([1.0, np.nan, 3.0]))
        df = gframe.DataFrame({"a": [1, 2], "b": [0.5, 1.5]})
        np.testing.assert_array_equal(df.to_cupy().get(), df.to_pandas().to_numpy())
        g = gframe.Series(cupy.arange(4, dtype="int64"))  # copied to the host on this engine
        assert g.to_pandas().tolist() == [0, 1, 2, 3]
    cudf = pytest.importorskip("cudf")
    with gframe.option_context(engine="cpu"):
        # cudf's to_pandas decides the dtype of the column labels' Index: compared by value
        pdt.assert_frame_equal(df.to_cudf().to_pandas(), df.to_pandas(), check_column_type=False)
        pdt.assert_frame_equal(gframe.DataFrame(cudf.DataFrame({"x": [1, 2]})).to_pandas(),
                               pandas.DataFrame({"x": [1, 2]}), check_column_type=False)


# ------------------------------------------------------------------ the GPU engine, host stand-in

@needs_stand_in
@pytest.mark.parametrize("dtype", NUMERIC)
def test_stand_in_dlpack_is_the_column_memory(dtype):
    src = _values(dtype)
    s = gframe.Series(src, name="v")
    column = s._device_array("__dlpack__").column  # the engine's resident column
    out = np.from_dlpack(s)
    assert s.__dlpack_device__() == (dlpack.CPU, 0)  # the stand-in's "device" is the host
    assert out.dtype == src.dtype and out.shape == src.shape
    np.testing.assert_array_equal(out, src)
    assert out.ctypes.data == column.data().ptr + column.offset() * src.dtype.itemsize
    assert not hasattr(s, "__cuda_array_interface__")  # host memory: no CUDA array interface
    del s, column
    gc.collect()
    np.testing.assert_array_equal(out, src)  # the consumer's array keeps the column alive


@needs_stand_in
def test_stand_in_computed_series_and_lifetime():
    pdf = pandas.DataFrame({"a": np.arange(3000, dtype="int64"), "b": np.linspace(0, 1, 3000)})
    gdf = gframe.DataFrame(pdf)
    s = gdf.a * 2 + gdf.b
    out = np.from_dlpack(s)
    np.testing.assert_allclose(out, (pdf.a * 2 + pdf.b).to_numpy())
    again = np.from_dlpack(s)
    assert again.ctypes.data == out.ctypes.data  # one export per Series state, not a copy per call
    held = dlpack.held()
    del gdf, s
    gc.collect()
    np.testing.assert_allclose(out, (pdf.a * 2 + pdf.b).to_numpy())
    del out, again
    gc.collect()
    assert dlpack.held() == held - 2


@needs_stand_in
def test_stand_in_other_dtypes_have_no_device_protocols():
    for s in (gframe.Series(["x", "y"] * 1000), gframe.Series(pandas.to_datetime(["2024-01-01"] * 2000)),
              gframe.Series(pandas.Categorical(["a", "b"] * 1000))):
        assert not hasattr(s, "__dlpack__") and not hasattr(s, "__cuda_array_interface__")  # host path
        assert np.asarray(s).shape == (2000,)


@needs_stand_in
def test_stand_in_slices_start_at_their_first_row():
    s = gframe.Series(np.arange(3000, dtype="float64")).iloc[100:2000]
    np.testing.assert_array_equal(np.from_dlpack(s), np.arange(100, 2000, dtype="float64"))


@needs_stand_in
def test_stand_in_missing_values_follow_cudf():
    s = gframe.Series([1.0, None, 3.0] * 500)
    with pytest.raises(BufferError, match="missing values"):
        np.from_dlpack(s)
    cai = s._device_array("x").interface()  # what __cuda_array_interface__ says on a device
    mask = cai["mask"].__cuda_array_interface__
    assert mask["typestr"] == "<t1" and mask["shape"] == (1500,)
    import ctypes
    bits = np.unpackbits(np.frombuffer(ctypes.string_at(mask["data"][0], 2), np.uint8), bitorder="little")
    assert bits[:6].tolist() == [1, 0, 1, 1, 0, 1]  # libcudf's bitmask: bit i set = row i valid


@needs_stand_in
def test_stand_in_export_fills_and_casts_as_to_numpy():
    pdf = pandas.DataFrame({"f": [1.5, np.nan, 3.0], "i": [1, 2, 3], "b": [True, None, False]})
    gdf = gframe.DataFrame(pdf)
    result = engines.device_result(gdf._plan)
    f, fresh = result.export("f")
    assert fresh and np.asarray(f).tolist()[::2] == [1.5, 3.0] and np.isnan(np.asarray(f)[1])
    i, fresh = result.export("i")
    assert not fresh and np.asarray(i).tolist() == [1, 2, 3] and np.asarray(i).dtype == np.int64
    i32, fresh = result.export("i", "float32")
    assert fresh and np.asarray(i32).dtype == np.float32
    with pytest.raises(ValueError, match="na_value"):
        result.export("b")
    b, _ = result.export("b", na_value=False)
    assert np.asarray(b).tolist() == [True, False, False]
    with pytest.raises(TypeError, match="numeric and boolean"):
        engines.device_result(gframe.DataFrame({"s": ["x"]})._plan).export("s")


@needs_stand_in
def test_stand_in_device_input_is_a_device_leaf_with_pandas_rules():
    from gframe.engines.gpu import exchange
    import pylibcudf as plc

    ints = plc.Column.from_arrow(pa.array([1, None, 3]))
    floats = plc.Column.from_arrow(pa.array([1.0, float("nan"), 2.0]))
    gdf = gframe.DataFrame._from_plan(exchange.plan_of(["a", "b"], [ints, floats], None, "test"))
    want = pandas.DataFrame({"a": [1.0, np.nan, 3.0], "b": [1.0, np.nan, 2.0]})
    pdt.assert_frame_equal(gdf.to_pandas(), want)
    assert gdf.b.isna().tolist() == [False, True, False]  # NaN from outside is missing
    pdt.assert_series_equal((gdf.a + gdf.b).to_pandas(), want.a + want.b)
    with gframe.option_context(engine="cpu"):  # the CPU engine reads the device leaf from the host
        pdt.assert_frame_equal(gdf.to_pandas(), want)
        assert gdf.a.sum() == 4.0
    with pytest.raises(ValueError, match="same length"):
        exchange.plan_of(["a", "b"], [ints, plc.Column.from_arrow(pa.array([1.0]))], None, "test")


# ------------------------------------------------------------------------- a real GPU: CuPy

@needs_device
@pytest.mark.parametrize("dtype", NUMERIC)
def test_cuda_array_interface_is_the_resident_column(dtype):
    cupy = pytest.importorskip("cupy")
    src = _values(dtype)
    s = gframe.Series(src, name="v")
    cai = s.__cuda_array_interface__
    column = engines.device_result(s._frame_plan()).table.columns[0]
    assert cai["data"][0] == column.data().ptr + column.offset() * src.dtype.itemsize
    assert cai["shape"] == (len(src),) and np.dtype(cai["typestr"]) == src.dtype and "mask" not in cai
    out = cupy.asarray(s)
    assert out.data.ptr == cai["data"][0]  # zero-copy
    assert out.dtype == src.dtype and out.shape == src.shape
    np.testing.assert_array_equal(out.get(), src)


@needs_device
def test_cupy_array_outlives_the_series():
    cupy = pytest.importorskip("cupy")
    pdf = pandas.DataFrame({"a": np.arange(5000, dtype="int64"), "b": np.linspace(0, 1, 5000)})
    gdf = gframe.DataFrame(pdf)
    s = gdf.a * 2 + gdf.b  # computed on the device
    out = cupy.asarray(s)
    via_dlpack = cupy.from_dlpack(s)
    assert via_dlpack.data.ptr == out.data.ptr
    del gdf, s
    gc.collect()
    junk = cupy.full(5000 * 8, 7.0)  # reuse of freed memory would show here
    want = (pdf.a * 2 + pdf.b).to_numpy()
    np.testing.assert_allclose(out.get(), want)
    np.testing.assert_allclose(via_dlpack.get(), want)
    del junk


@needs_device
def test_slices_start_at_their_first_row():
    cupy = pytest.importorskip("cupy")
    s = gframe.Series(np.arange(3000, dtype="float64")).iloc[100:2000]  # a view with an offset on the device
    want = np.arange(100, 2000, dtype="float64")
    np.testing.assert_array_equal(cupy.asarray(s).get(), want)
    np.testing.assert_array_equal(cupy.from_dlpack(s).get(), want)
    np.testing.assert_array_equal(s.to_cupy().get(), want)


@needs_device
def test_missing_values_on_the_device():
    cupy = pytest.importorskip("cupy")
    s = gframe.Series([1.0, None, 3.0] * 1000)
    cai = s.__cuda_array_interface__
    assert cai["mask"].__cuda_array_interface__["typestr"] == "<t1"  # as cudf
    with pytest.raises(ValueError):  # CuPy refuses masked arrays
        cupy.asarray(s)
    with pytest.raises(BufferError, match="missing values"):
        cupy.from_dlpack(s)
    out = s.to_cupy()
    np.testing.assert_array_equal(out.get(), s.to_pandas().to_numpy())  # NaN where missing, as to_numpy
    np.testing.assert_array_equal(s.to_cupy(na_value=-1.0).get(), s.to_pandas().to_numpy(na_value=-1.0))
    b = gframe.Series([True, None, False] * 1000)
    with pytest.raises(ValueError, match="na_value"):
        b.to_cupy()
    np.testing.assert_array_equal(b.to_cupy(na_value=False).get(), np.array([True, False, False] * 1000))


@needs_device
def test_to_cupy_view_copy_and_dtype():
    cupy = pytest.importorskip("cupy")
    s = gframe.Series(np.arange(3000, dtype="int64"))
    view = s.to_cupy()
    assert view.data.ptr == s.__cuda_array_interface__["data"][0]
    copied = s.to_cupy(copy=True)
    assert copied.data.ptr != view.data.ptr and bool((copied == view).all())
    as_float = s.to_cupy(dtype="float32")
    assert as_float.dtype == cupy.float32
    np.testing.assert_array_equal(as_float.get(), np.arange(3000, dtype="float32"))


@needs_device
def test_dataframe_to_cupy_matches_to_numpy():
    pytest.importorskip("cupy")
    pdf = pandas.DataFrame({"a": np.arange(2000, dtype="int32"), "b": np.linspace(0, 1, 2000),
                            "c": np.arange(2000) % 2 == 0})
    pdf.loc[5, "b"] = np.nan
    gdf = gframe.DataFrame(pdf)
    out = gdf[["a", "b"]].to_cupy()
    want = pdf[["a", "b"]].to_numpy()
    assert out.shape == want.shape and out.dtype == want.dtype
    np.testing.assert_array_equal(out.get(), want)
    np.testing.assert_array_equal(gdf.to_cupy(dtype="float64").get(), pdf.to_numpy(dtype="float64"))
    with pytest.raises(ValueError, match="dtype"):  # bool + int is object in pandas
        gdf[["a", "c"]].to_cupy()
    with pytest.raises(TypeError, match="'s'"):
        gframe.DataFrame({"s": ["x"] * 2000}).to_cupy()


@needs_device
def test_cupy_input_stays_on_the_device():
    cupy = pytest.importorskip("cupy")
    arr = cupy.arange(5000, dtype="float64")
    s = gframe.Series(arr, name="x")
    assert s.name == "x" and s.dtype == np.float64
    assert cupy.asarray(s).data.ptr == arr.data.ptr  # the caller's memory, no copy
    del arr
    gc.collect()
    assert s.sum() == float(np.arange(5000).sum())  # the column keeps the CuPy memory alive
    with_nan = cupy.asarray([1.0, cupy.nan, 3.0])
    t = gframe.Series(with_nan)
    assert t.name is None and t.isna().tolist() == [False, True, False]
    pdt.assert_series_equal(t.to_pandas(), pandas.Series([1.0, np.nan, 3.0]))
    df = gframe.DataFrame({"a": cupy.arange(4, dtype="int32"), "b": cupy.asarray([True, False, True, True])})
    pdt.assert_frame_equal(df.to_pandas(), pandas.DataFrame({"a": np.arange(4, dtype="int32"),
                                                             "b": [True, False, True, True]}))
    pdt.assert_frame_equal(df[df.b].to_pandas(), pandas.DataFrame({"a": np.array([0, 2, 3], dtype="int32"),
                                                                   "b": [True, True, True]}, index=[0, 2, 3]))
    with pytest.raises(ValueError, match="same length"):
        gframe.DataFrame({"a": cupy.arange(3), "b": cupy.arange(4)})
    strided = gframe.Series(cupy.arange(10, dtype="int64")[::2])
    assert strided.to_pandas().tolist() == [0, 2, 4, 6, 8]


# -------------------------------------------------------------------------- a real GPU: cudf

@needs_device
def test_cudf_in_without_a_copy():
    cudf = pytest.importorskip("cudf")
    pdf = pandas.DataFrame({"a": np.arange(3000, dtype="int64"), "b": np.linspace(0, 1, 3000),
                            "s": pandas.Series([str(i % 7) for i in range(3000)], dtype="str")})
    pdf.loc[3, "b"] = np.nan
    cdf = cudf.from_pandas(pdf)
    gdf = gframe.DataFrame(cdf)
    pdt.assert_frame_equal(gdf[["a", "b"]].to_pandas(), pdf[["a", "b"]])  # pandas is the spec
    assert gdf["s"].to_pandas().tolist() == pdf["s"].tolist()
    held = engines.device_result(gdf._plan).table
    assert held.column("a").data().ptr == cdf["a"].to_pylibcudf()[0].data().ptr  # zero-copy
    assert gdf.b.isna().sum() == 1
    got = gdf.groupby("s").a.sum().to_pandas()
    want = pdf.groupby("s").a.sum()
    assert got.index.tolist() == want.index.tolist() and got.tolist() == want.tolist()
    s = gframe.Series(cdf["b"])
    assert s.name == "b"
    pdt.assert_series_equal(s.to_pandas(), pdf["b"])
    sliced = gframe.Series(cdf["b"].iloc[2:])  # a cudf view with an offset, NaN in it
    pdt.assert_series_equal(sliced.to_pandas(), pdf["b"].iloc[2:])
    assert sliced.isna().sum() == 1
    unnamed = gframe.Series(cudf.Series([1, 2, 3]))
    assert unnamed.name is None and unnamed.tolist() == [1, 2, 3]
    del cdf
    gc.collect()
    pdt.assert_frame_equal(gdf[["a", "b"]].to_pandas(), pdf[["a", "b"]])  # the columns keep cudf's buffers
    indexed = pandas.DataFrame({"v": [1.0, np.nan, 3.0]}, index=pandas.Index([10, 20, 30], name="k"))
    pdt.assert_frame_equal(gframe.DataFrame(cudf.from_pandas(indexed)).to_pandas(), indexed)
    multi = pandas.DataFrame({"v": [1.0, 2.0]}, index=pandas.MultiIndex.from_tuples([(1, 10), (2, 20)],
                                                                                     names=["k1", "k2"]))
    pdt.assert_frame_equal(gframe.DataFrame(cudf.from_pandas(multi)).to_pandas(), multi,  # through the host
                           check_column_type=False)
    cats = gframe.DataFrame(cudf.from_pandas(pandas.DataFrame({"c": pandas.Categorical(["u", "w", "u"])})))
    assert cats["c"].dtype == "category" and cats["c"].to_pandas().tolist() == ["u", "w", "u"]  # host


@needs_device
def test_to_cudf_over_the_same_columns():
    cudf = pytest.importorskip("cudf")
    pdf = pandas.DataFrame({"a": np.arange(3000, dtype="int64"), "b": np.linspace(0, 1, 3000)},
                           index=pandas.Index(np.arange(3000) * 2, name="k"))
    gdf = gframe.DataFrame(pdf)
    out = gdf.to_cudf()
    assert isinstance(out, cudf.DataFrame) and list(out.columns) == ["a", "b"]
    pdt.assert_frame_equal(out.to_pandas(), pdf, check_column_type=False)
    assert out["a"].to_pylibcudf()[0].data().ptr == engines.device_result(gdf._plan).table.columns[0].data().ptr
    s = gdf.a * 3
    cs = s.to_cudf()
    assert isinstance(cs, cudf.Series) and cs.name == "a"
    assert cs.to_pylibcudf()[0].data().ptr == s.__cuda_array_interface__["data"][0]  # zero-copy
    pdt.assert_series_equal(cs.to_pandas(), pdf.a * 3)
    del gdf, s
    gc.collect()
    pdt.assert_series_equal(cs.to_pandas(), pdf.a * 3)  # cudf holds the buffers
    round_trip = gframe.DataFrame(out)
    pdt.assert_frame_equal(round_trip.to_pandas(), pdf)
