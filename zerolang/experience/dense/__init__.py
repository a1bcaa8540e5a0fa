"""Optional dense recall: a small local sentence-embedding model as one more ranking signal.

Needs the `dense` extra (numpy) and the model package (`minilm.INSTALL` says how); without them
recall works exactly as it does without this package.
"""
