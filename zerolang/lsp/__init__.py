"""The language server (`zero lsp`): diagnostics, quick fixes, formatting, hover, navigation and completion.

`server` speaks the protocol through pygls (the optional `lsp` extra); the
feature modules are plain functions of a document's `analysis`; `adapter` is
the one module that calls into the rest of the toolchain. Importing this
package imports nothing heavy.
"""
