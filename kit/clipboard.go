package kit

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/atotto/clipboard"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
)

// CopySequence is the escape sequence that sets the system clipboard
// through the terminal (OSC 52), which works over SSH. Inside tmux it is
// wrapped in tmux's DCS passthrough (needs `set -g allow-passthrough on`),
// inside GNU screen in screen's.
func CopySequence(getenv func(string) string, text string) string {
	seq := ansi.SetSystemClipboard(text)
	switch {
	case getenv("TMUX") != "":
		return ansi.TmuxPassthrough(seq)
	case getenv("STY") != "" || strings.HasPrefix(getenv("TERM"), "screen"):
		return ansi.ScreenPassthrough(seq, 0)
	}
	return seq
}

// hasDisplay reports a local graphical session whose clipboard tools
// (xclip, xsel, wl-copy) can be used.
func hasDisplay(getenv func(string) string) bool {
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}

// nativeCopy is replaced in tests.
var nativeCopy = clipboard.WriteAll

// CopyText is what a copy puts on the clipboard: text without escape
// sequences, control characters (but line feeds) or bidirectional controls
// (api.CleanText, line by line). Text from the HTTP API is clean already;
// this also covers what comes from elsewhere, such as a grant read over
// SQL, so a paste can never carry a control sequence.
func CopyText(text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, l := range lines {
		lines[i] = api.CleanText(l)
	}
	return strings.Join(lines, "\n")
}

// Copy copies text to the clipboard: by OSC 52 (tmux-wrapped when
// needed), and also to the native clipboard when a display is present.
// Inside tmux it asks tmux whether the passthrough is on (OSC 52 is sent
// only then); with it off and no native clipboard, the text goes into
// tmux's paste buffer and the toast says so and how to turn the
// passthrough on. The toast
// names what was copied and where; the text itself is never shown. The
// text is cleaned first (CopyText).
func Copy(c *Common, what, text string) tea.Cmd {
	text = CopyText(text)
	getenv := c.Env
	osc := tea.Raw(CopySequence(getenv, text))
	native := hasDisplay(getenv)
	nativeDone := func() string {
		if native && nativeCopy(text) == nil {
			return " and the system clipboard"
		}
		return ""
	}
	if getenv("TMUX") == "" {
		return tea.Sequence(osc, func() tea.Msg {
			return ToastMsg{Level: ToastSuccess, Text: what + " copied to the clipboard (OSC 52" + nativeDone() + ")"}
		})
	}
	return func() tea.Msg {
		if tmuxPassthrough() {
			return tea.Sequence(osc, Send(ToastMsg{Level: ToastSuccess,
				Text: what + " copied to the clipboard (OSC 52 via tmux passthrough" + nativeDone() + ")"}))()
		}
		if also := nativeDone(); also != "" {
			return ToastMsg{Level: ToastSuccess, Text: what + " copied to" + strings.TrimPrefix(also, " and") + " (not by OSC 52: tmux's allow-passthrough is off)"}
		}
		if tmuxLoadBuffer(text) {
			// the fix where a short line still shows it
			return ToastMsg{Level: ToastWarn, Text: what + " is in tmux's paste buffer, not the clipboard (" +
				TmuxPassthroughFix + "; prefix ] pastes the buffer)"}
		}
		return ToastMsg{Level: ToastError, Text: what + " not copied: tmux's allow-passthrough is off (" + TmuxPassthroughFix + ") and tmux load-buffer failed"}
	}
}

// ShellQuote quotes a word for a POSIX shell when it holds anything but
// letters, digits and @%_+=:,./- : a command built from values the API or
// the user gave (a username, a host, a bucket path) and then pasted into a
// shell runs exactly those words, nothing else.
func ShellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%_+=:,./-", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ShellCommand joins words into a command line, each quoted as needed.
func ShellCommand(words ...string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = ShellQuote(w)
	}
	return strings.Join(q, " ")
}
