"""Where the GPU engine's time goes in db-benchmark's joins (a profile, not a benchmark table).

Data shaped like join-datagen's (int keys id1/id2/id3, their string twins id4/id5/id6, v1), built
with pyarrow compute in seconds instead of the benchmark's generator; each phase of the join
kernel is timed with a device sync around it. Run on the GPU machine:

    GFRAME_ENGINE=gpu python benchmarks/gpu_join_profile.py --rows 1e8
"""
from __future__ import annotations

import argparse
import time
from collections import defaultdict

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def _ids(values: np.ndarray) -> pa.Array:
    return pc.binary_join_element_wise("id", pc.cast(pa.array(values), pa.string()), "")


def make(n: int, seed: int = 1) -> dict[str, pa.Table]:
    rng = np.random.default_rng(seed)

    def side(keys: int, rows: int, extra: str) -> pa.Table:
        id1 = rng.integers(1, max(n // 1_000_000, 10) + 1, rows)
        id2 = rng.integers(1, max(n // 1_000, 10) + 1, rows)
        return pa.table({"id1": id1, "id2": id2, extra: rng.random(rows)})

    x = {"id1": rng.integers(1, max(n // 1_000_000, 10) + 1, n), "id2": rng.integers(1, n // 1_000 + 1, n),
         "id3": rng.permutation(n) + 1}
    xt = pa.table({**x, "id4": _ids(x["id1"]), "id5": _ids(x["id2"]), "id6": _ids(x["id3"]),
                   "v1": rng.random(n).round(6)})
    small_keys = np.arange(1, max(n // 1_000_000, 10) + 1)
    medium_keys = np.arange(1, n // 1_000 + 1)
    small = pa.table({"id1": small_keys, "id4": _ids(small_keys), "v2": rng.random(len(small_keys))})
    medium = pa.table({"id1": rng.integers(1, len(small_keys) + 1, len(medium_keys)), "id2": medium_keys,
                       "id4": _ids(rng.integers(1, len(small_keys) + 1, len(medium_keys))), "id5": _ids(medium_keys),
                       "v2": rng.random(len(medium_keys))})
    big_keys = rng.permutation(n) + 1
    big = pa.table({"id1": rng.integers(1, len(small_keys) + 1, n), "id2": rng.integers(1, len(medium_keys) + 1, n),
                    "id3": big_keys, "id6": _ids(big_keys), "v2": rng.random(n)})
    return {"x": xt, "small": small, "medium": medium, "big": big}


QUERIES = {
    "q1 small inner on int": lambda x, s, m, b: x.merge(s, on="id1"),
    "q2 medium inner on int": lambda x, s, m, b: x.merge(m, on="id2"),
    "q3 medium outer on int": lambda x, s, m, b: x.merge(m, how="left", on="id2"),
    "q4 medium inner on factor": lambda x, s, m, b: x.merge(m, on="id5"),
    "q5 big inner on int": lambda x, s, m, b: x.merge(b, on="id3"),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=float, default=1e7)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    import gframe
    from gframe.engines.gpu import kernels

    t0 = time.perf_counter()
    data = make(int(args.rows))
    print(f"data built in {time.perf_counter() - t0:.1f}s")
    frames = {k: gframe.DataFrame(v) for k, v in data.items()}
    for f in frames.values():
        len(f)  # on the device, not timed

    try:
        import cupy

        def sync() -> None:
            cupy.cuda.runtime.deviceSynchronize()
    except ImportError:  # the host stand-in (gframe/testing/fake_pylibcudf.py): nothing to wait for
        def sync() -> None:
            pass

    phases: dict[str, float] = defaultdict(float)

    def timed(name: str, fn):  # type: ignore[no-untyped-def]
        def wrapper(*a, **k):  # type: ignore[no-untyped-def]
            sync()
            t = time.perf_counter()
            out = fn(*a, **k)
            sync()
            phases[name] += time.perf_counter() - t
            return out
        return wrapper

    scatter_order = kernels.first_side_order
    for label, order in (("scatter order", scatter_order), ("pair sort", lambda first, n: None)):
        kernels.first_side_order = order
        total = 0.0
        for name, q in QUERIES.items():
            best = float("inf")
            for _ in range(args.repeat):
                sync()
                t = time.perf_counter()
                ans = q(frames["x"], frames["small"], frames["medium"], frames["big"])
                chk = [len(ans), float(ans["v1"].sum()), float(ans["v2"].sum())]
                sync()
                best = min(best, time.perf_counter() - t)
                ans = None  # results are cached by plan while one is alive: time a fresh run each time
            total += best
            print(f"[{label}] {name}: {best:.4f}s (query + checksum) chk={chk}")
        print(f"[{label}] total {total:.4f}s")
    kernels.first_side_order = scatter_order

    # the same queries again, each kernel phase timed (syncs add a little)
    originals = {n: getattr(kernels, n) for n in ("_join_maps", "pair_order", "gather", "promote_missing")}
    for n, fn in originals.items():
        setattr(kernels, n, timed(n, fn))
    import pylibcudf as plc

    real_inner, real_left, real_sort = plc.join.inner_join, plc.join.left_join, plc.sorting.sorted_order
    plc.join.inner_join = timed("plc.inner_join", real_inner)
    plc.join.left_join = timed("plc.left_join", real_left)
    plc.sorting.sorted_order = timed("plc.sorted_order", real_sort)
    try:
        for name, q in QUERIES.items():
            phases.clear()
            sync()
            t = time.perf_counter()
            ans = q(frames["x"], frames["small"], frames["medium"], frames["big"])
            len(ans)
            sync()
            total = time.perf_counter() - t
            ans = None
            detail = ", ".join(f"{k} {v * 1e3:.1f}" for k, v in sorted(phases.items(), key=lambda kv: -kv[1]))
            print(f"{name}: join {total * 1e3:.1f} ms; phases (ms): {detail}")
    finally:
        for n, fn in originals.items():
            setattr(kernels, n, fn)
        plc.join.inner_join, plc.join.left_join, plc.sorting.sorted_order = real_inner, real_left, real_sort


if __name__ == "__main__":
    import os

    if os.environ.get("GFRAME_FAKE_GPU") == "1":
        from gframe.testing import fake_pylibcudf

        fake_pylibcudf.install()
    main()
