"""db-benchmark questions, written once per API.

* ``PANDAS_API[task][q](pd, **frames)``: the pandas scripts' code (``pandas/groupby-pandas.py``,
  ``pandas/join-pandas.py``), run unchanged by ``pandas``, ``gframe`` and ``cudf.pandas``.
* ``POLARS[task][q](pl, **frames)``: native polars (lazy, collected).
* ``SQL[task][q]``: DuckDB SQL over tables named like the frames.
* ``CHK[task][q]``: the measure columns db-benchmark sums as its checksum
  (a tuple means ``ans[a][b]``, i.e. a MultiIndex column in the pandas answer).
* ``SORT_KEYS[task][q]``: columns that order the rows for comparing answers across libraries.
"""
from __future__ import annotations

from typing import Any, Callable

GB = dict(as_index=False, sort=False, observed=True, dropna=False)

GROUPBY_TITLES = {
    "q1": "sum v1 by id1",
    "q2": "sum v1 by id1:id2",
    "q3": "sum v1 mean v3 by id3",
    "q4": "mean v1:v3 by id4",
    "q5": "sum v1:v3 by id6",
    "q6": "median v3 sd v3 by id4 id5",
    "q7": "max v1 - min v2 by id3",
    "q8": "largest two v3 by id6",
    "q9": "regression v1 v2 by id2 id4",
    "q10": "sum v3 count by id1:id6",
}
JOIN_TITLES = {
    "q1": "small inner on int",
    "q2": "medium inner on int",
    "q3": "medium outer on int",
    "q4": "medium inner on factor",
    "q5": "big inner on int",
}
TITLES = {"groupby": GROUPBY_TITLES, "join": JOIN_TITLES}


# --------------------------------------------------------------------------- pandas API
def g_q1(pd, x):
    return x.groupby('id1', as_index=False, sort=False, observed=True, dropna=False).agg({'v1': 'sum'})


def g_q2(pd, x):
    return x.groupby(['id1', 'id2'], as_index=False, sort=False, observed=True, dropna=False).agg({'v1': 'sum'})


def g_q3(pd, x):
    return x.groupby('id3', as_index=False, sort=False, observed=True, dropna=False).agg({'v1': 'sum', 'v3': 'mean'})


def g_q4(pd, x):
    return x.groupby('id4', as_index=False, sort=False, observed=True, dropna=False).agg(
        {'v1': 'mean', 'v2': 'mean', 'v3': 'mean'})


def g_q5(pd, x):
    return x.groupby('id6', as_index=False, sort=False, observed=True, dropna=False).agg(
        {'v1': 'sum', 'v2': 'sum', 'v3': 'sum'})


def g_q6(pd, x):
    return x.groupby(['id4', 'id5'], as_index=False, sort=False, observed=True, dropna=False).agg(
        {'v3': ['median', 'std']})


def g_q7(pd, x):
    return x.groupby('id3', as_index=False, sort=False, observed=True, dropna=False).agg(
        {'v1': 'max', 'v2': 'min'}).assign(range_v1_v2=lambda x: x['v1'] - x['v2'])[['id3', 'range_v1_v2']]


def g_q8(pd, x):
    # the script then does ans.reset_index(drop=True, inplace=True)
    return x[~x['v3'].isna()][['id6', 'v3']].sort_values('v3', ascending=False).groupby(
        'id6', as_index=False, sort=False, observed=True, dropna=False).head(2).reset_index(drop=True)


def g_q9(pd, x):
    return x[['id2', 'id4', 'v1', 'v2']].groupby(
        ['id2', 'id4'], as_index=False, sort=False, observed=True, dropna=False).apply(
        lambda x: pd.Series({'r2': x.corr()['v1']['v2'] ** 2}))


def g_q10(pd, x):
    return x.groupby(['id1', 'id2', 'id3', 'id4', 'id5', 'id6'], as_index=False, sort=False, observed=True,
                     dropna=False).agg({'v3': 'sum', 'v1': 'size'})


def j_q1(pd, x, small, medium, big):
    return x.merge(small, on='id1')


def j_q2(pd, x, small, medium, big):
    return x.merge(medium, on='id2')


def j_q3(pd, x, small, medium, big):
    return x.merge(medium, how='left', on='id2')


def j_q4(pd, x, small, medium, big):
    return x.merge(medium, on='id5')


def j_q5(pd, x, small, medium, big):
    return x.merge(big, on='id3')


PANDAS_API: dict[str, dict[str, Callable[..., Any]]] = {
    "groupby": {f"q{i}": globals()[f"g_q{i}"] for i in range(1, 11)},
    "join": {f"q{i}": globals()[f"j_q{i}"] for i in range(1, 6)},
}

CHK = {
    "groupby": {
        "q1": ["v1"], "q2": ["v1"], "q3": ["v1", "v3"], "q4": ["v1", "v2", "v3"],
        "q5": ["v1", "v2", "v3"], "q6": [("v3", "median"), ("v3", "std")], "q7": ["range_v1_v2"],
        "q8": ["v3"], "q9": ["r2"], "q10": ["v3", "v1"],
    },
    "join": {q: ["v1", "v2"] for q in JOIN_TITLES},
}

SORT_KEYS = {
    "groupby": {
        "q1": ["id1"], "q2": ["id1", "id2"], "q3": ["id3"], "q4": ["id4"], "q5": ["id6"],
        "q6": ["id4", "id5"], "q7": ["id3"], "q8": ["id6", "v3"], "q9": ["id2", "id4"],
        "q10": ["id1", "id2", "id3", "id4", "id5", "id6"],
    },
    # id3 is unique in x (every key once), and every RHS key is unique, so it orders join answers
    "join": {q: ["id3"] for q in JOIN_TITLES},
}

# join keys and table columns (for building pandas-named outputs in polars / SQL)
JOIN_SPEC = {"q1": ("small", "id1", "inner"), "q2": ("medium", "id2", "inner"),
             "q3": ("medium", "id2", "left"), "q4": ("medium", "id5", "inner"),
             "q5": ("big", "id3", "inner")}
JOIN_COLS = {
    "x": ["id1", "id2", "id3", "id4", "id5", "id6", "v1"],
    "small": ["id1", "id4", "v2"],
    "medium": ["id1", "id2", "id4", "id5", "v2"],
    "big": ["id1", "id2", "id3", "id4", "id5", "id6", "v2"],
}


def merged_names(right: str, on: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """pandas ``merge`` output naming: [(source column, output name)] for the left and right side."""
    lcols, rcols = JOIN_COLS["x"], JOIN_COLS[right]
    common = (set(lcols) & set(rcols)) - {on}
    left = [(c, c + "_x" if c in common else c) for c in lcols]
    right_out = [(c, c + "_y" if c in common else c) for c in rcols if c != on]
    return left, right_out


# --------------------------------------------------------------------------- polars
def _pl_groupby(pl):
    return {
        "q1": lambda x: x.lazy().group_by("id1").agg(pl.col("v1").sum()).collect(),
        "q2": lambda x: x.lazy().group_by("id1", "id2").agg(pl.col("v1").sum()).collect(),
        "q3": lambda x: x.lazy().group_by("id3").agg(pl.col("v1").sum(), pl.col("v3").mean()).collect(),
        "q4": lambda x: x.lazy().group_by("id4").agg(pl.col("v1", "v2", "v3").mean()).collect(),
        "q5": lambda x: x.lazy().group_by("id6").agg(pl.col("v1", "v2", "v3").sum()).collect(),
        "q6": lambda x: x.lazy().group_by("id4", "id5").agg(
            pl.col("v3").median().alias("v3_median"), pl.col("v3").std().alias("v3_std")).collect(),
        "q7": lambda x: x.lazy().group_by("id3").agg(
            (pl.col("v1").max() - pl.col("v2").min()).alias("range_v1_v2")).collect(),
        "q8": lambda x: x.lazy().drop_nulls("v3").group_by("id6").agg(
            pl.col("v3").top_k(2)).explode("v3").collect(),
        "q9": lambda x: x.lazy().group_by("id2", "id4").agg(
            (pl.corr("v1", "v2") ** 2).alias("r2")).collect(),
        "q10": lambda x: x.lazy().group_by("id1", "id2", "id3", "id4", "id5", "id6").agg(
            pl.col("v3").sum(), pl.len().alias("v1")).collect(),
    }


def _pl_join(pl, q):
    right, on, how = JOIN_SPEC[q]
    left_names, right_names = merged_names(right, on)

    def run(x, small, medium, big):
        y = {"small": small, "medium": medium, "big": big}[right]
        lx = x.lazy().rename({c: n for c, n in left_names if c != n})
        ly = y.lazy().rename({c: n for c, n in right_names if c != n})
        return lx.join(ly, on=on, how=how, coalesce=True).collect()

    return run


def polars_questions(pl, task):
    if task == "groupby":
        return _pl_groupby(pl)
    return {q: _pl_join(pl, q) for q in JOIN_TITLES}


# --------------------------------------------------------------------------- SQL (DuckDB)
def _sql_join(q):
    right, on, how = JOIN_SPEC[q]
    left_names, right_names = merged_names(right, on)
    sel = [f"x.{c} AS {n}" for c, n in left_names] + [f"r.{c} AS {n}" for c, n in right_names]
    kind = "LEFT JOIN" if how == "left" else "INNER JOIN"
    return f"SELECT {', '.join(sel)} FROM x {kind} {right} AS r ON x.{on} = r.{on}"


SQL = {
    "groupby": {
        "q1": "SELECT id1, sum(v1) AS v1 FROM x GROUP BY id1",
        "q2": "SELECT id1, id2, sum(v1) AS v1 FROM x GROUP BY id1, id2",
        "q3": "SELECT id3, sum(v1) AS v1, avg(v3) AS v3 FROM x GROUP BY id3",
        "q4": "SELECT id4, avg(v1) AS v1, avg(v2) AS v2, avg(v3) AS v3 FROM x GROUP BY id4",
        "q5": "SELECT id6, sum(v1) AS v1, sum(v2) AS v2, sum(v3) AS v3 FROM x GROUP BY id6",
        "q6": "SELECT id4, id5, median(v3) AS v3_median, stddev_samp(v3) AS v3_std FROM x GROUP BY id4, id5",
        "q7": "SELECT id3, max(v1) - min(v2) AS range_v1_v2 FROM x GROUP BY id3",
        "q8": ("SELECT id6, v3 FROM (SELECT id6, v3, row_number() OVER (PARTITION BY id6 ORDER BY v3 DESC) "
               "AS rn FROM x WHERE v3 IS NOT NULL) WHERE rn <= 2"),
        "q9": "SELECT id2, id4, pow(corr(v2, v1), 2) AS r2 FROM x GROUP BY id2, id4",
        "q10": ("SELECT id1, id2, id3, id4, id5, id6, sum(v3) AS v3, count(*) AS v1 FROM x "
                "GROUP BY id1, id2, id3, id4, id5, id6"),
    },
    "join": {q: _sql_join(q) for q in JOIN_TITLES},
}


def flat_chk(cols):
    """Checksum column names in flattened form (("v3", "median") -> "v3_median")."""
    return [c if isinstance(c, str) else "_".join(c) for c in cols]
