#!/usr/bin/env bash
# The compile tests check the books they make with outside tools (Debian's packages, never a download):
# W3C EPUBCheck for EPUB files, poppler's pdftotext and pdfinfo for PDFs. Install them when missing.
set -euo pipefail
if [ -f /usr/share/java/epubcheck.jar ] && command -v java >/dev/null && [ -x /usr/bin/pdftotext ] &&
  [ -x /usr/bin/pdfinfo ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's epubcheck and poppler-utils for the compile tests…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq epubcheck poppler-utils >/dev/null
else
  echo "The compile tests need EPUBCheck and poppler's pdftotext/pdfinfo. Install them with: sudo apt-get install epubcheck poppler-utils" >&2
  exit 1
fi
