"""The option specs of `zerolang.cli.options` as typer declares them, and the shared ones as types.

A command writes `db: DbOption = None` or, for an option of its own kind,
`Annotated[bool, option(JSON.detailed("Its shape: ..."))] = False`: flags, help,
metavar, environment variable and bounds come from the spec. typer takes a
default only from the parameter, so the command writes it (`DEFAULT_SPACE`,
`MAX_STEPS.default`); `tests/cli/test_cli_options.py` checks it is the spec's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from zerolang.cli.options import (
    ABSTRACTION,
    ALSO_EXPERIENCES,
    AS,
    CLEARANCE,
    COLOR,
    DB,
    DRY_RUN,
    EXCLUDE,
    EXIT_ZERO,
    EXPERIENCES,
    EXTEND_EXCLUDE,
    INDEX_DB,
    JSON,
    NOW,
    OUTPUT_FILE,
    POLICY,
    PRIVACY,
    QUIET,
    ROOT,
    SETTLED_SPACE,
    SPACE,
    STATISTICS,
    STDIN_FILENAME,
    TTL,
    Color,
    OptionSpec,
)


def option(spec: OptionSpec[Any]) -> Any:
    """The `typer.Option` that declares `spec`."""
    return typer.Option(
        *spec.flags,
        help=spec.help,
        metavar=spec.metavar,
        envvar=spec.envvar,
        min=spec.minimum,
        max=spec.maximum,
    )


def parsed(spec: OptionSpec[Any], text: str) -> int:
    """The value of an option with a `parse` (a size), or typer's usage error naming the option."""
    assert spec.parse is not None
    try:
        return spec.parse(text)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint=spec.name) from None


DbOption = Annotated[str | None, option(DB)]
IndexDbOption = Annotated[str | None, option(INDEX_DB)]
SpaceOption = Annotated[str, option(SPACE)]
SettledSpaceOption = Annotated[str | None, option(SETTLED_SPACE)]
NowOption = Annotated[str | None, option(NOW)]
JsonOption = Annotated[bool, option(JSON)]
DryRunOption = Annotated[bool, option(DRY_RUN)]
ExperiencesOption = Annotated[Path | None, option(EXPERIENCES)]
AlsoExperiencesOption = Annotated[Path | None, option(ALSO_EXPERIENCES)]
RootOption = Annotated[Path | None, option(ROOT)]
PolicyOption = Annotated[Path | None, option(POLICY)]
AsOption = Annotated[str, option(AS)]
MaybeAsOption = Annotated[str | None, option(AS)]
TtlOption = Annotated[float | None, option(TTL)]
ClearanceOption = Annotated[int | None, option(CLEARANCE)]
PrivacyOption = Annotated[int, option(PRIVACY)]
AbstractionOption = Annotated[int, option(ABSTRACTION)]
ExcludeOption = Annotated[list[str] | None, option(EXCLUDE)]
ExtendExcludeOption = Annotated[list[str] | None, option(EXTEND_EXCLUDE)]
StdinFilenameOption = Annotated[str | None, option(STDIN_FILENAME)]
QuietOption = Annotated[bool, option(QUIET)]
ExitZeroOption = Annotated[bool, option(EXIT_ZERO)]
StatisticsOption = Annotated[bool, option(STATISTICS)]
OutputFileOption = Annotated[Path | None, option(OUTPUT_FILE)]
ColorOption = Annotated[Color, option(COLOR)]
