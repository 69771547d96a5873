#!/usr/bin/env bash
# Set up everything the tests need on a fresh machine, then run every test.
#   ./test.sh [pytest args…]
# Installs Debian's Chromium (for Playwright; it cannot download browsers here) and the Python test
# packages in .venv, then what serve.py sets up (the pinned npm runtime, the lexicon, the site), runs pytest.
set -euo pipefail
cd "$(dirname "$0")"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if [ ! -x /usr/bin/chromium ]; then
  echo "== installing Chromium (apt)"
  for attempt in 1 2 3 4 5 6 7 8 9 10; do
    if as_root apt-get update -qq && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; then
      break
    fi
    echo "apt busy or failed (attempt $attempt); retrying in 10 s" >&2
    sleep 10
  done
  [ -x /usr/bin/chromium ] || { echo "could not install chromium" >&2; exit 1; }
fi

if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv"
  python3 -m venv .venv
fi
if ! .venv/bin/python -c "import playwright, pytest, hypothesis, mypy, xdist" 2>/dev/null || [ pyproject.toml -nt .venv/.installed ]; then
  echo "== installing Python test packages"
  .venv/bin/pip install -q --disable-pip-version-check -e '.[test]'
  touch .venv/.installed
fi

# What serve.py sets up: the npm runtime, the lexicon, the site, each only when its inputs changed
# (a line as each starts and ends, the lexicon's progress between).
echo "== setting up the runtime, the lexicon and the site"
.venv/bin/python serve.py --setup-only

# One worker a core (SCARAB_WORKERS=N to choose, 0 for none): the whole files go to one worker each,
# so a file's tests keep sharing their booted pages, and two Chromiums at most on a 2-core machine.
workers="${SCARAB_WORKERS:-auto}"
dist=()
if [ "$workers" != 0 ]; then dist=(-n "$workers" --dist loadfile); fi
echo "== running the tests"
exec .venv/bin/python -m pytest "${dist[@]}" "$@"
