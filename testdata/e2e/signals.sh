#!/usr/bin/env bash
# End-to-end test of signals and ctrl+z: the BUILT binary started from an
# interactive `bash --norc` in tmux (so the pane outlives the program)
# against `skytui sandbox`.
#
#   SKYTUI_BIN=bin/skytui testdata/e2e/signals.sh
#
# For each of SIGHUP, SIGINT, SIGQUIT and SIGTERM (SIGHUP and SIGQUIT sent
# twice in a row, the second during the shutdown): the services are
# listed, the signal is sent to the skytui process, and the shell's prompt
# must come back with the terminal clean: the alternate screen off, the
# cursor visible, echo and icanon on (`stty -a`), no goroutine dump, and
# the exit status 128 + the signal number.
#
# ctrl+z, plain and with --accessible: with the ":" command line open, C-z
# brings the shell's prompt back with the alternate screen off; a command
# typed in the shell runs there; `fg` brings the UI back (services listed,
# the command line still open) without the shell's input in it; then esc,
# q, and the terminal is clean, exit status 0.
#
# On failure it prints the screen captures and the sandbox log (or, with
# E2E_WORK set, leaves them there), and exits 1. See lib.sh for the
# settings.
set -u
# shellcheck source=testdata/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
e2e_start
add_profile e2e

STEP="start the shell"
tm new-session -d -s e2e -x "$WIDTH" -y "$HEIGHT" env -u PROMPT_COMMAND bash --norc --noprofile -i ||
	fail "tmux could not start bash"
# The prompt is "[e2e-sh]$ "; the line typed to set it does not show that.
typetext "PS1='[e2e''-sh]\$ '"
keys Enter
PROMPT_RE='^\[e2e-sh\]\$ ?$'

# tmux_fmt FORMAT: a tmux format of the pane (#{alternate_on}, ...).
tmux_fmt() { tm display-message -p -t "$PANE" "$1"; }

# last_line: the last non-blank line of the screen.
last_line() { capture | awk 'NF { l = $0 } END { print l }'; }

# wait_prompt: until the shell's prompt is the last line of the main screen
# (the alternate screen off).
wait_prompt() {
	local deadline=$((SECONDS + TIMEOUT))
	while [ $SECONDS -lt $deadline ]; do
		if [ "$(tmux_fmt '#{alternate_on}')" = 0 ] && last_line | grep -qE -- "$PROMPT_RE"; then
			record "the shell's prompt is back"
			return 0
		fi
		sleep 0.1
	done
	fail "the shell's prompt did not come back within ${TIMEOUT}s (alternate_on=$(tmux_fmt '#{alternate_on}'))"
}

# skytui_pid: the skytui process started by the pane's shell.
skytui_pid() {
	local shell p exe ppid
	shell=$(tmux_fmt '#{pane_pid}')
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		[ "$exe" = "$BIN" ] || continue
		ppid=$(awk '{ print $4 }' "$p/stat" 2>/dev/null)
		[ "$ppid" = "$shell" ] && { echo "${p#/proc/}"; return 0; }
	done
	return 1
}

# start_skytui ARGS...: clear the screen, run skytui from the shell, wait
# for the services; sets PID.
start_skytui() {
	typetext "clear"
	keys Enter
	wait_prompt
	typetext "$BIN --api-url $URL --profile e2e $*"
	keys Enter
	wait_for "orders-prod"
	wait_for "updated"
	[ "$(tmux_fmt '#{alternate_on}')" = 1 ] || fail "skytui is not on the alternate screen"
	PID=$(skytui_pid) || fail "no skytui process under the pane's shell"
	snapshot_procs "$STEP"
}

# check_clean WANT_STATUS: at the shell's prompt, the terminal is clean and
# the last command exited with WANT_STATUS.
CHECK_N=0
check_clean() {
	local want=$1 out
	CHECK_N=$((CHECK_N + 1))
	out="$WORK/check.$CHECK_N"
	[ "$(tmux_fmt '#{alternate_on}')" = 0 ] || fail "the alternate screen is still on"
	[ "$(tmux_fmt '#{cursor_flag}')" = 1 ] || fail "the cursor is hidden"
	if capture | grep -qE 'goroutine [0-9]+ \[|SIGQUIT: quit'; then
		fail "a goroutine dump is on the screen"
	fi
	# the status first ($? of skytui), then the tty's mode as the shell
	# runs commands in it (what skytui left)
	typetext "echo \$? >$out.status; stty -a >$out.stty; echo done-$CHECK_N >$out.done"
	keys Enter
	local deadline=$((SECONDS + TIMEOUT))
	while [ ! -s "$out.done" ]; do
		[ $SECONDS -lt $deadline ] || fail "the shell did not run the check command"
		sleep 0.1
	done
	record "check $CHECK_N"
	local status
	status=$(cat "$out.status")
	[ "$status" = "$want" ] || fail "exit status $status, want $want"
	local mode
	mode=$(tr ' ;' '\n\n' <"$out.stty" | grep -xE -- '-?(echo|icanon)' | sort | tr '\n' ' ')
	[ "$mode" = "echo icanon " ] || fail "the tty mode is '$mode', want 'echo icanon '"
	wait_prompt
}

# signal_round NAME NUMBER TIMES: end skytui with signal NAME sent TIMES
# times in a row; the exit status must be 128 + NUMBER.
signal_round() {
	local name=$1 num=$2 times=$3 i
	STEP="SIG$name: start"
	start_skytui
	STEP="SIG$name: sent $times time(s)"
	for ((i = 0; i < times; i++)); do
		kill -s "$name" "$PID" 2>/dev/null
	done
	wait_prompt
	STEP="SIG$name: terminal clean"
	check_clean $((128 + num))
}

signal_round HUP 1 2
signal_round INT 2 1
signal_round QUIT 3 2
signal_round TERM 15 1

# suspend_round ARGS...: ctrl+z and fg, skytui started with ARGS.
suspend_round() {
	local mode=${1:-plain}
	STEP="ctrl+z ($mode): start"
	start_skytui "$@"
	keys :
	wait_for "tab complete"
	STEP="ctrl+z ($mode): suspended"
	keys C-z
	wait_prompt
	[ "$(tmux_fmt '#{cursor_flag}')" = 1 ] || fail "the cursor is hidden while suspended"
	screen_has "Stopped" || fail "the shell does not report the job stopped"
	STEP="ctrl+z ($mode): the shell runs a command"
	typetext "echo typed-while-suspended"
	keys Enter
	wait_re '^typed-while-suspended$'
	wait_prompt
	STEP="ctrl+z ($mode): fg"
	typetext "fg"
	keys Enter
	local deadline=$((SECONDS + TIMEOUT))
	until [ "$(tmux_fmt '#{alternate_on}')" = 1 ]; do
		[ $SECONDS -lt $deadline ] || fail "fg did not bring the alternate screen back"
		sleep 0.1
	done
	wait_for "orders-prod"
	wait_for "tab complete"
	sleep 0.5 # time for stray input to show
	if screen_has "typed-while-suspended" || capture | grep -qE '^ *: *fg'; then
		fail "the shell's input landed in the UI"
	fi
	record "the UI is back without the shell's input"
	STEP="ctrl+z ($mode): quit"
	keys Escape
	wait_gone "tab complete" # esc and q apart: together they read as alt+q
	keys q
	wait_prompt
	check_clean 0
}

suspend_round
suspend_round --accessible

echo "e2e: signals.sh passed"
