"""In-process data generators mirroring h2oai/duckdb db-benchmark's ``groupby-datagen.R`` and
``join-datagen.R`` (numpy, seeded; no NAs, random order).

``pandas`` is imported lazily so that the cudf.pandas worker can install its proxy first.
"""
from __future__ import annotations

import numpy as np

SEED = 108  # db-benchmark's set.seed(108)


def _str_col(pd, labels: np.ndarray, codes: np.ndarray):
    """A pandas ``str`` column holding ``labels[codes]`` (built in Arrow: the same values, much faster
    than from Python objects at 1e8 rows)."""
    try:
        import pyarrow as pa

        values = pa.array(labels.astype(str)).take(pa.array(codes))
        return pd.Series(values, dtype=pd.StringDtype("pyarrow", na_value=np.nan))
    except Exception:  # no pyarrow-backed strings here: the plain way
        return pd.Series(labels[codes], dtype="str")


def _prefixed(pd, ints: np.ndarray):
    """``"id" + Series(ints).astype("str")`` as a pandas ``str`` column, formatted by Arrow (Python's
    formatting of 1e8 ints took most of the 257 s the 1e8 join data needed)."""
    try:
        import pyarrow as pa
        import pyarrow.compute as pc

        values = pc.binary_join_element_wise("id", pc.cast(pa.array(ints), pa.string()), "")
        return pd.Series(values, dtype=pd.StringDtype("pyarrow", na_value=np.nan))
    except Exception:  # no pyarrow-backed strings here: the plain way
        return "id" + pd.Series(ints).astype("str")


def groupby_data(n: int, k: int = 100, seed: int = SEED):
    """``G1_{n}_{k}_0_0``: id1..id6, v1..v3 (see groupby-datagen.R)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    nk = max(n // k, 1)
    lab_k = np.array([f"id{i:03d}" for i in range(1, k + 1)], dtype=object)
    lab_nk = np.array([f"id{i:010d}" for i in range(1, nk + 1)], dtype=object)
    cols = {
        "id1": _str_col(pd, lab_k, rng.integers(0, k, n)),   # large groups (char)
        "id2": _str_col(pd, lab_k, rng.integers(0, k, n)),   # large groups (char)
        "id3": _str_col(pd, lab_nk, rng.integers(0, nk, n)),  # small groups (char)
        "id4": rng.integers(1, k + 1, n),                   # large groups (int)
        "id5": rng.integers(1, k + 1, n),                   # large groups (int)
        "id6": rng.integers(1, nk + 1, n),                  # small groups (int)
        "v1": rng.integers(1, 6, n),                        # int in [1, 5]
        "v2": rng.integers(1, 16, n),                       # int in [1, 15]
        "v3": np.round(rng.uniform(0, 100, n), 6),          # float in [0, 100)
    }
    return {"x": pd.DataFrame(cols)}


# ---------------------------------------------------------------------------------------------
# join data (join-datagen.R): x has N rows; RHS tables small (N/1e6), medium (N/1e3), big (N).
# 90% of each key set is shared, 10% only on the left (x), 10% only on the right.
# Below 1e7 rows N/1e6 would be < 10 keys; we keep at least MIN_KEYS keys per key set.
MIN_KEYS = 10


def _split_xlr(rng, n: int):
    total = int(round(n * 1.1))
    key = rng.permutation(total) + 1
    nx = int(n * 0.9)
    return {"x": key[:nx], "l": key[nx:n], "r": key[n:total]}


def _sample_all(rng, keys: np.ndarray, size: int) -> np.ndarray:
    """Every key at least once, padded by sampling with replacement, shuffled."""
    extra = rng.choice(keys, size=max(size - len(keys), 0), replace=True)
    return rng.permutation(np.concatenate([keys, extra]))


def join_sizes(n: int) -> tuple[int, int, int]:
    return max(n // 10**6, MIN_KEYS), max(n // 10**3, MIN_KEYS), n


def join_data(n: int, seed: int = SEED):
    """``J1_{n}_NA_0_0`` and its small/medium/big RHS tables (see join-datagen.R)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    n1, n2, n3 = join_sizes(n)
    key1, key2, key3 = _split_xlr(rng, n1), _split_xlr(rng, n2), _split_xlr(rng, n3)

    def lhs(k):
        return np.concatenate([k["x"], k["l"]])

    def rhs(k):
        return np.concatenate([k["x"], k["r"]])

    def finish(d: dict, vname: str, nrows: int):
        # write_batches: id4/id5/id6 are "id<int>" versions of id1/id2/id3; v columns last
        for src, dst in (("id1", "id4"), ("id2", "id5"), ("id3", "id6")):
            if src in d:
                d[dst] = _prefixed(pd, d[src])
        d[vname] = np.round(rng.uniform(0, 100, nrows), 6)
        order = [c for c in ("id1", "id2", "id3", "id4", "id5", "id6", vname) if c in d]
        return pd.DataFrame({c: d[c] for c in order})

    x = finish({"id1": _sample_all(rng, lhs(key1), n), "id2": _sample_all(rng, lhs(key2), n),
                "id3": _sample_all(rng, lhs(key3), n)}, "v1", n)
    small = finish({"id1": _sample_all(rng, rhs(key1), n1)}, "v2", n1)
    medium = finish({"id1": _sample_all(rng, rhs(key1), n2),
                     "id2": _sample_all(rng, rhs(key2), n2)}, "v2", n2)
    big = finish({"id1": _sample_all(rng, rhs(key1), n3), "id2": _sample_all(rng, rhs(key2), n3),
                  "id3": _sample_all(rng, rhs(key3), n3)}, "v2", n3)
    return {"x": x, "small": small, "medium": medium, "big": big}


def make_data(task: str, n: int, k: int = 100, seed: int = SEED):
    return groupby_data(n, k, seed) if task == "groupby" else join_data(n, seed)
