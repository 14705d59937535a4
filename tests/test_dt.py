"""The .dt accessor, with NaT."""
import pytest

from gframe.testing import assert_matches_pandas

STAMPS = [
    "2021-03-01 10:15:30",
    None,
    "2020-02-29 23:59:59",
    "2021-01-15 00:00:00",
    "1999-12-31 12:30:45",
    "2024-07-04 06:05:04",
]


def t(pd):
    return pd.Series(pd.to_datetime(STAMPS), name="t")


@pytest.mark.parametrize(
    "field",
    [
        "year", "month", "day", "hour", "minute", "second", "day_of_week", "day_of_year", "quarter",
        "is_month_start", "days_in_month",
        # deprecated spelling in pandas 3.1 (Pandas4Warning) but still pandas API
        pytest.param("dayofweek", marks=pytest.mark.filterwarnings("ignore:Series.dt.dayofweek:DeprecationWarning")),
    ],
)
def test_field(field):
    assert_matches_pandas(lambda pd: getattr(t(pd).dt, field))


def test_date():
    assert_matches_pandas(lambda pd: t(pd).dt.date)


def test_normalize():
    assert_matches_pandas(lambda pd: t(pd).dt.normalize())


@pytest.mark.parametrize("freq", ["h", "D", "min", "15min"])
def test_floor(freq):
    assert_matches_pandas(lambda pd: t(pd).dt.floor(freq))


@pytest.mark.parametrize("freq", ["h", "D", "min"])
def test_ceil(freq):
    assert_matches_pandas(lambda pd: t(pd).dt.ceil(freq))


@pytest.mark.parametrize("freq", ["h", "D"])
def test_round(freq):
    assert_matches_pandas(lambda pd: t(pd).dt.round(freq))


def test_strftime():
    assert_matches_pandas(lambda pd: t(pd).dt.strftime("%Y-%m-%d"))


def test_day_name():
    assert_matches_pandas(lambda pd: t(pd).dt.day_name())


def test_dt_in_frame_groupby():
    assert_matches_pandas(
        lambda pd: pd.DataFrame({"t": pd.to_datetime(STAMPS), "v": range(6)})
        .assign(y=lambda d: d.t.dt.year)
        .groupby("y")
        .v.sum()
    )


def test_dt_filter():
    assert_matches_pandas(
        lambda pd: (lambda df: df[df.t.dt.month == 3])(pd.DataFrame({"t": pd.to_datetime(STAMPS), "v": range(6)}))
    )


def test_dt_all_nat():
    assert_matches_pandas(lambda pd: pd.Series(pd.to_datetime([None, None])).dt.year)


def test_dt_empty():
    assert_matches_pandas(lambda pd: pd.Series(pd.to_datetime([])).dt.day)


def test_timedelta_components():
    assert_matches_pandas(
        lambda pd: (t(pd) - pd.Timestamp("2020-01-01")).dt.days
    )
    assert_matches_pandas(
        lambda pd: (t(pd) - pd.Timestamp("2020-01-01")).dt.total_seconds()
    )


def test_to_datetime_with_format():
    assert_matches_pandas(
        lambda pd: pd.to_datetime(pd.Series(["01/02/2020", None, "31/12/2021"]), format="%d/%m/%Y").dt.month
    )
