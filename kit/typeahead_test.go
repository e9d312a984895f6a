package kit

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/skytui/skytui/api"
)

// TestTypeAheadKeepsKeysForTheNextField: "enter" and the next keys in one
// burst (before the form's move comes back): the keys go to the field
// the focus moves to, not to the end of the one left. A key that does not
// move the focus (enter on a field whose value is refused) holds nothing.
func TestTypeAheadKeepsKeysForTheNextField(t *testing.T) {
	var name, secret string
	form := NewForm(common(), huh.NewGroup(
		huh.NewInput().Title("Name").Value(&name).Validate(func(s string) error {
			if s == "" {
				return errors.New("a name is needed")
			}
			return nil
		}),
		huh.NewInput().Title("Secret").EchoMode(huh.EchoModePassword).Value(&secret),
	))
	var ta TypeAhead
	var pending []tea.Cmd
	send := func(msg tea.Msg) {
		var cmd tea.Cmd
		form, cmd = ta.Update(form, msg)
		pending = append(pending, cmd)
	}
	// run answers the commands sent so far, as the program would, later
	run := func() {
		for n := 0; len(pending) > 0 && n < 50; n++ { // a blinking cursor asks for ever
			cmd := pending[0]
			pending = pending[1:]
			for _, m := range answers(cmd, 400*time.Millisecond) {
				send(m)
			}
		}
	}
	pending = append(pending, form.Init())
	run()
	keys := func(ks ...string) {
		for _, k := range ks {
			kp, ok := KeyPress(k)
			if !ok {
				t.Fatalf("no key %q", k)
			}
			send(kp)
		}
	}
	keys("enter") // refused: the name is empty; nothing is held
	keys("n", "a", "m", "e", "enter", "s", "3", "c")
	if ta.moving && len(ta.queued) != 3 {
		t.Fatalf("%d keys held during the move, want 3", len(ta.queued))
	}
	run()
	if got := form.GetFocusedField().GetValue(); got != "s3c" {
		t.Errorf("the secret field holds %q, want the keys typed after enter", got)
	}
	if name != "name" {
		t.Errorf("the name is %q: keys typed after enter went to it", name)
	}
}

// A bracketed paste is text typed: it is not lost where a name is typed.

func pickerOf(t *testing.T) *Picker {
	t.Helper()
	p := NewPicker(common(), "Restores of which service?", "restores", []api.Service{
		{ID: "dbtgf00000001", Name: "analytics-gcp", Status: "ready"},
		{ID: "dbtaf00000002", Name: "orders-prod", Status: "ready"},
		{ID: "dbtaf00000003", Name: "replica-west", Status: "ready"},
	})
	p.SetSize(80, 20)
	return p
}

// TestPickerTakesAPaste: a name pasted into a picker just opened (no
// key typed before it) filters the list at once, as the name typed
// would, and enter then chooses the row it leaves; a paste after "/"
// too. White space pasted alone starts nothing.
func TestPickerTakesAPaste(t *testing.T) {
	p := pickerOf(t)
	var d Dialog = p
	d, _ = d.Update(tea.PasteMsg{Content: " \n"})
	if p.table.Filtering() || p.table.Filter() != "" {
		t.Fatalf("white space pasted: filtering %v, filter %q", p.table.Filtering(), p.table.Filter())
	}
	d, _ = d.Update(tea.PasteMsg{Content: "replica"})
	if !p.table.Filtering() || p.table.Filter() != "replica" || p.table.Len() != 1 {
		t.Fatalf("pasted replica: filtering %v, filter %q, %d rows", p.table.Filtering(), p.table.Filter(), p.table.Len())
	}
	if v := ansi.Strip(p.View()); !strings.Contains(v, "/replica") || !strings.Contains(v, "1 of 3") {
		t.Fatalf("the paste is not in the filter line:\n%s", v)
	}
	enter, _ := KeyPress("enter")
	if _, cmd := d.Update(enter); cmd == nil || p.table.SelectedID() != "dbtaf00000003" {
		t.Fatalf("enter after the paste: chose %v, on %q", cmd != nil, p.table.SelectedID())
	}

	p = pickerOf(t)
	d = p
	slash, _ := KeyPress("/")
	d, _ = d.Update(slash)
	d.Update(tea.PasteMsg{Content: "orders"})
	if p.table.Filter() != "orders" || p.table.Len() != 1 || p.table.SelectedID() != "dbtaf00000002" {
		t.Fatalf("pasted after /: filter %q, %d rows, on %q", p.table.Filter(), p.table.Len(), p.table.SelectedID())
	}
}

// TestTableFilterLandsOnAChoosableRow: in a table that says which rows
// may be chosen, a name typed or pasted moves the cursor off a row that
// cannot be chosen onto the first shown one that can; a row that can
// stays under the cursor.
func TestTableFilterLandsOnAChoosableRow(t *testing.T) {
	tb := NewTable(common(), cols())
	tb.SetRows([]Row{
		{ID: "a", Cells: []string{"analytics-gcp"}},
		{ID: "b", Cells: []string{"orders-prod"}},
		{ID: "c", Cells: []string{"reporting-new"}}, // cannot be chosen
		{ID: "d", Cells: []string{"replica-west"}},
	})
	tb.SetSize(80, 10)
	tb.TypeFilters = true
	tb.Choosable = func(id string) bool { return id != "c" }
	for _, k := range []string{"r", "e", "p"} {
		kp, _ := KeyPress(k)
		tb.Update(kp)
	}
	if tb.Filter() != "rep" || tb.SelectedID() != "d" {
		t.Fatalf("typed rep: filter %q, on %q, want d (c cannot be chosen)", tb.Filter(), tb.SelectedID())
	}
	tb.SetFilter("")
	tb.Select("b")
	tb.Update(tea.PasteMsg{Content: "r"})
	if tb.SelectedID() != "b" {
		t.Fatalf("pasted r: the cursor left b (it can be chosen) for %q", tb.SelectedID())
	}
	tb.Update(tea.PasteMsg{Content: "ep"})
	if tb.Filter() != "rep" || tb.SelectedID() != "d" {
		t.Fatalf("pasted rep: filter %q, on %q, want d", tb.Filter(), tb.SelectedID())
	}
}

// answers runs cmd as the program would, batches flattened: the
// messages that come within wait (a blink or the like, later, is left).
func answers(cmd tea.Cmd, wait time.Duration) []tea.Msg {
	var out []tea.Msg
	pending := []tea.Cmd{cmd}
	for n := 0; len(pending) > 0 && n < 50; n++ {
		c := pending[0]
		pending = pending[1:]
		if c == nil {
			continue
		}
		ch := make(chan tea.Msg, 1)
		go func() { ch <- c() }()
		select {
		case m := <-ch:
			if b, ok := m.(tea.BatchMsg); ok {
				pending = append(pending, b...)
			} else if m != nil {
				out = append(out, m)
			}
		case <-time.After(wait):
		}
	}
	return out
}

// sendAll passes msg through ta to form and the form's answers back to
// it, as the program would.
func sendAll(ta *TypeAhead, form *huh.Form, msg tea.Msg) *huh.Form {
	var cmd tea.Cmd
	form, cmd = ta.Update(form, msg)
	for _, m := range answers(cmd, 100*time.Millisecond) {
		form = sendAll(ta, form, m)
	}
	return form
}

// TestFormTakesAPasteAsTyped: a paste into a huh form (through the
// TypeAhead every form's Update goes through) does what typing it does:
// the error shown for the field goes, and a select whose filter ("/")
// takes the paste is filtered by it at once.
func TestFormTakesAPasteAsTyped(t *testing.T) {
	var name string
	form := NewForm(common(), huh.NewGroup(
		huh.NewInput().Title("Name").Value(&name).Validate(func(s string) error {
			if s == "" {
				return errors.New("name: a name is needed")
			}
			return nil
		}),
	))
	var ta TypeAhead
	form.Init()
	enter, _ := KeyPress("enter")
	form = sendAll(&ta, form, enter)
	if form.GetFocusedField().Error() == nil {
		t.Fatal("enter on an empty name: no error")
	}
	form = sendAll(&ta, form, tea.PasteMsg{Content: "orders-prod"})
	if err := form.GetFocusedField().Error(); err != nil || name != "orders-prod" {
		t.Fatalf("pasted a name: value %q, error %v still shown", name, err)
	}
	if v := ansi.Strip(FormView(common(), form, 0)); strings.Contains(v, "a name is needed") {
		t.Fatalf("the error stays after the paste:\n%s", v)
	}

	var topo string
	form = NewForm(common(), huh.NewGroup(
		huh.NewSelect[string]().Title("Topology").Value(&topo).Options(
			huh.NewOption("Enterprise Server", "es-single"),
			huh.NewOption("Replicated Enterprise Server", "es-replica"),
			huh.NewOption("Galera Cluster", "galera"),
			huh.NewOption("Serverless", "serverless"),
		),
	))
	ta = TypeAhead{}
	form.Init()
	slash, _ := KeyPress("/")
	form = sendAll(&ta, form, slash)
	form = sendAll(&ta, form, tea.PasteMsg{Content: "galera"})
	v := ansi.Strip(form.View())
	if !strings.Contains(v, "Galera Cluster") || strings.Contains(v, "Serverless") || strings.Contains(v, "Enterprise Server") {
		t.Fatalf("pasted galera into the filter: the options are not filtered:\n%s", v)
	}
	form = sendAll(&ta, form, enter)
	if topo != "galera" {
		t.Fatalf("enter after the paste chose %q, want galera", topo)
	}
}

// TestTypeAheadKeepsAPasteForTheNextField: a paste that comes in the
// burst of the enter that leaves a field (before the form's move comes
// back) goes to the field the focus moves to, as keys typed there do,
// not to the end of the one left.
func TestTypeAheadKeepsAPasteForTheNextField(t *testing.T) {
	var name, secret string
	form := NewForm(common(), huh.NewGroup(
		huh.NewInput().Title("Name").Value(&name),
		huh.NewInput().Title("Secret").EchoMode(huh.EchoModePassword).Value(&secret),
	))
	var ta TypeAhead
	form.Init()
	form = sendAll(&ta, form, tea.PasteMsg{Content: "name"})
	enter, _ := KeyPress("enter")
	var cmd tea.Cmd
	form, cmd = ta.Update(form, enter) // the move's answer is not back yet
	form, _ = ta.Update(form, tea.PasteMsg{Content: "s3c"})
	for _, m := range answers(cmd, 100*time.Millisecond) { // the move comes back
		form = sendAll(&ta, form, m)
	}
	if name != "name" || form.GetFocusedField().GetValue() != "s3c" {
		t.Fatalf("the name holds %q, the secret %q: the paste after enter went to the name", name, form.GetFocusedField().GetValue())
	}
}

// TestSelectStopsAtItsEnds: down on a select's last option and up on its
// first leave the choice (huh went round to the other end), filtered
// too; a j typed into the open filter is the filter's.
func TestSelectStopsAtItsEnds(t *testing.T) {
	var region string
	send, view := regionSelect(&region)
	press := keyPresser(send)
	press("up")
	if region != "eastus" {
		t.Fatalf("up on the first option chose %q", region)
	}
	for range 3 {
		press("j")
	}
	if region != "westeurope" {
		t.Fatalf("j past the last option chose %q", region)
	}
	press("/")
	send(tea.PasteMsg{Content: "west"})
	for range 3 {
		press("down")
	}
	if region != "westeurope" {
		t.Fatalf("down past the last filtered option chose %q", region)
	}
	press("esc")
	press("/")
	press("j") // no option holds it: the filter shows none
	if v := view(); strings.Contains(v, "westus2") {
		t.Fatalf("j typed into the filter was not taken:\n%s", v)
	}
}

// TestSelectEndChoosesTheLast: end (G) on a select chooses its last
// option, as home (g) chooses the first (huh moved the cursor, not the
// value, which another field's options and the text above followed).
func TestSelectEndChoosesTheLast(t *testing.T) {
	var region string
	send, _ := regionSelect(&region)
	press := keyPresser(send)
	for _, c := range []struct{ key, want string }{{"end", "westeurope"}, {"home", "eastus"}, {"G", "westeurope"}, {"g", "eastus"}} {
		press(c.key)
		if region != c.want {
			t.Fatalf("%s chose %q, want %q", c.key, region, c.want)
		}
	}
}

// regionSelect is a form of one select of three regions, choosing into
// region: send hands it a message through a TypeAhead, as the program
// would; view is what it shows.
func regionSelect(region *string) (send func(tea.Msg), view func() string) {
	form := NewForm(common(), huh.NewGroup(
		huh.NewSelect[string]().Title("Region").Value(region).Options(huh.NewOptions("eastus", "westus2", "westeurope")...),
	))
	var ta TypeAhead
	form.Init()
	return func(msg tea.Msg) { form = sendAll(&ta, form, msg) }, func() string { return ansi.Strip(form.View()) }
}

// keyPresser presses keys (by name) through send.
func keyPresser(send func(tea.Msg)) func(string) {
	return func(k string) {
		kp, _ := KeyPress(k)
		send(kp)
	}
}
