"""The curses terminal client (``burgundy play``).

- :mod:`.table`: the :class:`~.table.Table` protocol the UI talks to, :class:`LocalTable`
  (a game against bots in this process) and :class:`ReplayTable`.
- :mod:`.model`: the view model (turn draft with undo, choices, pages); no curses.
- :mod:`.layout`: pane rectangles from the screen size.
- :mod:`.render`: pure drawing to lines of styled text.
- :mod:`.describe`, :mod:`.texts`: log sentences, help and the tile guide.
- :mod:`.app`: curses set-up, the keymap and the loop; :mod:`.command`: ``burgundy play``.
"""
