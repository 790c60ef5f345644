"""References to code: the ``"module:attribute"`` strings registry entries and users name.

Every registry (engines, fill strategies, counters) takes a name of its own, an entry object,
or a ``"module:attribute"`` string naming an object the user wrote, the way networkx takes a
strategy's name or the function itself. :func:`is_ref` tells a reference from a registry
name (no name has a colon); :func:`load_ref` imports what one names, or raises the library's
one-line error instead of a traceback.

Examples
--------
>>> is_ref("dlx"), is_ref("sudokit.generators.grids:search_fill")
(False, True)
>>> load_ref("sudokit.refs:load_ref", "function") is load_ref
True
>>> load_ref("nowhere:Engine", "engine")
Traceback (most recent call last):
...
sudokit.errors.SudokitError: cannot load engine 'nowhere:Engine': No module named 'nowhere'
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from .errors import SudokitError
from .problems import resolve

__all__ = ["closest", "first_line", "is_ref", "load_ref", "ref_of", "registry_entry"]

Spec = TypeVar("Spec")


def closest(name: object, names: Iterable[str]) -> str:
    """``did you mean 'x' or 'y'? `` for an unknown registry name, or empty when nothing is
    close (every registry's "unknown ..." message starts its hint with it).

    Examples
    --------
    >>> closest("minisat", ["minisat22", "glucose4", "dlx"])
    "did you mean 'minisat22'? "
    >>> closest("zzz", ["dlx"])
    ''
    """
    if not isinstance(name, str):
        return ""
    names = list(names)
    near = difflib.get_close_matches(name.lower(), names, n=3, cutoff=0.6)
    near += [other for other in names if other.startswith(name.lower()) and other not in near]
    return f"did you mean {' or '.join(map(repr, near[:3]))}? " if near else ""


def is_ref(name: object) -> bool:
    """Whether ``name`` is a ``"module:attribute"`` string (a registry name has no colon)."""
    return isinstance(name, str) and ":" in name


def load_ref(ref: str, what: str, error: type[SudokitError] = SudokitError) -> Any:
    """The object ``ref`` (``"module:attribute"``, the attribute possibly dotted) names.

    Parameters
    ----------
    ref : str
        The reference; the module is imported on first use (:func:`sudokit.problems.resolve`).
    what : str
        What it should name (``"engine"``, ``"fill"``...), for the message.
    error : type
        The :class:`~sudokit.errors.SudokitError` subclass raised when it names nothing.

    Raises
    ------
    SudokitError
        (``error``) One line: the module cannot be imported or has no such attribute.

    Examples
    --------
    >>> load_ref("sudokit.errors:SudokitError.exit_code", "exit code")
    4
    """
    module, _, attribute = ref.partition(":")
    if not module.strip() or not attribute.strip():
        raise error(f"cannot load {what} {ref!r}: expected 'module:attribute'")
    try:
        head, *rest = attribute.split(".")
        found = resolve(f"{module}:{head}")
        for name in rest:
            found = getattr(found, name)
    except ImportError as err:
        raise error(f"cannot load {what} {ref!r}: {err}") from None
    except AttributeError:
        raise error(f"cannot load {what} {ref!r}: module {module!r} has no attribute "
                    f"{attribute!r}") from None
    return found


def ref_of(obj: Any) -> str:
    """The ``"module:qualified.name"`` of a class or function (its name in messages and in the
    registry entries made for it).

    Examples
    --------
    >>> ref_of(load_ref)
    'sudokit.refs:load_ref'
    """
    return f"{getattr(obj, '__module__', '?')}:{getattr(obj, '__qualname__', repr(obj))}"


def first_line(obj: Any, default: str) -> str:
    """The first line of ``obj``'s docstring (what an ad hoc registry entry says it is), or
    ``default``.

    >>> first_line(first_line, "?")
    "The first line of ``obj``'s docstring (what an ad hoc registry entry says it is), or"
    """
    lines = (getattr(obj, "__doc__", None) or "").strip().splitlines()
    return lines[0].strip() if lines else default


def registry_entry(value: Any, entry_type: type[Spec], takes: Callable[[Any], bool],
                   wrap: Callable[[Any, str], Spec], by_name: Callable[[Any], Spec],
                   what: str, kind: str, error: type[SudokitError] = SudokitError) -> Spec:
    """The registry entry ``value`` stands for: the one rule every registry's lookup follows.

    An ``entry_type`` is returned as it is; a ``"module:attribute"`` reference is loaded and
    must be an entry or an object ``takes`` accepts (``kind``, for the message), which
    ``wrap(object, reference)`` makes an ad hoc entry of; an object ``takes`` accepts is
    wrapped under its own :func:`ref_of`; anything else is a name ``by_name`` looks up (and
    refuses with the registry's own message).

    Examples
    --------
    >>> names = {"one": 1.0}
    >>> def entry(value):
    ...     return registry_entry(value, float, callable, lambda f, ref: f(),
    ...                           names.__getitem__, "number", "a function")
    >>> entry("one"), entry("math:tau"), entry(lambda: 2.0), entry(0.5)
    (1.0, 6.283185307179586, 2.0, 0.5)
    >>> entry("math:pi"), entry("math:e")
    (3.141592653589793, 2.718281828459045)
    >>> entry("math:inf") + entry("one")
    inf
    >>> entry("sudokit:__name__")
    Traceback (most recent call last):
    ...
    sudokit.errors.SudokitError: number 'sudokit:__name__' names neither a function nor a float
    """
    if isinstance(value, entry_type):
        return value
    if is_ref(value):
        found = load_ref(value, what, error)
        if isinstance(found, entry_type):
            return found
        if not takes(found):
            raise error(f"{what} {value!r} names neither {kind} nor a {entry_type.__name__}")
        return wrap(found, value)
    if takes(value):
        return wrap(value, ref_of(value))
    return by_name(value)
