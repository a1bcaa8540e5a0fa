"""The `zero` command line; each command lives in its own module and imports its work lazily."""
