"""GPU interop for DataFrame and Series: the CUDA array interface, DLPack, CuPy and cudf, in and out.

On the GPU engine a computed frame lives in libcudf columns on the device. Other GPU libraries share
that memory without a host round trip (``engines/gpu/exchange.py`` does the work, reached through the
engines' facade):

* ``Series.__cuda_array_interface__`` / ``__dlpack__`` / ``__dlpack_device__`` (numeric and bool
  Series): the column's own memory, kept alive by the Series (each array exported is remembered on
  the Series, which every consumer holds). With missing values the CUDA array interface carries
  cudf's ``mask`` entry (CuPy and Numba refuse it, cudf reads it) and ``__dlpack__`` raises
  ``BufferError`` (DLPack cannot say "missing").
* ``to_cupy(dtype=None, copy=False, na_value=...)``: pandas' ``to_numpy`` with a CuPy result; a Series
  without missing values and no cast is a view of the column (``copy=True`` copies on the device),
  a DataFrame a new 2-D array.
* ``to_cudf()``: cudf objects over the same columns.
* ``DataFrame(cudf_df)``, ``Series(cudf_series)``, ``Series(cupy_array)``, ``DataFrame({...: cupy
  arrays})``: frames over the caller's device memory (no copy; float NaN becomes missing).

With the CPU engine in effect there is no device memory: the three protocol attributes do not
exist (``AttributeError``, as on a pandas object, so ``hasattr`` says False and consumers take the
host path through ``__array__``); ``to_cupy()`` and ``to_cudf()`` copy host memory to the device
(``cupy.asarray(obj.to_numpy(...))``, ``cudf.from_pandas(obj.to_pandas())``), and CuPy/cudf input is
copied to the host. The same copies serve what the device route does not take: constructor
arguments beyond the data (``index=``, ``dtype=``...), 2-D arrays, and columns the device cannot
hold with pandas' meaning (categorical, nested, decimal or tz-aware columns, a MultiIndex).
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.api.extensions import no_default

from gframe import engines
from gframe.plan.schema import NUMPY

DEVICE_ATTRIBUTES = frozenset({"__cuda_array_interface__", "__dlpack__", "__dlpack_device__"})
SERIES_LABEL = "__gf_series"  # the column label of a Series without a name (as ``Series._from_pandas``)


def refusal(obj: Any, name: str) -> str:
    return (f"'{type(obj).__name__}' object has no attribute '{name}': device memory is shared on the GPU "
            f"engine only (options.engine='gpu'), for numeric and bool Series; use to_numpy(), or to_cupy() "
            f"to copy the values to the device")


def is_cudf(obj: Any) -> bool:
    return type(obj).__module__.split(".")[0] == "cudf" and type(obj).__name__ in ("DataFrame", "Series")


def is_device_array(obj: Any) -> bool:
    """A CUDA array of another library (CuPy, Numba, PyTorch...), not a gframe or pandas object."""
    if isinstance(obj, (np.ndarray, pd.Series, pd.DataFrame, pd.Index)) or type(obj).__module__.startswith("gframe"):
        return False
    try:
        return hasattr(obj, "__cuda_array_interface__")
    except Exception:  # noqa: BLE001 - an object whose property fails is no CUDA array to us
        return False


def is_device_data(data: Any) -> bool:
    return is_cudf(data) or is_device_array(data) or (
        isinstance(data, dict) and any(is_device_array(v) for v in data.values()))


def to_host(data: Any) -> Any:
    """Device data copied to host memory (the CPU engine, or what the device route does not take)."""
    if is_cudf(data):
        return data.to_pandas()
    if isinstance(data, dict):
        return {k: to_host(v) if is_device_array(v) else v for k, v in data.items()}
    if is_device_array(data):
        try:
            import cupy
        except ImportError:
            raise TypeError(f"a CUDA array ({type(data).__name__}) with the CPU engine in effect: copying it to "
                            f"host memory needs CuPy; pass a numpy array instead") from None
        return cupy.asnumpy(cupy.asarray(data))
    return data


def frame_plan(data: Any, index: Any, columns: Any, dtype: Any) -> Any:
    """The DataFrame constructor's device route: a plan over ``data``'s memory, or None."""
    if index is not None or columns is not None or dtype is not None:
        return None
    if is_cudf(data) and type(data).__name__ == "DataFrame" or (
            isinstance(data, dict) and data and all(is_device_array(v) for v in data.values())):
        return engines.device_plan(data)
    return None


def series_plan(data: Any, index: Any, dtype: Any, name: Any) -> Any:
    """The Series constructor's device route: (plan, internal column name, Series name), or None."""
    if index is not None or dtype is not None or not (
            is_cudf(data) and type(data).__name__ == "Series" or is_device_array(data)):
        return None
    plan = engines.device_plan(data, name=no_default if name is None else name)
    if plan is None:
        return None
    f = plan.schema.columns[0]
    return plan, f.name, None if f.label == SERIES_LABEL else f.label


def _native_families(plan: Any) -> bool:
    return all(f.family == NUMPY for f in (*plan.schema.columns, *(plan.schema.index or ())))


class DeviceInterop:
    """``to_cupy`` and ``to_cudf`` for DataFrame and Series."""

    __slots__ = ()

    def to_cupy(self, dtype: Any = None, copy: bool = False, na_value: Any = no_default) -> Any:
        """The values as a CuPy array, as ``to_numpy`` gives them (missing floats as NaN; ``na_value``
        for missing values of other dtypes). On the GPU engine from the device memory (a Series
        without missing values and no cast: a view, ``copy=True`` copies on the device; a DataFrame:
        a new (rows, columns) array); on the CPU engine a copy of ``to_numpy(...)``."""
        import cupy

        if not engines.on_gpu():
            return cupy.asarray(self.to_numpy(dtype=dtype, copy=copy, na_value=na_value))  # type: ignore[attr-defined]
        if getattr(self, "ndim", 2) == 1:
            result, frame = self._device_result()  # type: ignore[attr-defined]
            arr, fresh = result.export(frame.schema.columns[0].name, dtype, na_value)
            out = cupy.asarray(arr)
            return out.copy() if copy and not fresh else out
        plan = self._plan  # type: ignore[attr-defined]
        result = engines.device_result(plan)
        fields = plan.schema.columns
        if dtype is None:
            dtype = _common_dtype(result, fields)
        out = cupy.empty((result.table.num_rows, len(fields)), dtype=dtype, order="F")
        for i, f in enumerate(fields):
            arr, _ = result.export(f.name, dtype, na_value)
            out[:, i] = cupy.asarray(arr)
        return out

    def to_cudf(self) -> Any:
        """A cudf object with the same values, labels and index: on the GPU engine over the same device
        columns, else (or for pandas extension dtypes) ``cudf.from_pandas(self.to_pandas())``."""
        import cudf

        series = getattr(self, "ndim", 2) == 1
        plan = self._frame_plan() if series else self._plan  # type: ignore[attr-defined]
        if not engines.on_gpu() or not _native_families(plan):
            return cudf.from_pandas(self.to_pandas())  # type: ignore[attr-defined]
        if series:
            result, plan = self._device_result()  # type: ignore[attr-defined]
        else:
            result = engines.device_result(plan)
        s = plan.schema
        labels = [self.name] if series else s.labels  # type: ignore[attr-defined]
        index = None if s.index is None else [(f.name, f.label) for f in s.index]
        return result.to_cudf(s.names, labels, index, series)


def _common_dtype(result: Any, fields: Any) -> np.dtype:
    """pandas' dtype of ``DataFrame.to_numpy()`` over the device columns (a bool column with missing
    values is object in pandas: no CuPy dtype)."""
    dtypes = []
    for f in fields:
        try:
            arr = result.array(f.name)
        except TypeError as exc:
            raise TypeError(f"column {f.label!r}: {exc}") from None
        has_nulls = arr.column.null_count() > 0
        dtypes.append(np.dtype(object) if has_nulls and arr.dtype.kind == "b" else arr.dtype)
    if not dtypes:
        return np.dtype("float64")
    common = pd.DataFrame({i: np.empty(0, dtype=d) for i, d in enumerate(dtypes)}).to_numpy().dtype
    if common == object:
        raise ValueError("the columns have no common numeric dtype (pandas gives object): pass dtype=...")
    return common


class SeriesDeviceInterop:
    """The CUDA array interface and DLPack of a numeric or bool Series on the GPU engine."""

    __slots__ = ()

    def _device_result(self) -> tuple[Any, Any]:
        """The device result of this Series' values and its one-column frame plan: one per state of the
        Series, kept on it. Every array handed out refers to it and a consumer holds the Series,
        so the memory lives as long as any of them; an in-place change of the Series makes a new
        one and the old ones stay (their arrays remain valid)."""
        plan, expr = self._plan, self._expr  # type: ignore[attr-defined]
        exports = self.__dict__.setdefault("_device_exports", [])
        for entry in exports:
            if entry[0] is plan and entry[1] is expr:
                return entry[2], entry[3]
        frame = self._frame_plan()  # type: ignore[attr-defined]
        result = engines.device_result(frame)
        exports.append((plan, expr, result, frame, {}))
        return result, frame

    def _device_array(self, attribute: str) -> Any:
        # no such attribute (AttributeError, so ``hasattr`` is False and a consumer takes the host
        # path) off the GPU engine and for other dtypes than numbers and bools, as cudf has none there
        t = self._dtype_arrow  # type: ignore[attr-defined]
        if not engines.on_gpu() or t is not None and not (
                pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)):
            raise AttributeError(refusal(self, attribute))
        result, frame = self._device_result()
        arrays = next(e[4] for e in self.__dict__["_device_exports"] if e[2] is result)
        if "array" not in arrays:  # one array per state: every export shares its column
            try:
                arrays["array"] = result.array(frame.schema.columns[0].name)
            except TypeError:
                raise AttributeError(refusal(self, attribute)) from None
        return arrays["array"]

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        return self._device_array("__cuda_array_interface__").__cuda_array_interface__

    @property
    def __dlpack__(self) -> Any:
        return self._device_array("__dlpack__").__dlpack__

    @property
    def __dlpack_device__(self) -> Any:
        return self._device_array("__dlpack_device__").__dlpack_device__
