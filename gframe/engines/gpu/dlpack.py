"""A DLPack producer for memory gframe holds: a capsule over a pointer, kept alive by an owner.

``__dlpack__`` must hand out a ``PyCapsule`` named ``"dltensor"`` wrapping a ``DLManagedTensor``
whose ``deleter`` the consumer calls when it is done. libcudf's own ``to_dlpack`` copies the
column into a new buffer, and CuPy's producer needs CuPy; this module builds the capsule with
``ctypes`` over the column's own memory instead, so any DLPack consumer (CuPy, PyTorch, JAX, NumPy
for host memory) gets a zero-copy view. The managed tensor, its shape array and the ``owner`` (the
object that keeps the memory alive: a pylibcudf column) stay in ``_live`` until the consumer calls
the deleter, or, if the capsule is dropped unconsumed, until the capsule's destructor does.

The legacy (unversioned) ``DLManagedTensor`` is produced: consumers asking for a newer
``max_version`` accept it (the DLPack spec lets a producer return the legacy capsule). Only 1-D
compact tensors are made (one column). This module imports no GPU library: the same code serves
device memory (``kDLCUDA``) and the host stand-in's memory (``kDLCPU``), which NumPy reads in tests.
"""
from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

# DLDeviceType
CPU, CUDA = 1, 2
# DLDataTypeCode
_CODES = {"i": 0, "u": 1, "f": 2, "b": 6}


class _Device(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _Device), ("ndim", ctypes.c_int32), ("dtype", _DataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)), ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _Managed(ctypes.Structure):
    pass


_DELETER = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Managed))
_Managed._fields_ = [("dl_tensor", _Tensor), ("manager_ctx", ctypes.c_void_p), ("deleter", _DELETER)]

# address of a managed tensor handed out -> (the struct, its shape array, the owner of the memory)
_live: dict[int, tuple[Any, Any, Any]] = {}


@_DELETER
def _delete(managed: Any) -> None:
    """The consumer is done with the tensor: release what kept its memory alive."""
    _live.pop(ctypes.addressof(managed.contents), None)


_NAME = b"dltensor"
_NAME_BUFFER = ctypes.create_string_buffer(_NAME)  # the capsule keeps a pointer to its name: never freed
_CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
# fresh prototypes (ctypes.pythonapi's shared function objects are left as other code configured them);
# PYFUNCTYPE keeps the GIL, and the capsule is passed as a raw pointer: during its destruction it
# must not become a Python object again
_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, ctypes.c_void_p, ctypes.c_char_p, _CAPSULE_DESTRUCTOR)(
    ("PyCapsule_New", ctypes.pythonapi))
_capsule_is_valid = ctypes.PYFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_IsValid", ctypes.pythonapi))
_capsule_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(
    ("PyCapsule_GetPointer", ctypes.pythonapi))


@_CAPSULE_DESTRUCTOR
def _capsule_gone(capsule: int) -> None:
    # a consumer renames a capsule it took ("used_dltensor") and calls the deleter itself; one still
    # named "dltensor" was never consumed, so its tensor is released here
    if _capsule_is_valid(capsule, _NAME):
        _live.pop(_capsule_pointer(capsule, _NAME), None)


def data_type(dtype: np.dtype) -> tuple[int, int]:
    """DLPack's (type code, bits) of a numpy dtype (integers, floats, bool)."""
    code = _CODES.get(dtype.kind)
    if code is None:
        raise BufferError(f"DLPack export of dtype {dtype} is not supported")
    return code, dtype.itemsize * 8


def capsule(ptr: int, size: int, dtype: np.dtype, device: tuple[int, int], owner: Any, byte_offset: int = 0) -> Any:
    """A ``"dltensor"`` capsule over ``size`` values of ``dtype`` at ``ptr + byte_offset`` on
    ``device`` (``ptr``: the allocation, 256-byte aligned as DLPack asks; ``byte_offset``: a sliced
    column's first row); ``owner`` is kept alive until the consumer releases the tensor."""
    code, bits = data_type(dtype)
    shape = (ctypes.c_int64 * 1)(size)
    managed = _Managed()
    t = managed.dl_tensor
    t.data = ptr or None
    t.device = _Device(*device)
    t.ndim = 1
    t.dtype = _DataType(code, bits, 1)
    t.shape = ctypes.cast(shape, ctypes.POINTER(ctypes.c_int64))
    t.strides = None  # compact (row-major)
    t.byte_offset = byte_offset
    managed.manager_ctx = None
    managed.deleter = _delete
    address = ctypes.addressof(managed)
    _live[address] = (managed, shape, owner)
    return _capsule_new(address, ctypes.cast(_NAME_BUFFER, ctypes.c_char_p), _capsule_gone)


def held() -> int:
    """How many tensors handed out are still held by consumers (tests of the lifetime)."""
    return len(_live)
