"""Plans from files, and atomic writes. ``csv`` and ``parquet`` turn reader arguments into scan plans
(or say why they cannot); the pandas-facing ``read_csv``/``read_parquet``/``to_*`` live in
``frontend/readwrite.py``, so this package imports no frontend class."""


def __getattr__(name: str) -> object:
    """``pandas.io``'s other names (``formats``, ``json``, ``sql``, ...) are pandas' own, so that
    ``gframe.io`` stands where ``pandas.io`` does."""
    import pandas.io

    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(pandas.io, name)
