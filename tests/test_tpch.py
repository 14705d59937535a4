"""The 22 TPC-H queries (benchmarks/tpch/queries_pandas.py), written once in pandas, give pandas'
answer on gframe: values, dtypes, index, column names and row order, for the arrow-backed and the
numpy-backed reads.

The data is TPC-H at scale factor 0.01, written by ``tpchgen-cli`` into a temporary folder once per
session (skipped, with the reason, where tpchgen-cli is not installed: ``pip install tpchgen-cli``).
"""
from __future__ import annotations

import pandas
import pandas.testing as pdt
import pytest

from benchmarks.tpch import generate
from benchmarks.tpch.queries_pandas import QUERIES, VARIANTS
from tests.conftest import module_under_test

SF = 0.01


@pytest.fixture(scope="session")
def tpch_root(tmp_path_factory):
    if generate.tpchgen_cli() is None:
        pytest.skip("tpchgen-cli is not installed (pip install tpchgen-cli, or set $TPCHGEN)")
    root = tmp_path_factory.mktemp("tpch") / f"sf{SF:g}"
    generate.generate(SF, str(root))
    return str(root)


@pytest.fixture(scope="session")
def pandas_answers(tpch_root):
    """pandas' answer to each (variant, query), computed once."""
    cache: dict[tuple[str, str], pandas.DataFrame] = {}

    def answer(variant: str, query: str) -> pandas.DataFrame:
        if (variant, query) not in cache:
            cache[variant, query] = QUERIES[query](VARIANTS[variant](pandas, tpch_root))
        return cache[variant, query]

    return answer


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("query", list(QUERIES))
def test_query_matches_pandas(query, variant, tpch_root, pandas_answers):
    expected = pandas_answers(variant, query)
    assert len(expected) > 0  # every query has rows at this scale (a vacuous compare proves nothing)
    result = QUERIES[query](VARIANTS[variant](module_under_test(), tpch_root))
    if not isinstance(result, pandas.DataFrame):
        result = result.to_pandas()
    pdt.assert_frame_equal(result, expected, check_exact=False, rtol=1e-9)
