"""The rating systems, one module per family (issue 25 builds the seam here)."""
