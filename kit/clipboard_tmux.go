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
// So a copy asks tmux first, in the copy's command, and puts the text in
// tmux's own paste buffer too (load-buffer -w also hands it to the
// terminal's clipboard when tmux's set-clipboard allows).

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

// tmuxCopy is what tmux makes of a copy: whether the passthrough is on
// (false when tmux says off; true when the option is unknown, as in tmux
// before 3.3, where passthrough always worked), and whether the text went
// into tmux's paste buffer.
type tmuxCopy struct {
	passthrough, buffer bool
}

// TmuxPassthroughFix is the command that lets OSC 52 through tmux.
const TmuxPassthroughFix = "tmux set -g allow-passthrough on"

// copyInTmux asks tmux for allow-passthrough and, only when it is off,
// loads text into its paste buffer. It does I/O: it runs in a command.
func copyInTmux(text string) tmuxCopy {
	var r tmuxCopy
	v, err := tmuxRun("", "show", "-gv", "allow-passthrough")
	r.passthrough = err != nil || (v != "off" && v != "")
	if r.passthrough {
		// OSC 52 gets through: the text (a password, say) is not left in
		// tmux's buffers, where choose-buffer would show it
		return r
	}
	if _, err := tmuxRun(text, "load-buffer", "-w", "-"); err == nil {
		r.buffer = true
	} else if _, err := tmuxRun(text, "load-buffer", "-"); err == nil { // tmux before 3.2 has no -w
		r.buffer = true
	}
	return r
}
