package kit

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// A yes/no dialog's detail is wrapped whole in the smallest terminal
// (60x16: the root gives the dialog 56x10), with the buttons and the hint
// under it; each of its words is there, none is cut.
func TestConfirmDetailWrapsWholeAtMinimumSize(t *testing.T) {
	detail := "schedule 2 of analytics-gcp: logical 30 1 * * 0 backups (every Sunday at 01:30 UTC) to gs://acme-analytics-dumps/weekly. It takes no more backups; the backups it took stay."
	th := common().Theme
	for _, yes := range []bool{false, true} {
		d := NewConfirm(common(), 1, Confirm{Kind: ConfirmYesNo, Title: "Delete schedule 2 of analytics-gcp?", Detail: detail})
		d.SetSize(56, 10)
		if yes {
			d.Update(tea.KeyPressMsg{Code: tea.KeyRight})
		}
		out := ansi.Strip(d.View())
		lines := strings.Split(out, "\n")
		if len(lines) > 10 {
			t.Fatalf("%d lines in a 10-line area:\n%s", len(lines), out)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > 56 {
				t.Fatalf("line wider than 56: %q", l)
			}
		}
		if strings.Contains(out, th.Glyphs.Ellipsis) {
			t.Errorf("detail cut:\n%s", out)
		}
		flat := strings.Join(strings.Fields(strings.NewReplacer("|", " ", "+", " ").Replace(out)), " ")
		for _, want := range []string{"(every Sunday at 01:30 UTC)", "It takes no more backups; the backups it took stay.", "[ No ]", "[ Yes ]", "y yes", "enter choose"} {
			if !strings.Contains(flat, want) {
				t.Errorf("%q missing:\n%s", want, out)
			}
		}
		cur := "cursor on No"
		if yes {
			cur = "cursor on Yes"
		}
		if !strings.Contains(out, cur) {
			t.Errorf("%q missing:\n%s", cur, out)
		}
		// the button is still where a click finds it
		if i, ok := ButtonAt(d.View(), buttonX(out, "[ Yes ]"), buttonY(out), "[ Yes ]", "[ No ]"); !ok || i != 0 {
			t.Errorf("no Yes button under a click:\n%s", out)
		}
	}
}

// A detail that no layout can hold is cut where it visibly says so, and
// the buttons stay.
func TestConfirmDetailTooLongIsMarkedAndKeepsButtons(t *testing.T) {
	th := common().Theme
	d := NewConfirm(common(), 1, Confirm{Kind: ConfirmYesNo, Title: "Delete?", Detail: strings.Repeat("word ", 400) + "END"})
	d.SetSize(56, 10)
	out := ansi.Strip(d.View())
	if n := strings.Count(out, "\n") + 1; n > 10 {
		t.Fatalf("%d lines in a 10-line area:\n%s", n, out)
	}
	if !strings.Contains(out, "word"+th.Glyphs.Ellipsis) || strings.Contains(out, "END") {
		t.Errorf("cut detail not marked:\n%s", out)
	}
	if !strings.Contains(out, "[ No ]") || !strings.Contains(out, "choose") {
		t.Errorf("buttons or hint lost:\n%s", out)
	}
	typed := NewConfirm(common(), 2, Confirm{Kind: ConfirmTypeName, Name: "db", Detail: strings.Repeat("word ", 400) + "END"})
	typed.SetSize(56, 10)
	out = ansi.Strip(typed.View())
	if n := strings.Count(out, "\n") + 1; n > 10 || !strings.Contains(out, "word"+th.Glyphs.Ellipsis) || !strings.Contains(out, "Type db to confirm") {
		t.Errorf("type-the-name dialog:\n%s", out)
	}
}

// A dialog whose detail fits is drawn as it always was: the usual width,
// a blank line above the buttons, the cursor named in the hint.
func TestConfirmShortDetailKeepsUsualLayout(t *testing.T) {
	d := NewConfirm(common(), 1, Confirm{Kind: ConfirmYesNo, Title: "Sure?", Detail: "it stops"})
	d.SetSize(96, 18)
	out := ansi.Strip(d.View())
	lines := strings.Split(out, "\n")
	if w := ansi.StringWidth(lines[0]); w != 64 {
		t.Errorf("box %d wide, want 64:\n%s", w, out)
	}
	if !strings.Contains(out, "enter choose (cursor on No)") || strings.TrimSpace(strings.Trim(lines[4], "|")) != "" {
		t.Errorf("usual layout changed:\n%s", out)
	}
}

func buttonY(view string) int {
	for i, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "[ Yes ]") {
			return i
		}
	}
	return -1
}

func buttonX(view, label string) int {
	for _, l := range strings.Split(view, "\n") {
		if at := strings.Index(l, label); at >= 0 {
			return ansi.StringWidth(l[:at]) + 1
		}
	}
	return -1
}

// TestConfirmArrowsDoNotWrap: No is the left button: left (or h) on it
// stays on No, right (or l) goes to Yes and stays there; tab goes round.
// Left on No went round to Yes, and enter then confirmed a removal.
func TestConfirmArrowsDoNotWrap(t *testing.T) {
	d := NewConfirm(common(), 1, Confirm{Kind: ConfirmYesNo, Title: "Remove?", Detail: "it goes"})
	d.SetSize(96, 18)
	for _, c := range []struct {
		key string
		yes bool
	}{{"left", false}, {"h", false}, {"right", true}, {"l", true}, {"right", true}, {"left", false}, {"tab", true}, {"tab", false}} {
		kp, _ := KeyPress(c.key)
		d.Update(kp)
		if d.yes != c.yes {
			t.Fatalf("after %s the cursor is on yes=%v, want %v", c.key, d.yes, c.yes)
		}
	}
	kp, _ := KeyPress("left")
	d.Update(kp)
	kp, _ = KeyPress("enter")
	if _, cmd := d.Update(kp); cmd == nil || cmd().(ConfirmedMsg).Yes {
		t.Fatal("enter after left on No confirmed")
	}
}
