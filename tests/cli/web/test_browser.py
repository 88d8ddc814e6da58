"""The big screen in a real browser: Debian's chromium, driven by selenium through
chromedriver (no browser is downloaded). A live 4-bot game on loopback, watched with
``burgundy watch --web``: the page shows 4 estates and changes after a turn, and at
1920x1080, 3840x2160 and 390x844 nothing on it overlaps (the TV sizes do not scroll). Then
``burgundy replay GAMEFILE --web`` of that game steps by action, turn and round.

Skipped, with the reason, where chromium, chromedriver or selenium is missing
(``tools/install_test_tools.sh`` installs them where apt-get can).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage")
TV, TV_4K, PHONE = (1920, 1080), (3840, 2160), (390, 844)

selenium = pytest.importorskip("selenium", reason="selenium is not installed (pip install "
                                                  "-e '.[test]')")
if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
    pytest.skip(f"no {CHROMIUM} or {CHROMEDRIVER} (tools/install_test_tools.sh installs Debian's "
                "chromium and chromium-driver)", allow_module_level=True)

from selenium import webdriver  # noqa: E402  # only once it is known to be there
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

pytestmark = pytest.mark.slow

OVERLAPS = """
// Pairs of boxes that overlap among the page's panels and among the parts of each estate,
// and boxes that stick out of the page's width (or, when tall is set, its height).
const [tall] = arguments;
const box = e => e.getBoundingClientRect();
const shown = e => { const b = box(e); return b.width > 0 && b.height > 0; };
const groups = [
  [...document.querySelectorAll("#head > *, #estates > *, #side > section")].filter(shown),
  ...[...document.querySelectorAll(".estate")].map(card => [...card.children].filter(shown)),
  ...[...document.querySelectorAll(".depot")].map(d => [...d.children].filter(shown)),
];
const name = e => e.id || e.className.baseVal || e.className || e.tagName;
const bad = [];
for (const group of groups) {
  for (let i = 0; i < group.length; i++) {
    const a = box(group[i]);
    if (a.right > innerWidth + 1 || a.left < -1 || (tall && a.bottom > innerHeight + 1)) {
      bad.push(`${name(group[i])} outside the page: ${JSON.stringify(a)}`);
    }
    for (let j = i + 1; j < group.length; j++) {
      const b = box(group[j]);
      const apart = a.right <= b.left + 1 || b.right <= a.left + 1
        || a.bottom <= b.top + 1 || b.bottom <= a.top + 1;
      if (!apart) {
        bad.push(`${name(group[i])} overlaps ${name(group[j])}`);
      }
    }
  }
}
const root = document.documentElement;
if (root.scrollWidth > innerWidth + 1) bad.push(`scrolls sideways: ${root.scrollWidth}`);
if (tall && root.scrollHeight > innerHeight + 1) bad.push(`scrolls down: ${root.scrollHeight}`);
return bad;
"""


def burgundy(*args: str, log: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "p2p_burgundy.cli.main", *args],
                            stdout=log.open("w"),
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def wait_for(what: str, check: Callable[[], Any], timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} in {timeout:.0f} s")
        time.sleep(0.1)


def read_match(log: Path, pattern: str, what: str) -> str:
    def found() -> str | None:
        match = re.search(pattern, log.read_text() if log.exists() else "")
        return match.group(1) if match else None

    return str(wait_for(what, found))


@contextlib.contextmanager
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    try:
        yield started
    finally:
        for process in started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


@contextlib.contextmanager
def chromium() -> Iterator[webdriver.Chrome]:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="burgundy-chromium-")
    for flag in (*FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def viewport(driver: webdriver.Chrome, size: tuple[int, int], *, mobile: bool) -> None:
    width, height = size
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    wait_for("viewport", lambda: driver.execute_script("return innerWidth") == width, 10)


def texts(driver: webdriver.Chrome, selector: str) -> list[str]:
    """The text of each element ``selector`` finds, read at one moment (the page redraws
    whole on every view, so elements found earlier go stale)."""
    found = driver.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map(e => e.textContent)",
        selector)
    return [str(text) for text in found]


def text(driver: webdriver.Chrome, selector: str) -> str:
    return "".join(texts(driver, selector))


def version(driver: webdriver.Chrome) -> int:
    return int(driver.execute_script("return Number(document.body.dataset.version || 0)"))


def check_layout(driver: webdriver.Chrome, size: tuple[int, int], shots: Path) -> None:
    """At ``size``, nothing overlaps (the page does not scroll on a TV); a screenshot."""
    mobile = size == PHONE
    viewport(driver, size, mobile=mobile)
    time.sleep(0.5)  # a redraw at the new size
    assert driver.execute_script(OVERLAPS, not mobile) == [], size
    driver.save_screenshot(str(shots / f"page-{size[0]}x{size[1]}.png"))


def test_a_live_game_and_its_replay_in_chromium(tmp_path: Path) -> None:
    shots = Path(os.environ.get("BURGUNDY_SCREENSHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    loopback = ("--no-mdns", "--interface", "127.0.0.1")
    with processes() as started, chromium() as driver:
        host_log = tmp_path / "host.log"
        started.append(burgundy("bot", "--host", "--players", "4", "--name", "Ann", *loopback,
                                "--home", str(tmp_path / "host"), log=host_log))
        address = read_match(host_log, r"hosting at (127\.0\.0\.1:\d+)", "host address")
        watch_log = tmp_path / "watch.log"
        started.append(burgundy("watch", address, "--web", "--web-port", "0", *loopback,
                                "--home", str(tmp_path / "watch"), log=watch_log))
        url = read_match(watch_log, r"(http://127\.0\.0\.1:\d+/)", "page address")
        assert "█" in watch_log.read_text()  # the QR code
        viewport(driver, TV, mobile=False)
        driver.get(url)
        # Dan thinks a while over his first decisions: the page is watched while the game
        # is under way; then it runs to its end at the bots' speed.
        engine = f"{sys.executable} {Path(__file__).parent.parent / 'tiny_engine.py'} --pause 15"
        for name, player in (("Bob", ()), ("Cleo", ()), ("Dan", ("--engine", engine))):
            started.append(burgundy("bot", address, "--name", name, *player, *loopback,
                                    "--home", str(tmp_path / name),
                                    log=tmp_path / f"{name}.log"))
        wait_for("4 estates", lambda: len(texts(driver, ".estate")) == 4)
        names = texts(driver, ".estate .name")
        assert sorted(names) == ["Ann", "Bob", "Cleo", "Dan"]

        def whose_turn() -> str | None:
            match = re.fullmatch(r"(Ann|Bob|Cleo|Dan)'s turn", text(driver, "#status"))
            return match.group(1) if match else None

        mover = wait_for("a player's turn", whose_turn)
        seen = version(driver)
        # That turn is played: the page is redrawn, the turn is in the log, and the last
        # turn's lines are marked as new.
        wait_for("a turn on the page", lambda: version(driver) > seen
                 and f"{mover} ended the turn." in text(driver, "#log")
                 and "ended the turn." in text(driver, "#log li.recent"), 30)
        for size in (TV, TV_4K, PHONE):
            check_layout(driver, size, shots)
        viewport(driver, TV, mobile=False)
        wait_for("the game's end", lambda: text(driver, "#title") == "Game over", 240)
        assert "wins with" in text(driver, "#scores .result")
        game_file = next((tmp_path / "host" / "games").glob("*.game"))

        replay_log = tmp_path / "replay.log"
        started.append(burgundy("replay", str(game_file), "--web", "--web-port", "0",
                                "--interface", "127.0.0.1", log=replay_log))
        driver.get(read_match(replay_log, r"(http://127\.0\.0\.1:\d+/)", "replay address"))
        position = lambda: text(driver, "#position")  # noqa: E731
        wait_for("the replay's start", lambda: position().startswith("step 0 of "))
        total = int(position().rsplit(" ", 1)[1])

        def press(by: str, delta: int) -> str:
            before = position()
            driver.find_element(By.CSS_SELECTOR,
                                f'#replay button[data-by="{by}"][data-delta="{delta}"]').click()
            return str(wait_for(f"a step by {by}", lambda: position() != before and position(),
                                10))

        assert press("action", 1) == f"step 1 of {total}"  # the set-up
        turn = press("turn", 1)
        assert turn == f"step 2 of {total}"  # phase A's depots: a chance event is a turn
        press("round", 1)
        assert text(driver, "#title") == "Phase A, round 2 of 5"
        press("round", -1)
        assert text(driver, "#title") == "Phase A, round 1 of 5"
        check_layout(driver, TV, shots)
