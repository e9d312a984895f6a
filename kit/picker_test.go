package kit

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
)

// numberedPicker is a service picker over n services (svc-01…) sized w×h, the
// dialog area the root gives it.
func numberedPicker(n, w, h int) *Picker {
	var svcs []api.Service
	for i := 1; i <= n; i++ {
		svcs = append(svcs, api.Service{ID: fmt.Sprintf("dbtaf%08d", i), Name: fmt.Sprintf("svc-%02d", i), Status: "ready"})
	}
	p := NewPicker(common(), "Backups of which service?", "backups", svcs)
	p.SetSize(w, h)
	return p
}

// boxLines are the lines inside a picker's box, without its border.
func boxLines(p *Picker) []string {
	lines := strings.Split(ansi.Strip(p.View()), "\n")
	out := make([]string, 0, len(lines))
	for _, l := range lines[1 : len(lines)-1] {
		out = append(out, strings.TrimSpace(strings.Trim(strings.TrimSpace(l), "|")))
	}
	return out
}

// TestPickerSaysWhatIsCut: at 60x16 (the root's dialog area 56x10) a
// picker of 9 services fills its area, keeps no blank line inside, and
// says how many services are below and above the rows shown, filtering
// or not.
func TestPickerSaysWhatIsCut(t *testing.T) {
	p := numberedPicker(9, 56, 10)
	view := ansi.Strip(p.View())
	if n := strings.Count(view, "\n") + 1; n > 10 {
		t.Fatalf("%d lines, the area has 10:\n%s", n, view)
	}
	inside := boxLines(p)
	for i, l := range inside {
		if l == "" {
			t.Fatalf("a blank line (%d) inside a cut picker:\n%s", i, view)
		}
	}
	shown := strings.Count(view, "svc-")
	if shown < 4 {
		t.Fatalf("%d services shown in 10 lines:\n%s", shown, view)
	}
	if want := fmt.Sprintf("down: %d more services", 9-shown); !strings.Contains(view, want) {
		t.Fatalf("no %q:\n%s", want, view)
	}
	p.Update(tea.KeyPressMsg{Code: tea.KeyEnd})
	if view = ansi.Strip(p.View()); !strings.Contains(view, fmt.Sprintf("up: %d services above", 9-shown)) || strings.Contains(view, "more services") {
		t.Fatalf("at the end, no count above:\n%s", view)
	}
	// a click still lands on the row under it (the row's line in the box)
	for i, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "svc-07") {
			p.Update(tea.MouseClickMsg{Y: i})
		}
	}
	if r, _ := p.table.Selected(); r.ID != "dbtaf00000007" {
		t.Fatalf("a click on svc-07 selected %q", r.ID)
	}
	// typing a name: the filter's line takes a row, the count follows
	p.Update(tea.KeyPressMsg{Code: tea.KeyHome})
	for _, k := range "svc" {
		p.Update(tea.KeyPressMsg{Code: k, Text: string(k)})
	}
	view = ansi.Strip(p.View())
	shown = strings.Count(view, "svc-")
	if want := fmt.Sprintf("down: %d more services", 9-shown); !strings.Contains(view, want) || !strings.Contains(view, "/svc") {
		t.Fatalf("filtering: no %q:\n%s", want, view)
	}

	// every row shows: no count, the blank lines that set it apart stay
	p = numberedPicker(3, 56, 10)
	view = ansi.Strip(p.View())
	if strings.Contains(view, "more") || strings.Count(view, "svc-") != 3 {
		t.Fatalf("3 services in 10 lines:\n%s", view)
	}
}
