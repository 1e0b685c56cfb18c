"""`python -m lexicon_server.glossary`: the same as the `lexicon-glossary` command."""

from lexicon_server.glossary.cli import main

main()
