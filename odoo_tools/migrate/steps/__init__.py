"""The rules of each series step, one folder per target series (``to_17/`` ... ``to_20/``): that
series' Python and XML rewrites, and ``table`` that lists them per target."""
