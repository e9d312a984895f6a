package kit

import (
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// fakeTmux answers allow-passthrough with passthrough and records what
// tmux was given.
type fakeTmux struct {
	passthrough string
	args        [][]string
	stdin       []string
}

func (f *fakeTmux) install(t *testing.T) {
	old := tmuxRun
	tmuxRun = func(stdin string, args ...string) (string, error) {
		f.args = append(f.args, args)
		f.stdin = append(f.stdin, stdin)
		if args[0] == "show" {
			return f.passthrough, nil
		}
		return "", nil
	}
	t.Cleanup(func() { tmuxRun = old })
}

// run runs a copy's command and returns the raw sequences it sends and
// the toast it shows.
func run(cmd tea.Cmd) (raw []string, toast ToastMsg) {
	var walk func(msg tea.Msg)
	walk = func(msg tea.Msg) {
		switch m := msg.(type) {
		case tea.RawMsg:
			raw = append(raw, m.Msg.(string))
			return
		case ToastMsg:
			toast = m
			return
		}
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			for i := 0; i < v.Len(); i++ {
				if c, _ := v.Index(i).Interface().(tea.Cmd); c != nil {
					walk(c())
				}
			}
		}
	}
	walk(cmd())
	return raw, toast
}

func tmuxCommon() *Common {
	return &Common{Getenv: func(k string) string {
		if k == "TMUX" {
			return "/tmp/tmux-0/default,1,0"
		}
		return ""
	}}
}

// TestCopyInTmuxWithPassthroughOff: tmux's default (3.3 and later) drops
// OSC 52; the copy does not claim the clipboard, puts the text in tmux's
// paste buffer (on stdin, never in argv) and says how to turn the
// passthrough on.
func TestCopyInTmuxWithPassthroughOff(t *testing.T) {
	f := &fakeTmux{passthrough: "off"}
	f.install(t)
	raw, toast := run(Copy(tmuxCommon(), "password of orders-prod", "s3cr3t-pw"))
	if len(raw) != 0 {
		t.Errorf("OSC 52 sent though tmux drops it: %q", raw)
	}
	if toast.Level == ToastSuccess || strings.Contains(toast.Text, "copied to the clipboard") ||
		!strings.Contains(toast.Text, "tmux's paste buffer") || !strings.Contains(toast.Text, TmuxPassthroughFix) {
		t.Errorf("toast %+v", toast)
	}
	for _, a := range f.args {
		if strings.Contains(strings.Join(a, " "), "s3cr3t") {
			t.Errorf("the secret in tmux's argv: %q", a)
		}
	}
	if !reflect.DeepEqual(f.args[1], []string{"load-buffer", "-w", "-"}) || f.stdin[1] != "s3cr3t-pw" {
		t.Errorf("tmux was run as %q with %q on stdin", f.args, f.stdin)
	}
}

// TestCopyInTmuxWithPassthroughOn: OSC 52 goes through tmux's passthrough
// and the toast says the clipboard has it; the text (a password, say) is
// not left in tmux's paste buffers, where choose-buffer shows it.
func TestCopyInTmuxWithPassthroughOn(t *testing.T) {
	f := &fakeTmux{passthrough: "on"}
	f.install(t)
	raw, toast := run(Copy(tmuxCommon(), "backup key", "abc"))
	for _, a := range f.args {
		if len(a) > 0 && a[0] == "load-buffer" {
			t.Errorf("the text was loaded into tmux's buffer: %q", f.args)
		}
	}
	if len(raw) != 1 || !strings.HasPrefix(raw[0], "\x1bPtmux;") {
		t.Errorf("raw %q", raw)
	}
	if toast.Level != ToastSuccess || !strings.Contains(toast.Text, "copied to the clipboard (OSC 52 via tmux passthrough") {
		t.Errorf("toast %+v", toast)
	}
}

// TestCopyOutsideTmuxAsksNoTmux: without TMUX nothing runs tmux.
func TestCopyOutsideTmuxAsksNoTmux(t *testing.T) {
	f := &fakeTmux{}
	f.install(t)
	raw, toast := run(Copy(&Common{}, "backup key", "abc"))
	if len(f.args) != 0 || len(raw) != 1 || toast.Level != ToastSuccess {
		t.Errorf("tmux %q raw %q toast %+v", f.args, raw, toast)
	}
}

// TestCopyInTmuxToTheNativeClipboard: with the passthrough off but a
// display's clipboard at hand, the text goes there and not into tmux's
// paste buffers.
func TestCopyInTmuxToTheNativeClipboard(t *testing.T) {
	f := &fakeTmux{passthrough: "off"}
	f.install(t)
	var native string
	old := nativeCopy
	nativeCopy = func(s string) error { native = s; return nil }
	t.Cleanup(func() { nativeCopy = old })
	c := &Common{Getenv: func(k string) string {
		return map[string]string{"TMUX": "/tmp/tmux-0/default,1,0", "DISPLAY": ":0"}[k]
	}}
	_, toast := run(Copy(c, "password of orders-prod", "s3cr3t-pw"))
	for _, a := range f.args {
		if len(a) > 0 && a[0] == "load-buffer" {
			t.Errorf("the text was loaded into tmux's buffer: %q", f.args)
		}
	}
	if native != "s3cr3t-pw" || toast.Level != ToastSuccess || !strings.Contains(toast.Text, "system clipboard") {
		t.Errorf("native %q, toast %+v", native, toast)
	}
}
