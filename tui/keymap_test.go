package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// activeBindings are the bindings a key press can reach in the model's
// current state, in the order routing.go tries them: the help overlay's
// alone; the command line's; else the global keys the root acts on
// (unless a field has focus), then the visible screen's current key map
// (the list keys ListView embeds included). ctrl+c and ctrl+z work
// everywhere. Dialogs are the kit's (kit.TestDialogKeysOneMeaning).
func (m *Model) activeBindings() []key.Binding {
	g := m.keys
	always := []key.Binding{g.Suspend, key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp(g.Quit.Help().Key, g.Quit.Help().Desc))}
	switch {
	case m.showHelp:
		h := g.HelpView
		return append(always, h.Close, h.Down, h.Up, h.PageDown, h.PageUp, h.Top, h.Bottom)
	case m.cmdline.active:
		return append(always, m.cmdline.keys.list()...)
	}
	out := always
	if !m.screen().CapturesKeys() {
		// Back is not the root's: it names the screens' esc
		out = append(out, g.Screen1, g.Screen2, g.Screen3, g.Screen4, g.Screen5, g.Next, g.Prev,
			g.Help, g.Command, g.Refresh, g.Log, g.Dismiss, g.Quit)
	}
	for _, col := range m.screen().KeyMap().FullHelp() {
		out = append(out, col...)
	}
	return out
}

// TestOneKeyOneMeaning walks every screen through its modes (lists,
// details, filters, forms, wizards, sub-views, help, the command line)
// and fails on any key that, in one of them, is bound to two bindings:
// the user would get one of them and the help would promise both.
func TestOneKeyOneMeaning(t *testing.T) {
	walks := []struct {
		name string
		keys []string
	}{
		{"services list", nil},
		{"services detail", []string{"enter"}},
		{"services filter", []string{"/"}},
		{"services create", []string{"n"}},
		{"services credentials", []string{"c"}},
		{"services allow list", []string{"a"}},
		{"services allow list add", []string{"a", "n"}},
		{"services scale", []string{"z"}},
		{"services scale nodes", []string{"z", "enter"}},
		{"help", []string{"?"}},
		{"command line", []string{":"}},
		{"backups list", []string{"2"}},
		{"backups detail", []string{"2", "enter"}},
		{"backups filter", []string{"2", "/"}},
		{"backups new", []string{"2", "n"}},
		{"backups schedules", []string{"2", "t"}},
		{"backups schedule edit", []string{"2", "t", "e"}},
		{"restores list", []string{"3"}},
		{"restores detail", []string{"3", "enter"}},
		{"restores wizard", []string{"3", "n"}},
		{"restores wizard step 2", []string{"3", "n", "enter"}},
		{"restores wizard step 3", []string{"3", "n", "enter", "enter"}},
		{"restores migrate", []string{"3", "m"}},
		{"restores migrate step 2", []string{"3", "m", "enter"}},
		{"replication list", []string{"4"}},
		{"replication wizard", []string{"4", "n"}},
		{"replication wizard step 2", []string{"4", "n", "enter"}},
		{"replication managed", []string{"4", "n", "m"}},
		{"replication grant", []string{"4", "g"}},
		{"settings", []string{"5"}},
		{"settings add", []string{"5", "a"}},
		{"settings filter", []string{"5", "/"}},
		{"replication grant of a pair", []string{"4", "j", "g"}},
		{"restores migrate copy", []string{"3", "m", "enter", "enter"}},
	}
	for _, w := range walks {
		t.Run(strings.ReplaceAll(w.name, " ", "_"), func(t *testing.T) {
			// a pair (its grant, its actions) and stored credentials
			store := &replsetup.Store{Path: filepath.Join(t.TempDir(), replsetup.StateFileName)}
			if err := store.Save("demo", replsetup.ProfileState{Pairs: []replsetup.Pair{{
				PrimaryID: "dbtaf33737495", PrimaryName: sandbox.DemoOrders,
				SecondaryID: "dbtaf09859780", SecondaryName: sandbox.DemoReplica}}}, store.NextSeq()); err != nil {
				t.Fatal(err)
			}
			h, _, _ := demoHarness(t, 100, 30, func(o *Options) {
				o.ReplicationStore = store
				o.Secrets = tuitest.Secrets(t, "keys")
			})
			for _, k := range w.keys {
				h.Key(k)
			}
			if len(h.m.dialogs) > 0 {
				return // a dialog's keys are the kit's
			}
			if dups := kit.DuplicateKeys(h.m.activeBindings()...); len(dups) > 0 {
				t.Errorf("%s: keys with two meanings:\n  %s\nfooter: %s", w.name, strings.Join(dups, "\n  "), footer(h.Screen()))
			}
		})
	}
}

// footer is the last line of a frame.
func footer(frame string) string {
	lines := strings.Split(strings.TrimRight(frame, "\n"), "\n")
	return lines[len(lines)-1]
}

// TestSettingsDetailFooterSaysRemove: with a credential's detail open, the
// footer names d (the pane says "d removes it") and the pane's scroll
// keys, at 80x24 and at the smallest size, where the pane's "more lines"
// names the key too.
func TestSettingsDetailFooterSaysRemove(t *testing.T) {
	h, _, _ := demoHarness(t, 80, 24, func(o *Options) { o.Secrets = tuitest.Secrets(t, "keys") })
	h.Keys("5", "enter")
	for _, size := range [][2]int{{80, 24}, {MinWidth, MinHeight}} {
		h.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		f := footer(h.Screen())
		if !strings.Contains(f, "d remove") || !strings.Contains(f, "ctrl+d/ctrl+u scroll") || !strings.Contains(f, "esc close") {
			t.Errorf("%dx%d: the footer should say d removes the entry shown, and how to scroll and close the pane: %q", size[0], size[1], f)
		}
	}
	if !strings.Contains(h.Screen(), "~ ctrl+d: ") {
		t.Errorf("the pane's line saying what is below should name its key:\n%s", h.Screen())
	}
}
