"""Where each TPC-H query runs on gframe: the fallbacks it records (``fallback_report()``: kind
``pandas`` = a trip through pandas, ``cpu`` = a GPU plan node run on the CPU engine), per query and
variant, as a markdown table.

    GFRAME_ENGINE=gpu python benchmarks/tpch/placement.py --data data/tpch/sf0.01 [--stand-in]

``--stand-in`` installs the pylibcudf host stand-in (``gframe.testing.fake_pylibcudf``) first, so
the GPU engine's placement can be read on a machine without a GPU (the placement is the same; the
speed is not).
"""
from __future__ import annotations

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _short(text: str, n: int = 90) -> str:
    text = " ".join(str(text).split()).replace("|", "/")
    return text if len(text) <= n else text[: n - 3] + "..."


def placement(root: str, variants: list[str], queries: list[str]) -> list[tuple[str, str, list[str]]]:
    """(query, variant, ["kind api: reason" ...]) per query; an error is reported as one entry."""
    import gframe
    from benchmarks.tpch.queries_pandas import QUERIES, VARIANTS

    out = []
    for q in queries:
        for vn in variants:
            gframe.fallback_report(clear=True)
            try:
                result = QUERIES[q](VARIANTS[vn](gframe, root))
                result.to_pandas()
                events = collections.Counter(f"{e.kind} {e.api}: {_short(e.reason)}" for e in gframe.fallback_report())
                notes = [f"{k} (x{n})" if n > 1 else k for k, n in events.items()]
            except Exception as exc:  # the table says which query fails and how
                notes = [f"ERROR {type(exc).__name__}: {_short(exc)}"]
            out.append((q, vn, notes))
    return out


def markdown(rows: list[tuple[str, str, list[str]]]) -> str:
    lines = ["| query | variant | not on the engine (kind api: reason) |", "|---|---|---|"]
    for q, vn, notes in rows:
        lines.append(f"| {q} | {vn} | {'<br>'.join(notes) if notes else 'all native'} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--variants", nargs="+", default=["arrow", "numpy"])
    ap.add_argument("--queries", nargs="+", default=[f"q{i}" for i in range(1, 23)])
    ap.add_argument("--stand-in", action="store_true", help="install gframe.testing.fake_pylibcudf first")
    ap.add_argument("--markdown", default=None, help="write the table to this file too")
    args = ap.parse_args()
    os.environ.setdefault("GFRAME_PROGRESS", "0")  # no progress bars between the table's lines
    if args.stand_in:
        from gframe.testing import fake_pylibcudf

        fake_pylibcudf.install()
    import gframe

    table = markdown(placement(args.data, args.variants, args.queries))
    print(f"engine: {os.environ.get('GFRAME_ENGINE', 'auto')}{' (stand-in)' if args.stand_in else ''}, "
          f"gframe {getattr(gframe, '__version__', '?')}\n")
    print(table)
    if args.markdown:
        with open(args.markdown, "w") as fh:
            fh.write(table + "\n")


if __name__ == "__main__":
    main()
