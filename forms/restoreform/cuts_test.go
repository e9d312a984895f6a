package restoreform

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
	"github.com/skytui/skytui/tui/tuitest"
)

// The wizard's lines at 80 and 60 columns: what a step says is wrapped
// between words, never cut, and its footer keeps the way on.

// noCut fails when a line of view is wider than w or ends in the
// ellipsis a cut leaves.
func noCut(t *testing.T, what, view string, w int) {
	t.Helper()
	ell := tuitest.Common().Theme.Glyphs.Ellipsis
	for _, l := range strings.Split(view, "\n") {
		l = strings.TrimRight(l, " ")
		if ansi.StringWidth(l) > w || strings.HasSuffix(l, ell) {
			t.Errorf("%s at %d columns: a line is cut: %q\n%s", what, w, l, view)
		}
	}
}

// TestBackupsStepLineWhole: restoring a service from its own backups, the
// line over the table says "s restores another service's backup"; at 80
// and 60 columns, where it does not fit after the service's name, ID and
// provider, it has a line of its own (it was cut: "…: s restores another
// service's ba~"), wide it stays on one line. Choosing the source service
// (s), its line is whole at 60 too.
func TestBackupsStepLineWhole(t *testing.T) {
	e := rtSetup(t, false)
	analytics := e.byName["analytics-gcp"]
	w := e.managedInto(t, "analytics-gcp")
	if w.StepName() != "backup" {
		t.Fatalf("step %s", w.StepName())
	}
	e.feedBackups(t, w)
	head := "Backups of analytics-gcp (" + analytics.ID + ", gcp)"
	hint := "s restores another service's backup"
	for _, size := range [][2]int{{80, 20}, {60, 12}} {
		w.SetSize(size[0], size[1])
		out := rtView(w)
		noCut(t, "the backups step", out, size[0])
		if got := strings.TrimSpace(tuitest.LineWith(out, hint)); got != hint {
			t.Errorf("at %d columns the hint is not whole on its own line: %q\n%s", size[0], got, out)
		}
		if tuitest.LineWith(out, head) == "" || !strings.Contains(out, "BACKUP") {
			t.Errorf("at %d columns the service or the table is missing:\n%s", size[0], out)
		}
		if n := len(strings.Split(out, "\n")); n > size[1] {
			t.Errorf("at %dx%d the step has %d lines", size[0], size[1], n)
		}
	}
	w.SetSize(120, 30)
	if got := strings.TrimSpace(tuitest.LineWith(rtView(w), hint)); got != head+": "+hint {
		t.Errorf("at 120 columns the line is %q", got)
	}

	rtPress(w, "s")
	for _, size := range [][2]int{{80, 20}, {60, 12}} {
		w.SetSize(size[0], size[1])
		out := rtView(w)
		noCut(t, "choosing the source service", out, size[0])
		if !strings.Contains(out, "(enter choose, type to filter, esc back)") {
			t.Errorf("at %d columns the source service's keys are not whole:\n%s", size[0], out)
		}
	}
}

// TestBucketStepFooterKeepsEnter: the footer of a wizard (no "? help")
// keeps esc first, then the step's entries in their order while they fit
// (tui/chrome.go's footerUnits). On the own-bucket step enter ("next /
// continue") came after the long entries (tab/down, shift+tab/up,
// left/right/space) and was left out at 80 and 140 columns: only esc
// said what to do. Now, with and without the suggested fix, esc and
// every entry up to enter fit in 80 columns, so both show.
func TestBucketStepFooterKeepsEnter(t *testing.T) {
	e := rtSetup(t, true)
	dev := e.byName["dev-serverless"]
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: dev.ID, LockTarget: true})
	w.SetSize(80, 20)
	entry := func(b key.Binding) string { return b.Help().Key + " " + b.Help().Desc }
	for _, bucket := range []string{"gs://acme-backups/", "gs://acme-backups"} { // the second has a fix (tab)
		w.bucket.bucket.SetValue(bucket)
		short := w.KeyMap().ShortHelp()
		esc := slices.IndexFunc(short, func(b key.Binding) bool { return slices.Contains(b.Keys(), "esc") })
		enter := slices.IndexFunc(short, func(b key.Binding) bool { return slices.Contains(b.Keys(), "enter") })
		if esc < 0 || enter < 0 {
			t.Fatalf("%s: the step's keys lack esc or enter: %v", bucket, short)
		}
		kept := []string{entry(short[esc])}
		for i, b := range short[:enter+1] {
			if i != esc {
				kept = append(kept, entry(b))
			}
		}
		if line := " " + strings.Join(kept, "  "); ansi.StringWidth(line) > 79 {
			t.Errorf("%s: at 80 columns the footer leaves enter out: %q", bucket, line)
		}
		if got := short[enter].Help().Desc; got != "next / continue" {
			t.Errorf("%s: enter says %q", bucket, got)
		}
	}
}

// TestBucketStepTextWhole: the own-bucket step's hints and its last line
// wrap between words at 80 and 60 columns: a bucket path stays whole
// on a line (it was broken at its slashes, "gs://" / "acme-backups/")
// and "nothing is sent before it" is not cut.
func TestBucketStepTextWhole(t *testing.T) {
	e := rtSetup(t, true)
	dev := e.byName["dev-serverless"]
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: dev.ID, LockTarget: true})
	w.bucket.bucket.SetValue("gs://acme-backups")
	for _, size := range [][2]int{{80, 20}, {60, 12}} {
		w.SetSize(size[0], size[1])
		v := tuitest.View(w)
		noCut(t, "bucket step", v, size[0])
		if tuitest.LineWith(v, "gs://acme-backups/") == "" {
			t.Errorf("%dx%d: the path in the fix is not whole on a line:\n%s", size[0], size[1], v)
		}
		// the last line, where the height leaves room for it, reads whole
		words := strings.Join(strings.Fields(v), " ")
		if strings.Contains(words, "enter on the last field") && !strings.Contains(words, "nothing is sent before it") {
			t.Errorf("%dx%d: the last line is cut:\n%s", size[0], size[1], v)
		}
	}
}

// TestTargetListFromABackup: a managed backup chosen first (R on the
// Backups screen) opens the target list with, for each service on another
// cloud provider, "backup is on aws" (it was not marked, and the cursor
// started on one), the cursor on a service the backup can go to, and at
// 60x16 every service shown (the list had room for five, five blank lines
// under it).
func TestTargetListFromABackup(t *testing.T) {
	e := rtSetup(t, false)
	orders := e.byName["orders-prod"]
	backups, err := e.client.ListBackups(context.Background(), orders.ID)
	if err != nil || len(backups) == 0 {
		t.Fatalf("orders-prod's backups: %v %v", len(backups), err)
	}
	w := e.wizard(t, Options{Source: SourceManaged, SourceServiceID: orders.ID, Backup: &backups[0]})
	w.SetSize(60, 12) // the wizard's area at 60x16
	v := rtView(w)
	for name, s := range e.byName {
		row := tuitest.LineWith(v, name[:min(len(name), 10)])
		if row == "" {
			t.Fatalf("%s is not in the list at 60x16:\n%s", name, v)
		}
		if other := s.Provider != orders.Provider; other != strings.Contains(row, "backup is on "+orders.Provider) {
			t.Errorf("%s on %s: row %q", name, s.Provider, row)
		}
	}
	sel := w.service(w.targets.SelectedID())
	if sel.Provider != orders.Provider || api.RestoreTargetProblem(sel) != "" {
		t.Errorf("the cursor starts on %s (%s, %s)", sel.Name, sel.Provider, sel.Status)
	}
}

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

// TestPITRSourcesShowTheirProvider: restoring replica-west (aws) to a
// moment, the services whose history could serve are listed with their
// provider, and those on another provider muted (enter refuses them; they
// were listed like the others), at 80 columns with every name whole.
func TestPITRSourcesShowTheirProvider(t *testing.T) {
	wz, _ := pitrAt(t, 80, 20)
	seen := 0
	for _, w := range wz.pitr.windows {
		src := wz.service(w.ServiceID)
		wz.pitr.table.Select(w.ServiceID)
		row, ok := wz.pitr.table.Selected()
		if !ok || src.Provider == "" {
			continue
		}
		seen++
		other := src.Provider != "aws"
		if row.Cells[2] != src.Provider || (row.Kinds[0] == theme.KindMuted) != other {
			t.Errorf("%s on %s: cells %v kinds %v", src.Name, src.Provider, row.Cells, row.Kinds)
		}
		if l := tuitest.LineWith(rtView(wz), src.Name); !strings.Contains(l, src.Name+" ") {
			t.Errorf("%s is not whole at 80 columns: %q", src.Name, l)
		}
	}
	if seen < 3 {
		t.Fatalf("only %d services with a window", seen)
	}
}
