#!/usr/bin/env bash
# Idle cost of a settled Services screen: bytes written to the terminal and
# CPU used over a period (default 60 s), measured on the BUILT binary in
# tmux against `skytui sandbox`. Prints figures; it asserts nothing.
#
#   SKYTUI_BIN=bin/skytui testdata/e2e/idle.sh [seconds]
set -u

BIN=${SKYTUI_BIN:-bin/skytui}
SECS=${1:-60}
KEY="idle.$$.$RANDOM"
PORT=${E2E_PORT:-$((20000 + (RANDOM % 20000)))}
SOCK="skytui-idle-$$"
WORK=$(mktemp -d)
SB_PID=""

command -v tmux >/dev/null || { echo "idle: tmux is not installed" >&2; exit 2; }
[ -x "$BIN" ] || { echo "idle: no executable at $BIN" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")

cleanup() {
	tmux -L "$SOCK" kill-server >/dev/null 2>&1
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"
	[ -n "$SB_PID" ] && kill "$SB_PID" >/dev/null 2>&1 && wait "$SB_PID" 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT

# time-scale 600: every demo launch and restore settles within seconds
"$BIN" sandbox --listen "127.0.0.1:$PORT" --api-key "$KEY" --time-scale 600 >"$WORK/sandbox.log" 2>&1 &
SB_PID=$!
for _ in $(seq 100); do grep -q "sandbox listening" "$WORK/sandbox.log" 2>/dev/null && break; sleep 0.1; done

mkdir -p "$WORK/home" "$WORK/config/skytui"
printf '[[profile]]\nname = "idle"\nbase_url = "http://127.0.0.1:%s"\n' "$PORT" >"$WORK/config/skytui/config.toml"
chmod 600 "$WORK/config/skytui/config.toml"
tmux -L "$SOCK" -f /dev/null new-session -d -s idle -x 120 -y 40 \
	env -i PATH="$PATH" TERM=xterm-256color HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/config" \
	SKYSQL_API_KEY="$KEY" "$BIN" --api-url "http://127.0.0.1:$PORT" --profile idle
for _ in $(seq 100); do tmux -L "$SOCK" capture-pane -p -t idle | grep -q "updated" && break; sleep 0.1; done
sleep 5 # let everything settle (no service pending: slow polling)
if tmux -L "$SOCK" capture-pane -p -t idle | grep -q "pending"; then
	echo "idle: warning: something is still pending; the fast interval applies" >&2
fi

PID=$(tmux -L "$SOCK" display -p -t idle '#{pane_pid}')
HZ=$(getconf CLK_TCK)
ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
tmux -L "$SOCK" pipe-pane -o -t idle "cat > '$WORK/out.bin'"
t0=$(ticks)
sleep "$SECS"
t1=$(ticks)
tmux -L "$SOCK" pipe-pane -t idle
bytes=$(wc -c <"$WORK/out.bin")
cpu=$(awk -v d=$((t1 - t0)) -v hz="$HZ" -v s="$SECS" 'BEGIN { printf "%.3f", 100 * d / hz / s }')
echo "idle over ${SECS}s (settled Services screen, 120x40): ${bytes} bytes written to the terminal ($((bytes * 60 / SECS)) per minute), CPU ${cpu}% of one core"
