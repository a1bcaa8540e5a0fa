"""zerolang/tools."""
