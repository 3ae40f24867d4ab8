"""`python -m fivedice.cli`: the same as the `fivedice` command."""

from fivedice.cli import main

main()
