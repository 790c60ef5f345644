"""A griffe extension of the API reference (mkdocs.yml): the Sphinx roles of the numpydoc
docstrings (``:func:`~sudokit.solvers.solve```, ``:class:`Budget```) shown as the code they
name (``solve``, ``Budget``), as Sphinx would show them, instead of as the raw role text."""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|meth|mod|data|attr|exc|obj|const|term|ref):"
                  r"`(~?)([^`<]*?)(?:\s*<([^`>]+)>)?`")


def _shown(match: re.Match[str]) -> str:
    tilde, text, target = match.groups()
    if target is not None:                   # :ref:`title <target>`: the title
        return f"`{text.strip()}`"
    name = text.lstrip(".")
    if tilde:
        name = name.rsplit(".", 1)[-1]
    return f"`{name}`"


def strip_roles(text: str) -> str:
    """``text`` with every Sphinx role replaced by the code it names."""
    return ROLE.sub(_shown, text)


class SphinxRoles(griffe.Extension):
    def on_instance(self, *, node, obj, agent, **kwargs) -> None:
        if obj.docstring is not None:
            obj.docstring.value = strip_roles(obj.docstring.value)
