#!/usr/bin/env bash
# `npm test`: every suite. Server integration tests run on embedded PGlite, and also on PostgreSQL when
# TEST_DATABASE_URL is set (Redis-backed tests when TEST_REDIS_URL is set); then the browser tests.
# The web app is built first: the supervisor test (scripts/start.test.ts) runs `npm start` as a self-hoster does.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-libreoffice.sh
vite build --logLevel warn
vitest run
playwright test
