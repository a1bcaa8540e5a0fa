"""zerolang/util."""
