package kit

import (
	"testing"

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
