package kit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// outcomeAt60x16 draws the dialog in the area the root gives it at 60x16
// (56x10), checking it stays there, and gives it flat (its words
// separated by single spaces) and as drawn.
func outcomeAt60x16(t *testing.T, d *OutcomeDialog) (flat, out string) {
	t.Helper()
	d.SetSize(56, 10)
	out = ansi.Strip(d.View())
	if n := len(strings.Split(out, "\n")); n > 10 {
		t.Fatalf("%d lines in a 10-line area:\n%s", n, out)
	}
	flat = strings.Join(strings.Fields(strings.ReplaceAll(out, d.common.Theme.Glyphs.BoxV, " ")), " ")
	return flat, out
}

// At 60x16 what a new backup's lost answer found stays in view: the
// dialog uses its rows for the findings before it counts them (the footer
// has the keys the hint line says), shows as many as fit with "… and N
// more", and never says to send again next to "most likely carried out".
func TestOutcomeAt60x16ShowsFindings(t *testing.T) {
	ell := common().Theme.Glyphs.Ellipsis
	d := NewOutcomeDialog(common(), 1, "backup of orders-prod", "EOF", "the backups of orders-prod", true)
	d.ChecksEffect()
	d.Seen("backup 1483d665cdab: full, Running")
	flat, out := outcomeAt60x16(t, d)
	if !strings.Contains(flat, "backup 1483d665cdab: full, Running") || !strings.Contains(flat, "most likely carried out") {
		t.Errorf("what was seen or the verdict is not shown:\n%s", out)
	}
	if strings.Contains(flat, "send again once") {
		t.Errorf("a send-again hint next to \"most likely carried out\":\n%s", out)
	}

	d.Checked(OutcomeCheckedMsg{ID: 1, Found: []string{"backup 77aa01b2c3d4: full, Completed"}})
	flat, out = outcomeAt60x16(t, d)
	for _, want := range []string{"backup 1483d665cdab: full, Running", "backup 77aa01b2c3d4: full, Completed", "most likely carried out", "[ Leave it ]"} {
		if !strings.Contains(flat, want) {
			t.Errorf("%q is not shown:\n%s", want, out)
		}
	}

	// more than fit: as many as fit, the rest counted
	d.Checked(OutcomeCheckedMsg{ID: 1, Found: []string{"backup 77aa01b2c3d4: full, Completed", "backup 88bb01b2c3d4: full, Completed", "backup 99cc01b2c3d4: full, Completed"}})
	flat, out = outcomeAt60x16(t, d)
	if !strings.Contains(flat, "backup 1483d665cdab: full, Running") || !strings.Contains(flat, ell+" and ") ||
		strings.Contains(flat, "a taller terminal") || !strings.Contains(flat, "most likely carried out") || !strings.Contains(flat, "[ Leave it ]") {
		t.Errorf("the findings that fit are not shown, the rest counted:\n%s", out)
	}
}
