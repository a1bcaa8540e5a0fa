"""zerolang/knowledge."""
