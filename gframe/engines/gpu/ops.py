"""Op tables: gframe operator / aggregation / join names -> pylibcudf names, as data (functions keep
their tables beside their declarations: rowwise.py, strings.py, datetimes.py).

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
