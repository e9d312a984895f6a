package tui

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// countedAction is an action whose Run counts its calls and, when gate is
// set, waits for it.
func countedAction(name string, mutating bool, confirm kit.ConfirmKind, calls *atomic.Int32, gate chan struct{}) kit.Action {
	return kit.Action{
		Name: name, Mutating: mutating, Origin: "a",
		Confirm: kit.Confirm{Kind: confirm, Title: name + "?", Name: "orders-prod"},
		Run: func(ctx context.Context) (any, error) {
			calls.Add(1)
			if gate != nil {
				<-gate
			}
			return "ok", nil
		},
	}
}

func TestReadOnlyRefusesMutatingActions(t *testing.T) {
	s := &fakeScreen{id: "a"}
	h := newHarness(t, Options{Profile: "prod", ReadOnly: true, Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{s} }}, 100, 30)
	var calls atomic.Int32
	for _, kind := range []kit.ConfirmKind{kit.ConfirmNone, kit.ConfirmYesNo, kit.ConfirmTypeName} {
		h.Send(kit.ActionRequestMsg{Action: countedAction("delete service orders-prod", true, kind, &calls, nil)})
		if len(h.m.dialogs) != 0 {
			t.Fatalf("read-only profile asked for a confirmation (kind %d)", kind)
		}
		if got := lastToast(h); got != "not allowed on read-only profile prod: delete service orders-prod" {
			t.Fatalf("toast = %q", got)
		}
	}
	if calls.Load() != 0 {
		t.Fatalf("Run called %d times on a read-only profile", calls.Load())
	}
	if len(s.done) != 3 || !errors.Is(s.done[0].Err, kit.ErrReadOnly) {
		t.Fatalf("screen not told of the refusal: %+v", s.done)
	}
	// reading is fine
	h.Send(kit.ActionRequestMsg{Action: countedAction("read credentials", false, kit.ConfirmNone, &calls, nil)})
	if calls.Load() != 1 {
		t.Fatalf("non-mutating action refused on read-only: %d calls", calls.Load())
	}
}

// TestReadOnlyServicesScreen drives the real screen against the sandbox:
// create, allow-list add and remove are refused and the API never sees a
// mutating request.
func TestReadOnlyServicesScreen(t *testing.T) {
	h, srv, _ := demoHarness(t, 100, 30, func(o *Options) { o.ReadOnly, o.Profile = true, "prod-eu" })
	// create: refused at the key, before a form could collect anything
	h.Key("n")
	if got := lastToast(h); got != "not allowed on read-only profile prod-eu: creating a service" {
		t.Fatalf("create toast = %q", got)
	}
	if strings.Contains(h.Screen(), "Create a service") {
		t.Fatalf("the create form opened on a read-only profile:\n%s", h.Screen())
	}
	// allow list of orders-prod: add and remove
	for range 4 {
		h.Key("j")
	}
	h.Key("a")
	h.Key("n")
	if got := lastToast(h); !strings.Contains(got, "not allowed on read-only profile prod-eu: adding to the allow list of orders-prod") {
		t.Fatalf("add toast = %q", got)
	}
	if strings.Contains(h.Screen(), "a /32 is added for one host") {
		t.Fatalf("an input opened on a read-only profile:\n%s", h.Screen())
	}
	h.Key("d")
	if len(h.m.dialogs) != 0 {
		t.Fatal("remove asked for confirmation on a read-only profile")
	}
	if got := lastToast(h); !strings.Contains(got, "not allowed on read-only profile prod-eu: remove 203.0.113.10/32 from the allow list of orders-prod") {
		t.Fatalf("remove toast = %q", got)
	}
	st := srv.Stats()
	for k, n := range st.Requests {
		if !strings.HasPrefix(k, "GET ") && n > 0 {
			t.Errorf("read-only profile sent %d x %s", n, k)
		}
	}
}

func TestConfirmCursorStartsOnNo(t *testing.T) {
	s := &fakeScreen{id: "a"}
	h := newHarness(t, Options{Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{s} }}, 100, 30)
	var calls atomic.Int32
	h.Send(kit.ActionRequestMsg{Action: countedAction("remove 1.2.3.4/32", true, kit.ConfirmYesNo, &calls, nil)})
	d, ok := h.m.dialogs[len(h.m.dialogs)-1].(*kit.ConfirmDialog)
	if !ok || d.OnYes() {
		t.Fatalf("confirmation cursor is not on No")
	}
	h.sees(t, "(cursor on No)", "dialog does not show the cursor")
	h.Key("enter") // enter on the default answers no
	if calls.Load() != 0 || len(h.m.dialogs) != 0 {
		t.Fatalf("enter on the default ran the action (%d calls)", calls.Load())
	}
	if !errors.Is(s.done[0].Err, kit.ErrCancelled) {
		t.Fatalf("screen not told of the cancel: %+v", s.done)
	}
}

func TestTypeNameConfirm(t *testing.T) {
	h := newHarness(t, Options{Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
	var calls atomic.Int32
	h.Send(kit.ActionRequestMsg{Action: countedAction("delete service", true, kit.ConfirmTypeName, &calls, nil)})
	h.TypeText("orders")
	h.Key("enter")
	if calls.Load() != 0 || !strings.Contains(h.Screen(), "does not match") {
		t.Fatalf("a partial name confirmed (%d calls)\n%s", calls.Load(), h.Screen())
	}
	h.TypeText("-prod")
	h.Key("enter")
	if calls.Load() != 1 {
		t.Fatalf("typing the name did not confirm (%d calls)", calls.Load())
	}
}

// TestLiveConfirmClosedSaysWhy: a confirmation closed while what it acts
// on no longer applies (Confirm.Live: the restore finished) says that
// nothing was sent and why, not "cancelled" (read as: the restore was).
func TestLiveConfirmClosedSaysWhy(t *testing.T) {
	h := newHarness(t, Options{Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
	var calls atomic.Int32
	finished := false
	a := countedAction("delete restore 3 into replica-west", true, kit.ConfirmTypeName, &calls, nil)
	a.Confirm.Live = func() (string, string) {
		if finished {
			return "", "restore 3 has already finished (Succeeded)"
		}
		return "", ""
	}
	h.Send(kit.ActionRequestMsg{Action: a})
	h.TypeText("replica")
	finished = true
	h.Key("esc")
	if got := lastToast(h); got != "delete restore 3 into replica-west: not sent: restore 3 has already finished (Succeeded)" || calls.Load() != 0 {
		t.Fatalf("closed after the restore finished: %q (%d calls)", got, calls.Load())
	}
	// while it still applies, esc cancels as before
	finished = false
	h.Send(kit.ActionRequestMsg{Action: a})
	h.Key("esc")
	if got := lastToast(h); got != "delete restore 3 into replica-west: cancelled" {
		t.Fatalf("esc while it applies: %q", got)
	}
}

func TestActionSubmittedOnce(t *testing.T) {
	s := &fakeScreen{id: "a"}
	h := newHarness(t, Options{Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{s} }}, 100, 30)
	var calls atomic.Int32
	gate := make(chan struct{})
	a := countedAction("create service x", true, kit.ConfirmYesNo, &calls, gate)
	h.Send(kit.ActionRequestMsg{Action: a})
	// hammer the dialog: y, enter, y
	h.Deliver(tuitest.KeyMsg("y"))
	h.Deliver(tuitest.KeyMsg("enter"))
	h.Deliver(tuitest.KeyMsg("y"))
	h.Settle()
	// and ask again while the first is being submitted
	h.Send(kit.ActionRequestMsg{Action: a})
	if len(h.m.dialogs) != 0 {
		t.Fatal("a second confirmation opened for an action being submitted")
	}
	close(gate)
	h.Settle()
	if calls.Load() != 1 {
		t.Fatalf("Run called %d times, want 1", calls.Load())
	}
	var busy, ok int
	for _, d := range s.done {
		switch {
		case errors.Is(d.Err, kit.ErrBusy):
			busy++
		case d.Err == nil:
			ok++
		}
	}
	if busy != 1 || ok != 1 {
		t.Fatalf("done messages: %+v", s.done)
	}
}

func TestQuitAsksWhileSubmitting(t *testing.T) {
	h := newHarness(t, Options{Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
	var calls atomic.Int32
	gate := make(chan struct{})
	h.Send(kit.ActionRequestMsg{Action: countedAction("create service x", true, kit.ConfirmNone, &calls, gate)})
	h.sees(t, "submitting: create service x", "no submitting mark")
	_, cmd := h.m.Update(tuitest.KeyMsg("q"))
	if cmd != nil && isQuit(cmd) {
		t.Fatal("quit without asking while submitting")
	}
	h.sees(t, "Quit while submitting?", "no question")
	h.Key("n")
	if h.m.quitting {
		t.Fatal("quit after answering no")
	}
	close(gate)
	h.Settle()
	_, cmd = h.m.Update(tuitest.KeyMsg("q"))
	if !isQuit(cmd) {
		t.Fatal("q did not quit once nothing was being submitted")
	}
}

func isQuit(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

func TestActionErrorToastHasStatusAndTrace(t *testing.T) {
	h := newHarness(t, Options{Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 200, 30)
	h.Send(kit.ActionRequestMsg{Action: kit.Action{Name: "create service x", Mutating: true,
		Run: func(context.Context) (any, error) {
			return nil, &api.Error{Method: "POST", Path: "/provisioning/v1/services", Status: 409, Message: "name already taken", TraceID: "abc123"}
		}}})
	got := lastToast(h)
	for _, want := range []string{"create service x failed", "409 Conflict", "name already taken", "trace abc123"} {
		if !strings.Contains(got, want) {
			t.Errorf("toast %q lacks %q", got, want)
		}
	}
}

// TestSuccessRetiresTheEarlierFailure: an action that failed and then,
// sent again, succeeds leaves no error behind to come back later as if
// current; read-only refusals replace each other (each answers a key).
func TestSuccessRetiresTheEarlierFailure(t *testing.T) {
	h := newHarness(t, Options{Profile: "prod", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 200, 30)
	fail := true
	start := kit.Action{Name: "start replication on replica-west", Mutating: true, Origin: "a",
		Run: func(context.Context) (any, error) {
			if fail {
				return nil, errors.New("the primary refused the replication user (error 1045)")
			}
			return nil, nil
		}}
	h.Send(kit.ActionRequestMsg{Action: start})
	if got := lastToast(h); !strings.Contains(got, "start replication on replica-west failed") {
		t.Fatalf("the failure: %q", got)
	}
	fail = false
	h.Send(kit.ActionRequestMsg{Action: start})
	for _, tt := range h.m.toasts {
		if strings.Contains(tt.text, "failed") {
			t.Fatalf("after the success the failure still waits to be shown: %q", tt.text)
		}
	}
	// a change to another value that succeeds retires the one that failed
	// (same Supersedes), not a failure of another change
	change := func(expr string, err error) kit.Action {
		return kit.Action{Name: `change schedule 1 to "` + expr + `"`, Supersedes: "change schedule 1", Mutating: true, Origin: "a",
			Run: func(context.Context) (any, error) { return nil, err }}
	}
	h.Send(kit.ActionRequestMsg{Action: kit.Action{Name: "delete schedule 2", Mutating: true, Origin: "a",
		Run: func(context.Context) (any, error) { return nil, errors.New("503 Service Unavailable") }}})
	h.Send(kit.ActionRequestMsg{Action: change("0 7 * * *", errors.New("503 Service Unavailable"))})
	h.Send(kit.ActionRequestMsg{Action: change("0 8 * * *", nil)})
	var left []string
	for _, tt := range h.m.toasts {
		if strings.Contains(tt.text, "failed") {
			left = append(left, tt.text)
		}
	}
	if len(left) != 1 || !strings.HasPrefix(left[0], "delete schedule 2 failed") {
		t.Fatalf("after the change to 0 8 succeeded, the failures left: %q", left)
	}
	for _, what := range []string{"edit schedule 1", "suspend schedule 1", "delete schedule 1"} {
		h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: kit.ReadOnlyText(h.m.common, what)})
	}
	var refusals int
	for _, tt := range h.m.toasts {
		if strings.HasPrefix(tt.text, kit.ReadOnlyPrefix) {
			refusals++
		}
	}
	if refusals != 1 || !strings.Contains(lastToast(h), "delete schedule 1") {
		t.Fatalf("%d read-only refusals wait; the newest is %q", refusals, lastToast(h))
	}
}

// TestSentAfterANoRetiresTheCancel: a change answered no, then at once
// asked again and answered yes (n, enter, y in the allow list): once its
// success has had its time, the earlier "cancelled" does not come back
// as the newest message though the change was done.
func TestSentAfterANoRetiresTheCancel(t *testing.T) {
	h := newHarness(t, Options{Profile: "prod", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 200, 30)
	var calls atomic.Int32
	a := countedAction("set the comment of 203.0.113.10/32", true, kit.ConfirmYesNo, &calls, nil)
	a.Success = func(any) string { return "the comment of 203.0.113.10/32 is now \"office LAN\"" }
	h.Send(kit.ActionRequestMsg{Action: a})
	h.Key("n")
	h.toastSays(t, "set the comment of 203.0.113.10/32: cancelled")
	h.Send(kit.ActionRequestMsg{Action: a})
	h.Key("y")
	if calls.Load() != 1 {
		t.Fatalf("%d calls, want 1", calls.Load())
	}
	h.toastSays(t, "is now \"office LAN\"")
	h.Fire(func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok })
	if strings.Contains(h.Screen(), "cancelled") {
		t.Fatalf("after the success the earlier cancel shows as the newest message:\n%s", h.Screen())
	}
}
