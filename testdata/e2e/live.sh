#!/usr/bin/env bash
# End-to-end test of the live service's rules: the BUILT binary with the
# built-in `skysql` profile (backup prefix /skybackup/v1) in tmux against
# `skytui sandbox --log-requests`, which enforces the live listing rules.
#
#   SKYTUI_BIN=bin/skytui testdata/e2e/live.sh
#
# Steps: the services are listed under profile skysql; Backups (2) shows the
# backups of every service with a SERVICE column (one listing on the live
# service); `:backups nosuch` says so and changes nothing; `:backups NAME`
# narrows to one service and `a` goes back; Restores (3) shows the restores
# of every service (asked per service). Then the sandbox's request log must
# show no refused request (4xx), no restores or schedules listing without
# service_id and no backup status call. See lib.sh for the settings.
set -u
# shellcheck source=testdata/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start --log-requests
start_tui --api-url "$URL" --profile skysql

STEP="services listed"
wait_for "orders-prod"
wait_for "updated"
header_shows "profile skysql"

STEP="backups of every service"
keys 2
wait_for "Backups of all services"
wait_re "^ +SERVICE +KEY "
wait_re "^[> ] orders-prod +[0-9a-f]{6,}"
wait_re "^[> ] analytics-gcp +[0-9a-f]{6,}"

STEP=":backups nosuch"
command_line "backups nosuch"
wait_for 'no service named "nosuch"'
wait_for "Backups of all services"

STEP=":backups orders-prod"
command_line "backups orders-prod"
wait_for "Backups of orders-prod"
STEP="back to all services"
keys a
wait_for "Backups of all services"

STEP="restores of every service"
keys 3
wait_for "[ 3 Restores ]"
wait_re "^[> ] +[0-9]+ +staging-eu "
wait_re "^[> ] +[0-9]+ +replica-west "

STEP="quit"
keys q
wait_exit e2e

STEP="requests"
grep -q 'sandbox request' "$SB_LOG" || fail "the sandbox logged no request"
if grep 'sandbox request' "$SB_LOG" | grep -E 'status=4[0-9][0-9]' >/dev/null; then
	grep 'sandbox request' "$SB_LOG" | grep -E 'status=4[0-9][0-9]' >&2
	fail "the sandbox refused requests (above)"
fi
grep 'sandbox request' "$SB_LOG" | grep -E 'path=/skybackup/v1/(restores|backups/schedules) ' | grep -v 'service_id=' >/dev/null &&
	fail "a restores or schedules listing went out without service_id"
grep -q 'path=/skybackup/v1/backups/status' "$SB_LOG" && fail "the backup status call was sent on the live prefix"
# the all-services view (the first backups listing) is one call without
# service_id; only the narrowed view asks for one service
grep 'sandbox request' "$SB_LOG" | grep -m1 -E 'path=/skybackup/v1/backups ' | grep -q 'service_id=' &&
	fail "the all-services backups view asked per service on the live service"
record "requests: $(grep -c 'sandbox request' "$SB_LOG") logged, none refused"

echo "e2e: live.sh passed"
