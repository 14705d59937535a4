"""The plan layer: expression and plan IR, types, the function registry.

Importing the package loads ``dtypes``, where every expression function is declared, so that a
``Func`` built anywhere is checked against a complete registry (``plan/functions.py``).
"""
from gframe.plan import dtypes as _dtypes  # noqa: F401  (declares the functions)
