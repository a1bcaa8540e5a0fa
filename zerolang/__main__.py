"""`python -m zerolang` is the `zero` command."""

from zerolang.cli.app import main

main()
