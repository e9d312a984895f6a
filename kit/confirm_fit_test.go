package kit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A yes/no detail one line too long for the compact layout at 60x16 (the
// root gives the dialog 56x10) is shown whole with the buttons' line under
// it and no hint line (the footer has the dialog's keys); where it fits,
// the hint stays in the box.
func TestConfirmLeavesHintOutBeforeCuttingDetail(t *testing.T) {
	detail := "The migration of orders-prod (aws) to staging-eu (azure) is forgotten: its backup stays in s3://qa3-b/x (delete it there when you no longer need it); nothing else changes. m then starts a new one."
	th := common().Theme
	d := NewConfirm(common(), 1, Confirm{Kind: ConfirmYesNo, Title: "Discard the migration?", Detail: detail})
	d.SetSize(56, 10)
	out := ansi.Strip(d.View())
	if n := len(strings.Split(out, "\n")); n > 10 || strings.Contains(out, th.Glyphs.Ellipsis) {
		t.Fatalf("detail cut (%d lines):\n%s", n, out)
	}
	flat := strings.Join(strings.Fields(strings.NewReplacer("|", " ", "+", " ").Replace(out)), " ")
	if !strings.Contains(flat, "m then starts a new one.") || !strings.Contains(out, "[ Yes ]") || !strings.Contains(out, "cursor on No") {
		t.Errorf("detail or buttons missing:\n%s", out)
	}
	d.SetSize(76, 18) // 80x24
	if out := ansi.Strip(d.View()); !strings.Contains(out, "enter choose") {
		t.Errorf("the hint left out where it fits:\n%s", out)
	}
}

// A name to type that is longer than the line is shown whole, wrapped on
// lines of its own under what to do, at every width: never cut, since it
// must be typed as read.
func TestConfirmTypedNameLongerThanLineIsWhole(t *testing.T) {
	name := "orders-prod-analytics-replica-west-europe-2024-archive-copy-of-the-nightly-warehouse"
	th := common().Theme
	for _, sz := range [][2]int{{56, 10}, {76, 18}, {116, 26}} {
		d := NewConfirm(common(), 1, Confirm{Kind: ConfirmTypeName, Title: "Delete the service?", Name: name, Detail: "It is deleted with its backups."})
		d.SetSize(sz[0], sz[1])
		out := ansi.Strip(d.View())
		lines := strings.Split(out, "\n")
		if len(lines) > sz[1] || strings.Contains(out, th.Glyphs.Ellipsis) {
			t.Errorf("%dx%d: cut, or %d lines:\n%s", sz[0], sz[1], len(lines), out)
		}
		var joined strings.Builder
		for _, l := range lines {
			joined.WriteString(strings.TrimSpace(strings.Trim(l, th.Glyphs.BoxV+th.Glyphs.BoxCorner+th.Glyphs.BoxH)))
		}
		if !strings.Contains(joined.String(), name) || !strings.Contains(out, "to confirm, esc to cancel:") || !strings.Contains(out, "> ") {
			t.Errorf("%dx%d: the name is not whole, or what to do or the input is missing:\n%s", sz[0], sz[1], out)
		}
	}
}
