"""Helpers for looking across runs: comparisons and DataFrames."""
