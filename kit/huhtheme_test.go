package kit

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/theme"
)

// TestFormViewShowsTheErrorUnderTheField: a field whose Validate refuses
// shows why right under it, in the form's own height (huh v2 lists errors
// only in the group's footer, below the area WithHeight gave the form);
// the fields below give way first, the field itself stays.
func TestFormViewShowsTheErrorUnderTheField(t *testing.T) {
	for _, size := range [][2]int{{78, 18}, {58, 10}, {40, 6}} {
		c := common()
		var nodes, name, notes string
		first := huh.NewInput().Title("Name").Value(&name)
		field := huh.NewInput().Title("Nodes").Value(&nodes).Validate(func(s string) error {
			if s != "1" {
				return errors.New("nodes: must be a whole number, at least 1")
			}
			return nil
		})
		last := huh.NewText().Title("Notes").Value(&notes).Lines(4)
		form := NewForm(c, huh.NewGroup(first, field, last).Title("New service 5/5")).
			WithWidth(size[0]).WithHeight(size[1])
		form.Init()
		form.NextField()
		for _, k := range []tea.KeyPressMsg{{Code: 'x', Text: "x"}, {Code: tea.KeyEnter}} {
			form.Update(k)
		}
		if form.GetFocusedField() != field {
			t.Fatalf("%v: the refused field lost the focus", size)
		}
		what := fmt.Sprintf("%dx%d", size[0], size[1])
		out := ansi.Strip(FormView(c, form, size[1]))
		lines := strings.Split(out, "\n")
		if len(lines) > size[1] {
			t.Errorf("%s: %d lines, over the form's %d:\n%s", what, len(lines), size[1], out)
		}
		at := -1
		for i, l := range lines {
			if strings.Contains(l, "! nodes: must be a whole number") {
				at = i
			}
		}
		if at < 1 || !strings.Contains(lines[at-1], "> x") {
			t.Errorf("%s: the error is not under the field's input:\n%s", what, out)
		}
	}
}

// TestFormViewSaysWhatTheErrorPushedOut: where the error's lines leave no
// room for the fields below it (an S3 credential's name refused at
// 60x16), the last line says more is below and the key that goes there, instead of dropping the next field's input silently.
func TestFormViewSaysWhatTheErrorPushedOut(t *testing.T) {
	c := common()
	var name, region, bucket string
	field := huh.NewInput().Title("Name").Value(&name).Validate(func(string) error {
		return errors.New("name: 1 to 64 letters, digits, dots, dashes or underscores")
	})
	form := NewForm(c, huh.NewGroup(field,
		huh.NewInput().Title("Region").Value(&region),
		huh.NewInput().Title("Bucket").Value(&bucket))).WithWidth(58).WithHeight(5)
	form.Init()
	for _, k := range []tea.KeyPressMsg{{Code: '/', Text: "/"}, {Code: tea.KeyEnter}} {
		form.Update(k)
	}
	out := ansi.Strip(FormView(c, form, 5))
	lines := strings.Split(out, "\n")
	if len(lines) > 5 {
		t.Fatalf("%d lines, over the form's 5:\n%s", len(lines), out)
	}
	if !strings.Contains(out, "! name: 1 to 64") || !strings.Contains(out, "> /") {
		t.Fatalf("the refused field or its error is not shown:\n%s", out)
	}
	if last := lines[len(lines)-1]; !strings.Contains(last, "enter/tab: more below") {
		t.Fatalf("the fields below are cut without a line saying so:\n%s", out)
	}
}

// TestFormViewWithoutErrorsIsTheForm: nothing refused, nothing changed.
func TestFormViewWithoutErrorsIsTheForm(t *testing.T) {
	c := common()
	var v string
	form := NewForm(c, huh.NewGroup(huh.NewInput().Title("Name").Value(&v))).WithWidth(60).WithHeight(8)
	form.Init()
	if got, want := FormView(c, form, 8), form.View(); got != want {
		t.Fatalf("FormView changed a form without errors:\n%s\nwant\n%s", got, want)
	}
}

// TestAccessibleConfirmMarksTheChoiceInText: with --accessible a yes/no
// field (the new service's SSL) marks its choice in text, "(x) on" and
// "( ) off", not by reverse video alone; the choice moves with it.
func TestAccessibleConfirmMarksTheChoiceInText(t *testing.T) {
	c := &Common{Theme: theme.New(theme.Options{Dark: true, NoColor: true, Accessible: true})}
	ssl := true
	form := NewForm(c, huh.NewGroup(huh.NewConfirm().Title("SSL").Affirmative("on").Negative("off").Value(&ssl))).WithWidth(60)
	form.Init()
	if v := ansi.Strip(form.View()); !strings.Contains(v, "(x) on") || !strings.Contains(v, "( ) off") {
		t.Fatalf("the choice is not in text:\n%s", v)
	}
	form.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if v := ansi.Strip(form.View()); !strings.Contains(v, "( ) on") || !strings.Contains(v, "(x) off") {
		t.Fatalf("after right, the choice is not in text:\n%s", v)
	}
}
