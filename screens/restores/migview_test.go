package restores

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// The migration's lines at 80 and 60 columns: nothing cut that the step
// needs, and no cut mark where nothing is cut.

// sizes are the migration's areas in an 80x24 and a 60x16 terminal (the
// header's two lines and the footer's one taken).
var sizes = [][2]int{{80, 21}, {60, 13}}

// cutLines are the lines of view wider than w or ending in the cut mark.
func cutLines(view string, w int) []string {
	ell := tuitest.Common().Theme.Glyphs.Ellipsis
	var cut []string
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		l = strings.TrimRight(l, " ")
		if ansi.StringWidth(l) > w || strings.HasSuffix(l, ell) {
			cut = append(cut, l)
		}
	}
	return cut
}

// TestMigrationDestinationNotCut: the copy step's Destination line draws
// no cut mark after a short value (the input was one cell wider than its
// line: '~' at column 80), and the refusal of an empty bucket under it is
// wrapped between words, whole ("(expected gs://…" was cut).
func TestMigrationDestinationNotCut(t *testing.T) {
	m := migrationOf([]api.Service{orders, gcpSvc}, &restoreform.MigrateRequest{Source: orders, Target: gcpSvc})
	m.backup = &api.Backup{Key: hash + ":" + orders.ID + ":pod", Bucket: "s3://acme-exports/orders-mig", Status: "Succeeded"}
	m.toCopy()
	for _, size := range sizes {
		m.SetSize(size[0], size[1])
		for _, v := range []string{"gs://", "gs://acme-gcp"} {
			m.dest.SetValue(v)
			out := m.View()
			if cut := cutLines(out, size[0]); len(cut) > 0 {
				t.Errorf("%dx%d, destination %q: cut lines %q\n%s", size[0], size[1], v, cut, out)
			}
		}
		m.dest.SetValue("gs://")
		want := "destination: has no bucket name after gs:// (expected gs://<bucket>/<folder> or s3://<bucket>/<folder>)"
		if got := strings.Join(strings.Fields(ansi.Strip(m.View())), " "); !strings.Contains(got, want) {
			t.Errorf("%dx%d: the refusal is not whole:\n%s", size[0], size[1], m.View())
		}
	}
}

// TestMigrationTargetPickerKeepsProvider: choosing the target ("a service
// on another provider"), the PROVIDER column stays at 60 columns and the
// ID goes first (it showed NAME ID STATUS CANNOT BE, names cut
// "analytics-g~"); on a short terminal every row, the filter line and a
// refusal are on screen (the explanation over the list gives way).
func TestMigrationTargetPickerKeepsProvider(t *testing.T) {
	svcs := []api.Service{orders, replica, gcpSvc,
		{ID: "dbtzf00000004", Name: "broken-import", Status: "failed", Provider: "azure", Region: "eastus"},
		{ID: "dbtgf00000005", Name: "dev-serverless", Status: "ready", Provider: "gcp", Region: "us-east4"},
		{ID: "dbtaf00000006", Name: "legacy-batch", Status: "stopped", Provider: "aws", Region: "eu-west-1"},
		{ID: "dbtgf00000007", Name: "reporting-new", Status: "pending_create", Provider: "gcp", Region: "europe-west1"},
		{ID: "dbtzf00000008", Name: "staging-eu", Status: "pending_modifying", Provider: "azure", Region: "westeurope"},
	}
	for _, size := range sizes {
		m := migrationTargets(t, svcs, size[0], size[1])
		out := ansi.Strip(m.View())
		head := tuitest.LineWith(out, "NAME")
		if !strings.Contains(head, "PROVIDER") || !strings.Contains(strings.Join(strings.Fields(out), " "), "Choose a service on another provider:") {
			t.Errorf("%dx%d: the targets have no PROVIDER column:\n%s", size[0], size[1], out)
		}
		for _, v := range svcs {
			l := tuitest.LineWith(out, " "+v.Name+"  ")
			if l == "" || !strings.Contains(l, "  "+v.Provider+"/") {
				t.Errorf("%dx%d: %s is not shown whole with its provider:\n%s", size[0], size[1], v.Name, out)
			}
		}
		if n := len(strings.Split(m.View(), "\n")); n > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], n)
		}
		// a refusal is shown under the list
		m.table.Select("dbtzf00000004")
		m.Update(tuitest.KeyMsg("enter"))
		if out := strings.Join(strings.Fields(ansi.Strip(m.View())), " "); !strings.Contains(out, "! broken-import is failed: a restore needs a ready or stopped service") {
			t.Errorf("%dx%d: the refusal is not on screen:\n%s", size[0], size[1], m.View())
		}
		// the filter line is on screen
		m.Update(tuitest.KeyMsg("/"))
		for _, k := range tuitest.Typed("gcp") {
			m.Update(k)
		}
		if out := ansi.Strip(m.View()); !strings.Contains(out, "/gcp") && !strings.Contains(out, "/ gcp") {
			t.Errorf("%dx%d: the filter line is not on screen:\n%s", size[0], size[1], out)
		}
	}
}

// TestMigrationCopyStepScrolls: at 60x16 the copy step's text is longer
// than the screen; it was cut at the bottom without a word (the second
// line of the command, its note and what enter does were not shown).
// Now a line says what is below and pgdown shows it, down to the last
// line; the footer lists the scroll. The note's "~/.boto" stays whole.
func TestMigrationCopyStepScrolls(t *testing.T) {
	m := migrationOf([]api.Service{orders, gcpSvc}, &restoreform.MigrateRequest{Source: orders, Target: gcpSvc})
	m.backup = &api.Backup{Key: hash + ":" + orders.ID + ":pod", Bucket: "s3://acme-exports/orders-mig", Status: "Succeeded"}
	m.toCopy()
	m.dest.SetValue("gs://acme-gcp")
	m.Update(tuitest.KeyMsg("enter")) // done typing
	help := func() string {
		var keys []string
		for _, b := range m.KeyMap().ShortHelp() {
			keys = append(keys, b.Help().Key)
		}
		return strings.Join(keys, " ")
	}
	for _, size := range sizes {
		m.SetSize(size[0], size[1])
		seen := ""
		for range 10 {
			out := ansi.Strip(m.View())
			if n := len(strings.Split(out, "\n")); n > size[1] {
				t.Fatalf("%dx%d: %d lines:\n%s", size[0], size[1], n, out)
			}
			if cut := cutLines(m.View(), size[0]); len(cut) > 0 {
				t.Errorf("%dx%d: cut lines %q", size[0], size[1], cut)
			}
			seen += out + "\n"
			if !strings.Contains(out, "pgdn:") {
				break
			}
			m.Update(tuitest.KeyMsg("pgdown"))
		}
		all := strings.Join(strings.Fields(seen), " ")
		for _, want := range []string{"gs://acme-gcp/orders-mig", "section of ~/.boto", "e edits the destination."} {
			if !strings.Contains(all, want) {
				t.Errorf("%dx%d: never shown: %q\n%s", size[0], size[1], want, seen)
			}
		}
		if size[0] == 60 && !strings.Contains(help(), "pgdn/pgup") {
			t.Errorf("60x13: the footer does not say how to scroll: %s", help())
		}
		if size[0] == 80 && (strings.Contains(seen, "pgdn:") || strings.Contains(help(), "pgdn/pgup")) {
			t.Errorf("80x21: the copy step scrolls though it fits:\n%s", seen)
		}
		m.Update(tuitest.KeyMsg("pgup"))
		m.Update(tuitest.KeyMsg("pgup"))
		m.Update(tuitest.KeyMsg("pgup"))
	}
}

// TestMigrationBackupTitleWhole: the backup step's title ("... back up
// orders-prod to your own bucket") takes a second line at 60 columns
// instead of being cut ("... to your ~"), within the pane's lines.
func TestMigrationBackupTitleWhole(t *testing.T) {
	m := migrationOf([]api.Service{orders, gcpSvc}, &restoreform.MigrateRequest{Source: orders, Target: gcpSvc})
	m.common.Client, _ = api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k"}) // never called
	m.init()
	for _, size := range sizes {
		m.SetSize(size[0], size[1])
		out := ansi.Strip(m.View())
		lines := strings.Split(out, "\n")
		title := strings.Join(strings.Fields(strings.Join(lines[:2], " ")), " ")
		if !strings.Contains(title, "Migrate across providers 2/5: back up orders-prod to your own bucket") || len(cutLines(strings.Join(lines[:2], "\n"), size[0])) > 0 {
			t.Errorf("%dx%d: the title is not whole:\n%s", size[0], size[1], out)
		}
		if len(lines) > size[1] {
			t.Errorf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
	}
}

// demoServices are the demo's eight services: at 60x16 the migration's
// target list cannot show them all.
var demoServices = []api.Service{orders, replica, gcpSvc,
	{ID: "dbtzf00000004", Name: "broken-import", Status: "failed", Provider: "azure", Region: "eastus"},
	{ID: "dbtgf00000005", Name: "dev-serverless", Status: "ready", Provider: "gcp", Region: "us-east4"},
	{ID: "dbtaf00000006", Name: "legacy-batch", Status: "stopped", Provider: "aws", Region: "eu-west-1"},
	{ID: "dbtgf00000007", Name: "reporting-new", Status: "pending_create", Provider: "gcp", Region: "europe-west1"},
	stagingEU,
}

var stagingEU = api.Service{ID: "dbtzf00000009", Name: "staging-eu", Status: "ready", Provider: "azure", Region: "westeurope"}

// TestMigrationCutListSaysWhatIsCut: at 60x16 the target list showed 7 of
// its 8 rows (staging-eu hidden, and after end analytics-gcp) with nothing
// saying so. Now a line under the rows counts those below and above, as
// the other lists do; a list that fits has no such line.
func TestMigrationCutListSaysWhatIsCut(t *testing.T) {
	for _, size := range append([][2]int{{60, 12}}, sizes...) {
		m := migrationTargets(t, demoServices, size[0], size[1])
		check := func(when, dir string) {
			t.Helper()
			out := ansi.Strip(m.View())
			if n := len(strings.Split(out, "\n")); n > size[1] {
				t.Errorf("%dx%d %s: %d lines:\n%s", size[0], size[1], when, n, out)
			}
			hidden := 0
			for _, v := range demoServices {
				if tuitest.LineWith(out, " "+v.Name+" ") == "" {
					hidden++
				}
			}
			want := fmt.Sprintf("down: %d more services", hidden)
			if dir == "up" {
				want = fmt.Sprintf("up: %d services above", hidden)
			}
			if hidden == 1 {
				want = strings.Replace(want, "services", "service", 1)
			}
			switch {
			case hidden == 0 && strings.Contains(out, "more service"):
				t.Errorf("%dx%d %s: every row shows, yet a line says more:\n%s", size[0], size[1], when, out)
			case hidden > 0 && !strings.Contains(out, want):
				t.Errorf("%dx%d %s: %d rows hidden, no line %q:\n%s", size[0], size[1], when, hidden, want, out)
			}
		}
		check("on arrival", "down")
		m.Update(tuitest.KeyMsg("end"))
		if m.table.SelectedID() != stagingEU.ID {
			t.Fatalf("end: on %q", m.table.SelectedID())
		}
		check("after end", "up")
	}
}

// copyStep is a migration from orders-prod to staging-eu at its copy
// step, at 60x16, nothing typed yet.
func copyStep() *migration {
	m := migrationOf(demoServices, &restoreform.MigrateRequest{Source: orders, Target: stagingEU})
	m.backup = &api.Backup{Key: hash + ":" + orders.ID + ":pod", Bucket: "s3://qa3-b/x", Status: "Succeeded"}
	m.SetSize(60, 12)
	m.toCopy()
	return m
}

// footerKeys is the migration's help line, its keys alone.
func footerKeys(m *migration) string {
	var keys []string
	for _, b := range m.KeyMap().ShortHelp() {
		keys = append(keys, b.Help().Key)
	}
	return strings.Join(keys, " ")
}

// TestMigrationDestinationRequiredOnlyAfterEnter: on arrival at the copy
// step, before any key, the empty destination (its placeholder the
// example) said "destination: is required". It says so only after enter
// on the empty field.
func TestMigrationDestinationRequiredOnlyAfterEnter(t *testing.T) {
	m := copyStep()
	if out := ansi.Strip(m.View()); strings.Contains(out, "is required") {
		t.Fatalf("required before anything was typed:\n%s", out)
	}
	m.Update(tuitest.KeyMsg("enter"))
	if out := strings.Join(strings.Fields(ansi.Strip(m.View())), " "); !strings.Contains(out, "! destination: is required") {
		t.Fatalf("enter on the empty destination says nothing:\n%s", m.View())
	}
	// a typed key takes the refusal away; an empty field left with esc
	// does not bring it back
	m.Update(tuitest.KeyMsg("g"))
	m.Update(tuitest.KeyMsg("backspace"))
	m.Update(tuitest.KeyMsg("esc"))
	if out := ansi.Strip(m.View()); strings.Contains(out, "is required") {
		t.Fatalf("required after esc on the empty field:\n%s", out)
	}
}

// TestMigrationNoCopyKeyWithoutDestination: with no destination (esc
// out of the empty field) the footer offered "y copy command", and y
// did nothing a user saw. Now y is left out of the footer until there is
// a command (e, the way on, first; d discard before enter, so it stays
// at 80 columns), and y pressed anyway says why in a toast.
func TestMigrationNoCopyKeyWithoutDestination(t *testing.T) {
	m := copyStep()
	m.Update(tuitest.KeyMsg("esc")) // stop editing, nothing typed
	if m.editing {
		t.Fatal("esc did not stop the editing")
	}
	for _, v := range []struct{ dest, why string }{
		{"", "nothing to copy yet: no destination (e types it)"},
		{"gs://", "nothing to copy yet: destination: has no bucket name after gs://"},
	} {
		m.dest.SetValue(v.dest)
		if got := footerKeys(m); got != "e esc d enter" {
			t.Errorf("destination %q: footer %q, want e esc d enter", v.dest, got)
		}
		cmd := m.Update(tuitest.KeyMsg("y"))
		if cmd == nil {
			t.Fatalf("destination %q: y says nothing", v.dest)
		}
		toast, ok := cmd().(kit.ToastMsg)
		if !ok || !strings.Contains(toast.Text, v.why) {
			t.Errorf("destination %q: y answers %#v, want a toast %q", v.dest, cmd(), v.why)
		}
	}
	m.dest.SetValue("gs://acme-gcp")
	if got := footerKeys(m); got != "y enter pgdn/pgup e esc d" {
		t.Errorf("with a command: footer %q", got)
	}
}

// TestMigrationDiscardDialogWhole: at 60x16 (the root gives a dialog
// 56x10) the discard question ended "m then starts a new~": the detail
// is whole, with the buttons under it (its keys are in the footer).
func TestMigrationDiscardDialogWhole(t *testing.T) {
	m := copyStep()
	m.Update(tuitest.KeyMsg("esc"))
	cmd := m.Update(tuitest.KeyMsg("d"))
	if cmd == nil {
		t.Fatal("d asks nothing")
	}
	req, ok := cmd().(kit.ActionRequestMsg)
	if !ok {
		t.Fatalf("d answers %#v", cmd())
	}
	c := tuitest.Common()
	d := kit.NewConfirm(c, 1, req.Action.Confirm)
	d.SetSize(56, 10)
	out := ansi.Strip(d.View())
	if n := len(strings.Split(out, "\n")); n > 10 || strings.Contains(out, c.Theme.Glyphs.Ellipsis) {
		t.Fatalf("the dialog is cut (%d lines):\n%s", n, out)
	}
	flat := strings.Join(strings.Fields(strings.NewReplacer("|", " ", "+", " ").Replace(out)), " ")
	for _, want := range []string{"its backup stays in s3://qa3-b/x", "nothing else changes. m then starts a new one.", "[ No ]", "[ Yes ]", "cursor on No"} {
		if !strings.Contains(flat, want) {
			t.Errorf("%q missing:\n%s", want, out)
		}
	}
}
