"""The curses terminal client (``burgundy play``).

- :mod:`.table`: the :class:`~.table.Table` protocol the UI talks to, :class:`LocalTable`
  (a game against bots in this process) and :class:`ReplayTable`.
- :mod:`.menu`: the choices on offer; :mod:`.draft`: our turn so far, with undo;
  :mod:`.model`: the view model (menu position, pages, questions, chat). No curses.
- :mod:`.layout`: pane rectangles from the screen size.
- :mod:`.render`: pure drawing to lines of styled text.
- :mod:`.describe`, :mod:`.texts`: log sentences, help and the tile guide.
- :mod:`.lobbymodel`, :mod:`.lobbyrender`: the screens before a networked game, as a model
  and drawn; :mod:`.netcommand` runs them, then the game.
- :mod:`.app`: curses set-up, the keymap and the loop; :mod:`.command`: ``burgundy play``.
"""
