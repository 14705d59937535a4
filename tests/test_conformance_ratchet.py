"""Ratchet on pandas' own test suite: a test on conformance/baseline that passed must still pass.

Runs a fast subset (conformance/baseline/ci_modules.txt) of pandas' shipped tests with gframe as the
``pandas`` under test, once with fallback and once strict; see conformance/README.md. It takes about
a minute or two, so it runs only when ``GFRAME_CONFORMANCE_RATCHET=1`` (its own CI step), not in
every developer's quick suite.
"""
from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.skipif(os.environ.get("GFRAME_CONFORMANCE_RATCHET") != "1",
                                reason="set GFRAME_CONFORMANCE_RATCHET=1 to run the pandas-suite ratchet")


@pytest.mark.parametrize("mode", ["fallback", "strict"])
def test_baseline_still_passes(mode: str) -> None:
    import pandas

    from conformance import ratchet

    if pandas.__version__ != ratchet.pandas_version():  # pandas' own tests change between releases
        pytest.skip(f"baseline measured on pandas {ratchet.pandas_version()}, running {pandas.__version__}: "
                    "re-measure with conformance/run.py --write-baseline")
    ids, bad = ratchet.run(mode)
    assert ids, "the CI subset selects no baseline tests"
    assert not bad, f"{len(bad)} of {len(ids)} baseline tests regressed:\n" + "\n".join(bad[:50])
