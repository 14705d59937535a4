"""``convert_dtypes``: pandas' own rule, applied to what the plan knows about a column.

pandas decides each column's new dtype from its dtype alone, except for two things the values decide:
a float column becomes ``Int64`` only when its values are whole numbers within int64 (and, where
pandas tells NaN from NA, have none missing), and an object column's values are inferred one by one.
The first is one small aggregation here; the second stays pandas' (``NotNative``). The dtype itself
is pandas' answer: its rule (``pandas.core.dtypes.cast.convert_dtypes``) runs on a stand-in array of
the column's dtype that has the properties the rule reads, so every combination of the five
switches and both ``dtype_backend``s follows pandas without a copy of the rule here. The column
is then cast natively (``astype``), as pandas' block casts it.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from pandas.core.dtypes.cast import convert_dtypes as pandas_rule

from gframe import engines
from gframe.frontend.bridge import NotNative
from gframe.plan import logical as L
from gframe.plan.expr import Agg, BinOp, Expr, Lit, func

NO_DEFAULT = pd.api.extensions.no_default  # pandas' default of a deprecated keyword (passing it warns)

# pandas 3.1's switches, in its signature's order (each defaults to True)
SWITCHES = ("infer_objects", "convert_string", "convert_integer", "convert_boolean", "convert_floating")

_INT64_LOW, _INT64_PAST_HIGH = float(-(2 ** 63)), float(2 ** 63)  # pandas' floats_fit_integer_dtype bounds


def switches(values: tuple[Any, ...]) -> dict[str, bool]:
    """The five switches as pandas resolves them (``no_default`` is True)."""
    return {k: True if v is NO_DEFAULT else bool(v) for k, v in zip(SWITCHES, values)}


def converted_dtype(dtype: Any, plan: L.Plan, expr: Expr, options: dict[str, bool], dtype_backend: str) -> Any:
    """The dtype pandas' ``convert_dtypes`` gives a column of ``dtype`` whose values are ``expr``
    over ``plan``; ``NotNative`` where the values decide beyond what is computed here (object
    columns, NaN told from NA)."""
    if dtype_backend not in ("numpy_nullable", "pyarrow"):
        raise NotNative("dtype_backend")  # pandas' ValueError
    if isinstance(dtype, np.dtype) and dtype.kind not in "iubmMf":  # object, complex, bytes
        raise NotNative("convert_dtypes of object values")  # (pandas infers them one by one, first)
    if not any(options[k] for k in SWITCHES[1:]) or isinstance(dtype, pd.CategoricalDtype):
        return dtype  # (pandas' block: nothing to convert, whatever the backend; a categorical stays one)
    if isinstance(dtype, np.dtype):
        if dtype.kind in "iub":
            stand_in = np.ones(1, dtype)
        elif dtype.kind in "mM":
            stand_in = np.array([], dtype)
        elif dtype.kind == "f":
            stand_in = _float_stand_in(dtype, plan, expr)
        else:  # object, complex, bytes: the values are inferred one by one
            raise NotNative("convert_dtypes of object values")
    elif isinstance(dtype, pd.api.extensions.ExtensionDtype):
        if isinstance(dtype, pd.SparseDtype) or (dtype_backend == "pyarrow" and not _plain_extension(dtype)):
            raise NotNative("convert_dtypes of this extension dtype")
        stand_in = pd.array([], dtype=dtype)
    else:
        raise NotNative("convert_dtypes of this dtype")
    return pandas_rule(stand_in, options["convert_string"], options["convert_integer"], options["convert_boolean"],
                       options["convert_floating"], options["infer_objects"], dtype_backend)


def _plain_extension(dtype: Any) -> bool:
    """Masked, Arrow and string dtypes: their pyarrow-backend dtype follows from the dtype alone."""
    return isinstance(dtype, (pd.core.arrays.masked.BaseMaskedDtype, pd.ArrowDtype, pd.StringDtype))


def _any_row(plan: L.Plan, pred: Expr) -> bool:
    """Whether ``pred`` holds for some row of ``plan`` (one small aggregation, computed now)."""
    table = engines.materialize(L.Aggregate((), (), (("any", Agg("any", (), pred)),), False, True, False, plan)).to_arrow()
    return bool(table.num_rows and table.column(0)[0].as_py())


def _float_stand_in(dtype: np.dtype, plan: L.Plan, expr: Expr) -> np.ndarray:
    """Floats with what pandas' rule reads from them: whether some are missing, and whether the
    others are whole numbers within int64 (a value that is not stands for all)."""
    missing = _any_row(plan, func("isna", expr))
    if missing and pd.get_option("future.distinguish_nan_and_na"):
        raise NotNative("NaN told from NA")  # pandas keeps NaN as a value of Float64 there
    outside = BinOp("or", BinOp("or", BinOp("lt", expr, Lit(_INT64_LOW)), BinOp("ge", expr, Lit(_INT64_PAST_HIGH))),
                    BinOp("ne", expr, func("round", expr, decimals=0)))
    fraction = _any_row(plan, BinOp("and", func("notna", expr), outside))
    return np.array(([0.5] if fraction else [1.0]) + ([np.nan] if missing else []), dtype=dtype)
