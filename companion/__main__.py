"""`python -m companion` runs the simulator until the web app exists."""

from companion.sim import main

raise SystemExit(main())
