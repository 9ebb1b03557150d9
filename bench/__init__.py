"""The benchmarks of the performance budgets (``bench/README.md``); ``bench/run.py`` runs all."""
