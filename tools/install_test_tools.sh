#!/bin/sh
# What two tests need beyond Python, from Debian's packages: chromium and chromium-driver for
# the big screen's browser test (tests/cli/web/test_browser.py); wireguard-tools, and
# wireguard-go where the kernel has no WireGuard, for the tunnel test
# (tests/lan/test_wireguard.py). Each is installed with apt-get where it is missing and
# apt-get can (as root); anywhere else this says so and that test is skipped, with the
# reason. Never fails: the rest of the test command runs either way.
log=/tmp/install_test_tools.log
updated=""

# install WHAT-FOR APT-OPTION PACKAGE...: apt-get install the packages, or say why not.
install() {
    what=$1
    option=$2
    shift 2
    if ! command -v apt-get >/dev/null 2>&1 || [ "$(id -u)" != 0 ]; then
        echo "tools/install_test_tools.sh: no $*, and no apt-get as root to install them: the $what is skipped" >&2
        return
    fi
    echo "tools/install_test_tools.sh: installing $* for the $what (apt-get)" >&2
    if [ -z "$updated" ] && apt-get update -qq >>"$log" 2>&1; then
        updated=yes
    fi
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $option "$@" \
            >>"$log" 2>&1; then
        echo "tools/install_test_tools.sh: apt-get failed (see $log): the $what is skipped" >&2
    fi
}

if ! { [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; }; then
    install "browser test" --install-recommends chromium chromium-driver
fi

wireguard=""
command -v wg >/dev/null 2>&1 || wireguard="wireguard-tools"
probe="bgwgprobe$$"
if ip link add "$probe" type wireguard >/dev/null 2>&1; then
    ip link del "$probe" >/dev/null 2>&1
elif ! command -v wireguard-go >/dev/null 2>&1; then
    wireguard="$wireguard wireguard-go"  # the kernel has no WireGuard (or we are not root)
fi
if [ -n "$wireguard" ]; then
    # Without wireguard-tools' recommends, which build a kernel module (wireguard-dkms).
    # shellcheck disable=SC2086  # the package names are words
    install "WireGuard test" --no-install-recommends $wireguard
fi
exit 0
