package kit

import (
	"context"
	"os/exec"
	"strings"
	"time"
)

// Inside tmux (TMUX set: the application runs on the machine and as the
// user tmux runs as), OSC 52 reaches the terminal only through tmux's
// passthrough, which tmux 3.3 and later turn off by default
// (allow-passthrough off): the sequence is then dropped without a word.
// So a copy asks tmux first, in the copy's command; only when neither OSC
// 52 nor the native clipboard can take the text does it go into tmux's own
// paste buffer (load-buffer -w also hands it to the terminal's clipboard
// when tmux's set-clipboard allows), where choose-buffer would show it.

// tmuxRun runs tmux with args, stdin on its standard input (never in
// argv: the text may be a password), and returns its standard output.
// Replaced in tests.
var tmuxRun = func(stdin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "tmux", args...)
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

// TmuxPassthroughFix is the command that lets OSC 52 through tmux.
const TmuxPassthroughFix = "tmux set -g allow-passthrough on"

// tmuxPassthrough reports whether OSC 52 gets through tmux: false when
// tmux says allow-passthrough is off; true when the option is unknown, as
// in tmux before 3.3, where passthrough always worked. It does I/O: it
// runs in a command.
func tmuxPassthrough() bool {
	v, err := tmuxRun("", "show", "-gv", "allow-passthrough")
	return err != nil || (v != "off" && v != "")
}

// tmuxLoadBuffer puts text into tmux's paste buffer (on stdin), reporting
// whether it did. It does I/O: it runs in a command.
func tmuxLoadBuffer(text string) bool {
	if _, err := tmuxRun(text, "load-buffer", "-w", "-"); err == nil {
		return true
	}
	_, err := tmuxRun(text, "load-buffer", "-") // tmux before 3.2 has no -w
	return err == nil
}
