package restoreform

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestRestorePointInTime: the fourth source. The step lists the services
// with their windows and shows the typed moment in UTC and local time; a
// moment outside the window is refused naming it, with nothing sent; one
// inside reaches the confirmation with the request the description
// documents, and the submit starts that restore on the sandbox.
func TestRestorePointInTime(t *testing.T) {
	e := rtSetup(t, false)
	orders, replica := e.byName["orders-prod"], e.byName["replica-west"]
	w := e.wizard(t, Options{})
	if !strings.Contains(rtView(w), "4  Point in time") {
		t.Fatalf("no point-in-time source:\n%s", rtView(w))
	}
	rtPress(w, "4")
	if w.Source() != SourcePointInTime || w.StepName() != "target" {
		t.Fatalf("source %v, step %s", w.Source(), w.StepName())
	}
	w.targets.Select(replica.ID)
	rtPress(w, "enter")
	if w.StepName() != "point-in-time" {
		t.Fatalf("step %s", w.StepName())
	}
	res := w.Resources()
	if len(res) != 1 {
		t.Fatalf("resources %v", res)
	}
	data, err := res[0].Fetch(context.Background())
	if err != nil || !w.OnData(kit.DataMsg{Key: res[0].Key, Data: data}) {
		t.Fatal(err)
	}
	win, ok := api.WindowOf(data.([]api.PITRWindow), orders.ID)
	if !ok {
		t.Fatalf("orders-prod has no window: %v", data)
	}
	w.pitr.table.Select(orders.ID)
	out := rtView(w)
	if !strings.Contains(out, "orders-prod") || !strings.Contains(out, "window of orders-prod: "+win.String()) || !strings.Contains(out, "accepted: ") {
		t.Fatalf("the step does not show the window and the accepted forms:\n%s", out)
	}

	// typing shows UTC and local side by side
	inside := tuitest.T0.Add(-time.Hour).UTC()
	typed := inside.Format("2006-01-02 15:04")
	rtType(w, typed)
	if out := rtView(w); !strings.Contains(out, inside.Format(api.PITRTimeLayout)+" UTC") || !strings.Contains(out, " local") {
		t.Fatalf("the moment is not shown in both zones:\n%s", out)
	}

	// outside the window: refused, naming it; no command, so nothing sent
	w.pitr.moment.SetValue(win.Start.Add(-24 * time.Hour).UTC().Format("2006-01-02 15:04"))
	if msgs := rtPress(w, "enter"); len(msgs) != 0 || w.StepName() != "point-in-time" {
		t.Fatalf("an outside moment produced %v, step %s", msgs, w.StepName())
	}
	if out := rtView(w); !strings.Contains(w.stepErr, "outside the window of orders-prod: "+win.String()) ||
		!strings.Contains(out, "! nothing was sent: point_in_time:") || !strings.Contains(out, "outside the window of orders-prod") {
		t.Fatalf("the refusal does not name the window:\n%s", out)
	}
	// not a moment: the accepted forms are named, what was typed kept
	w.pitr.moment.SetValue("yesterday noon")
	rtPress(w, "enter")
	if out := rtView(w); !strings.Contains(out, `"yesterday noon" is not a moment`) || !strings.Contains(out, "RFC 3339") || w.pitr.moment.Value() != "yesterday noon" {
		t.Fatalf("a bad moment:\n%s", out)
	}

	// inside: the targets lookup, then the confirmation
	w.pitr.moment.SetValue(typed)
	msgs := rtPress(w, "enter")
	if len(msgs) != 1 {
		t.Fatalf("enter produced %v", msgs)
	}
	rtRun(w, w.Update(msgs[0]))
	cf := w.Confirm()
	if cf == nil {
		t.Fatalf("not at the confirmation: %s\n%s", w.StepName(), rtView(w))
	}
	wantReq := `"service_id":"` + replica.ID + `","id":"` + orders.ID + `","point_in_time":"` + inside.Format(api.PITRTimeLayout) + `"`
	if !strings.Contains(cf.Request, wantReq) || !strings.Contains(cf.Source, "orders-prod as it was at "+inside.Format(api.PITRTimeLayout)+" UTC") {
		t.Fatalf("confirmation request %s, source %s", cf.Request, cf.Source)
	}
	rtType(w, "replica-west")
	a, done := rtAction(t, rtPress(w, "enter"))
	if !a.Mutating || !done.Submitted {
		t.Fatalf("action %+v", a)
	}
	res2, err := a.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r := res2.(*api.Restore)
	if r.ServiceID != replica.ID || r.Status != "Running" {
		t.Fatalf("restore %+v", r)
	}
}

// TestPointInTimeSourcesSayWhyNot: a source that cannot serve the target
// (another provider) says why in words in the list's CANNOT BE column,
// not by its colour alone, at 120, 80 and 60 columns (there FROM gives
// way, the name and CANNOT BE stay, whole).
func TestPointInTimeSourcesSayWhyNot(t *testing.T) {
	e := rtSetup(t, false)
	orders := e.byName["orders-prod"]
	var target api.Service
	for _, v := range e.byName {
		if v.Provider != "" && v.Provider != orders.Provider && api.RestoreTargetProblem(v) == "" {
			target = v
			break
		}
	}
	if target.ID == "" {
		t.Skip("the sandbox has no ready service on another provider than orders-prod's")
	}
	w := e.wizard(t, Options{})
	rtPress(w, "4")
	w.targets.Select(target.ID)
	rtPress(w, "enter")
	res := w.Resources()
	data, err := res[0].Fetch(context.Background())
	if err != nil || !w.OnData(kit.DataMsg{Key: res[0].Key, Data: data}) {
		t.Fatal(err)
	}
	if _, ok := api.WindowOf(data.([]api.PITRWindow), orders.ID); !ok {
		t.Fatalf("orders-prod has no window: %v", data)
	}
	for _, width := range []int{120, 80, 60} {
		w.SetSize(width, 24)
		for _, win := range w.pitr.windows {
			src := w.service(win.ServiceID)
			if src.Provider == "" || src.Provider == target.Provider {
				continue
			}
			want := "other cloud (" + src.Provider + ")"
			w.pitr.table.Select(win.ServiceID)
			out := rtView(w)
			if line := tuitest.LineWith(out, src.Name+" "); !strings.Contains(out, "CANNOT BE") || !strings.Contains(line, want) {
				t.Errorf("at %d columns the %s row does not say %q:\n%s", width, src.Name, want, out)
			}
		}
	}
	w.pitr.table.Select(orders.ID)
	rtType(w, tuitest.T0.Add(-time.Hour).UTC().Format("2006-01-02 15:04"))
	rtPress(w, "enter")
	if !strings.Contains(w.stepErr, "possible only within the same cloud provider") {
		t.Fatalf("enter on orders-prod: %q", w.stepErr)
	}
}

// TestPointInTimeListSaysItIsCut: at 60x16 (the wizard's 12 lines) the
// list of services with a history shows two of them; the line under it
// says how many are below and above and names the arrows (letters go
// into the moment), and the window of the chosen service still shows.
func TestPointInTimeListSaysItIsCut(t *testing.T) {
	wz, win := pitrAt(t, 60, 12)
	n := len(wz.pitr.windows)
	if n < 4 {
		t.Fatalf("only %d services with a window", n)
	}
	wz.pitr.table.Select(wz.pitr.windows[0].ServiceID)
	v := rtView(wz)
	tuitest.CheckFits(t, "the point-in-time step", v, 60, 12)
	shown := 0
	for _, w := range wz.pitr.windows {
		if tuitest.LineWith(v, kit.Or(w.ServiceName, w.ServiceID)+"  ") != "" { // a row's cell
			shown++
		}
	}
	if shown == n {
		t.Fatalf("every service shows at 60x12; the test needs a cut list:\n%s", v)
	}
	if want := "down: " + kit.Count(n-shown, "more service", "more services"); !strings.Contains(v, want) {
		t.Fatalf("the cut list does not say %q:\n%s", want, v)
	}
	for range n {
		rtPress(wz, "down")
	}
	v = rtView(wz)
	tuitest.CheckFits(t, "the point-in-time step at its last service", v, 60, 12)
	if want := "up: " + kit.Count(n-shown, "service", "services") + " above"; !strings.Contains(v, want) || strings.Contains(v, "more service") {
		t.Fatalf("at the last service the line does not say %q alone:\n%s", want, v)
	}
	wz.pitr.table.Select(win.ServiceID)
	if v := rtView(wz); !strings.Contains(v, "window of orders-prod: ") || !strings.Contains(v, "Moment: ") {
		t.Fatalf("the moment or the window gave way to the line:\n%s", v)
	}
}
