"""The GPU engine's device memory shared with other GPU libraries, in and out, without a host copy.

Out (``DeviceResult``, from ``engines.device_result(plan)``): a result the GPU engine holds is a
``GpuTable`` of libcudf columns. ``DeviceArray`` wraps one numeric or boolean column as a 1-D
array: ``__cuda_array_interface__`` (v3) and ``__dlpack__`` point at the column's own memory
(``Column.data().ptr`` plus its row offset), and the ``DeviceArray`` holds the column, so the memory
lives as long as any array a consumer made of it (CuPy, Numba and PyTorch keep the exporting object;
the DLPack capsule keeps it until its deleter runs). Missing values follow cudf: the CUDA array
interface describes them with a ``mask`` entry (libcudf's bitmask, typestr ``<t1``), which
mask-aware consumers (cudf) read and CuPy/Numba refuse; DLPack has no way to say "missing", so
``__dlpack__`` raises ``BufferError`` for a column with missing values. ``export`` makes the dense
array ``to_cupy`` wants (a cast, missing values filled) on the device. ``to_cudf`` builds cudf
objects over the same columns (``cudf.Series.from_pylibcudf``).

In (``device_plan``, from ``engines.device_plan``): a CUDA array (CuPy, Numba, PyTorch...), a dict
of them, or a cudf object becomes a ``Materialized`` leaf over a ``GpuTable`` of columns that view
the caller's memory (``Column.from_cuda_array_interface``, cudf's ``to_pylibcudf()``): no copy,
and the columns keep the caller's buffers alive. gframe's rules at the edge apply on the device:
float NaN becomes missing (a null mask next to the same values), an integer column with missing
values becomes float64 (pandas). What the device cannot hold as pandas would (nested, decimal,
categorical or tz-aware columns, booleans with missing values, a MultiIndex) gives ``None``: the
frontend then copies through the host.

On the host stand-in (``gframe.testing.fake_pylibcudf``) the "device" memory is host memory: a
``DeviceArray`` then offers ``__array_interface__`` and DLPack's CPU device instead of the CUDA
protocols, so the same code is tested with NumPy as the consumer.
"""
from __future__ import annotations

import sys
from typing import Any, Hashable, Sequence

import numpy as np
import pyarrow as pa
from pandas.api.extensions import no_default

from gframe.engines.gpu import dlpack
from gframe.engines.gpu.convert import col_type, plc_type, scalar
from gframe.engines.gpu.lib import plc
from gframe.engines.gpu.table import GpuTable
from gframe.plan.logical import Materialized, Plan
from gframe.plan.node import Opaque
from gframe.plan.schema import Field, IndexField, Schema, index_name, internal_name


def on_host() -> bool:
    """Whether the engine runs on the host stand-in (its memory is host memory)."""
    return bool(getattr(sys.modules.get("pylibcudf"), "__host_stand_in__", False))


def synchronize() -> None:
    """Wait for the device's work: libcudf's kernels ran on its default stream, a consumer may read on
    any stream (so the interface says ``stream: None``, "no synchronization needed")."""
    if on_host():
        return
    from cuda.bindings import runtime  # type: ignore[import-not-found]

    err = runtime.cudaDeviceSynchronize()[0]
    if int(err) != 0:
        raise RuntimeError(f"cudaDeviceSynchronize failed: {err}")


def _device() -> tuple[int, int]:
    if on_host():
        return (dlpack.CPU, 0)
    from cuda.bindings import runtime  # type: ignore[import-not-found]

    err, device = runtime.cudaGetDevice()
    if int(err) != 0:
        raise RuntimeError(f"cudaGetDevice failed: {err}")
    return (dlpack.CUDA, int(device))


def numpy_dtype(col: Any) -> np.dtype:
    """The numpy dtype of a numeric or boolean column (TypeError for any other)."""
    t = col_type(col)
    if not (pa.types.is_integer(t) or pa.types.is_floating(t) or pa.types.is_boolean(t)):
        raise TypeError(f"a column of type {t} has no array view: the CUDA array interface, DLPack and to_cupy "
                        f"cover numeric and boolean columns")
    return np.dtype(t.to_pandas_dtype())


class _MaskView:
    """libcudf's validity bitmask of a column, as cudf exposes it in ``__cuda_array_interface__['mask']``."""

    __slots__ = ("owner", "__cuda_array_interface__")

    def __init__(self, col: Any) -> None:
        # the bitmask starts at bit ``offset`` of a sliced column: a copy that starts at row 0 then
        owner = col.null_mask() if col.offset() == 0 else plc.null_mask.copy_bitmask(col)
        self.owner = owner
        self.__cuda_array_interface__ = {"shape": (col.size(),), "typestr": "<t1", "data": (int(owner.ptr), True),
                                         "version": 3, "strides": None, "stream": None}


class DeviceArray:
    """One numeric or boolean device column as a 1-D array shared with other libraries (no copy).

    Holds the pylibcudf column, so the memory lives as long as this object and whatever holds it.
    """

    __slots__ = ("column", "dtype", "size", "base", "byte_offset", "ptr")

    def __init__(self, col: Any) -> None:
        self.column = col
        self.dtype = numpy_dtype(col)
        self.size = int(col.size())
        data = col.data() if self.size else None
        self.base = 0 if data is None else int(data.ptr)  # the allocation; a slice starts ``offset`` rows in
        self.byte_offset = 0 if data is None else int(col.offset()) * self.dtype.itemsize
        self.ptr = self.base + self.byte_offset

    def interface(self) -> dict[str, Any]:
        """The array interface (v3) of the values; with missing values, cudf's ``mask`` entry."""
        out: dict[str, Any] = {"shape": (self.size,), "typestr": self.dtype.str, "data": (self.ptr, True),
                               "strides": None, "version": 3, "stream": None}
        if self.column.null_count():
            out["mask"] = _MaskView(self.column)
        return out

    @property
    def __cuda_array_interface__(self) -> dict[str, Any]:
        if on_host():
            raise AttributeError("the GPU engine runs on the host stand-in: its memory is host memory "
                                 "(__array_interface__)")
        synchronize()
        return self.interface()

    @property
    def __array_interface__(self) -> dict[str, Any]:
        if not on_host():
            raise AttributeError("device memory has no host array interface: use __cuda_array_interface__ "
                                 "or DLPack")
        out = self.interface()
        del out["stream"]
        if "mask" in out:  # NumPy has no missing values: what a CUDA consumer without masks does
            raise ValueError("the column holds missing values: the array interface cannot describe them")
        return out

    def __dlpack_device__(self) -> tuple[int, int]:
        return _device()

    def __dlpack__(self, *, stream: Any = None, max_version: Any = None, dl_device: Any = None,
                   copy: bool | None = None) -> Any:
        if self.column.null_count():
            raise BufferError(f"the column holds {self.column.null_count()} missing values, which DLPack cannot "
                              f"represent: fill them first (fillna) or use to_cupy(na_value=...)")
        device = self.__dlpack_device__()
        if dl_device is not None and tuple(dl_device) != device:
            raise BufferError(f"the data is on DLPack device {device}, not {tuple(dl_device)}")
        if copy:
            return DeviceArray(self.column.copy()).__dlpack__(stream=stream, dl_device=dl_device)
        synchronize()  # ready for whatever stream the consumer reads on
        return dlpack.capsule(self.base, self.size, self.dtype, device, self, self.byte_offset)


class DeviceResult:
    """A result in the GPU engine's device memory (``engines.device_result``)."""

    def __init__(self, table: GpuTable) -> None:
        self.table = table

    def array(self, name: str) -> DeviceArray:
        """Column ``name`` as it is (no copy)."""
        return DeviceArray(self.table.column(name))

    def export(self, name: str, dtype: Any = None, na_value: Any = no_default) -> tuple[DeviceArray, bool]:
        """Column ``name`` as a dense array of ``dtype`` (default: its own) with missing values as
        ``na_value`` (default: NaN for floats; other types with missing values need one), made on the
        device; and whether that is new memory (False: the column's own memory, no copy made)."""
        col = self.table.column(name)
        have = numpy_dtype(col)
        fresh = False
        if dtype is not None and np.dtype(dtype) != have:
            target = np.dtype(dtype)
            if target.kind not in "iufb":
                raise TypeError(f"to_cupy(dtype={target}): numeric and boolean dtypes only")
            col = plc.unary.cast(col, plc_type(pa.from_numpy_dtype(target)))
            have, fresh = target, True
        if col.null_count():
            if na_value is no_default or na_value is None:
                if have.kind != "f":
                    raise ValueError(f"cannot convert a {have} column with missing values to a CuPy array of dtype "
                                     f"{have}: pass na_value=... or a float dtype")
                na_value = np.nan
            col = plc.replace.replace_nulls(col, scalar(na_value, col_type(col)))
            fresh = True
        return DeviceArray(col), fresh

    def to_cudf(self, names: Sequence[str], labels: Sequence[Hashable], index: Sequence[tuple[str, Hashable]] | None,
                series: bool) -> Any:
        """cudf objects over the same columns: a Series (``names`` has one column) or a DataFrame;
        ``index``: (column name, label) of each index level, None for the default RangeIndex."""
        import cudf

        def column(name: str) -> Any:
            return cudf.Series.from_pylibcudf(self.table.column(name))

        if series:
            out = column(names[0])
            out.name = labels[0]
        elif names:
            out = cudf.DataFrame({i: column(n) for i, n in enumerate(names)})
            out.columns = list(labels)
        else:
            out = cudf.DataFrame(index=cudf.RangeIndex(self.table.num_rows))
        if index:
            levels = [cudf.Index.from_pylibcudf(self.table.column(n)) for n, _ in index]
            if len(levels) == 1:
                idx = levels[0]
                idx.name = index[0][1]
            else:
                idx = cudf.MultiIndex.from_arrays(levels, names=[label for _, label in index])
            out.index = idx
        return out


# ------------------------------------------------------------------------------------------ in

def _storable(col: Any) -> bool:
    """A column gframe keeps on the device with pandas' meaning (as ``frontend/arrow._native_type``)."""
    try:
        t = col_type(col)
    except TypeError:  # nested, decimal, dictionary: no gframe type
        return False
    if pa.types.is_boolean(t) and col.null_count():
        return False  # object dtype in pandas
    if (pa.types.is_timestamp(t) or pa.types.is_duration(t)) and t.unit not in ("ms", "us", "ns"):
        return False
    return not pa.types.is_date32(t)


def _column_in(col: Any) -> Any:
    """gframe's rules at the edge: an integer column with missing values is float64 (pandas), float
    NaN is missing (one missing value); the values stay where they are (a mask is added)."""
    t = col_type(col)
    if pa.types.is_integer(t) and col.null_count():
        return plc.unary.cast(col, plc_type(pa.float64()))
    if pa.types.is_floating(t) and col.size():
        mask, nulls = plc.transform.nans_to_nulls(col)
        if nulls != col.null_count():
            # the new mask counts from the view's first row, a column's mask from its allocation's:
            # a sliced column (offset) gets a new column instead
            col = col.with_mask(mask, nulls) if col.offset() == 0 else plc.transform.column_nans_to_nulls(col)
    return col


def plan_of(labels: Sequence[Hashable], columns: Sequence[Any], index: Sequence[tuple[Hashable, Any]] | None,
            origin: str) -> Plan:
    """A leaf over device columns (already storable): the data columns, then the index levels."""
    columns = [_column_in(c) for c in columns]
    idx_cols = [_column_in(c) for _, c in index] if index else []
    fields = tuple(Field(label, col_type(c)) for label, c in zip(labels, columns))
    idx_fields = tuple(IndexField(label, col_type(c), i) for i, ((label, _), c) in enumerate(zip(index, idx_cols))) \
        if index else None
    schema = Schema(fields, idx_fields)
    sizes = {c.size() for c in columns + idx_cols}
    if len(sizes) > 1:
        raise ValueError("All arrays must be of the same length")
    n = sizes.pop() if sizes else 0
    names = [internal_name(label) for label in labels] + [index_name(i) for i in range(len(idx_cols))]
    return Materialized(Opaque(GpuTable(names, columns + idx_cols, n), origin), "gpu", schema)


def column_from_cuda_array(obj: Any) -> Any:
    """A device column viewing a 1-D CUDA array's memory (no copy; it keeps ``obj`` alive)."""
    cai = obj.__cuda_array_interface__
    shape = tuple(cai["shape"])
    if len(shape) != 1:
        raise ValueError(f"Data must be 1-dimensional, got ndarray of shape {shape} instead")
    if cai.get("mask") is not None:
        raise NotImplementedError("a CUDA array with a mask: pass a cudf object, or fill the masked values")
    itemsize = np.dtype(cai["typestr"]).itemsize
    strides = cai.get("strides")
    if strides is not None and shape[0] > 1 and tuple(strides) != (itemsize,):
        if not type(obj).__module__.startswith("cupy"):
            raise ValueError(f"a CUDA array with strides {tuple(strides)}: pass a contiguous array")
        import cupy

        obj = cupy.ascontiguousarray(obj)  # on the device
    return plc.Column.from_cuda_array_interface(obj)


def is_cudf(obj: Any) -> bool:
    return type(obj).__module__.split(".")[0] == "cudf" and type(obj).__name__ in ("DataFrame", "Series")


def _cudf_index(obj: Any) -> list[tuple[Hashable, Any]] | bool | None:
    """The index levels of a cudf object as (label, column); None for a default RangeIndex, False for
    one the device route does not take (a MultiIndex)."""
    import cudf

    idx = obj.index
    if isinstance(idx, cudf.RangeIndex) and idx.start == 0 and idx.step == 1:
        return None
    if isinstance(idx, cudf.MultiIndex) or not _plain_dtype(idx.dtype):
        return False
    col, _ = idx.to_pylibcudf()
    return [(idx.name, col)]


def _plain_dtype(dtype: Any) -> bool:
    """A cudf dtype whose libcudf column means what gframe's column of that type means: numpy
    numbers, bools, datetimes, timedeltas, and strings (object or a string dtype). Categorical (its
    column holds the codes), decimal, nested, tz-aware and nullable extension dtypes are not."""
    import pandas as pd

    if isinstance(dtype, np.dtype):
        return dtype.kind in "iufbmMO"
    return isinstance(dtype, pd.StringDtype) or str(dtype) in ("str", "string", "object")


def _from_cudf(obj: Any, name: Any = no_default) -> Plan | None:
    import cudf

    if isinstance(obj, cudf.Series):
        label = obj.name if name is no_default else name
        labels = ["__gf_series" if label is None else label]  # as Series._from_pandas
        parts = [obj]
    else:
        labels = list(obj.columns)
        if len(set(map(repr, labels))) != len(labels):
            return None
        parts = [obj.iloc[:, i] for i in range(obj.shape[1])]
    if not all(_plain_dtype(s.dtype) for s in parts):
        return None
    columns = [s.to_pylibcudf()[0] for s in parts]
    index = _cudf_index(obj)
    if index is False or not all(_storable(c) for c in columns) or (index and not _storable(index[0][1])):
        return None
    return plan_of(labels, columns, index or None, "cudf")


def device_plan(data: Any, name: Any = no_default) -> Plan | None:
    """A leaf over a GPU library's data without a copy (see the module docstring), or None where the
    device cannot hold it with pandas' meaning. ``name``: the Series' label (a single array)."""
    if is_cudf(data):
        return _from_cudf(data, name)
    if isinstance(data, dict):
        cols = [column_from_cuda_array(v) for v in data.values()]
        if not all(_storable(c) for c in cols):
            return None
        return plan_of(list(data), cols, None, "cuda arrays")
    col = column_from_cuda_array(data)
    if not _storable(col):
        return None
    return plan_of(["__gf_series" if name is no_default or name is None else name], [col], None, "cuda array")
