"""zerolang/syntax."""
