"""What changes a ladder: one module per family of commands."""
