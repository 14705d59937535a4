"""Column labels, index labels and scalar types against pandas (issue 9 class 10, fuzzer causes 7, 12, 20,
20b): MultiIndex columns through reset_index, empty results' column Index, concat with empty frames,
the numpy type of NaN reductions, string sums, datetime std, all/any fallbacks."""
from __future__ import annotations

import numpy as np
import pandas
import pytest

import gframe as gf


def _same(got: object, want: object) -> None:
    got = got.to_pandas() if hasattr(got, "to_pandas") else got
    if isinstance(want, pandas.DataFrame):
        pandas.testing.assert_frame_equal(got, want)
    elif isinstance(want, pandas.Series):
        pandas.testing.assert_series_equal(got, want)
    else:
        assert type(got) is type(want), (type(got), type(want))
        assert got == want or (pandas.isna(got) and pandas.isna(want))


FRAME = pandas.DataFrame({"k": [3, 3, 1], "j": [1, 1, 2], "c0": [1.5, 2.5, 3.5], "s": ["ab", "c", "d"]})


@pytest.mark.parametrize("code", [
    "df.groupby('k').agg({'c0': ['median', 'sum']}).reset_index()",
    "df.groupby(['k', 'j']).agg({'c0': ['sum'], 's': ['first']}).reset_index()",
    "df.groupby(['k', 'j']).agg({'c0': ['sum']}).reset_index(level='j')",
    "df.groupby('k').agg({'c0': ['min', 'max']}).reset_index(drop=True)",
    "df.groupby('k', as_index=False).agg({'c0': ['sum']})",
    "df[['k', 's']].groupby('s').mean().groupby('k').first()",
    "df[['k']].groupby('k').sum()",
    "pd.concat([df.set_index('s').rename_axis('idx'), pd.DataFrame({}, index=pd.RangeIndex(0))])",
    "pd.concat([pd.DataFrame({}, index=pd.Index(['r1', 'r1'], name='idx')), pd.DataFrame({}, index=pd.RangeIndex(0))])",
    "pd.concat([pd.DataFrame({}, index=pd.RangeIndex(0)), pd.DataFrame({}, index=pd.RangeIndex(0))])",
    "df.assign(n=df['c0'].diff()).all()",
    "df.any()",
    "df.all(bool_only=True)",
    "df['s'].sum()",
    "df['s'].head(0).sum()",
])
def test_labels_match_pandas(code: str) -> None:
    want = eval(code, {"pd": pandas, "df": FRAME})
    got = eval(code, {"pd": gf, "df": gf.DataFrame(FRAME)})
    _same(got, want)


@pytest.mark.parametrize("data", [[], [np.nan], [1.0], [np.nan, 1.0]])
@pytest.mark.parametrize("fn", ["mean", "std", "var", "min", "max", "median", "sum", "prod"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_reduction_scalar_types(data: list[float], fn: str, dtype: str) -> None:
    ps = pandas.Series(data, dtype=dtype)
    _same(getattr(gf.Series(ps), fn)(), getattr(ps, fn)())


def test_datetime_std_is_a_timedelta() -> None:
    ps = pandas.Series(pandas.to_datetime(["2020-01-01 12:30:00", "2020-01-02 00:00:00"])).astype("datetime64[ms]")
    _same(gf.Series(ps).std(), ps.std())
    with pytest.raises(TypeError):
        ps.var()
    with pytest.raises(TypeError):
        gf.Series(ps).var()
