"""Op tables: gframe operator / function / aggregation names -> pylibcudf names, as data.

Values are the *names* of pylibcudf enum members (``plc.binaryop.BinaryOperator.ADD`` is "ADD"),
resolved with ``getattr`` at the first GPU execution, so this module imports nothing from the GPU
stack and ``support.py`` can read the same tables to decide what the GPU engine lowers.
"""
from __future__ import annotations

# gframe arithmetic operator -> BinaryOperator. truediv always runs on float64 operands;
# floordiv / mod are lowered only where Python's integer semantics are exact (FLOOR_DIV and PYMOD
# are Python's floor division and modulo for integers) with a nonzero literal divisor.
ARITHMETIC = {"add": "ADD", "sub": "SUB", "mul": "MUL", "truediv": "TRUE_DIV", "floordiv": "FLOOR_DIV",
              "mod": "PYMOD", "pow": "POW"}

# comparisons (a comparison with a missing value is False, != True: the null result is replaced)
COMPARISON = {"eq": "EQUAL", "ne": "NOT_EQUAL", "lt": "LESS", "le": "LESS_EQUAL", "gt": "GREATER",
              "ge": "GREATER_EQUAL"}

# logical operators on bools (missing counts as False) and bitwise operators on integers
LOGICAL_BOOL = {"and": "LOGICAL_AND", "or": "LOGICAL_OR", "xor": "NOT_EQUAL"}
LOGICAL_INT = {"and": "BITWISE_AND", "or": "BITWISE_OR", "xor": "BITWISE_XOR"}

# unary functions of one numeric column
UNARY = {"neg": "NEGATE", "abs": "ABS"}

# numpy ufuncs (Func "ufunc", param name) -> UnaryOperator; the input is cast to the float result type
UFUNCS = {"sqrt": "SQRT", "exp": "EXP", "log": "LOG", "sin": "SIN", "cos": "COS", "tan": "TAN",
          "arcsin": "ARCSIN", "arccos": "ARCCOS", "arctan": "ARCTAN", "sinh": "SINH", "cosh": "COSH",
          "tanh": "TANH", "floor": "FLOOR", "ceil": "CEIL", "rint": "RINT"}

# dt.<field> -> DatetimeComponent (int16 in libcudf; pandas' int32 after a cast). WEEKDAY is
# Monday=1..Sunday=7 in libcudf, pandas' dayofweek is Monday=0: one is subtracted.
DT_COMPONENTS = {"dt.year": "YEAR", "dt.month": "MONTH", "dt.day": "DAY", "dt.hour": "HOUR",
                 "dt.minute": "MINUTE", "dt.second": "SECOND", "dt.dayofweek": "WEEKDAY"}
# fields computed by a dedicated libcudf function
DT_FUNCTIONS = {"dt.quarter": "extract_quarter", "dt.dayofyear": "day_of_year"}
# pandas' microsecond (0..999999 within the second) = libcudf MILLISECOND * 1000 + MICROSECOND
DT_DERIVED = {"dt.microsecond"}
DT_ROUNDING = {"dt.floor", "dt.ceil", "dt.round"}

# str.<name> -> plc.strings function (module.function) for the one-argument transforms
STR_TRANSFORMS = {"str.lower": ("case", "to_lower"), "str.upper": ("case", "to_upper")}
STR_STRIP_SIDES = {"str.strip": "BOTH", "str.lstrip": "LEFT", "str.rstrip": "RIGHT"}
STR_AFFIX = {"str.startswith": "starts_with", "str.endswith": "ends_with"}

# aggregations (gframe name -> plc.aggregation factory); any / all are max / min over bools
# (libcudf's group-by has no any/all), count/size/nunique/first/last take parameters.
AGGREGATIONS = {"sum": "sum", "prod": "product", "min": "min", "max": "max", "mean": "mean",
                "median": "median", "std": "std", "var": "variance", "any": "max", "all": "min",
                "count": "count", "size": "count", "nunique": "nunique", "first": "nth_element",
                "last": "nth_element", "corr": "correlation", "cov": "covariance"}
# what an aggregation gives for a group of only missing values (pandas / the CPU engine); the
# others give a missing value
EMPTY_GROUP = {"sum": 0, "prod": 1, "any": False, "all": True, "count": 0, "nunique": 0}
# aggregations defined on strings (and on datetimes), beyond numbers
ORDER_AGGS = frozenset({"min", "max", "count", "size", "nunique", "first", "last"})

# join kinds the GPU engine lowers (gframe how -> plc.join function; right is a swapped left join)
JOINS = {"inner": "inner_join", "left": "left_join", "right": "left_join", "outer": "full_join",
         "cross": "cross_join"}
