#!/usr/bin/env bash
# End-to-end test of the Services screen: drives the BUILT binary in tmux
# against `skytui sandbox` and asserts what the screen shows.
#
#   SKYTUI_BIN=bin/skytui testdata/e2e/services.sh
#
# Steps: the services are listed; the header shows the profile and the API
# host; `?` shows help; a service created through the form appears pending
# at once and becomes ready; `q` quits. On failure it prints the last
# screen captures and the sandbox log, and exits 1.
set -u

BIN=${SKYTUI_BIN:-${1:-bin/skytui}}
WIDTH=${E2E_WIDTH:-80}
HEIGHT=${E2E_HEIGHT:-24}
TIMEOUT=${E2E_TIMEOUT:-20} # seconds per wait
KEY="e2e.$$.$RANDOM"
PORT=${E2E_PORT:-$((20000 + (RANDOM % 20000)))}
SOCK="skytui-e2e-$$"
WORK=$(mktemp -d)
CAPTURES="$WORK/captures.txt"
SB_LOG="$WORK/sandbox.log"
SB_PID=""
STEP="start"

command -v tmux >/dev/null || { echo "e2e: tmux is not installed" >&2; exit 2; }
[ -x "$BIN" ] || { echo "e2e: no executable at $BIN (build it first: make build)" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

cleanup() {
	tmux -L "$SOCK" kill-server >/dev/null 2>&1
	[ -n "$SB_PID" ] && kill "$SB_PID" >/dev/null 2>&1 && wait "$SB_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

capture() { tmux -L "$SOCK" capture-pane -p -t e2e 2>/dev/null; }

fail() {
	echo "e2e FAILED at step '$STEP': $*" >&2
	echo "---- last screen ----" >&2
	capture >&2 || echo "(no pane)" >&2
	echo "---- earlier captures (most recent last) ----" >&2
	tail -n 200 "$CAPTURES" >&2 2>/dev/null
	echo "---- sandbox log ----" >&2
	cat "$SB_LOG" >&2 2>/dev/null
	exit 1
}

# wait_for TEXT: until the screen shows TEXT (fixed string).
wait_for() {
	local text=$1 deadline=$((SECONDS + TIMEOUT)) screen
	while [ $SECONDS -lt $deadline ]; do
		screen=$(capture)
		if grep -qF -- "$text" <<<"$screen"; then
			{ echo "==== $STEP: saw '$text'"; echo "$screen"; } >>"$CAPTURES"
			return 0
		fi
		sleep 0.1
	done
	{ echo "==== $STEP: never saw '$text'"; capture; } >>"$CAPTURES"
	fail "the screen never showed '$text' within ${TIMEOUT}s"
}

# wait_line REGEX TEXT: until a line matching REGEX (extended) also
# contains TEXT.
wait_line() {
	local pat=$1 text=$2 deadline=$((SECONDS + TIMEOUT))
	while [ $SECONDS -lt $deadline ]; do
		if capture | grep -E -- "$pat" | grep -qF -- "$text"; then
			{ echo "==== $STEP: '$pat' line shows '$text'"; capture; } >>"$CAPTURES"
			return 0
		fi
		sleep 0.1
	done
	fail "no line with '$pat' showed '$text' within ${TIMEOUT}s"
}

keys() { tmux -L "$SOCK" send-keys -t e2e "$@"; }
typetext() { tmux -L "$SOCK" send-keys -t e2e -l -- "$1"; }

STEP="sandbox"
"$BIN" sandbox --listen "127.0.0.1:$PORT" --api-key "$KEY" --time-scale 600 >"$SB_LOG" 2>&1 &
SB_PID=$!
deadline=$((SECONDS + TIMEOUT))
until grep -q "sandbox listening" "$SB_LOG" 2>/dev/null; do
	kill -0 "$SB_PID" 2>/dev/null || fail "the sandbox exited"
	[ $SECONDS -lt $deadline ] || fail "the sandbox did not start"
	sleep 0.1
done

STEP="start the TUI"
mkdir -p "$WORK/home" "$WORK/config" "$WORK/state"
tmux -L "$SOCK" -f /dev/null new-session -d -s e2e -x "$WIDTH" -y "$HEIGHT" \
	env -i PATH="$PATH" TERM=xterm-256color HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/config" \
	XDG_STATE_HOME="$WORK/state" SKYSQL_API_KEY="$KEY" \
	"$BIN" --api-url "http://127.0.0.1:$PORT" --profile e2e ||
	fail "tmux could not start"
tmux -L "$SOCK" set-option -t e2e remain-on-exit off >/dev/null 2>&1

STEP="services listed"
wait_for "orders-prod"
wait_for "analytics-gcp"
wait_for "updated"

STEP="header"
header=$(capture | head -n 1)
grep -qF "profile e2e" <<<"$header" || fail "the header does not show the profile: $header"
grep -qF "127.0.0.1:$PORT" <<<"$header" || fail "the header does not show the API host: $header"

STEP="help"
keys "?"
wait_for "Global"
wait_for "new service"
keys Escape
wait_for "Services 8"

STEP="create form"
keys n
wait_for "> North America (us-east-1)"
keys Enter
keys Enter
wait_for "> Enterprise Server Single Node"
keys Enter
keys Enter
wait_for "> Sky-2x8"
keys Enter
keys Enter
wait_for "> 100 GB"
keys Enter
keys Enter
wait_for "5/5: name and access"
typetext "e2e-db"
wait_for "ok: 6 characters"
keys Enter
keys Enter
keys Enter
keys Enter

STEP="review"
wait_for '"name": "e2e-db"'
keys Enter

# the table row of the new service (not the toast naming it)
ROW='^[> ] e2e-db +dbt[a-z0-9]+ '

STEP="pending"
wait_line "$ROW" "pending_create"

STEP="ready"
wait_line "$ROW" " ready"
wait_for "is ready"

STEP="quit"
keys q
deadline=$((SECONDS + TIMEOUT))
while tmux -L "$SOCK" has-session -t e2e 2>/dev/null; do
	[ $SECONDS -lt $deadline ] || fail "q did not quit"
	sleep 0.1
done

echo "e2e: services.sh passed"
