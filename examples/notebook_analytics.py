"""Notebook analytics, as a script: the cells of an exploratory session on a sales table.

Run: python examples/notebook_analytics.py   (or open it in Jupyter/VS Code: ``# %%`` marks cells)
Each cell is what one types in a notebook: look at the data, aggregate, rank, pivot, then ask gframe
what ran where (``explain(analyze=True)``, ``fallback_report()``). Every table is checked against
pandas running the same cell.
"""
from __future__ import annotations

import numpy as np
import pandas

import gframe as pd  # in a notebook: `%load_ext gframe` keeps `import pandas as pd` working unchanged


def make_sales(n: int = 50_000, seed: int = 2) -> dict:
    rng = np.random.default_rng(seed)
    return {
        "store": rng.choice([f"s{i:02d}" for i in range(12)], n),
        "category": rng.choice(["toys", "food", "garden", "books", "tools"], n),
        "units": rng.integers(1, 20, n),
        "price": rng.uniform(1, 80, n).round(2),
        "discount": np.where(rng.random(n) < 0.2, rng.uniform(0.05, 0.4, n).round(2), 0.0),
        "day": pandas.Timestamp("2026-03-01") + pandas.to_timedelta(rng.integers(0, 28, n), unit="D"),
    }


# %% each function is one cell; `pd` is gframe in the notebook, pandas in the check
def cell_overview(pd, sales):
    df = pd.DataFrame(sales)
    df["revenue"] = df.units * df.price * (1 - df.discount)
    return df.describe()


def cell_top_stores(pd, sales):
    df = pd.DataFrame(sales)
    df["revenue"] = df.units * df.price * (1 - df.discount)
    per_store = df.groupby("store", as_index=False).agg(revenue=("revenue", "sum"), orders=("units", "count"))
    return per_store.nlargest(5, "revenue").reset_index(drop=True)


def cell_category_share(pd, sales):
    df = pd.DataFrame(sales)
    df["revenue"] = df.units * df.price * (1 - df.discount)
    by_cat = df.groupby("category").revenue.sum()
    return (by_cat / by_cat.sum() * 100).round(2).sort_values(ascending=False)


def cell_discount_effect(pd, sales):
    df = pd.DataFrame(sales)
    df["discounted"] = df.discount > 0
    return df.groupby(["category", "discounted"]).units.mean().unstack()


def cell_daily(pd, sales):
    df = pd.DataFrame(sales)
    df["revenue"] = df.units * df.price * (1 - df.discount)
    daily = df.groupby("day", as_index=False).revenue.sum().sort_values("day")
    daily["rank"] = daily.revenue.rank(ascending=False)
    return daily.head(7).reset_index(drop=True)


CELLS = [cell_overview, cell_top_stores, cell_category_share, cell_discount_effect, cell_daily]


def main() -> None:
    sales = make_sales()
    for cell in CELLS:
        print(f"# %% {cell.__name__}")
        got = cell(pd, sales)
        print(got, "\n")
        want = cell(pandas, sales)
        if isinstance(want, pandas.DataFrame):
            pandas.testing.assert_frame_equal(got.to_pandas(), want)
        else:
            pandas.testing.assert_series_equal(got.to_pandas(), want)

    # %% what ran where: per node engine, time, rows, bytes (an HTML table in a notebook)
    cell_top_stores(pd, sales).explain(analyze=True)
    # %% and what went through pandas
    print(pd.fallback_report() or "no pandas fallbacks")
    print("\nsame answers as pandas: yes")


if __name__ == "__main__":
    main()
