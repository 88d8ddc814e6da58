"""The `burgundy` command line and the curses client."""
