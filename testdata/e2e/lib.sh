# shellcheck shell=bash
# Shared helpers of the end-to-end scripts: they drive the BUILT binary in
# tmux against `skytui sandbox` and assert on `tmux capture-pane -p`.
#
# Source it, then call e2e_init (or e2e_start). Variables it reads:
#   SKYTUI_BIN   the binary (default bin/skytui)
#   E2E_WIDTH, E2E_HEIGHT   terminal size (default 80x24)
#   E2E_TIMEOUT  seconds per wait (default 30: generous for a loaded machine)
#   E2E_WORK     a directory to work in, kept afterwards (a test scans it);
#                default: a temporary directory removed on exit
#
# In the work directory: captures.txt (every screen a step waited for, in
# order), sandbox.log, cmdlines.txt (argv of every skytui process seen).

BIN=${SKYTUI_BIN:-bin/skytui}
WIDTH=${E2E_WIDTH:-80}
HEIGHT=${E2E_HEIGHT:-24}
TIMEOUT=${E2E_TIMEOUT:-30}
SOCK="skytui-e2e-$$-$RANDOM"
PANE=e2e # the tmux session the helpers look at and type into
STEP="start"
SB_PID=""
PORT=""

e2e_init() {
	command -v tmux >/dev/null || { echo "e2e: tmux is not installed" >&2; exit 2; }
	[ -x "$BIN" ] || { echo "e2e: no executable at $BIN (build it first: make build)" >&2; exit 2; }
	BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
	if [ -n "${E2E_WORK:-}" ]; then
		WORK=$E2E_WORK
		KEEP_WORK=1
		mkdir -p "$WORK"
	else
		WORK=$(mktemp -d)
		KEEP_WORK=0
	fi
	CAPTURES="$WORK/captures.txt"
	SB_LOG="$WORK/sandbox.log"
	CMDLINES="$WORK/cmdlines.txt"
	: >"$CAPTURES"
	: >"$CMDLINES"
	# no user or system tmux configuration; a terminal type every host knows;
	# OSC 52 let through, as the README tells users (tmux before 3.3 has no
	# such option: -q)
	printf 'set -g default-terminal xterm-256color\nset -sg escape-time 0\nset -g status off\nset -gq allow-passthrough on\n' >"$WORK/tmux.conf"
	trap e2e_cleanup EXIT
	trap 'exit 1' INT TERM HUP
}

# e2e_home: HOME and the XDG config and state directories inside the work
# directory (so nothing of the user's is read or written), exported for
# every program started afterwards, tmux's server included.
e2e_home() {
	export HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/config" XDG_STATE_HOME="$WORK/state"
	unset SKYTUI_CONFIG XDG_RUNTIME_DIR DBUS_SESSION_BUS_ADDRESS TMUX TMUX_PANE
	mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME"
}

# tmux_forget SOCK: stop the tmux server of socket name SOCK and remove its
# socket file (kill-server leaves it in tmux's directory).
tmux_forget() {
	tmux -L "$1" kill-server >/dev/null 2>&1
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$1"
}

e2e_cleanup() {
	tmux_forget "$SOCK"
	# a script's own clean-up (e.g. secrets it stored), when it defines one
	if declare -F e2e_on_exit >/dev/null; then e2e_on_exit; fi
	if [ -n "$SB_PID" ]; then
		kill "$SB_PID" >/dev/null 2>&1 && wait "$SB_PID" 2>/dev/null
	fi
	[ "$KEEP_WORK" = 1 ] || rm -rf "$WORK"
}

tm() { tmux -L "$SOCK" -f "$WORK/tmux.conf" "$@"; }

capture() { tm capture-pane -p -t "${1:-$PANE}" 2>/dev/null; }

# record HEADER: append the current screen (without its trailing blank
# lines) to the captures file.
record() {
	{
		echo "==== [$STEP] $1"
		capture | awk 'NF { while (blank-- > 0) print ""; blank = 0; print; next } { blank++ }'
	} >>"$CAPTURES"
}

fail() {
	echo "e2e FAILED at step '$STEP' (${WIDTH}x${HEIGHT}): $*" >&2
	record "FAILED: $*"
	if [ "$KEEP_WORK" != 1 ]; then # nobody will read the files: print them
		echo "---- screen captures (oldest first) ----" >&2
		cat "$CAPTURES" >&2
		echo "---- sandbox log ----" >&2
		cat "$SB_LOG" >&2 2>/dev/null
	fi
	exit 1
}

# screen_has TEXT: whether the screen shows TEXT now (no wait).
screen_has() { capture | grep -qF -- "$1"; }

# screen_matches REGEX: whether a line of the screen matches REGEX
# (extended) now.
screen_matches() { capture | grep -qE -- "$1"; }

# line_has REGEX TEXT: whether a line of the screen matching REGEX
# (extended) also contains TEXT now.
line_has() { capture | grep -E -- "$1" | grep -qF -- "$2"; }

# wait_until SEEN MISSED CHECK...: until the command CHECK... succeeds,
# then record SEEN; fail with MISSED after TIMEOUT seconds.
wait_until() {
	local seen=$1 missed=$2 deadline=$((SECONDS + TIMEOUT))
	shift 2
	while [ $SECONDS -lt $deadline ]; do
		if "$@"; then
			record "$seen"
			return 0
		fi
		sleep 0.1
	done
	fail "$missed within ${TIMEOUT}s"
}

# wait_for TEXT: until the screen shows TEXT (fixed string).
wait_for() { wait_until "saw '$1'" "the screen never showed '$1'" screen_has "$1"; }

# wait_re REGEX: until a line of the screen matches REGEX (extended).
wait_re() { wait_until "matched /$1/" "no line of the screen matched /$1/" screen_matches "$1"; }

# wait_gone TEXT: until the screen no longer shows TEXT.
wait_gone() {
	local deadline=$((SECONDS + TIMEOUT))
	while screen_has "$1"; do
		[ $SECONDS -lt $deadline ] || fail "the screen still shows '$1' after ${TIMEOUT}s"
		sleep 0.1
	done
	record "'$1' gone"
}

# wait_line REGEX TEXT: until a line matching REGEX (extended) also
# contains TEXT.
wait_line() { wait_until "'$1' line shows '$2'" "no line with '$1' showed '$2'" line_has "$1" "$2"; }

# header_shows TEXT...: the header (the screen's first line) shows each
# TEXT now.
header_shows() {
	local header text
	header=$(capture | head -n 1)
	for text in "$@"; do
		grep -qF -- "$text" <<<"$header" || fail "the header does not show '$text': $header"
	done
}

keys() { tm send-keys -t "$PANE" "$@"; }
typetext() { tm send-keys -t "$PANE" -l -- "$1"; }

# mouse BUTTON TEXT: a mouse event on the middle of TEXT where the screen
# last shows it, typed into the pane as a terminal sends it (SGR, 1-based
# cells): BUTTON 0 is a left click (press and release), 64 and 65 the
# wheel up and down.
mouse() {
	local pos x y
	pos=$(capture | awk -v t="$2" '{ i = index($0, t); if (i) { x = i + int(length(t) / 2); y = NR } } END { if (y) print x, y }')
	[ -n "$pos" ] || fail "mouse: '$2' is not on the screen"
	read -r x y <<<"$pos"
	if [ "$1" = 0 ]; then
		tm send-keys -t "$PANE" -l -- "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$x" "$y" "$x" "$y")"
	else
		tm send-keys -t "$PANE" -l -- "$(printf '\033[<%d;%d;%dM' "$1" "$x" "$y")"
	fi
}
click() { mouse 0 "$1"; }

# command LINE: run a ":" command line.
command_line() {
	keys :
	wait_for "tab complete"
	typetext "$1"
	keys Enter
}

# e2e_start ARGS...: the start of a script against the sandbox: e2e_init,
# e2e_home, a made-up key in SKYSQL_API_KEY, and start_sandbox ARGS (it
# accepts the key in SKYSQL_API_KEY).
e2e_start() {
	e2e_init
	e2e_home
	export SKYSQL_API_KEY="e2e.$$.$RANDOM"
	STEP="sandbox"
	start_sandbox "$@"
}

# add_profile NAME: a profile NAME at the sandbox's URL in the config file
# (a new profile's defaults: the interface document's prefixes); skytui
# takes only the profiles the file holds (and the skysql preset).
add_profile() {
	mkdir -p "$XDG_CONFIG_HOME/skytui"
	printf '[[profile]]\nname = "%s"\nbase_url = "%s"\n' "$1" "$URL" >>"$XDG_CONFIG_HOME/skytui/config.toml"
	chmod 600 "$XDG_CONFIG_HOME/skytui/config.toml"
}

# start_tui ARGS...: the TUI (`skytui ARGS`) in the tmux session e2e.
start_tui() {
	STEP="start the TUI"
	tm new-session -d -s e2e -x "$WIDTH" -y "$HEIGHT" "$BIN" "$@" || fail "tmux could not start"
}

# start_sandbox ARGS...: `skytui sandbox` on a free loopback port (time
# scale 600: a 5-minute launch takes half a second); sets PORT and URL.
start_sandbox() {
	local try
	for try in 1 2 3 4 5; do
		PORT=$((20000 + (RANDOM % 20000)))
		"$BIN" sandbox --listen "127.0.0.1:$PORT" --time-scale 600 "$@" >"$SB_LOG" 2>&1 &
		SB_PID=$!
		local deadline=$((SECONDS + TIMEOUT))
		while ! grep -q "sandbox listening" "$SB_LOG" 2>/dev/null; do
			if ! kill -0 "$SB_PID" 2>/dev/null; then
				wait "$SB_PID" 2>/dev/null
				SB_PID=""
				break # the port was taken: try another
			fi
			[ $SECONDS -lt $deadline ] || fail "the sandbox did not start"
			sleep 0.1
		done
		if [ -n "$SB_PID" ]; then
			URL="http://127.0.0.1:$PORT"
			return 0
		fi
	done
	cat "$SB_LOG" >&2
	fail "the sandbox could not listen on a free port"
}

# snapshot_procs LABEL: append the argv of every running process of the
# binary under test (from /proc/PID/cmdline) to cmdlines.txt.
snapshot_procs() {
	local p exe
	for p in /proc/[0-9]*; do
		exe=$(readlink "$p/exe" 2>/dev/null) || continue
		[ "$exe" = "$BIN" ] || continue
		printf '%s pid %s: %s\n' "$1" "${p#/proc/}" "$(tr '\0' ' ' <"$p/cmdline" 2>/dev/null)" >>"$CMDLINES"
	done
}

# wait_exit SESSION: until the tmux session is gone (its program quit).
wait_exit() {
	local deadline=$((SECONDS + TIMEOUT))
	while tm has-session -t "$1" 2>/dev/null; do
		[ $SECONDS -lt $deadline ] || fail "session $1 did not end"
		sleep 0.1
	done
}

# answer_passphrases SESSION: type $E2E_PASSPHRASE at each passphrase
# prompt of the encrypted-file backend (on the terminal, never a pipe)
# that SESSION shows and has not been answered yet. Prints nothing.
answer_passphrases() {
	[ -n "${PASSPHRASE:-}" ] || return 0
	local n
	n=$(capture "$1" | grep -cE '(New passphrase|Repeat the passphrase|Passphrase for .*): *$')
	while [ "${ANSWERED[$1]:-0}" -lt "$n" ]; do
		tm send-keys -t "$1" -l -- "$PASSPHRASE"
		tm send-keys -t "$1" Enter
		ANSWERED[$1]=$((${ANSWERED[$1]:-0} + 1))
		sleep 0.2 # the next prompt comes after the first answer
	done
}
declare -A ANSWERED

# run_cli INPUT ARGS...: run `skytui ARGS` in its own tmux session with the
# line INPUT on standard input through a FIFO (so a secret is in no argv
# and on no disk), answer passphrase prompts, wait for it to end and fail
# unless it exits 0. The last line it printed is in CLI_OUT.
CLI_N=0
run_cli() {
	local input=$1
	shift
	CLI_N=$((CLI_N + 1))
	local s="cli$CLI_N" fifo="$WORK/stdin.$CLI_N"
	rm -f "$fifo"
	mkfifo -m 600 "$fifo" || fail "mkfifo"
	printf '%s\n' "$input" >"$fifo" & # printf is a builtin: no argv
	local feeder=$!
	printf 'cli %s argv: %s %s\n' "$s" "$BIN" "$*" >>"$CMDLINES"
	# shellcheck disable=SC2016
	tm new-session -d -s "$s" -x 160 -y 12 bash -c '"$@" <"$0"; echo "e2e-exit=$?"; exec sleep 600' "$fifo" "$BIN" "$@" ||
		fail "tmux could not start skytui $*"
	snapshot_procs "$s"
	local deadline=$((SECONDS + TIMEOUT)) screen
	while :; do
		screen=$(capture "$s")
		grep -q "e2e-exit=" <<<"$screen" && break
		[ $SECONDS -lt $deadline ] || { PANE=$s; fail "skytui $* did not finish within ${TIMEOUT}s"; }
		answer_passphrases "$s"
		sleep 0.1
	done
	local save=$PANE
	PANE=$s
	record "skytui $*"
	kill "$feeder" 2>/dev/null
	wait "$feeder" 2>/dev/null
	rm -f "$fifo"
	grep -q "e2e-exit=0" <<<"$screen" || fail "skytui $* failed"
	CLI_OUT=$(grep -v '^$' <<<"$screen" | grep -v "e2e-exit=" | tail -n 1)
	tm kill-session -t "$s"
	PANE=$save
}

# fill_create_form NAME: open the create-service form on the Services screen
# and go through it with the default choices and NAME, up to the review.
fill_create_form() {
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
	typetext "$1"
	wait_for "ok: ${#1} characters"
	keys Enter
	keys Enter
	keys Enter
	keys Enter
}
