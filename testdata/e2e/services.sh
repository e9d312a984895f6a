#!/usr/bin/env bash
# End-to-end test of the Services screen: drives the BUILT binary in tmux
# against `skytui sandbox` and asserts what the screen shows.
#
#   SKYTUI_BIN=bin/skytui testdata/e2e/services.sh
#
# Steps: the services are listed; the header shows the profile and the API
# host; `?` shows help; a service created through the form appears pending
# at once and becomes ready; `q` quits. On failure it prints the screen
# captures and the sandbox log (or, with E2E_WORK set, leaves them there),
# and exits 1. See lib.sh for the settings.
set -u
# shellcheck source=testdata/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start
add_profile e2e
start_tui --api-url "$URL" --profile e2e

STEP="services listed"
wait_for "orders-prod"
wait_for "analytics-gcp"
wait_for "updated"

STEP="header"
header_shows "profile e2e" "127.0.0.1:$PORT"

STEP="help"
keys "?"
wait_for "new service"
keys G # the end of the help: the commands
wait_for ":settings"
keys g
wait_for "new service"
keys Escape
wait_for "Services 8"

STEP="create form"
fill_create_form e2e-db

STEP="review"
wait_for '"name": "e2e-db"'
keys Enter

# the table row of the new service (not the toast naming it)
ROW='^[> ] e2e-db  ' # by name: a narrow terminal may drop the ID column

STEP="pending"
wait_line "$ROW" "pending_create"

STEP="ready"
wait_line "$ROW" " ready"
wait_for "is ready"

STEP="quit"
keys q
wait_exit e2e

echo "e2e: services.sh passed"
