"""ETL with gframe: raw CSV in, cleaned and joined Parquet out - a pandas script but for the import.

Run: python examples/etl.py
It writes two small raw CSV files (orders with messy values, and a customer table), cleans the
orders (types, missing values, strings, dates), joins the customers in, derives columns, writes a
Parquet file, and checks the result against pandas running the same code.
"""
from __future__ import annotations

import os
import tempfile

import numpy as np
import pandas

import gframe as pd  # instead of: import pandas as pd


def make_raw(orders_csv: str, customers_csv: str, n: int = 20_000, seed: int = 1) -> None:
    """Raw input as it often comes: padded/mixed-case strings, missing amounts, string dates."""
    rng = np.random.default_rng(seed)
    amount = rng.gamma(2.0, 40.0, n).round(2)
    amount[rng.random(n) < 0.05] = np.nan
    pandas.DataFrame({
        "order_id": np.arange(n),
        "customer": rng.integers(0, 500, n),
        "status": rng.choice([" shipped", "SHIPPED", "pending ", "cancelled", "Shipped"], n),
        "amount": amount,
        "quantity": rng.integers(1, 10, n),
        "ordered": (pandas.Timestamp("2026-01-01")
                    + pandas.to_timedelta(rng.integers(0, 90 * 86400, n), unit="s")).strftime("%Y-%m-%d %H:%M:%S"),
    }).to_csv(orders_csv, index=False)
    pandas.DataFrame({
        "customer": np.arange(500),
        "region": rng.choice(["north", "south", "east", "west"], 500),
        "tier": rng.choice(["gold", "silver", "bronze"], 500, p=[0.1, 0.3, 0.6]),
    }).to_csv(customers_csv, index=False)


def transform(pd, orders_csv: str, customers_csv: str):  # the same code for gframe and pandas
    orders = pd.read_csv(orders_csv)
    customers = pd.read_csv(customers_csv)
    orders["status"] = orders.status.str.strip().str.lower()
    orders["amount"] = orders.amount.fillna(0.0)
    orders["ordered"] = pd.to_datetime(orders.ordered)
    orders["month"] = orders.ordered.dt.month
    orders["unit_price"] = (orders.amount / orders.quantity).round(2)
    live = orders[orders.status != "cancelled"]
    joined = live.merge(customers, on="customer", how="left")
    return joined.sort_values("order_id").reset_index(drop=True)


def summarize(pd, cleaned):
    """Monthly revenue per region and tier: what the load step writes for the dashboard."""
    return (cleaned.groupby(["month", "region", "tier"], as_index=False)
            .agg(orders=("order_id", "count"), revenue=("amount", "sum"), avg_price=("unit_price", "mean"))
            .sort_values(["month", "region", "tier"])
            .reset_index(drop=True))


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        orders_csv, customers_csv = os.path.join(tmp, "orders.csv"), os.path.join(tmp, "customers.csv")
        make_raw(orders_csv, customers_csv)
        cleaned = transform(pd, orders_csv, customers_csv)
        summary = summarize(pd, cleaned)
        out = os.path.join(tmp, "revenue.parquet")
        summary.to_parquet(out, index=False)
        print(summary.head(8))

        # the same code on pandas gives the same tables
        want = transform(pandas, orders_csv, customers_csv)
        pandas.testing.assert_frame_equal(cleaned.to_pandas(), want)
        pandas.testing.assert_frame_equal(pandas.read_parquet(out), summarize(pandas, want))
        print("\nsame answer as pandas: yes")
        print(pd.fallback_report() or "no pandas fallbacks")


if __name__ == "__main__":
    main()
