#!/usr/bin/env bash
# The Word export's tracked changes are checked by converting with LibreOffice (Debian's headless Writer,
# never a download). Install it when missing.
set -euo pipefail
if [ -x /usr/bin/soffice ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's libreoffice-writer-nogui for the Word export tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libreoffice-writer-nogui >/dev/null
else
  echo "The Word export tests need LibreOffice at /usr/bin/soffice. Install it with: sudo apt-get install libreoffice-writer-nogui" >&2
  exit 1
fi
