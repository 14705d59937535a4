"""``python -m gframe``: run an unmodified pandas script on gframe, or ``--lint`` it (see ``zerocode``)."""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "--lint":
        from gframe.lint import main as lint_main

        return lint_main(argv[1:])
    from gframe.zerocode import run

    return run(argv)


if __name__ == "__main__":
    sys.exit(main())
