package restoreform

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// pitrAt is the wizard at the point-in-time step, restoring into
// replica-west, orders-prod's window selected, sized w x h.
func pitrAt(t *testing.T, w, h int) (*Wizard, api.PITRWindow) {
	t.Helper()
	e := rtSetup(t, false)
	wz := e.wizard(t, Options{})
	rtPress(wz, "4")
	wz.targets.Select(e.byName["replica-west"].ID)
	rtPress(wz, "enter")
	if wz.StepName() != "point-in-time" {
		t.Fatalf("step %s", wz.StepName())
	}
	res := wz.Resources()
	data, err := res[0].Fetch(context.Background())
	if err != nil || !wz.OnData(kit.DataMsg{Key: res[0].Key, Data: data}) {
		t.Fatal(err)
	}
	orders := e.byName["orders-prod"].ID
	win, ok := api.WindowOf(data.([]api.PITRWindow), orders)
	if !ok {
		t.Fatalf("orders-prod has no window: %v", data)
	}
	wz.pitr.table.Select(orders)
	wz.SetSize(w, h)
	return wz, win
}

// paragraph is the text that starts at the line beginning with first
// (after its indent) and goes on in the lines indented under it, its
// words joined with one space each, as a reader reads it.
func paragraph(t *testing.T, view, first string) string {
	t.Helper()
	lines := strings.Split(view, "\n")
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimLeft(l, " "), first) {
			continue
		}
		parts := []string{words(l)}
		for _, c := range lines[i+1:] {
			if !strings.HasPrefix(c, "   ") || strings.TrimSpace(c) == "" {
				break
			}
			parts = append(parts, words(c))
		}
		return strings.Join(parts, " ")
	}
	t.Fatalf("no line starts with %q:\n%s", first, view)
	return ""
}

// words is s with each run of spaces made one, as paragraph reads lines.
func words(s string) string { return strings.Join(strings.Fields(s), " ") }

// onOneLine asserts each of parts is whole on one line of view.
func onOneLine(t *testing.T, view string, parts ...string) {
	t.Helper()
	for _, p := range parts {
		found := false
		for _, l := range strings.Split(view, "\n") {
			found = found || strings.Contains(l, p)
		}
		if !found {
			t.Fatalf("%q is not whole on one line:\n%s", p, view)
		}
	}
}

// The point-in-time step's accepted forms, the RFC 3339 example among
// them, are wrapped, never cut: whole at 80 columns and readable at 60,
// each example on one line; the step keeps to its height.
func TestPITRMomentFormsWrapWhole(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 20}, {60, 12}} {
		wz, win := pitrAt(t, sz.w, sz.h)
		v := rtView(wz)
		tuitest.CheckFits(t, "the point-in-time step", v, sz.w, sz.h)
		if got, want := paragraph(t, v, "accepted: "), "accepted: "+api.MomentForms; got != want {
			t.Fatalf("at %d columns the accepted forms read\n%q, want\n%q\n%s", sz.w, got, want, v)
		}
		// the line over the table drops the target's ID rather than be cut
		if l := strings.Split(v, "\n")[2]; !strings.HasPrefix(l, " Restore replica-west ") || !strings.HasSuffix(strings.TrimRight(l, " "), "to a moment of (up/down):") {
			t.Fatalf("at %d columns the line over the table is %q", sz.w, l)
		}
		onOneLine(t, v, `"2026-11-23 10:15"`, `"2026-11-23 10:15:30"`, `("2026-11-23T11:15:00+01:00")`, "RFC 3339")
		if got := paragraph(t, v, "window of orders-prod: "); got != "window of orders-prod: "+win.String() {
			t.Fatalf("at %d columns the window reads %q:\n%s", sz.w, got, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "accepted") && strings.HasSuffix(l, wz.common.Theme.Glyphs.Ellipsis) {
				t.Fatalf("the accepted forms are cut:\n%s", v)
			}
		}

		// a moment that is not one yet: the same forms, wrapped the same
		wz.pitr.moment.SetValue("yesterday")
		v = rtView(wz)
		tuitest.CheckFits(t, "a moment not yet read", v, sz.w, sz.h)
		if got, want := paragraph(t, v, "not yet a moment: "), "not yet a moment: "+api.MomentForms; got != want {
			t.Fatalf("at %d columns: %q\n%s", sz.w, got, v)
		}

		// a moment outside the window: both zones and the window, whole
		// and on the step's lines (the window's own line gives way)
		at := win.Start.Add(-24 * time.Hour).UTC().Truncate(time.Minute)
		wz.pitr.moment.SetValue(at.Format("2006-01-02 15:04"))
		v = rtView(wz)
		tuitest.CheckFits(t, "a moment outside the window", v, sz.w, sz.h)
		if got := paragraph(t, v, "= "); got != words("= "+bothZones(at)) {
			t.Fatalf("at %d columns the moment reads %q:\n%s", sz.w, got, v)
		}
		if got := paragraph(t, v, "outside the window: "); got != "outside the window: "+win.String() {
			t.Fatalf("at %d columns: %q\n%s", sz.w, got, v)
		}
		for _, l := range strings.Split(v, "\n") {
			if ansi.StringWidth(l) > sz.w {
				t.Fatalf("a line wider than %d:\n%s", sz.w, v)
			}
		}
	}
}
