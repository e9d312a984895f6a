package kit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestOutcomeBeforeUnreadCannotTell: when the reading before the change
// failed, what the list holds now proves nothing (it may all have been
// there before): the dialog lists it, says what was there before could
// not be read, and cannot tell, where it would otherwise say "most
// likely carried out". A change with its own check (Effect) waits for it.
func TestOutcomeBeforeUnreadCannotTell(t *testing.T) {
	flat := func(d *OutcomeDialog) string {
		d.SetSize(80, 24)
		return strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(d.View()), d.common.Theme.Glyphs.BoxV, " ")), " ")
	}
	found := []string{"restore 1 into orders-db: Completed (from nightly)"}

	d := NewOutcomeDialog(common(), 1, "restore into orders-db", "EOF", "the restores of orders-db", true)
	d.Checked(OutcomeCheckedMsg{ID: 1, All: true, Found: found})
	v := flat(d)
	for _, want := range []string{"In the restores of orders-db now (what was there before could not be read):",
		"restore 1 into orders-db: Completed", "skytui cannot tell whether it was carried out: look in it yourself for what was sent"} {
		if !strings.Contains(v, want) {
			t.Errorf("%q is not shown:\n%s", want, d.View())
		}
	}
	if strings.Contains(v, "most likely carried out") {
		t.Errorf("the entries there before are taken for proof:\n%s", d.View())
	}

	e := NewOutcomeDialog(common(), 2, "add 198.51.100.132/32 to the allow list of orders-prod", "EOF", "the allow list of orders-prod", true)
	e.ChecksEffect()
	e.Checked(OutcomeCheckedMsg{ID: 2, All: true, Found: []string{`192.0.2.44/32 ("bastion") is in the allow list of orders-prod`}})
	if v := flat(e); strings.Contains(v, "most likely carried out") || strings.Contains(v, "bastion") ||
		!strings.Contains(v, "Nothing in the allow list of orders-prod shows it yet") {
		t.Errorf("an entry other than the one sent is taken for proof:\n%s", e.View())
	}
	e.Seen("198.51.100.132/32 is in the allow list of orders-prod")
	if v := flat(e); !strings.Contains(v, "198.51.100.132/32 is in the allow list") || !strings.Contains(v, "most likely carried out") {
		t.Errorf("the address sent, seen, is not said:\n%s", e.View())
	}

	// with the reading before, what appeared is still the proof
	f := NewOutcomeDialog(common(), 3, "restore into orders-db", "EOF", "the restores of orders-db", true)
	f.Checked(OutcomeCheckedMsg{ID: 3, Found: found})
	if v := flat(f); !strings.Contains(v, "Appeared in the restores of orders-db since it was sent:") || !strings.Contains(v, "most likely carried out") {
		t.Errorf("what appeared is not the proof:\n%s", f.View())
	}
}
