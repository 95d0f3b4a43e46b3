#!/usr/bin/env bash
# `npm test`: every suite. Server integration tests run on embedded PGlite, and also on PostgreSQL when
# TEST_DATABASE_URL is set (Redis-backed tests when TEST_REDIS_URL is set); then the browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/ensure-chromium.sh
vitest run
vite build --logLevel warn
playwright test
