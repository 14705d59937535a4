"""``pandas.plotting`` on gframe: pandas draws, so every function runs through pandas (recorded),
with gframe frames and series converted first; its other names (``PlotAccessor``,
``plot_params``) are pandas' own."""
from __future__ import annotations

import sys

import pandas.plotting as _pandas_plotting

from gframe.namespace import wrap_module

wrap_module(_pandas_plotting, sys.modules[__name__], "plotting runs in pandas")
