"""The `zero` command as a typer application: the lazy group built from `COMMANDS`, --version, errors.

`zerolang.cli.commands` holds the command table, `zerolang.cli.app` the entry point; this module is
imported only when typer reads the command line (see `zerolang.cli.fast`).
"""

from __future__ import annotations

import functools
from importlib import import_module
from typing import Annotated, Any, ParamSpec

import typer
from typer.core import TyperGroup

from zerolang import __version__
from zerolang.cli.commands import COMMANDS, SUMMARY
from zerolang.cli.errors import reports_errors

P = ParamSpec("P")


@functools.cache
def load_command(name: str) -> Any:
    """Import command `name`'s module and turn its function or sub-app into a click command.

    Built once per process: a `zero` process asks for one command, but a program that invokes the app
    many times (the test suite's CliRunner) would otherwise rebuild every sub-app's click tree, reading
    the signatures of all its functions, each time (~20 ms for `zero memory ...`)."""
    module_name, _, attribute = COMMANDS[name].target.partition(":")
    target = getattr(import_module(module_name), attribute)
    if isinstance(target, typer.Typer):
        command = typer.main.get_command(target)
    else:
        single = typer.Typer(add_completion=False, rich_markup_mode=None)
        single.command(name)(reports_errors(target))
        command = typer.main.get_command(single)
    command.name = name
    _text_parameters(command)
    return command


class Utf8Text(typer._click.types.StringParamType):
    """A text argument or option: the bytes given must be UTF-8 (click decodes others to surrogates)."""

    name = "text"

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        from zerolang.util.escapes import has_lone_surrogate

        text = super().convert(value, param, ctx)
        if isinstance(text, str) and has_lone_surrogate(text):
            at = next(index for index, char in enumerate(text) if 0xD800 <= ord(char) <= 0xDFFF)
            byte = ord(text[at]) - 0xDC00 if 0xDC80 <= ord(text[at]) <= 0xDCFF else None
            what = f"byte \\x{byte:02x}" if byte is not None else f"U+{ord(text[at]):04X}"
            self.fail(f"not valid UTF-8 text ({what} at character {at + 1})", param, ctx)
        return text


def _text_parameters(command: Any) -> None:
    """Every plain text parameter of `command` and its subcommands refuses bytes that are not UTF-8
    with a usage error (exit 2) naming the parameter: a label or query that is not text would
    otherwise reach SQLite and fail there. A file argument keeps click's own type: a file name is
    bytes, and Python opens one that is not UTF-8 by the same surrogates."""
    for param in command.params:
        if type(param.type) is typer._click.types.StringParamType and param.name not in _FILE_NAMES:
            param.type = _UTF8_TEXT
    for sub in getattr(command, "commands", {}).values():
        _text_parameters(sub)


_UTF8_TEXT = Utf8Text()
_FILE_NAMES = frozenset({"file", "files", "paths"})


class LazyGroup(TyperGroup):
    """A group that knows its commands from `COMMANDS` and imports one only when it is used."""

    def list_commands(self, ctx: Any) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            self.commands[cmd_name] = load_command(cmd_name)
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The command list from the table's summaries, without importing any command."""
        from typer._click.utils import make_default_short_help

        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            entry = COMMANDS.get(name)
            if entry is not None:
                rows.append((name, make_default_short_help(entry.summary, limit)))
            else:
                rows.append((name, self.commands[name].get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().make_context(*args, **kwargs)
        except typer._click.exceptions.ClickException as error:
            raise _shown_as_data(error) from None

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except typer._click.exceptions.ClickException as error:
            raise _shown_as_data(error) from None

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return self._click_resolve_command(ctx, args)
        except typer._click.exceptions.UsageError as error:
            from difflib import get_close_matches

            matches = get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches:
                suggestions = ", ".join(repr(match) for match in matches)
                error.message = f"{error.message.rstrip('.')}. Did you mean {suggestions}?"
            raise


def _shown_as_data(error: Any) -> Any:
    """A usage error (exit 2) quotes what was typed (`no such command`, `unknown rule code`): that text
    is user data, so a control character in it is shown escaped, never written to the terminal raw."""
    from zerolang.util.escapes import escaped_lines

    if isinstance(error.message, str):
        error.message = escaped_lines(error.message, exact=False)
    return error


app = typer.Typer(
    name="zero",
    cls=LazyGroup,
    help=SUMMARY,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain help: rich-formatted help costs ~0.3 s of imports on every `zero --help`.
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"zero {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """The 0-lang toolchain."""
