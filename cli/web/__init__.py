"""The big screen: a read-only web page of the whole table (every estate, the depots, the
scores, the log) for any browser on the LAN, live from a peer's snapshots or stepping
through a replay. ``view`` turns a game into the page's data, ``feed`` keeps the latest
view, ``server`` serves the page (aiohttp), ``qr`` draws its address as a QR code for the
terminal; the page itself is plain HTML, CSS and JavaScript in ``static/``.
"""
