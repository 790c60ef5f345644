"""``python -m sudokit``: the same as the ``sudokit`` console script."""

from .cli import main

if __name__ == "__main__":
    main(prog_name="sudokit")
