"""zerolang/runtime."""
