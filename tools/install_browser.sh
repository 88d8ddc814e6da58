#!/bin/sh
# The browser the big screen's test drives (tests/cli/web/test_browser.py): Debian's chromium
# and chromium-driver. Installed with apt-get where they are missing and apt-get can (as
# root); anywhere else this says so and the test is skipped, with the reason. Never fails:
# the rest of the test command runs either way.
if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
    echo "tools/install_browser.sh: no chromium, and no apt-get as root to install it: the browser test is skipped" >&2
    exit 0
fi
echo "tools/install_browser.sh: installing chromium and chromium-driver (apt-get)" >&2
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
        chromium chromium-driver; } >/tmp/install_browser.log 2>&1; then
    echo "tools/install_browser.sh: apt-get failed (see /tmp/install_browser.log): the browser test is skipped" >&2
fi
exit 0
