"""Readers and writers. Readers build scan nodes (parquet) or in-memory scans; writers are atomic."""
from gframe.io.csv import read_csv
from gframe.io.parquet import read_parquet

__all__ = ["read_csv", "read_parquet"]


def __getattr__(name: str) -> object:
    """``pandas.io``'s other names (``formats``, ``json``, ``sql``, ...) are pandas' own, so that
    ``gframe.io`` stands where ``pandas.io`` does; gframe's readers above take precedence."""
    import pandas.io

    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(pandas.io, name)
