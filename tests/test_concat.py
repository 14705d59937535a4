"""concat along rows and columns."""
import pytest

from gframe.testing import assert_matches_pandas

NaN = float("nan")


def two(pd):
    return (
        pd.DataFrame({"a": [1, 2], "b": ["x", None]}),
        pd.DataFrame({"a": [3, 4, 5], "b": ["y", "z", None]}),
    )


@pytest.mark.parametrize("ignore_index", [False, True])
def test_concat_rows(ignore_index):
    assert_matches_pandas(lambda pd: pd.concat(two(pd), ignore_index=ignore_index))


@pytest.mark.parametrize("ignore_index", [False, True])
def test_concat_rows_differing_columns(ignore_index):
    assert_matches_pandas(
        lambda pd: pd.concat(
            [pd.DataFrame({"a": [1, 2], "b": [1.5, 2.5]}), pd.DataFrame({"b": [3.5], "c": ["new"]})],
            ignore_index=ignore_index,
        )
    )


def test_concat_rows_int_becomes_float_when_missing():
    assert_matches_pandas(
        lambda pd: pd.concat([pd.DataFrame({"a": [1, 2]}), pd.DataFrame({"b": [3]})], ignore_index=True)
    )


def test_concat_int_and_float():
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame({"a": [1, 2]}), pd.DataFrame({"a": [0.5]})]))


def test_concat_three_frames():
    assert_matches_pandas(
        lambda pd: pd.concat([pd.DataFrame({"a": [i, i + 1]}) for i in range(3)], ignore_index=True)
    )


def test_concat_series():
    assert_matches_pandas(lambda pd: pd.concat([pd.Series([1.0, NaN]), pd.Series([3.0])]))


def test_concat_with_empty():
    assert_matches_pandas(
        lambda pd: pd.concat([pd.DataFrame({"a": [1, 2]}), pd.DataFrame({"a": [9]}).head(0)], ignore_index=True)
    )


def test_concat_one_frame():
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame({"a": [1], "s": ["q"]})]))


def test_concat_filtered_frames():
    def fn(pd):
        df = pd.DataFrame({"k": [1, 2, 3, 4], "v": [0.5, NaN, 1.5, 2.5]})
        return pd.concat([df[df.k > 2], df[df.k <= 2]])

    assert_matches_pandas(fn)


def test_concat_datetimes():
    assert_matches_pandas(
        lambda pd: pd.concat(
            [
                pd.DataFrame({"t": pd.to_datetime(["2020-01-01", None])}),
                pd.DataFrame({"t": pd.to_datetime(["2021-01-01"])}),
            ],
            ignore_index=True,
        )
    )


def test_concat_axis1_aligned():
    assert_matches_pandas(
        lambda pd: pd.concat(
            [pd.DataFrame({"a": [1, 2, 3]}), pd.DataFrame({"b": ["x", "y", "z"]})], axis=1
        )
    )


def test_concat_axis1_misaligned_index():
    assert_matches_pandas(
        lambda pd: pd.concat(
            [pd.DataFrame({"a": [1, 2, 3]}, index=[0, 1, 2]), pd.DataFrame({"b": [4.0, 5.0]}, index=[2, 5])], axis=1
        )
    )


def test_concat_axis1_inner():
    assert_matches_pandas(
        lambda pd: pd.concat(
            [pd.DataFrame({"a": [1, 2, 3]}, index=[0, 1, 2]), pd.DataFrame({"b": [4.0, 5.0]}, index=[2, 5])],
            axis=1,
            join="inner",
        )
    )


def test_concat_axis1_series():
    assert_matches_pandas(
        lambda pd: pd.concat([pd.Series([1, 2], name="x"), pd.Series([3.0, NaN], name="y")], axis=1)
    )


def test_concat_axis1_columns_of_same_frame():
    def fn(pd):
        df = pd.DataFrame({"a": [1, 2, 3], "b": [1.5, NaN, 3.5]})
        return pd.concat([df.a * 2, df.b.rename("bb")], axis=1)

    assert_matches_pandas(fn)


def test_concat_keys():
    assert_matches_pandas(lambda pd: pd.concat(two(pd), keys=["first", "second"]))


# ------------------------------------------------------------------- session 8 (conf8mrg)

@pytest.mark.parametrize("names", [("i", "i", None), ("i", None, None), ("i", "j", None), ("i", "i", "i"),
                                   (None, None, None)])
def test_concat_axis1_index_name_where_every_index_agrees(names):
    # pandas' union of the indexes names the result only where every index has that name
    def fn(pd):
        frames = [pd.DataFrame({c: [0, 1, 2]}, index=pd.Index(list(labels), name=n))
                  for c, labels, n in zip("xyz", ["abc", "bcd", "cde"], names)]
        return pd.concat(frames, axis=1)

    assert_matches_pandas(fn)


def test_concat_keys_index_names_the_level():
    def fn(pd, keys, **kw):
        df = pd.DataFrame({"foo": [1, 2], "bar": [0.1, 0.2]})
        return pd.concat([df, df], keys=keys, **kw)

    assert_matches_pandas(lambda pd: fn(pd, pd.Index(["a", "b"], name="baz")))
    assert_matches_pandas(lambda pd: fn(pd, pd.Index(["a", "b"]), names=["baz"]))
    assert_matches_pandas(lambda pd: fn(pd, pd.Index(["a", "b"])))


@pytest.mark.parametrize("tz", ["+01:15", "UTC-02:15"])
def test_concat_datetimes_in_a_fixed_offset_of_minutes(tz):
    # a zone the engines cannot name: the values are held as objects and keep pandas' dtype
    def fn(pd):
        s = pd.Series(pd.date_range("2011-01-01", periods=2, tz=tz))
        return pd.concat([s, s])

    assert_matches_pandas(fn)
    assert_matches_pandas(lambda pd: pd.DataFrame({"t": pd.date_range("2011-01-01", periods=2, tz=tz), "v": [1, 2]}))


def test_concat_time_index_of_two_units_is_the_finer():
    def fn(pd):
        a = pd.DataFrame(0, index=pd.date_range("2014-07-15", periods=3, tz="UTC", unit="ns"), columns=["A"])
        b = pd.DataFrame(0, index=pd.DatetimeIndex(["2014-07-11", "2014-07-21"], tz="UTC").as_unit("us"), columns=["A"])
        return pd.concat([a, b])

    assert_matches_pandas(fn)


@pytest.mark.parametrize("objs,match", [
    (lambda pd: pd.DataFrame({"a": [1]}), 'you passed an object of type "DataFrame"'),
    (lambda pd: [], "No objects to concatenate"),
    (lambda pd: [None, None], "All objects passed were None"),
    (lambda pd: [pd.Series([1]), "x"], "cannot concatenate object of type"),
])
def test_concat_invalid_inputs_are_pandas_errors(objs, match):
    from gframe.testing import assert_raises_like_pandas

    assert_raises_like_pandas(lambda pd: pd.concat(objs(pd)), match=match)
    assert_raises_like_pandas(lambda pd: pd.concat([pd.Series([1]), pd.Series([2])], keys=["a", "b", "c"]),
                              match=r"The length of the keys \(3\) must match")


def test_concat_of_a_mapping_and_attrs():
    from collections.abc import Mapping

    class Frames(Mapping):
        def __init__(self, d):
            self.d = d

        def __getitem__(self, k):
            return self.d[k]

        def __iter__(self):
            return iter(self.d)

        def __len__(self):
            return len(self.d)

    assert_matches_pandas(lambda pd: pd.concat(Frames({"x": pd.Series([1, 2]), "y": pd.Series([3])})))

    def with_attrs(pd, b_attrs):
        a, b = pd.DataFrame({"v": [1]}), pd.DataFrame({"v": [2]})
        a.attrs, b.attrs = {1: 1}, b_attrs
        return pd.concat([a, b]).attrs

    import gframe
    import pandas

    for b_attrs in ({1: 1}, {1: 2}, {}):
        assert with_attrs(gframe, b_attrs) == with_attrs(pandas, b_attrs)


def test_concat_axis1_numbers_unnamed_series_among_themselves():
    # pandas labels the unnamed Series 0, 1, ... counting only those (named ones and frames keep theirs)
    def fn(pd):
        return pd.concat([pd.Series([1, 2], name="foo"), pd.Series([1, 2]), pd.Series([4, 5])], axis=1)

    assert_matches_pandas(fn)
    assert_matches_pandas(lambda pd: pd.concat([pd.Series([1.0, 2.0], name="A"), pd.Series([3.0, 4.0])], axis=1))
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame({"a": [1, 2], "b": [3, 4]}), pd.Series([5, 6]),
                                                pd.Series([7, 8])], axis=1))


@pytest.mark.parametrize("dtype", ["object", "UInt8", "Int32", "Float64", "int8"])
def test_column_index_dtype_kept_through_selection_and_concat(dtype):
    # pandas' column Index keeps its dtype (an object Index of ints, a nullable one) through a
    # selection of its labels and a concat of frames that share it
    def frames(pd):
        return (pd.DataFrame([[0, 1, 1]], columns=pd.Index([1, 2, 3], dtype=dtype)),
                pd.DataFrame([[0, 1]], columns=pd.Index([1, 2], dtype=dtype)))

    assert_matches_pandas(lambda pd: frames(pd)[0])
    assert_matches_pandas(lambda pd: frames(pd)[0][[3, 1]])
    assert_matches_pandas(lambda pd: pd.concat(frames(pd), ignore_index=True, join="outer", sort=True))
    assert_matches_pandas(lambda pd: pd.concat(frames(pd), join="inner"))


def test_concat_sort_sorts_aligned_columns_too():
    def fn(pd, **kw):
        df = pd.DataFrame({"c": [1, 2], "b": [3, 4], "a": [5, 6]})
        return pd.concat([df, df], sort=True, ignore_index=True, **kw)

    assert_matches_pandas(fn)
    assert_matches_pandas(lambda pd: fn(pd, join="inner"))
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame({1: [1], "a": [2]})] * 2, sort=True, ignore_index=True))


def test_concat_categorical_indexes_of_other_categories_and_categorical_keys():
    def frames(pd):
        c1 = pd.CategoricalIndex(["a", "a"], categories=["a", "b"])
        c2 = pd.CategoricalIndex(["b", "b"], categories=["b", "a"])
        return pd.DataFrame({"A": [1, 2]}, index=c1), pd.DataFrame({"A": [3, 4]}, index=c2)

    assert_matches_pandas(lambda pd: pd.concat(frames(pd)))
    keys = lambda pd: pd.CategoricalIndex(["y", "x"], categories=list("xyz"), ordered=True)  # noqa: E731
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame([[10, 11]]), pd.DataFrame([[20, 21]])], keys=keys(pd)))


def test_concat_axis1_of_datetime_indexes_sorts_by_pandas_default():
    # pandas 3.1 sorts the union of DatetimeIndexes when sort is not given (warning where that
    # changes the order); sort=False keeps the first-seen order
    import warnings

    import pandas

    def frames(pd):
        ts1 = pd.Series(range(6), index=pd.date_range("2020-01-01", periods=6), dtype="float64")
        return ts1[::2], ts1

    with pytest.warns(pandas.errors.Pandas4Warning, match="Sorting by default"):
        assert_matches_pandas(lambda pd: pd.concat(frames(pd), axis=1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_matches_pandas(lambda pd: pd.concat(frames(pd), axis=1, sort=False))


def test_column_index_name_kept():
    # ``df.columns.name`` is pandas' through selections, reset_index, and a concat of frames sharing it
    def frame(pd):
        return pd.DataFrame({"A": [1.0, 2.0], "B": [3.0, 4.0]}, index=pd.Index(["x", "y"], name="k"),
                            columns=pd.Index(["A", "B"], name="exp"))

    assert_matches_pandas(frame)
    assert_matches_pandas(lambda pd: frame(pd)[["B"]])
    assert_matches_pandas(lambda pd: frame(pd).reset_index())
    assert_matches_pandas(lambda pd: pd.concat([frame(pd), frame(pd)], keys=[0, 1], names=["it"]))
    assert_matches_pandas(lambda pd: pd.concat([frame(pd), frame(pd).rename(columns={"A": "C", "B": "D"})], axis=1))


def test_index_levels_named_by_numbers():
    # levels named 1 and 2: each level is read by its position (pandas reads ``get_level_values(1)``
    # as the level named 1)
    def fn(pd):
        idx = pd.MultiIndex.from_product([["A0", "A1", "A2"], ["B0", "B1", "B2"]], names=[1, 2])
        df = pd.DataFrame({"col": range(9)}, dtype="int32", index=idx)
        return pd.concat((df.iloc[:2, :], df.iloc[-2:, :]))

    assert_matches_pandas(fn)
    assert_matches_pandas(lambda pd: pd.concat([pd.Series([1], name="a"), pd.Series([2], name="a")], axis="rows"))


def test_concat_keeps_freq_of_pieces_that_follow_on():
    def fn(pd, a, b):
        df = pd.DataFrame({"a": range(10)}, index=pd.date_range("1/1/2000", periods=10, freq="1ms"))
        return pd.concat([df[a], df[b]])

    for a, b in [(slice(None, 5), slice(5, None)), (slice(None, 3), slice(5, None)), (slice(5, None), slice(None, 5))]:
        got = assert_matches_pandas(lambda pd: fn(pd, a, b))
        import pandas

        assert got.index.freq == fn(pandas, a, b).index.freq


@pytest.mark.parametrize("tz", ["tzlocal", "fixed_hour"])
def test_datetimes_in_zone_objects_arrow_does_not_name(tz):
    # ``tzlocal()`` and ``datetime.timezone(+1h)``: kept as pandas' dtype (held as objects), not UTC / Etc/GMT-1
    import datetime

    import dateutil.tz

    zone = dateutil.tz.tzlocal() if tz == "tzlocal" else datetime.timezone(datetime.timedelta(hours=1))

    def fn(pd):
        s = pd.Series(pd.date_range("2011-01-01", periods=2, tz=zone))
        return pd.concat([s, s], ignore_index=True)

    assert_matches_pandas(fn)
    assert_matches_pandas(lambda pd: pd.DataFrame({"t": pd.date_range("2011-01-01", periods=2, tz=zone)}).dtypes)


def test_concat_through_pandas_where_values_or_labels_differ_in_kind():
    # Series of bools and ints (pandas: object), tuple keys (a level per place), an object index
    # beside datetimes along columns (pandas' union is object)
    def series(pd):
        return pd.concat([pd.Series([True, False]), pd.Series([1, 2])], ignore_index=True)

    got = assert_matches_pandas(series)
    assert got.iloc[0] is True and type(got.iloc[2]) is int
    assert_matches_pandas(lambda pd: pd.concat([pd.DataFrame({"A": [1.0]}), pd.DataFrame({"A": [2.0, 3.0]})],
                                               keys=[("bee", "bah"), ("bee", "boo")]))

    def mixed_index(pd):
        dti = pd.DatetimeIndex(["2021-04-08 21:21:14+00:00"], dtype="datetime64[ns, UTC]", name="t")
        right = pd.DataFrame({"C": [0.5]}, index=dti)
        left = pd.DataFrame({"A": [None], "B": [float("nan")]}, index=pd.Index([None], dtype="object", name="m"))
        return pd.concat([left, right], axis="columns")

    assert_matches_pandas(mixed_index)
