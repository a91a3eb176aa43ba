"""`python -m daemon` runs the memvault command line (through the launcher's fast path for hooks)."""

from daemon.launch import main

if __name__ == "__main__":  # a guard: worker processes (spawn) import this module again
    raise SystemExit(main())
