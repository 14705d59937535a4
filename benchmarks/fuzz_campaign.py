"""Long differential-fuzzing campaign: gframe against pandas (see docs/fuzzing.md).

A thin front end over ``python -m gframe.testing.fuzz`` with the issue's targets as defaults:

    python benchmarks/fuzz_campaign.py                          # 20,000 pipelines, CPU engine, optimizer on+off,
                                                                # one worker per core but one (--jobs 15 on 16 cores)
    python benchmarks/fuzz_campaign.py --engine gpu --n 5000    # on the device (GPU engine)
    python benchmarks/fuzz_campaign.py --fake-gpu --n 2000      # GPU engine's logic over the host stand-in

Writes DIR/results.jsonl (one line per case), DIR/summary.json (counts by raw signature, with seeds),
DIR/repros.md and DIR/repros.json (a seeded sample of failures shrunk to minimal pandas snippets,
grouped by shrunk signature and a first-guess root-cause class). Re-run one case with
``python -m gframe.testing.fuzz --case SEED --shrink 1`` (same ``--exclude`` as the campaign).
"""
from __future__ import annotations

import os
import sys

from gframe.testing.fuzz import main

DEFAULTS = ["--seed", "0", "--n", "20000", "--engine", "cpu", "--optimizer", "both",
            "--jobs", str(max(1, (os.cpu_count() or 2) - 1)),
            "--out", "fuzz-campaign", "--shrink", "300"]


def _merged(argv: list[str]) -> list[str]:
    given = {a for a in argv if a.startswith("--")}
    out: list[str] = []
    it = iter(DEFAULTS)
    for flag, value in zip(it, it):
        if flag not in given:
            out += [flag, value]
    return out + argv


if __name__ == "__main__":
    sys.exit(main(_merged(sys.argv[1:])))
