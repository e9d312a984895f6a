package kit

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// fakePane is a sub-view that records what the list hands it.
type fakePane struct {
	w, h     int
	capture  bool
	received []tea.Msg
}

func (p *fakePane) View() string       { return "pane" }
func (p *fakePane) KeyMap() Keys       { return Keys{} }
func (p *fakePane) CapturesKeys() bool { return p.capture }
func (p *fakePane) SetSize(w, h int)   { p.w, p.h = w, h }
func (p *fakePane) Update(msg tea.Msg) tea.Cmd {
	p.received = append(p.received, msg)
	return nil
}

// viewOnly is a pane that takes no messages.
type viewOnly struct{ fakePane }

func (viewOnly) Update() {} // not a PaneUpdater's Update

// A list screen's open pane is sized with the list, answers whether keys
// are captured, and gets the messages that are not the screen's; closed,
// the list's filter does.
func TestListViewHostsTheOpenPane(t *testing.T) {
	l := NewListView(common(), "Things", "things", cols())
	var open Pane
	l.PaneOf = func() Pane { return open }
	l.SetSize(80, 24)

	p := &fakePane{capture: true}
	open = p
	l.SetSize(70, 20)
	if p.w != 70 || p.h != 20 {
		t.Fatalf("open pane sized %dx%d on a resize, want 70x20", p.w, p.h)
	}
	if !l.CapturesKeys() {
		t.Fatal("a pane that captures keys (a form) does not make the screen capture them")
	}
	paste := tea.PasteMsg{Content: "orders-prod"}
	l.Update(paste)
	if len(p.received) != 1 || p.received[0] != paste {
		t.Fatalf("the open pane got %v, want the paste", p.received)
	}
	if l.Table.Filter() != "" {
		t.Fatal("a message for the open pane reached the list's filter")
	}

	// a pane that takes no messages: they go nowhere, not to the list
	slash := tea.KeyPressMsg{Code: '/', Text: "/"}
	open = nil
	l.HandleKey(slash)
	open = &viewOnly{}
	l.Update(paste)
	if l.Table.Filter() != "" {
		t.Fatalf("a paste behind a view-only pane reached the filter: %q", l.Table.Filter())
	}

	// closed: the list again, and a paste into its filter filters at once
	open = nil
	l.SetRows([]Row{{ID: "a", Cells: []string{"orders-prod"}}, {ID: "b", Cells: []string{"billing"}}})
	l.Update(paste)
	if l.Table.Filter() != "orders-prod" || l.Table.Len() != 1 {
		t.Fatalf("a name pasted into the filter: filter %q, %d rows shown; want it and 1 row", l.Table.Filter(), l.Table.Len())
	}
	p.w = 0
	l.SetSize(60, 16)
	if p.w != 0 {
		t.Fatal("a closed pane was sized")
	}
	if !l.CapturesKeys() {
		t.Fatal("with no pane open, the filter being typed does not capture keys")
	}
}

// On a read-only profile the footer shows only keys that work; "?" still
// lists the others, marked refused.
func TestReadOnlyHelpHidesChanges(t *testing.T) {
	c := common()
	l := NewListView(c, "Things", "things", cols())
	create, copyKey := Bind("n", "new thing"), Bind("y", "copy key")
	l.Changes = []key.Binding{create}
	help := func() (short, full []string) {
		k := l.KeyMap([]key.Binding{l.Keys.Detail, create, copyKey}, create, copyKey)
		for _, b := range k.ShortHelp() {
			short = append(short, b.Help().Key+" "+b.Help().Desc)
		}
		for _, col := range k.FullHelp() {
			for _, b := range col {
				full = append(full, b.Help().Key+" "+b.Help().Desc)
			}
		}
		return short, full
	}
	short, full := help()
	if !slices.Contains(short, "n new thing") || !slices.Contains(full, "n new thing") {
		t.Fatalf("a writable profile's help lacks the change key: footer %v, help %v", short, full)
	}
	c.ReadOnly = true
	short, full = help()
	if slices.Contains(short, "n new thing") || !slices.Contains(short, "y copy key") {
		t.Fatalf("read-only footer %v: want n gone, y kept", short)
	}
	if !slices.Contains(full, "n new thing (read-only)") || !slices.Contains(full, "y copy key") {
		t.Fatalf("read-only help %v: want n marked refused, y as it is", full)
	}
}

// An empty list invites its key only where the key works.
func TestInviteOnlyWhereTheKeyWorks(t *testing.T) {
	c := common()
	if got := Invite(c, "no services yet", "press n to create one"); got != "no services yet: press n to create one" {
		t.Fatalf("writable: %q", got)
	}
	c.ReadOnly = true
	if got := Invite(c, "no services yet", "press n to create one"); got != "no services yet (read-only profile)" {
		t.Fatalf("read-only: %q", got)
	}
	c.ReadOnlyFlag = true // the profile may be writable: the flag is why
	if got := Invite(c, "no services yet", "press n to create one"); got != "no services yet (read-only: --read-only)" {
		t.Fatalf("--read-only: %q", got)
	}
}

// With no row selected (an empty list, a filter matching nothing) the
// footer drops enter and the keys that act on a row; "?" keeps them.
func TestFooterDropsRowKeysWithoutARow(t *testing.T) {
	l := NewListView(common(), "Things", "things", cols())
	l.SetSize(80, 24)
	create, copyKey := Bind("n", "new thing"), Bind("y", "copy key")
	l.OnRow = []key.Binding{copyKey}
	footer := func() (short, full string) {
		k := l.KeyMap([]key.Binding{l.Keys.Detail, create, copyKey}, create, copyKey)
		for _, b := range k.ShortHelp() {
			short += b.Help().Key + " " + b.Help().Desc + "  "
		}
		for _, col := range k.FullHelp() {
			for _, b := range col {
				full += b.Help().Key + " " + b.Help().Desc + "  "
			}
		}
		return short, full
	}
	if short, full := footer(); strings.Contains(short, "enter") || strings.Contains(short, "y copy key") || !strings.Contains(short, "n new thing") || !strings.Contains(full, "y copy key") {
		t.Fatalf("empty list: footer %q, help %q", short, full)
	}
	l.SetRows([]Row{{ID: "a", Cells: []string{"apple"}}})
	if short, _ := footer(); !strings.Contains(short, "enter details") || !strings.Contains(short, "y copy key") {
		t.Fatalf("a row selected: footer %q", short)
	}
}
