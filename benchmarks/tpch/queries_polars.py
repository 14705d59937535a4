"""The 22 TPC-H queries in Polars' lazy API, from the specification's SQL (validation values).

Each query scans its parquet files (``pl.scan_parquet``: IO inside the query) and returns a
LazyFrame; the caller picks the engine: ``q(root).collect()`` (CPU) or
``q(root).collect(engine="gpu")`` (cudf-polars).
"""
from __future__ import annotations

import datetime
import os
from typing import Any

import polars as pl


def _scan(root: str, table: str) -> pl.LazyFrame:
    return pl.scan_parquet(os.path.join(root, f"{table}.parquet"))


def _d(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)


def _rev() -> pl.Expr:
    return pl.col("l_extendedprice") * (1 - pl.col("l_discount"))


def q1(root: str) -> pl.LazyFrame:
    return (
        _scan(root, "lineitem")
        .filter(pl.col("l_shipdate") <= _d("1998-09-02"))
        .group_by("l_returnflag", "l_linestatus")
        .agg(
            pl.col("l_quantity").sum().alias("sum_qty"),
            pl.col("l_extendedprice").sum().alias("sum_base_price"),
            _rev().sum().alias("sum_disc_price"),
            (_rev() * (1 + pl.col("l_tax"))).sum().alias("sum_charge"),
            pl.col("l_quantity").mean().alias("avg_qty"),
            pl.col("l_extendedprice").mean().alias("avg_price"),
            pl.col("l_discount").mean().alias("avg_disc"),
            pl.len().alias("count_order"),
        )
        .sort("l_returnflag", "l_linestatus")
    )


def q2(root: str) -> pl.LazyFrame:
    europe = (
        _scan(root, "region").filter(pl.col("r_name") == "EUROPE")
        .join(_scan(root, "nation"), left_on="r_regionkey", right_on="n_regionkey")
        .join(_scan(root, "supplier"), left_on="n_nationkey", right_on="s_nationkey")
        .join(_scan(root, "partsupp"), left_on="s_suppkey", right_on="ps_suppkey")
    )
    parts = _scan(root, "part").filter((pl.col("p_size") == 15) & pl.col("p_type").str.ends_with("BRASS"))
    offers = parts.join(europe, left_on="p_partkey", right_on="ps_partkey")
    cheapest = offers.group_by("p_partkey").agg(pl.col("ps_supplycost").min().alias("min_cost"))
    return (
        offers.join(cheapest, on="p_partkey")
        .filter(pl.col("ps_supplycost") == pl.col("min_cost"))
        .select("s_acctbal", "s_name", "n_name", "p_partkey", "p_mfgr", "s_address", "s_phone", "s_comment")
        .sort(["s_acctbal", "n_name", "s_name", "p_partkey"], descending=[True, False, False, False])
        .head(100)
    )


def q3(root: str) -> pl.LazyFrame:
    day = _d("1995-03-15")
    return (
        _scan(root, "customer").filter(pl.col("c_mktsegment") == "BUILDING")
        .join(_scan(root, "orders").filter(pl.col("o_orderdate") < day), left_on="c_custkey", right_on="o_custkey")
        .join(_scan(root, "lineitem").filter(pl.col("l_shipdate") > day), left_on="o_orderkey", right_on="l_orderkey")
        .group_by("o_orderkey", "o_orderdate", "o_shippriority")
        .agg(_rev().sum().alias("revenue"))
        .select(pl.col("o_orderkey").alias("l_orderkey"), "revenue", "o_orderdate", "o_shippriority")
        .sort(["revenue", "o_orderdate"], descending=[True, False])
        .head(10)
    )


def q4(root: str) -> pl.LazyFrame:
    late = _scan(root, "lineitem").filter(pl.col("l_commitdate") < pl.col("l_receiptdate"))
    return (
        _scan(root, "orders")
        .filter(pl.col("o_orderdate").is_between(_d("1993-07-01"), _d("1993-10-01"), closed="left"))
        .join(late, left_on="o_orderkey", right_on="l_orderkey", how="semi")
        .group_by("o_orderpriority")
        .agg(pl.len().alias("order_count"))
        .sort("o_orderpriority")
    )


def q5(root: str) -> pl.LazyFrame:
    return (
        _scan(root, "region").filter(pl.col("r_name") == "ASIA")
        .join(_scan(root, "nation"), left_on="r_regionkey", right_on="n_regionkey")
        .join(_scan(root, "customer"), left_on="n_nationkey", right_on="c_nationkey")
        .join(_scan(root, "orders").filter(pl.col("o_orderdate").is_between(_d("1994-01-01"), _d("1995-01-01"),
                                                                             closed="left")),
              left_on="c_custkey", right_on="o_custkey")
        .join(_scan(root, "lineitem"), left_on="o_orderkey", right_on="l_orderkey")
        .join(_scan(root, "supplier"), left_on=["l_suppkey", "n_nationkey"], right_on=["s_suppkey", "s_nationkey"])
        .group_by("n_name")
        .agg(_rev().sum().alias("revenue"))
        .sort("revenue", descending=True)
    )


def q6(root: str) -> pl.LazyFrame:
    return (
        _scan(root, "lineitem")
        .filter(pl.col("l_shipdate").is_between(_d("1994-01-01"), _d("1995-01-01"), closed="left")
                & pl.col("l_discount").is_between(0.05, 0.07) & (pl.col("l_quantity") < 24))
        .select((pl.col("l_extendedprice") * pl.col("l_discount")).sum().alias("revenue"))
    )


def q7(root: str) -> pl.LazyFrame:
    nation = _scan(root, "nation").filter(pl.col("n_name").is_in(["FRANCE", "GERMANY"]))
    supp = (_scan(root, "supplier").join(nation, left_on="s_nationkey", right_on="n_nationkey")
            .select("s_suppkey", pl.col("n_name").alias("supp_nation")))
    cust = (_scan(root, "customer").join(nation, left_on="c_nationkey", right_on="n_nationkey")
            .select("c_custkey", pl.col("n_name").alias("cust_nation")))
    return (
        _scan(root, "lineitem")
        .filter(pl.col("l_shipdate").is_between(_d("1995-01-01"), _d("1996-12-31")))
        .join(supp, left_on="l_suppkey", right_on="s_suppkey")
        .join(_scan(root, "orders"), left_on="l_orderkey", right_on="o_orderkey")
        .join(cust, left_on="o_custkey", right_on="c_custkey")
        .filter(pl.col("supp_nation") != pl.col("cust_nation"))
        .group_by("supp_nation", "cust_nation", pl.col("l_shipdate").dt.year().alias("l_year"))
        .agg(_rev().sum().alias("revenue"))
        .sort("supp_nation", "cust_nation", "l_year")
    )


def q8(root: str) -> pl.LazyFrame:
    nation = _scan(root, "nation")
    america = (_scan(root, "region").filter(pl.col("r_name") == "AMERICA")
               .join(nation, left_on="r_regionkey", right_on="n_regionkey").select("n_nationkey"))
    customer = _scan(root, "customer").join(america, left_on="c_nationkey", right_on="n_nationkey")
    supp = _scan(root, "supplier").join(nation, left_on="s_nationkey", right_on="n_nationkey").select("s_suppkey", "n_name")
    volume = _rev()
    return (
        _scan(root, "lineitem")
        .join(_scan(root, "part").filter(pl.col("p_type") == "ECONOMY ANODIZED STEEL"),
              left_on="l_partkey", right_on="p_partkey")
        .join(_scan(root, "orders").filter(pl.col("o_orderdate").is_between(_d("1995-01-01"), _d("1996-12-31"))),
              left_on="l_orderkey", right_on="o_orderkey")
        .join(customer, left_on="o_custkey", right_on="c_custkey")
        .join(supp, left_on="l_suppkey", right_on="s_suppkey")
        .group_by(pl.col("o_orderdate").dt.year().alias("o_year"))
        .agg((pl.when(pl.col("n_name") == "BRAZIL").then(volume).otherwise(0.0).sum() / volume.sum())
             .alias("mkt_share"))
        .sort("o_year")
    )


def q9(root: str) -> pl.LazyFrame:
    return (
        _scan(root, "lineitem")
        .join(_scan(root, "part").filter(pl.col("p_name").str.contains("green", literal=True)),
              left_on="l_partkey", right_on="p_partkey")
        .join(_scan(root, "partsupp"), left_on=["l_suppkey", "l_partkey"], right_on=["ps_suppkey", "ps_partkey"])
        .join(_scan(root, "supplier"), left_on="l_suppkey", right_on="s_suppkey")
        .join(_scan(root, "nation"), left_on="s_nationkey", right_on="n_nationkey")
        .join(_scan(root, "orders"), left_on="l_orderkey", right_on="o_orderkey")
        .group_by(pl.col("n_name").alias("nation"), pl.col("o_orderdate").dt.year().alias("o_year"))
        .agg((_rev() - pl.col("ps_supplycost") * pl.col("l_quantity")).sum().alias("sum_profit"))
        .sort(["nation", "o_year"], descending=[False, True])
    )


def q10(root: str) -> pl.LazyFrame:
    return (
        _scan(root, "customer")
        .join(_scan(root, "orders").filter(pl.col("o_orderdate").is_between(_d("1993-10-01"), _d("1994-01-01"),
                                                                             closed="left")),
              left_on="c_custkey", right_on="o_custkey")
        .join(_scan(root, "lineitem").filter(pl.col("l_returnflag") == "R"), left_on="o_orderkey", right_on="l_orderkey")
        .join(_scan(root, "nation"), left_on="c_nationkey", right_on="n_nationkey")
        .group_by("c_custkey", "c_name", "c_acctbal", "c_phone", "n_name", "c_address", "c_comment")
        .agg(_rev().sum().alias("revenue"))
        .select("c_custkey", "c_name", "revenue", "c_acctbal", "n_name", "c_address", "c_phone", "c_comment")
        .sort("revenue", descending=True)
        .head(20)
    )


def q11(root: str) -> pl.LazyFrame:
    german = (
        _scan(root, "partsupp")
        .join(_scan(root, "supplier"), left_on="ps_suppkey", right_on="s_suppkey")
        .join(_scan(root, "nation").filter(pl.col("n_name") == "GERMANY"), left_on="s_nationkey", right_on="n_nationkey")
        .with_columns((pl.col("ps_supplycost") * pl.col("ps_availqty")).alias("value"))
    )
    threshold = german.select((pl.col("value").sum() * 0.0001).alias("threshold"))
    return (
        german.group_by("ps_partkey").agg(pl.col("value").sum())
        .join(threshold, how="cross")
        .filter(pl.col("value") > pl.col("threshold"))
        .select("ps_partkey", "value")
        .sort("value", descending=True)
    )


def q12(root: str) -> pl.LazyFrame:
    high = pl.col("o_orderpriority").is_in(["1-URGENT", "2-HIGH"])
    return (
        _scan(root, "orders")
        .join(_scan(root, "lineitem").filter(
            pl.col("l_shipmode").is_in(["MAIL", "SHIP"])
            & (pl.col("l_commitdate") < pl.col("l_receiptdate"))
            & (pl.col("l_shipdate") < pl.col("l_commitdate"))
            & pl.col("l_receiptdate").is_between(_d("1994-01-01"), _d("1995-01-01"), closed="left")),
            left_on="o_orderkey", right_on="l_orderkey")
        .group_by("l_shipmode")
        .agg(high.cast(pl.Int64).sum().alias("high_line_count"), (~high).cast(pl.Int64).sum().alias("low_line_count"))
        .sort("l_shipmode")
    )


def q13(root: str) -> pl.LazyFrame:
    orders = _scan(root, "orders").filter(~pl.col("o_comment").str.contains("special.*requests"))
    return (
        _scan(root, "customer")
        .join(orders, left_on="c_custkey", right_on="o_custkey", how="left")
        .group_by("c_custkey")
        .agg(pl.col("o_orderkey").count().alias("c_count"))
        .group_by("c_count")
        .agg(pl.len().alias("custdist"))
        .sort(["custdist", "c_count"], descending=[True, True])
    )


def q14(root: str) -> pl.LazyFrame:
    return (
        _scan(root, "lineitem")
        .filter(pl.col("l_shipdate").is_between(_d("1995-09-01"), _d("1995-10-01"), closed="left"))
        .join(_scan(root, "part"), left_on="l_partkey", right_on="p_partkey")
        .select((100.0 * pl.when(pl.col("p_type").str.starts_with("PROMO")).then(_rev()).otherwise(0.0).sum()
                 / _rev().sum()).alias("promo_revenue"))
    )


def q15(root: str) -> pl.LazyFrame:
    revenue = (
        _scan(root, "lineitem")
        .filter(pl.col("l_shipdate").is_between(_d("1996-01-01"), _d("1996-04-01"), closed="left"))
        .group_by("l_suppkey")
        .agg(_rev().sum().alias("total_revenue"))
    )
    return (
        _scan(root, "supplier")
        .join(revenue, left_on="s_suppkey", right_on="l_suppkey")
        .filter(pl.col("total_revenue") == pl.col("total_revenue").max())
        .select("s_suppkey", "s_name", "s_address", "s_phone", "total_revenue")
        .sort("s_suppkey")
    )


def q16(root: str) -> pl.LazyFrame:
    complaints = _scan(root, "supplier").filter(pl.col("s_comment").str.contains("Customer.*Complaints")).select("s_suppkey")
    return (
        _scan(root, "part")
        .filter((pl.col("p_brand") != "Brand#45") & ~pl.col("p_type").str.starts_with("MEDIUM POLISHED")
                & pl.col("p_size").is_in([49, 14, 23, 45, 19, 3, 36, 9]))
        .join(_scan(root, "partsupp"), left_on="p_partkey", right_on="ps_partkey")
        .join(complaints, left_on="ps_suppkey", right_on="s_suppkey", how="anti")
        .group_by("p_brand", "p_type", "p_size")
        .agg(pl.col("ps_suppkey").n_unique().alias("supplier_cnt"))
        .sort(["supplier_cnt", "p_brand", "p_type", "p_size"], descending=[True, False, False, False])
    )


def q17(root: str) -> pl.LazyFrame:
    df = (
        _scan(root, "part").filter((pl.col("p_brand") == "Brand#23") & (pl.col("p_container") == "MED BOX"))
        .join(_scan(root, "lineitem"), left_on="p_partkey", right_on="l_partkey")
    )
    avg = df.group_by("p_partkey").agg((0.2 * pl.col("l_quantity").mean()).alias("limit"))
    return (
        df.join(avg, on="p_partkey")
        .filter(pl.col("l_quantity") < pl.col("limit"))
        .select((pl.col("l_extendedprice").sum() / 7.0).alias("avg_yearly"))
    )


def q18(root: str) -> pl.LazyFrame:
    big = (_scan(root, "lineitem").group_by("l_orderkey").agg(pl.col("l_quantity").sum().alias("sum_qty"))
           .filter(pl.col("sum_qty") > 300))
    return (
        _scan(root, "orders")
        .join(big, left_on="o_orderkey", right_on="l_orderkey")
        .join(_scan(root, "customer"), left_on="o_custkey", right_on="c_custkey")
        .select("c_name", pl.col("o_custkey").alias("c_custkey"), "o_orderkey", "o_orderdate", "o_totalprice", "sum_qty")
        .sort(["o_totalprice", "o_orderdate"], descending=[True, False])
        .head(100)
    )


def q19(root: str) -> pl.LazyFrame:
    qty, size = pl.col("l_quantity"), pl.col("p_size")
    small = ((pl.col("p_brand") == "Brand#12") & pl.col("p_container").is_in(["SM CASE", "SM BOX", "SM PACK", "SM PKG"])
             & qty.is_between(1, 11) & size.is_between(1, 5))
    medium = ((pl.col("p_brand") == "Brand#23") & pl.col("p_container").is_in(["MED BAG", "MED BOX", "MED PKG", "MED PACK"])
              & qty.is_between(10, 20) & size.is_between(1, 10))
    large = ((pl.col("p_brand") == "Brand#34") & pl.col("p_container").is_in(["LG CASE", "LG BOX", "LG PACK", "LG PKG"])
             & qty.is_between(20, 30) & size.is_between(1, 15))
    return (
        _scan(root, "lineitem")
        .filter(pl.col("l_shipmode").is_in(["AIR", "AIR REG"]) & (pl.col("l_shipinstruct") == "DELIVER IN PERSON"))
        .join(_scan(root, "part"), left_on="l_partkey", right_on="p_partkey")
        .filter(small | medium | large)
        .select(_rev().sum().alias("revenue"))
    )


def q20(root: str) -> pl.LazyFrame:
    shipped = (
        _scan(root, "lineitem")
        .filter(pl.col("l_shipdate").is_between(_d("1994-01-01"), _d("1995-01-01"), closed="left"))
        .group_by("l_partkey", "l_suppkey")
        .agg(pl.col("l_quantity").sum().alias("sum_qty"))
    )
    forest = _scan(root, "part").filter(pl.col("p_name").str.starts_with("forest")).select("p_partkey")
    ps = (
        _scan(root, "partsupp")
        .join(forest, left_on="ps_partkey", right_on="p_partkey", how="semi")
        .join(shipped, left_on=["ps_partkey", "ps_suppkey"], right_on=["l_partkey", "l_suppkey"])
        .filter(pl.col("ps_availqty") > 0.5 * pl.col("sum_qty"))
        .select("ps_suppkey")
    )
    return (
        _scan(root, "supplier")
        .join(_scan(root, "nation").filter(pl.col("n_name") == "CANADA"), left_on="s_nationkey", right_on="n_nationkey")
        .join(ps, left_on="s_suppkey", right_on="ps_suppkey", how="semi")
        .select("s_name", "s_address")
        .sort("s_name")
    )


def q21(root: str) -> pl.LazyFrame:
    lineitem = _scan(root, "lineitem")
    late = lineitem.filter(pl.col("l_receiptdate") > pl.col("l_commitdate"))
    multi = lineitem.group_by("l_orderkey").agg(pl.col("l_suppkey").n_unique().alias("n_supp")).filter(pl.col("n_supp") > 1)
    one_late = late.group_by("l_orderkey").agg(pl.col("l_suppkey").n_unique().alias("n_late")).filter(pl.col("n_late") == 1)
    supp = (_scan(root, "supplier")
            .join(_scan(root, "nation").filter(pl.col("n_name") == "SAUDI ARABIA"), left_on="s_nationkey", right_on="n_nationkey"))
    return (
        late.join(multi, on="l_orderkey", how="semi")
        .join(one_late, on="l_orderkey", how="semi")
        .join(_scan(root, "orders").filter(pl.col("o_orderstatus") == "F"), left_on="l_orderkey", right_on="o_orderkey",
              how="semi")
        .join(supp, left_on="l_suppkey", right_on="s_suppkey")
        .group_by("s_name")
        .agg(pl.len().alias("numwait"))
        .sort(["numwait", "s_name"], descending=[True, False])
        .head(100)
    )


def q22(root: str) -> pl.LazyFrame:
    customer = (_scan(root, "customer").with_columns(pl.col("c_phone").str.slice(0, 2).alias("cntrycode"))
                .filter(pl.col("cntrycode").is_in(["13", "31", "23", "29", "30", "18", "17"])))
    avg = customer.filter(pl.col("c_acctbal") > 0.0).select(pl.col("c_acctbal").mean().alias("avg_acctbal"))
    return (
        customer.join(avg, how="cross")
        .filter(pl.col("c_acctbal") > pl.col("avg_acctbal"))
        .join(_scan(root, "orders"), left_on="c_custkey", right_on="o_custkey", how="anti")
        .group_by("cntrycode")
        .agg(pl.len().alias("numcust"), pl.col("c_acctbal").sum().alias("totacctbal"))
        .sort("cntrycode")
    )


QUERIES: dict[str, Any] = {f"q{i}": globals()[f"q{i}"] for i in range(1, 23)}
