"""gframe's version: the one place it is written (pyproject.toml reads it; ``gframe.__version__`` too).

A release bumps this line and tags the commit ``v<version>``; the wheel's metadata, ``pip show``
and ``gframe.__version__`` then agree by construction.
"""
__version__ = "0.1.0"
