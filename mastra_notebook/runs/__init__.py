"""Runs with no widget: a run streaming in the background (``stream.py``), the event loops it runs on
(``loops.py``), many runs at bounded concurrency (``batch.py``) and an experiment (``experiment.py``).
A plain script uses them as they are; the widget layer shows them. No widget library is imported
here (an import-linter contract keeps it so)."""
