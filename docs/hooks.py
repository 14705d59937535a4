"""MkDocs hook: the API coverage page while its generator's output is not in the tree.

``docs/api-coverage.md`` (native vs fallback, per pandas API) is generated from gframe's API
inventory, not written by hand. Where a checkout does not have it yet, the site gets a short page
saying so instead of failing the strict build on a missing nav entry; once the file exists this
hook does nothing.
"""
from __future__ import annotations

import logging

from mkdocs.structure.files import File, Files

PAGE = "api-coverage.md"
STUB = """# API coverage

The native-vs-fallback table is generated from gframe's API inventory into `docs/api-coverage.md`,
which this checkout does not have. Until then: `python -m gframe --lint script.py` lists the calls of
a script that gframe runs through pandas, and `gframe.fallback_report()` lists those that did.
"""


def on_files(files: Files, config: dict) -> Files:
    if files.get_file_from_path(PAGE) is None:
        files.append(File.generated(config, PAGE, content=STUB))
    return files


class _PandasLayout(logging.Filter):
    """pandas' docstrings are copied verbatim (frontend/docstrings.py) and laid out for numpydoc, not
    griffe: griffe's "Confusing indentation" note on them is about pandas' text, which gframe does not
    edit. Every other docstring warning still fails the strict build."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "Confusing indentation for continuation line" not in record.getMessage()


def on_config(config: dict) -> dict:
    for name in ("griffe", "mkdocs.plugins.griffe", "mkdocs.plugins.mkdocstrings_handlers.python"):
        logging.getLogger(name).addFilter(_PandasLayout())
    return config
