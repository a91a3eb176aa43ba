"""`python -m daemon` runs the memvault command line."""

from daemon.cli import main

if __name__ == "__main__":  # a guard: worker processes (spawn) import this module again
    raise SystemExit(main())
