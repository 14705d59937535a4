"""The 22 TPC-H queries as a pandas user writes them, from the TPC-H specification's SQL (2.4.x),
with the spec's validation values as substitution parameters.

The text is written once and runs on any module with pandas' API: ``Arrow(pandas, root)`` or
``Arrow(gframe, root)`` (and the same for ``Numpy``). Each query reads its tables itself
(``read_parquet`` with the columns it uses: IO is part of every query) and returns a DataFrame.

Two variants of the same queries, as users' data arrives:

- ``Arrow``: ``read_parquet(..., dtype_backend="pyarrow")``: ``double[pyarrow]``, ``string[pyarrow]``,
  ``date32[day][pyarrow]``; dates compare with ``datetime.date``.
- ``Numpy``: numpy-backed reads; dates arrive as ``datetime64[ms]`` (pyarrow's ``date_as_object=False``,
  through pandas' ``to_pandas_kwargs``) and compare with ``pd.Timestamp``.

Interval arithmetic on literals (``date '1998-12-01' - interval '90' day``) is done by hand, as the
spec's answer set does.
"""
from __future__ import annotations

import datetime
import os
from typing import Any


class Variant:
    """How the queries read a table and spell a date literal."""

    name = ""

    def __init__(self, pd: Any, root: str) -> None:
        self.pd = pd
        self.root = root

    def path(self, table: str) -> str:
        return os.path.join(self.root, f"{table}.parquet")

    def read(self, table: str, columns: list[str]) -> Any:
        raise NotImplementedError

    def date(self, text: str) -> Any:
        raise NotImplementedError


class Arrow(Variant):
    name = "arrow"

    def read(self, table: str, columns: list[str]) -> Any:
        return self.pd.read_parquet(self.path(table), columns=columns, dtype_backend="pyarrow")

    def date(self, text: str) -> Any:
        return datetime.date.fromisoformat(text)


class Numpy(Variant):
    name = "numpy"

    def read(self, table: str, columns: list[str]) -> Any:
        return self.pd.read_parquet(self.path(table), columns=columns,
                                    to_pandas_kwargs={"date_as_object": False})

    def date(self, text: str) -> Any:
        return self.pd.Timestamp(text)


def q1(v: Variant) -> Any:
    li = v.read("lineitem", ["l_returnflag", "l_linestatus", "l_quantity", "l_extendedprice",
                             "l_discount", "l_tax", "l_shipdate"])
    li = li[li["l_shipdate"] <= v.date("1998-09-02")]
    li["disc_price"] = li["l_extendedprice"] * (1 - li["l_discount"])
    li["charge"] = li["disc_price"] * (1 + li["l_tax"])
    out = li.groupby(["l_returnflag", "l_linestatus"], as_index=False).agg(
        sum_qty=("l_quantity", "sum"),
        sum_base_price=("l_extendedprice", "sum"),
        sum_disc_price=("disc_price", "sum"),
        sum_charge=("charge", "sum"),
        avg_qty=("l_quantity", "mean"),
        avg_price=("l_extendedprice", "mean"),
        avg_disc=("l_discount", "mean"),
        count_order=("l_quantity", "size"),
    )
    return out.sort_values(["l_returnflag", "l_linestatus"])


def q2(v: Variant) -> Any:
    part = v.read("part", ["p_partkey", "p_mfgr", "p_size", "p_type"])
    supplier = v.read("supplier", ["s_suppkey", "s_name", "s_address", "s_nationkey", "s_phone",
                                   "s_acctbal", "s_comment"])
    partsupp = v.read("partsupp", ["ps_partkey", "ps_suppkey", "ps_supplycost"])
    nation = v.read("nation", ["n_nationkey", "n_name", "n_regionkey"])
    region = v.read("region", ["r_regionkey", "r_name"])

    europe = region[region["r_name"] == "EUROPE"]
    nations = nation.merge(europe, left_on="n_regionkey", right_on="r_regionkey")
    suppliers = supplier.merge(nations, left_on="s_nationkey", right_on="n_nationkey")
    offers = partsupp.merge(suppliers, left_on="ps_suppkey", right_on="s_suppkey")
    parts = part[(part["p_size"] == 15) & part["p_type"].str.endswith("BRASS")]
    offers = offers.merge(parts, left_on="ps_partkey", right_on="p_partkey")
    cheapest = offers.groupby("ps_partkey", as_index=False).agg(min_cost=("ps_supplycost", "min"))
    offers = offers.merge(cheapest, on="ps_partkey")
    offers = offers[offers["ps_supplycost"] == offers["min_cost"]]
    out = offers[["s_acctbal", "s_name", "n_name", "p_partkey", "p_mfgr", "s_address", "s_phone",
                  "s_comment"]]
    return out.sort_values(["s_acctbal", "n_name", "s_name", "p_partkey"],
                           ascending=[False, True, True, True]).head(100)


def q3(v: Variant) -> Any:
    customer = v.read("customer", ["c_custkey", "c_mktsegment"])
    orders = v.read("orders", ["o_orderkey", "o_custkey", "o_orderdate", "o_shippriority"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_extendedprice", "l_discount", "l_shipdate"])
    day = v.date("1995-03-15")
    customer = customer[customer["c_mktsegment"] == "BUILDING"]
    orders = orders[orders["o_orderdate"] < day]
    lineitem = lineitem[lineitem["l_shipdate"] > day]
    df = customer.merge(orders, left_on="c_custkey", right_on="o_custkey")
    df = df.merge(lineitem, left_on="o_orderkey", right_on="l_orderkey")
    df["revenue"] = df["l_extendedprice"] * (1 - df["l_discount"])
    out = df.groupby(["l_orderkey", "o_orderdate", "o_shippriority"], as_index=False)["revenue"].sum()
    out = out[["l_orderkey", "revenue", "o_orderdate", "o_shippriority"]]
    return out.sort_values(["revenue", "o_orderdate"], ascending=[False, True]).head(10)


def q4(v: Variant) -> Any:
    orders = v.read("orders", ["o_orderkey", "o_orderdate", "o_orderpriority"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_commitdate", "l_receiptdate"])
    orders = orders[(orders["o_orderdate"] >= v.date("1993-07-01"))
                    & (orders["o_orderdate"] < v.date("1993-10-01"))]
    late = lineitem[lineitem["l_commitdate"] < lineitem["l_receiptdate"]]
    orders = orders[orders["o_orderkey"].isin(late["l_orderkey"])]
    out = orders.groupby("o_orderpriority", as_index=False).agg(order_count=("o_orderkey", "count"))
    return out.sort_values("o_orderpriority")


def q5(v: Variant) -> Any:
    customer = v.read("customer", ["c_custkey", "c_nationkey"])
    orders = v.read("orders", ["o_orderkey", "o_custkey", "o_orderdate"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_suppkey", "l_extendedprice", "l_discount"])
    supplier = v.read("supplier", ["s_suppkey", "s_nationkey"])
    nation = v.read("nation", ["n_nationkey", "n_name", "n_regionkey"])
    region = v.read("region", ["r_regionkey", "r_name"])
    orders = orders[(orders["o_orderdate"] >= v.date("1994-01-01"))
                    & (orders["o_orderdate"] < v.date("1995-01-01"))]
    asia = region[region["r_name"] == "ASIA"]
    df = asia.merge(nation, left_on="r_regionkey", right_on="n_regionkey")
    df = df.merge(customer, left_on="n_nationkey", right_on="c_nationkey")
    df = df.merge(orders, left_on="c_custkey", right_on="o_custkey")
    df = df.merge(lineitem, left_on="o_orderkey", right_on="l_orderkey")
    df = df.merge(supplier, left_on=["l_suppkey", "n_nationkey"], right_on=["s_suppkey", "s_nationkey"])
    df["revenue"] = df["l_extendedprice"] * (1 - df["l_discount"])
    out = df.groupby("n_name", as_index=False)["revenue"].sum()
    return out.sort_values("revenue", ascending=False)


def q6(v: Variant) -> Any:
    li = v.read("lineitem", ["l_quantity", "l_extendedprice", "l_discount", "l_shipdate"])
    li = li[(li["l_shipdate"] >= v.date("1994-01-01")) & (li["l_shipdate"] < v.date("1995-01-01"))
            & (li["l_discount"] >= 0.05) & (li["l_discount"] <= 0.07) & (li["l_quantity"] < 24)]
    revenue = (li["l_extendedprice"] * li["l_discount"]).sum()
    return v.pd.DataFrame({"revenue": [revenue]})


def q7(v: Variant) -> Any:
    supplier = v.read("supplier", ["s_suppkey", "s_nationkey"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_suppkey", "l_extendedprice", "l_discount", "l_shipdate"])
    orders = v.read("orders", ["o_orderkey", "o_custkey"])
    customer = v.read("customer", ["c_custkey", "c_nationkey"])
    nation = v.read("nation", ["n_nationkey", "n_name"])
    pair = ["FRANCE", "GERMANY"]
    nation = nation[nation["n_name"].isin(pair)]
    lineitem = lineitem[(lineitem["l_shipdate"] >= v.date("1995-01-01"))
                        & (lineitem["l_shipdate"] <= v.date("1996-12-31"))]
    supp = supplier.merge(nation, left_on="s_nationkey", right_on="n_nationkey")
    supp = supp[["s_suppkey", "n_name"]].rename(columns={"n_name": "supp_nation"})
    cust = customer.merge(nation, left_on="c_nationkey", right_on="n_nationkey")
    cust = cust[["c_custkey", "n_name"]].rename(columns={"n_name": "cust_nation"})
    df = lineitem.merge(supp, left_on="l_suppkey", right_on="s_suppkey")
    df = df.merge(orders, left_on="l_orderkey", right_on="o_orderkey")
    df = df.merge(cust, left_on="o_custkey", right_on="c_custkey")
    df = df[df["supp_nation"] != df["cust_nation"]]
    df["l_year"] = df["l_shipdate"].dt.year
    df["volume"] = df["l_extendedprice"] * (1 - df["l_discount"])
    out = df.groupby(["supp_nation", "cust_nation", "l_year"], as_index=False).agg(revenue=("volume", "sum"))
    return out.sort_values(["supp_nation", "cust_nation", "l_year"])


def q8(v: Variant) -> Any:
    part = v.read("part", ["p_partkey", "p_type"])
    supplier = v.read("supplier", ["s_suppkey", "s_nationkey"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_partkey", "l_suppkey", "l_extendedprice", "l_discount"])
    orders = v.read("orders", ["o_orderkey", "o_custkey", "o_orderdate"])
    customer = v.read("customer", ["c_custkey", "c_nationkey"])
    nation = v.read("nation", ["n_nationkey", "n_name", "n_regionkey"])
    region = v.read("region", ["r_regionkey", "r_name"])
    part = part[part["p_type"] == "ECONOMY ANODIZED STEEL"]
    orders = orders[(orders["o_orderdate"] >= v.date("1995-01-01"))
                    & (orders["o_orderdate"] <= v.date("1996-12-31"))]
    america = region[region["r_name"] == "AMERICA"]
    cust_nations = nation.merge(america, left_on="n_regionkey", right_on="r_regionkey")[["n_nationkey"]]
    customer = customer.merge(cust_nations, left_on="c_nationkey", right_on="n_nationkey")[["c_custkey"]]
    supp = supplier.merge(nation[["n_nationkey", "n_name"]], left_on="s_nationkey", right_on="n_nationkey")
    df = lineitem.merge(part, left_on="l_partkey", right_on="p_partkey")
    df = df.merge(orders, left_on="l_orderkey", right_on="o_orderkey")
    df = df.merge(customer, left_on="o_custkey", right_on="c_custkey")
    df = df.merge(supp[["s_suppkey", "n_name"]], left_on="l_suppkey", right_on="s_suppkey")
    df["o_year"] = df["o_orderdate"].dt.year
    df["volume"] = df["l_extendedprice"] * (1 - df["l_discount"])
    df["brazil_volume"] = df["volume"].where(df["n_name"] == "BRAZIL", 0.0)
    out = df.groupby("o_year", as_index=False).agg(brazil=("brazil_volume", "sum"), total=("volume", "sum"))
    out["mkt_share"] = out["brazil"] / out["total"]
    return out[["o_year", "mkt_share"]].sort_values("o_year")


def q9(v: Variant) -> Any:
    part = v.read("part", ["p_partkey", "p_name"])
    supplier = v.read("supplier", ["s_suppkey", "s_nationkey"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_partkey", "l_suppkey", "l_quantity",
                                   "l_extendedprice", "l_discount"])
    partsupp = v.read("partsupp", ["ps_partkey", "ps_suppkey", "ps_supplycost"])
    orders = v.read("orders", ["o_orderkey", "o_orderdate"])
    nation = v.read("nation", ["n_nationkey", "n_name"])
    part = part[part["p_name"].str.contains("green", regex=False)]
    df = lineitem.merge(part, left_on="l_partkey", right_on="p_partkey")
    df = df.merge(partsupp, left_on=["l_suppkey", "l_partkey"], right_on=["ps_suppkey", "ps_partkey"])
    df = df.merge(supplier, left_on="l_suppkey", right_on="s_suppkey")
    df = df.merge(nation, left_on="s_nationkey", right_on="n_nationkey")
    df = df.merge(orders, left_on="l_orderkey", right_on="o_orderkey")
    df["o_year"] = df["o_orderdate"].dt.year
    df["amount"] = df["l_extendedprice"] * (1 - df["l_discount"]) - df["ps_supplycost"] * df["l_quantity"]
    df = df.rename(columns={"n_name": "nation"})
    out = df.groupby(["nation", "o_year"], as_index=False).agg(sum_profit=("amount", "sum"))
    return out.sort_values(["nation", "o_year"], ascending=[True, False])


def q10(v: Variant) -> Any:
    customer = v.read("customer", ["c_custkey", "c_name", "c_address", "c_nationkey", "c_phone",
                                   "c_acctbal", "c_comment"])
    orders = v.read("orders", ["o_orderkey", "o_custkey", "o_orderdate"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_extendedprice", "l_discount", "l_returnflag"])
    nation = v.read("nation", ["n_nationkey", "n_name"])
    orders = orders[(orders["o_orderdate"] >= v.date("1993-10-01"))
                    & (orders["o_orderdate"] < v.date("1994-01-01"))]
    lineitem = lineitem[lineitem["l_returnflag"] == "R"]
    df = customer.merge(orders, left_on="c_custkey", right_on="o_custkey")
    df = df.merge(lineitem, left_on="o_orderkey", right_on="l_orderkey")
    df = df.merge(nation, left_on="c_nationkey", right_on="n_nationkey")
    df["revenue"] = df["l_extendedprice"] * (1 - df["l_discount"])
    keys = ["c_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address", "c_comment"]
    out = df.groupby(keys, as_index=False)["revenue"].sum()
    out = out[["c_custkey", "c_name", "revenue", "c_acctbal", "n_name", "c_address", "c_phone", "c_comment"]]
    return out.sort_values("revenue", ascending=False).head(20)


def q11(v: Variant) -> Any:
    partsupp = v.read("partsupp", ["ps_partkey", "ps_suppkey", "ps_availqty", "ps_supplycost"])
    supplier = v.read("supplier", ["s_suppkey", "s_nationkey"])
    nation = v.read("nation", ["n_nationkey", "n_name"])
    germany = nation[nation["n_name"] == "GERMANY"]
    df = partsupp.merge(supplier, left_on="ps_suppkey", right_on="s_suppkey")
    df = df.merge(germany, left_on="s_nationkey", right_on="n_nationkey")
    df["value"] = df["ps_supplycost"] * df["ps_availqty"]
    threshold = df["value"].sum() * 0.0001
    out = df.groupby("ps_partkey", as_index=False)["value"].sum()
    out = out[out["value"] > threshold]
    return out.sort_values("value", ascending=False)


def q12(v: Variant) -> Any:
    orders = v.read("orders", ["o_orderkey", "o_orderpriority"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_shipmode", "l_shipdate", "l_commitdate", "l_receiptdate"])
    li = lineitem[lineitem["l_shipmode"].isin(["MAIL", "SHIP"])
                  & (lineitem["l_commitdate"] < lineitem["l_receiptdate"])
                  & (lineitem["l_shipdate"] < lineitem["l_commitdate"])
                  & (lineitem["l_receiptdate"] >= v.date("1994-01-01"))
                  & (lineitem["l_receiptdate"] < v.date("1995-01-01"))]
    df = orders.merge(li, left_on="o_orderkey", right_on="l_orderkey")
    high = df["o_orderpriority"].isin(["1-URGENT", "2-HIGH"])
    df["high_line"] = high.astype("int64")
    df["low_line"] = (~high).astype("int64")
    out = df.groupby("l_shipmode", as_index=False).agg(high_line_count=("high_line", "sum"),
                                                       low_line_count=("low_line", "sum"))
    return out.sort_values("l_shipmode")


def q13(v: Variant) -> Any:
    customer = v.read("customer", ["c_custkey"])
    orders = v.read("orders", ["o_orderkey", "o_custkey", "o_comment"])
    orders = orders[~orders["o_comment"].str.contains("special.*requests", regex=True)]
    df = customer.merge(orders, left_on="c_custkey", right_on="o_custkey", how="left")
    counts = df.groupby("c_custkey", as_index=False).agg(c_count=("o_orderkey", "count"))
    out = counts.groupby("c_count", as_index=False).agg(custdist=("c_custkey", "size"))
    return out.sort_values(["custdist", "c_count"], ascending=[False, False])


def q14(v: Variant) -> Any:
    lineitem = v.read("lineitem", ["l_partkey", "l_extendedprice", "l_discount", "l_shipdate"])
    part = v.read("part", ["p_partkey", "p_type"])
    li = lineitem[(lineitem["l_shipdate"] >= v.date("1995-09-01"))
                  & (lineitem["l_shipdate"] < v.date("1995-10-01"))]
    df = li.merge(part, left_on="l_partkey", right_on="p_partkey")
    revenue = df["l_extendedprice"] * (1 - df["l_discount"])
    promo = revenue.where(df["p_type"].str.startswith("PROMO"), 0.0)
    return v.pd.DataFrame({"promo_revenue": [100.0 * promo.sum() / revenue.sum()]})


def q15(v: Variant) -> Any:
    lineitem = v.read("lineitem", ["l_suppkey", "l_extendedprice", "l_discount", "l_shipdate"])
    supplier = v.read("supplier", ["s_suppkey", "s_name", "s_address", "s_phone"])
    li = lineitem[(lineitem["l_shipdate"] >= v.date("1996-01-01"))
                  & (lineitem["l_shipdate"] < v.date("1996-04-01"))]
    li["revenue"] = li["l_extendedprice"] * (1 - li["l_discount"])
    revenue = li.groupby("l_suppkey", as_index=False).agg(total_revenue=("revenue", "sum"))
    top = revenue[revenue["total_revenue"] == revenue["total_revenue"].max()]
    df = supplier.merge(top, left_on="s_suppkey", right_on="l_suppkey")
    out = df[["s_suppkey", "s_name", "s_address", "s_phone", "total_revenue"]]
    return out.sort_values("s_suppkey")


def q16(v: Variant) -> Any:
    partsupp = v.read("partsupp", ["ps_partkey", "ps_suppkey"])
    part = v.read("part", ["p_partkey", "p_brand", "p_type", "p_size"])
    supplier = v.read("supplier", ["s_suppkey", "s_comment"])
    complaints = supplier[supplier["s_comment"].str.contains("Customer.*Complaints", regex=True)]
    part = part[(part["p_brand"] != "Brand#45") & ~part["p_type"].str.startswith("MEDIUM POLISHED")
                & part["p_size"].isin([49, 14, 23, 45, 19, 3, 36, 9])]
    df = partsupp[~partsupp["ps_suppkey"].isin(complaints["s_suppkey"])]
    df = df.merge(part, left_on="ps_partkey", right_on="p_partkey")
    out = df.groupby(["p_brand", "p_type", "p_size"], as_index=False).agg(supplier_cnt=("ps_suppkey", "nunique"))
    return out.sort_values(["supplier_cnt", "p_brand", "p_type", "p_size"],
                           ascending=[False, True, True, True])


def q17(v: Variant) -> Any:
    lineitem = v.read("lineitem", ["l_partkey", "l_quantity", "l_extendedprice"])
    part = v.read("part", ["p_partkey", "p_brand", "p_container"])
    part = part[(part["p_brand"] == "Brand#23") & (part["p_container"] == "MED BOX")]
    df = lineitem.merge(part, left_on="l_partkey", right_on="p_partkey")
    avg = df.groupby("l_partkey", as_index=False).agg(avg_quantity=("l_quantity", "mean"))
    df = df.merge(avg, on="l_partkey")
    df = df[df["l_quantity"] < 0.2 * df["avg_quantity"]]
    return v.pd.DataFrame({"avg_yearly": [df["l_extendedprice"].sum() / 7.0]})


def q18(v: Variant) -> Any:
    customer = v.read("customer", ["c_custkey", "c_name"])
    orders = v.read("orders", ["o_orderkey", "o_custkey", "o_orderdate", "o_totalprice"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_quantity"])
    per_order = lineitem.groupby("l_orderkey", as_index=False).agg(sum_qty=("l_quantity", "sum"))
    big = per_order[per_order["sum_qty"] > 300]
    df = orders.merge(big, left_on="o_orderkey", right_on="l_orderkey")
    df = df.merge(customer, left_on="o_custkey", right_on="c_custkey")
    out = df[["c_name", "c_custkey", "o_orderkey", "o_orderdate", "o_totalprice", "sum_qty"]]
    return out.sort_values(["o_totalprice", "o_orderdate"], ascending=[False, True]).head(100)


def q19(v: Variant) -> Any:
    lineitem = v.read("lineitem", ["l_partkey", "l_quantity", "l_extendedprice", "l_discount",
                                   "l_shipinstruct", "l_shipmode"])
    part = v.read("part", ["p_partkey", "p_brand", "p_size", "p_container"])
    li = lineitem[lineitem["l_shipmode"].isin(["AIR", "AIR REG"])
                  & (lineitem["l_shipinstruct"] == "DELIVER IN PERSON")]
    df = li.merge(part, left_on="l_partkey", right_on="p_partkey")
    qty, size = df["l_quantity"], df["p_size"]
    small = ((df["p_brand"] == "Brand#12") & df["p_container"].isin(["SM CASE", "SM BOX", "SM PACK", "SM PKG"])
             & (qty >= 1) & (qty <= 11) & (size >= 1) & (size <= 5))
    medium = ((df["p_brand"] == "Brand#23") & df["p_container"].isin(["MED BAG", "MED BOX", "MED PKG", "MED PACK"])
              & (qty >= 10) & (qty <= 20) & (size >= 1) & (size <= 10))
    large = ((df["p_brand"] == "Brand#34") & df["p_container"].isin(["LG CASE", "LG BOX", "LG PACK", "LG PKG"])
             & (qty >= 20) & (qty <= 30) & (size >= 1) & (size <= 15))
    df = df[small | medium | large]
    revenue = (df["l_extendedprice"] * (1 - df["l_discount"])).sum()
    return v.pd.DataFrame({"revenue": [revenue]})


def q20(v: Variant) -> Any:
    supplier = v.read("supplier", ["s_suppkey", "s_name", "s_address", "s_nationkey"])
    nation = v.read("nation", ["n_nationkey", "n_name"])
    partsupp = v.read("partsupp", ["ps_partkey", "ps_suppkey", "ps_availqty"])
    part = v.read("part", ["p_partkey", "p_name"])
    lineitem = v.read("lineitem", ["l_partkey", "l_suppkey", "l_quantity", "l_shipdate"])
    li = lineitem[(lineitem["l_shipdate"] >= v.date("1994-01-01"))
                  & (lineitem["l_shipdate"] < v.date("1995-01-01"))]
    shipped = li.groupby(["l_partkey", "l_suppkey"], as_index=False).agg(sum_qty=("l_quantity", "sum"))
    forest = part[part["p_name"].str.startswith("forest")]
    ps = partsupp[partsupp["ps_partkey"].isin(forest["p_partkey"])]
    ps = ps.merge(shipped, left_on=["ps_partkey", "ps_suppkey"], right_on=["l_partkey", "l_suppkey"])
    ps = ps[ps["ps_availqty"] > 0.5 * ps["sum_qty"]]
    canada = nation[nation["n_name"] == "CANADA"]
    df = supplier.merge(canada, left_on="s_nationkey", right_on="n_nationkey")
    df = df[df["s_suppkey"].isin(ps["ps_suppkey"])]
    return df[["s_name", "s_address"]].sort_values("s_name")


def q21(v: Variant) -> Any:
    supplier = v.read("supplier", ["s_suppkey", "s_name", "s_nationkey"])
    lineitem = v.read("lineitem", ["l_orderkey", "l_suppkey", "l_commitdate", "l_receiptdate"])
    orders = v.read("orders", ["o_orderkey", "o_orderstatus"])
    nation = v.read("nation", ["n_nationkey", "n_name"])
    lineitem = lineitem[["l_orderkey", "l_suppkey", "l_commitdate", "l_receiptdate"]]
    # orders with more than one supplier (EXISTS l2) and with exactly one late supplier (NOT EXISTS l3)
    suppliers = lineitem.groupby("l_orderkey", as_index=False).agg(n_supp=("l_suppkey", "nunique"))
    late = lineitem[lineitem["l_receiptdate"] > lineitem["l_commitdate"]]
    late_suppliers = late.groupby("l_orderkey", as_index=False).agg(n_late=("l_suppkey", "nunique"))
    df = late.merge(suppliers[suppliers["n_supp"] > 1], on="l_orderkey")
    df = df.merge(late_suppliers[late_suppliers["n_late"] == 1], on="l_orderkey")
    df = df.merge(orders[orders["o_orderstatus"] == "F"], left_on="l_orderkey", right_on="o_orderkey")
    saudi = nation[nation["n_name"] == "SAUDI ARABIA"]
    supp = supplier.merge(saudi, left_on="s_nationkey", right_on="n_nationkey")
    df = df.merge(supp, left_on="l_suppkey", right_on="s_suppkey")
    out = df.groupby("s_name", as_index=False).agg(numwait=("l_orderkey", "size"))
    return out.sort_values(["numwait", "s_name"], ascending=[False, True]).head(100)


def q22(v: Variant) -> Any:
    customer = v.read("customer", ["c_custkey", "c_phone", "c_acctbal"])
    orders = v.read("orders", ["o_custkey"])
    codes = ["13", "31", "23", "29", "30", "18", "17"]
    customer["cntrycode"] = customer["c_phone"].str.slice(0, 2)
    customer = customer[customer["cntrycode"].isin(codes)]
    avg = customer.loc[customer["c_acctbal"] > 0.0, "c_acctbal"].mean()
    df = customer[(customer["c_acctbal"] > avg) & ~customer["c_custkey"].isin(orders["o_custkey"])]
    out = df.groupby("cntrycode", as_index=False).agg(numcust=("c_custkey", "size"),
                                                      totacctbal=("c_acctbal", "sum"))
    return out.sort_values("cntrycode")


QUERIES = {f"q{i}": globals()[f"q{i}"] for i in range(1, 23)}
VARIANTS = {"arrow": Arrow, "numpy": Numpy}
