"""The pandas API: DataFrame, Series, Index, GroupBy, accessors, readers; builds plans, computes nothing.

``DataFrame`` and ``Series`` refer to each other (as in pandas), so the modules that build on them
import them at module level and ``frame.py`` imports those modules after its class. Importing
``frame`` here first makes that order hold whichever frontend module is imported first.
"""
from gframe.frontend import frame as _frame  # noqa: F401
