"""Binary operators against pandas (session 9, conf9ar): pandas' verdict on no-row operands of the
operands' dtypes (``frontend/verdict.py``), numpy / pandas operator deferral, 0-d and
ExtensionArray operands, result names, ``divmod``; each checked against pandas."""
from __future__ import annotations

import operator
import pathlib

import numpy as np
import pandas
import pytest

import gframe as gpd
from gframe.frontend.verdict import agrees, verdict

tm = pandas.testing


def _outcome(fn):
    """(exception type, message) or the result."""
    try:
        return fn()
    except Exception as err:  # noqa: BLE001 - compared with pandas' below
        return type(err), str(err)


def _same_outcome(want, got):
    if isinstance(want, tuple) and len(want) == 2 and isinstance(want[0], type):
        assert isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], type), got
        assert issubclass(got[0], want[0]) or issubclass(want[0], got[0]), (got, want)
        assert got[1] == want[1]
        return
    assert not (isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], type)), got
    if isinstance(want, pandas.Series):
        tm.assert_series_equal(got.to_pandas(), want)
    elif isinstance(want, pandas.DataFrame):
        tm.assert_frame_equal(got.to_pandas(), want)
    elif isinstance(want, pandas.Index):
        tm.assert_index_equal(got.to_pandas(), want)
    else:
        raise AssertionError(f"unexpected result {type(want)}")


_OPS = [operator.add, operator.sub, lambda a, b: b + a, lambda a, b: b - a]
_DT = pandas.Series(pandas.date_range("2016-01-01", periods=2, tz="America/Los_Angeles"), name="x")


@pytest.mark.parametrize("other", [1, np.int64(2), np.array(3, dtype=np.int64), np.bool_(True), 3.14,
                                   np.array([4, -1]), pandas.array([4, -1]), pandas.Categorical([4, -1]),
                                   pandas.Period("2011-01-01", freq="D")], ids=repr)
@pytest.mark.parametrize("op", range(4))
def test_datetime_add_sub_refusals_are_pandas(other, op) -> None:
    """pandas' exception type and message for the operations it refuses for these dtypes."""
    fn = _OPS[op]
    want = _outcome(lambda: fn(_DT, other))
    got = _outcome(lambda: fn(gpd.Series(_DT), other))
    assert isinstance(want, tuple), "pandas refuses these"
    _same_outcome(want, got)


@pytest.mark.parametrize("other", [1, np.int64(2), 3.5])
def test_refusals_need_no_fallback(other) -> None:
    """The verdict is a rule of the dtypes: it raises in strict mode too, nothing goes to pandas."""
    with gpd.option_context("gframe.fallback", "raise"):
        got = _outcome(lambda: gpd.Series(_DT) + other)
    want = _outcome(lambda: _DT + other)
    _same_outcome(want, got)


@pytest.mark.parametrize("box", ["index", "series", "frame"])
def test_numpy_scalar_on_the_left_defers(box) -> None:
    """``np.int64(2) + obj``: numpy defers to the pandas-like operand (``__array_priority__``)."""
    dti = pandas.date_range("2016-01-01", periods=2)
    p = {"index": dti, "series": pandas.Series(dti), "frame": pandas.DataFrame({"a": dti})}[box]
    g = {"index": gpd.Index(dti), "series": gpd.Series(dti), "frame": gpd.DataFrame({"a": dti})}[box]
    for fn in (lambda a: np.int64(2) + a, lambda a: np.int64(2) - a):
        _same_outcome(_outcome(lambda: fn(p)), _outcome(lambda: fn(g)))


@pytest.mark.parametrize("arr", [pandas.array([1, None], dtype="Int64"), pandas.array([1.5, 2.5]),
                                 np.array([1, 2]), pandas.array(pandas.to_timedelta([1, 2], unit="s"))],
                         ids=lambda a: str(a.dtype))
@pytest.mark.parametrize("op", [operator.add, operator.mul, lambda a, b: b * a, lambda a, b: b + a])
def test_array_operands_give_series(arr, op) -> None:
    """pandas' arrays defer to a Series (``__pandas_priority__``); an ExtensionArray keeps its dtype."""
    ps = pandas.Series([10, 20], name="s")
    _same_outcome(_outcome(lambda: op(ps, arr)), _outcome(lambda: op(gpd.Series(ps), arr)))


def test_zero_dim_array_is_its_scalar() -> None:
    ps = pandas.Series([1, 2, 0], name="a")
    for other in (np.array(3), np.array(2.5), np.array(0)):
        for op in (operator.add, operator.truediv, operator.floordiv, operator.mod, lambda a, b: b // a):
            _same_outcome(_outcome(lambda: op(ps, other)), _outcome(lambda: op(gpd.Series(ps), other)))
    pdf = pandas.DataFrame({"a": [1, 2]})
    _same_outcome(pdf + np.array(3), gpd.DataFrame(pdf) + np.array(3))


@pytest.mark.parametrize("aligned", [False, True])
@pytest.mark.parametrize("op", [operator.truediv, operator.mul, operator.floordiv, lambda a, b: b * a,
                                lambda a, b: b / a, lambda a, b: b // a])
@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_timedelta_with_numbers(op, dtype, aligned) -> None:
    """Where gframe's dtype rules refuse and pandas answers, or their result's dtype is not pandas'
    (``timedelta / int`` aligned on labels), the result is pandas'."""
    td = pandas.Series(pandas.to_timedelta([1, 3, 5], unit="s"))
    num = pandas.Series([2, 4, 8], dtype=dtype, index=[0, 1, 2] if not aligned else [2, 1, 0])
    g_td, g_num = gpd.Series(td), gpd.Series(num)
    if not aligned:
        frame = gpd.DataFrame({"t": td, "n": num})
        g_td, g_num = frame["t"], frame["n"]
    _same_outcome(_outcome(lambda: op(td, num)), _outcome(lambda: op(g_td, g_num)))


@pytest.mark.parametrize("names", [("a", "a"), ("a", "b"), (np.nan, np.nan), (pandas.NaT, pandas.NaT),
                                   (np.nan, None), (None, "b"), ("a", None)], ids=repr)
def test_result_names_are_pandas(names) -> None:
    """pandas' ``_maybe_match_name``: equal names, or the same missing marker (NaN, NaT).

    ``pd.NA`` as a name is not covered: the plans' schemas compare labels with ``==``."""
    left = pandas.Series([1, 2], name=names[0])
    right = pandas.Series([3, 4], name=names[1])
    want = left + right
    got = (gpd.Series(left) + gpd.Series(right)).to_pandas()
    tm.assert_series_equal(got, want)
    idx = pandas.Index([3, 4], name=names[1])
    tm.assert_series_equal((gpd.Series(left) + idx).to_pandas(), left + idx)


@pytest.mark.parametrize("dtype", ["int64", "float64", "uint8"])
def test_divmod(dtype) -> None:
    left = pandas.Series([1, 1, -3], dtype="int64", name="x")
    right = pandas.Series([0, 2, 2], dtype=dtype, name="x")
    # (the methods are numpy's divmod, 1 // 0 is 0; the operator's is pandas' inf)
    for fn in (lambda a, b: divmod(a, b), lambda a, b: divmod(a, 2), lambda a, b: divmod(7, b),
               lambda a, b: a.divmod(b), lambda a, b: a.rdivmod(b), lambda a, b: a.divmod(b, fill_value=1)):
        want = fn(left, right)
        got = fn(gpd.Series(left), gpd.Series(right))
        assert isinstance(got, tuple) and len(got) == 2
        for g, w in zip(got, want):
            tm.assert_series_equal(g.to_pandas(), w)
    # numpy's array on the left: Series.__rdivmod__
    got = divmod(left.values, gpd.Series(right))
    for g, w in zip(got, divmod(left.values, right)):
        tm.assert_series_equal(g.to_pandas(), w)


def test_divmod_refused_is_pandas() -> None:
    _same_outcome(_outcome(lambda: divmod(_DT, 2)), _outcome(lambda: divmod(gpd.Series(_DT), 2)))


@pytest.mark.parametrize("other", [1, 2.5, np.array(3)], ids=repr)
def test_frame_refusals_are_pandas(other) -> None:
    pdf = pandas.DataFrame({"a": pandas.date_range("2020-01-01", periods=2), "b": [1, 2]})
    for fn in _OPS:
        _same_outcome(_outcome(lambda: fn(pdf, other)), _outcome(lambda: fn(gpd.DataFrame(pdf), other)))


@pytest.mark.parametrize("other", [-1, 4.0, "foo", None, np.nan, object()], ids=lambda x: type(x).__name__)
@pytest.mark.parametrize("op", [operator.eq, operator.ne, operator.lt, operator.ge, lambda a, b: b < a])
def test_invalid_comparisons_are_pandas(other, op) -> None:
    """``==`` is all False, ``<`` pandas' TypeError; an object of another kind is compared as pandas does."""
    ps = pandas.Series(pandas.date_range("2000-01-01", periods=3))
    _same_outcome(_outcome(lambda: op(ps, other)), _outcome(lambda: op(gpd.Series(ps), other)))


def test_objects_of_other_kinds_follow_pandas() -> None:
    """A user's object, a path: pandas applies the operator to each value (no NotImplemented)."""
    class Plus:
        def __init__(self, v):
            self.v = v

        def __radd__(self, other):
            return other + self.v

    ps = pandas.Series([1, 2])
    _same_outcome(ps + Plus(3), gpd.Series(ps) + Plus(3))
    s = pandas.Series(["x", "y"])
    _same_outcome(pathlib.Path("a") / s, pathlib.Path("a") / gpd.Series(s))

    class Wins:
        __pandas_priority__ = 5000

        def __radd__(self, other):
            return "wins"

    assert gpd.Series([1]) + Wins() == "wins"


def test_objects_with_times_per_value() -> None:
    """Timedeltas divided by ints held as Python objects: pandas' Timedelta per value, object dtype."""
    td = pandas.Series(pandas.to_timedelta(["59 days", "59 days", None]))
    vec = pandas.Series([20, 30, 40]).astype(object)
    _same_outcome(_outcome(lambda: td / vec), _outcome(lambda: gpd.Series(td) / gpd.Series(vec)))
    _same_outcome(_outcome(lambda: vec / td), _outcome(lambda: gpd.Series(vec) / gpd.Series(td)))


def test_two_dimensional_operand_is_pandas() -> None:
    s = pandas.Series(pandas.array(["a", "b"], dtype="string"))
    other = np.array([[True, False], [True, False]])
    _same_outcome(_outcome(lambda: other | s), _outcome(lambda: other | gpd.Series(s)))


def test_index_ufuncs_run_on_pandas_labels() -> None:
    idx = pandas.Index([1.0, 4.0, 9.0], name="n")
    tm.assert_index_equal(np.sqrt(gpd.Index(idx)).to_pandas(), np.sqrt(idx))
    tm.assert_index_equal(np.add(gpd.Index(idx), 1).to_pandas(), np.add(idx, 1))


def test_verdict_unknown_dtypes_give_no_verdict() -> None:
    """A dtype the data decides (Python objects, a categorical's categories): no verdict, no raise."""
    obj = gpd.Series([1, "a"], dtype=object)
    assert verdict("add", obj, 1) is False
    cat = gpd.Series(["a", "b"], dtype="category")
    assert verdict("lt", cat, "a") is False
    num = gpd.Series([1.0, 2.0])
    assert verdict("add", num, 1) is True
    assert agrees("add", num, 1, False, num + 1)


@pytest.mark.parametrize("tz", ["dateutil/America/Los_Angeles", "America/Los_Angeles", "UTC", "+01:00"])
def test_arithmetic_keeps_the_time_zone_object(tz) -> None:
    """``ts + Timedelta`` keeps the column's time zone object (a dateutil zone stays dateutil's), as
    pandas' dtype does; a frame's columns too."""
    ps = pandas.Series(pandas.date_range("2000-01-01", periods=3, tz=tz, unit="ns"), name="t")
    for fn in (lambda s: s + pandas.Timedelta(hours=2), lambda s: np.timedelta64(2, "h") + s,
               lambda s: s - pandas.Timedelta(hours=2)):
        tm.assert_series_equal(fn(gpd.Series(ps)).to_pandas(), fn(ps))
    pdf = pandas.DataFrame({"a": ps})
    tm.assert_frame_equal((gpd.DataFrame(pdf) + pandas.Timedelta(1)).to_pandas(), pdf + pandas.Timedelta(1))


@pytest.mark.parametrize("box", ["series", "frame", "index"])
def test_bool_floordiv_and_divmod_refused(box) -> None:
    """pandas' NotImplementedError for ``//`` and ``divmod`` of bools (a frame's same-plan operands too)."""
    make = {"series": (pandas.Series, gpd.Series), "frame": (lambda v: pandas.DataFrame({"a": v}),
                                                             lambda v: gpd.DataFrame({"a": v})),
            "index": (pandas.Index, gpd.Index)}[box]
    p, g = make[0]([True, False]), make[1]([True, False])
    for fn in (lambda o: o // o, lambda o: divmod(o, o), lambda o: divmod(True, o)):
        _same_outcome(_outcome(lambda: fn(p)), _outcome(lambda: fn(g)))


def test_tuple_operand_is_pandas() -> None:
    """A tuple is a value where the values are tuples (a categorical of them too)."""
    ps = pandas.Series([(0, 0), (0, 1), (1, 0)])
    for s in (ps, ps.astype("category")):
        tm.assert_series_equal((gpd.Series(s) == (0, 0)).to_pandas(), s == (0, 0))
