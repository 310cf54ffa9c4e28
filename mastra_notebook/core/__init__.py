"""The core: bytes to chunks to a run to a RunResult. No Jupyter, no HTTP."""
