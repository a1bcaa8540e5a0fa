"""Go to definition, find references and rename, for node ids."""

from __future__ import annotations

import re

from lsprotocol import types

from zerolang.lsp.analysis import Analysis, Role

# A node id written bare (`inputs: [message]`) must stay a bare identifier, else it is quoted.
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*\Z")
_KEYWORDS = frozenset({"true", "false", "null"})


def definition(analysis: Analysis, uri: str, offset: int) -> types.Location | None:
    occurrence = analysis.at(offset)
    if occurrence is None:
        return None
    target = analysis.definitions().get(occurrence.name)
    if target is None:
        return None
    return types.Location(uri=uri, range=analysis.lines.range(target.start, target.end))


def references(analysis: Analysis, uri: str, offset: int, include_declaration: bool) -> list[types.Location]:
    occurrence = analysis.at(offset)
    if occurrence is None:
        return []
    return [
        types.Location(uri=uri, range=analysis.lines.range(found.start, found.end))
        for found in analysis.named(occurrence.name)
        if include_declaration or found.role is not Role.DEFINITION
    ]


def prepare_rename(analysis: Analysis, offset: int) -> types.PrepareRenamePlaceholder | None:
    occurrence = analysis.at(offset)
    if occurrence is None or occurrence.name not in analysis.definitions():
        return None
    return types.PrepareRenamePlaceholder(
        range=analysis.lines.range(occurrence.start, occurrence.end), placeholder=occurrence.name
    )


class RenameError(ValueError):
    """A rename that cannot be done, with the reason to show."""


def rename(analysis: Analysis, uri: str, offset: int, new_name: str) -> types.WorkspaceEdit | None:
    occurrence = analysis.at(offset)
    if occurrence is None:
        return None
    if occurrence.name not in analysis.definitions():
        raise RenameError(f"no node has the id `{occurrence.name}`")
    if not new_name or "." in new_name or any(char in new_name for char in '"\\\n\r\t'):
        raise RenameError(f"`{new_name}` cannot be a node id (no dots, quotes, backslashes or line breaks)")
    if new_name != occurrence.name and new_name in analysis.definitions():
        raise RenameError(f"a node already has the id `{new_name}`")
    edits = []
    source = analysis.source
    for found in analysis.named(occurrence.name):
        quoted = source[found.start - 1 : found.start] == '"'
        if quoted or (_IDENTIFIER.match(new_name) and new_name not in _KEYWORDS):
            edits.append(
                types.TextEdit(range=analysis.lines.range(found.start, found.end), new_text=new_name)
            )
        else:  # a bare id that the new name cannot be: quote it
            edits.append(
                types.TextEdit(range=analysis.lines.range(found.start, found.end), new_text=f'"{new_name}"')
            )
    return types.WorkspaceEdit(changes={uri: edits})
