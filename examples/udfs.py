"""Your own functions on gframe: ``map``/``apply``, ``apply(axis=1)`` and ``groupby().apply``.

Run: python examples/udfs.py
gframe runs a Python function natively where it can: it *traces* simple arithmetic into the plan,
*compiles* branchy numeric code with Numba (a CUDA kernel on the GPU), and runs anything else
through pandas - recorded, never silently wrong. ``explain()`` shows which; see docs/udf.md.
Every result is checked against pandas.
"""
from __future__ import annotations

import math

import numpy as np
import pandas

import gframe as pd  # instead of: import pandas as pd


def make_readings(n: int = 30_000, seed: int = 3) -> dict:
    rng = np.random.default_rng(seed)
    return {
        "sensor": rng.choice(["a", "b", "c", "d"], n),
        "celsius": rng.normal(21, 6, n).round(1),
        "humidity": rng.uniform(20, 90, n).round(1),
        "wind": rng.gamma(2, 3, n).round(1),
    }


def fahrenheit(c):  # traced: arithmetic on the value becomes a plan expression
    return c * 9 / 5 + 32


def comfort(c):  # compiled with Numba: branches on the value cannot be traced
    if c < 18:
        return 0
    elif c <= 24:
        return 1
    return 2


def wind_chill(row):  # apply(axis=1) over numeric columns: compiled, one loop over the rows
    t, v = row["celsius"], row["wind"]
    if t > 10 or v < 4.8:
        return t
    return 13.12 + 0.6215 * t - 11.37 * v ** 0.16 + 0.3965 * t * v ** 0.16


def spread(group):  # groupby().apply: reductions become one aggregation
    return group.celsius.max() - group.celsius.min()


def label(c):  # returns strings: not compilable, runs through pandas (and is recorded)
    return "hot" if c > 30 else "ok"


def run(pd, readings):  # the same code for gframe and pandas
    df = pd.DataFrame(readings)
    out = df.assign(
        fahrenheit=df.celsius.map(fahrenheit),
        comfort=df.celsius.apply(comfort),
        log_wind=df.wind.map(lambda w: math.log1p(w)),
        chill=df[["celsius", "wind"]].apply(wind_chill, axis=1),
        label=df.celsius.map(label),
    )
    per_sensor = df.groupby("sensor")[["celsius"]].apply(spread)
    return out, per_sensor


def main() -> None:
    readings = make_readings()
    out, per_sensor = run(pd, readings)
    print(out.head(), "\n")
    print(per_sensor, "\n")
    want_out, want_sensor = run(pandas, readings)
    pandas.testing.assert_frame_equal(out.to_pandas(), want_out)
    pandas.testing.assert_series_equal(per_sensor.to_pandas(), want_sensor)
    out.explain()  # udf[comfort](...), udf[wind_chill](...): compiled nodes in the plan
    print("\nsame answer as pandas: yes")


if __name__ == "__main__":
    main()
