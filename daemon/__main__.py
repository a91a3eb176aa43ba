"""`python -m daemon` runs the memvault command line."""

from daemon.cli import main

raise SystemExit(main())
