"""User-defined functions (``map``, ``apply``). Today these run through pandas, recorded in the
fallback report; compiling them with Numba (CPU) and numba-cuda (GPU) is the planned native path."""
from __future__ import annotations

from typing import Any


def map_series(series: Any, arg: Any, na_action: Any = None) -> Any:
    from gframe.fallback import call_pandas
    import pandas as pd

    return call_pandas("Series.map", pd.Series.map, (series, arg), {"na_action": na_action}, "UDF (not compiled yet)")


def apply_frame(df: Any, func: Any, **kwargs: Any) -> Any:
    from gframe.fallback import call_pandas
    import pandas as pd

    return call_pandas("DataFrame.apply", pd.DataFrame.apply, (df, func), kwargs, "UDF (not compiled yet)")
