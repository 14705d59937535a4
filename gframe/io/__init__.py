"""Readers and writers. Readers build scan nodes (parquet) or in-memory scans; writers are atomic."""
from gframe.io.csv import read_csv
from gframe.io.parquet import read_parquet

__all__ = ["read_csv", "read_parquet"]
