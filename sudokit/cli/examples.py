"""``sudokit examples``: the bundled example files, by name, wherever sudokit is installed.

The files live in the package (``sudokit/instances/examples``); ``index.json`` beside them is
the registry: name -> file, problem kind and a one-line description. Listing them, printing
one (so that ``sudokit examples top3 | sudokit solve -`` works from any folder) and printing
its installed path (for a command that wants a real file) all read that index; a new example
is a file and an index entry, nothing here.

Examples
--------
>>> EXAMPLES["top3"].file, EXAMPLES["qwh5"].kind
('top3.txt', 'latin')
>>> example_bytes(find_example("puzzle17"))[:9]
b'4.....8.5'
>>> find_example("puzzle17.txt").name           # the file name works as well
'puzzle17'
"""

from __future__ import annotations

import difflib
import json
import sys
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ..errors import UnreadableFileError
from .output import emit_json

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

__all__ = ["EXAMPLES", "Example", "example_bytes", "example_path", "examples", "find_example"]

#: the folder of the bundled examples inside the installed package
FOLDER: Traversable = files("sudokit") / "instances" / "examples"


@dataclass(frozen=True)
class Example:
    """One bundled example: its name, file name, problem kind and a one-line description."""

    name: str
    file: str
    kind: str
    description: str


def _load_index() -> dict[str, Example]:
    entries = json.loads(FOLDER.joinpath("index.json").read_text(encoding="utf-8"))
    return {name: Example(name, **entry) for name, entry in entries.items()}


#: name -> :class:`Example`, in the index's order
EXAMPLES: dict[str, Example] = _load_index()


def find_example(name: str) -> Example:
    """The example called ``name`` (or whose file is called ``name``); an unknown name is a
    usage error (exit 2) that suggests the closest names and lists them all."""
    if name in EXAMPLES:
        return EXAMPLES[name]
    for example in EXAMPLES.values():
        if example.file == name:
            return example
    close = difflib.get_close_matches(name, list(EXAMPLES), n=3, cutoff=0.5)
    hint = f"did you mean {' or '.join(map(repr, close))}? " if close else ""
    raise click.BadParameter(f"unknown example {name!r}; {hint}the examples are: "
                             f"{', '.join(EXAMPLES)}", param_hint="NAME")


def example_bytes(example: Example) -> bytes:
    """The example file's contents, exactly."""
    return FOLDER.joinpath(example.file).read_bytes()


def example_path(example: Example | None = None) -> Path:
    """The installed file of ``example`` (or, with ``None``, the examples' folder). A package
    not unpacked on disk (a zip import) has no such path: :class:`UnreadableFileError`."""
    resource = FOLDER if example is None else FOLDER.joinpath(example.file)
    if not isinstance(resource, Path):
        raise UnreadableFileError(
            "the examples are not files on disk in this installation (a zip import?); "
            "write one out with 'sudokit examples NAME > FILE'")
    return resource


@click.command()
@click.argument("name", required=False)
@click.option("--path", "show_path", is_flag=True,
              help="Print the installed file's path instead of its contents (without NAME: "
                   "the examples' folder).")
@click.option("--json", "as_json", is_flag=True,
              help="List as a JSON object: name -> file, kind, description.")
def examples(name, show_path, as_json):
    """List the bundled example files, or print the one called NAME to stdout.

    The examples come with sudokit, so they work from any folder: pipe one into a command
    that reads '-' (stdin is recognised by its first line), or pass its installed path where
    a real file is wanted. An unknown NAME is a usage error (exit 2) naming the closest
    examples.

    \b
    Example:
      sudokit examples
      sudokit examples top3 | sudokit solve -
      sudokit examples knuth6 | sudokit count --xc -
      sudokit solve "$(sudokit examples --path qwh5)"
    """
    if as_json and name is not None:
        raise click.UsageError("--json lists the examples; leave out NAME")
    if name is None:
        if show_path:
            click.echo(str(example_path()))
        elif as_json:
            emit_json({example.name: {"file": example.file, "kind": example.kind,
                                      "description": example.description}
                       for example in EXAMPLES.values()})
        else:
            width = max(map(len, EXAMPLES))
            kind_width = max(len(example.kind) for example in EXAMPLES.values())
            for example in EXAMPLES.values():
                click.echo(f"{example.name:<{width}}  {example.kind:<{kind_width}}  "
                           f"{example.description}")
        return
    example = find_example(name)
    if show_path:
        click.echo(str(example_path(example)))
    else:
        click.echo(example_bytes(example), nl=False)
