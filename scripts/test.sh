#!/usr/bin/env bash
# `npm test`: every suite. Server integration tests run on embedded PGlite, and also on PostgreSQL when
# TEST_DATABASE_URL is set (Redis-backed tests when TEST_REDIS_URL is set); then the browser tests.
# The web app and the server are built first: the supervisor test (scripts/start.test.ts) runs `npm start` as a
# self-hoster does, and the browser tests run the compiled server.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
bash scripts/ensure-libreoffice.sh
bash scripts/ensure-book-tools.sh
npm run build
vitest run
playwright test
