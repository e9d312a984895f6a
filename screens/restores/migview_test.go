package restores

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
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
		m := migrationOf(svcs, nil)
		m.SetSize(size[0], size[1])
		m.table.Select(orders.ID)
		m.Update(tuitest.KeyMsg("enter"))
		if m.step != migTarget {
			t.Fatalf("step %d", m.step)
		}
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
