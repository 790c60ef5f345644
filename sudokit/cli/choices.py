"""``--option NAME`` choices that answer an unknown name with the closest ones, as ``sudokit
examples`` and ``--solver`` do (click's own :class:`click.Choice` lists every choice but
suggests none).

Examples
--------
>>> import click
>>> @click.command()
... @click.option("--encoding", type=Choice(["minimal", "extended", "reduced"]))
... def demo(encoding):
...     pass
>>> from click.testing import CliRunner
>>> CliRunner().invoke(demo, ["--encoding", "extnded"]).output.split("; ")[-1].strip()
"did you mean 'extended'?"
"""

from __future__ import annotations

from typing import Any

import click

from ..refs import closest

__all__ = ["Choice"]


class Choice(click.Choice):
    """:class:`click.Choice` whose error adds ``did you mean ...?`` for a near miss."""

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as err:
            hint = closest(value, [str(choice) for choice in self.choices]).rstrip()
            if not hint:
                raise
            self.fail(f"{err.message.rstrip('.')}; {hint}", param, ctx)
