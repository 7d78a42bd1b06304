"""`python -m engramdb.cli`: the `engramdb` command."""

from .app import main

main()
