"""Plans from files, and atomic writes. ``csv`` and ``parquet`` turn reader arguments into scan plans
(or say why they cannot); the pandas-facing ``read_csv``/``read_parquet``/``to_*`` live in
``frontend/readwrite.py``, so this package imports no frontend class."""
