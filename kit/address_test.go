package kit

import (
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"
)

type pingMsg struct{ n int }

func TestAddressRoutesAnswersToTheComponentThatAsked(t *testing.T) {
	ping := func(n int) tea.Cmd { return func() tea.Msg { return pingMsg{n} } }

	got := Address("backups", ping(1))()
	if a, ok := got.(Addressed); !ok || a.To != "backups" || a.Msg != (pingMsg{1}) {
		t.Fatalf("a plain answer = %#v, want it addressed to backups", got)
	}
	// already addressed (a screen's component passed on another's answer): kept
	if again := Address("services", func() tea.Msg { return got })(); again.(Addressed).To != "backups" {
		t.Fatalf("re-addressed to %q", again.(Addressed).To)
	}
	// a batch is opened and each command addressed
	batch, ok := Address("restores", tea.Batch(ping(2), ping(3)))().(tea.BatchMsg)
	if !ok || len(batch) != 2 {
		t.Fatalf("batch = %#v", batch)
	}
	for i, c := range batch {
		if a, ok := c().(Addressed); !ok || a.To != "restores" || a.Msg != (pingMsg{i + 2}) {
			t.Fatalf("batch[%d] = %#v", i, c())
		}
	}
	// a sequence too (its message type is Bubble Tea's own and unexported)
	seq := Address("restores", tea.Sequence(ping(4), ping(5)))()
	if _, plain := seq.(Addressed); plain {
		t.Fatal("a sequence was wrapped whole: the runtime would not run it")
	}
	if first := reflect.ValueOf(seq).Index(0).Interface().(tea.Cmd)(); first != (Addressed{To: "restores", Msg: pingMsg{4}}) {
		t.Fatalf("sequence[0] = %#v", first)
	}
	// the runtime's own messages pass as they are
	if q := Address("services", tea.Quit)(); q != (tea.QuitMsg{}) {
		t.Fatalf("quit = %#v, want tea.QuitMsg", q)
	}
	if Address("services", nil) != nil {
		t.Fatal("a nil command became a command")
	}
}
