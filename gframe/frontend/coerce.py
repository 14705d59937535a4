"""The one coercion point: user values (scalars, lists, numpy, pandas, gframe) to plan expressions."""
from __future__ import annotations

import datetime as _dt
from typing import Any

import numpy as np
import pandas as pd

from gframe.plan.expr import Lit


def is_scalar(value: Any) -> bool:
    return value is None or value is pd.NaT or isinstance(
        value, (bool, int, float, str, np.generic, pd.Timestamp, pd.Timedelta, _dt.datetime, _dt.date, _dt.timedelta)
    )


def scalar_value(value: Any) -> Any:
    """A hashable, canonical Python value for a literal (NaN/NaT -> None: missing is null)."""
    if value is None or value is pd.NaT:
        return None
    if isinstance(value, float) and np.isnan(value):
        return None
    if isinstance(value, np.generic):
        if isinstance(value, np.floating) and np.isnan(value):
            return None
        if isinstance(value, np.datetime64):
            return pd.Timestamp(value)
        if isinstance(value, np.timedelta64):
            return pd.Timedelta(value)
        return value.item() if isinstance(value, (np.bool_,)) else value
    if isinstance(value, _dt.datetime) and not isinstance(value, pd.Timestamp):
        return pd.Timestamp(value)
    return value


def literal(value: Any) -> Lit:
    return Lit(scalar_value(value))
