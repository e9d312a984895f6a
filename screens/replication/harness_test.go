package replication_test

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/screens/replication"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

// The real application (tui.Model with every screen) driven without a
// terminal: commands run in goroutines and their messages are fed back;
// timers are recorded and fired by the test, so nothing depends on time.

var bg = context.Background()

// demo is the demo sandbox with its SQL endpoints, on a manual clock.
type demo struct {
	t     *testing.T
	srv   *sandbox.Server
	clk   *sandbox.ManualClock
	c     *api.Client
	state string // the user state directory of this test
}

func newDemo(t *testing.T) *demo {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	// in-process HTTP: the header shows a fixed host; the services' SQL
	// endpoints are real loopback listeners all the same
	srv, clk, c := tuitest.SandboxWith(t, sandbox.Options{DemoData: true, SQL: sandbox.SQLDemo, Seed: 7})
	return &demo{t: t, srv: srv, clk: clk, c: c, state: state}
}

func (d *demo) byName(name string) api.Service {
	d.t.Helper()
	return tuitest.Service(d.t, d.c, name)
}

// failAllowList removes the entries of pri's allow list that admit sec,
// so that step 1 fails.
func (d *demo) failAllowList(pri, sec api.Service) {
	d.t.Helper()
	for _, e := range pri.AllowList() {
		if replsetup.AllowedBy(sec.OutboundIPs[0], []api.AllowListEntry{e}) != "" {
			if _, err := d.c.RemoveAllowListEntry(bg, pri.ID, e.IP); err != nil {
				d.t.Fatal(err)
			}
		}
	}
}

func (d *demo) stateFile() string {
	return filepath.Join(d.state, "skytui", replsetup.StateFileName)
}

// harness drives the whole application (see tuitest.Harness); it
// settles after a second without an answer.
type harness struct {
	*tuitest.Harness
	d    *demo
	m    *tui.Model
	w, h int
}

func (d *demo) app(w, h int, tweak func(*tui.Options)) *harness {
	d.t.Helper()
	opts := tui.Options{Client: d.c, Profile: "demo", Demo: true, Now: d.clk.Now, SlowInterval: 30 * time.Second,
		After: tuitest.After, Getenv: func(string) string { return "" }}
	if tweak != nil {
		tweak(&opts)
	}
	h2 := &harness{d: d, m: tui.New(opts), w: w, h: h}
	h2.Harness = (&tuitest.Harness{T: d.t, Model: h2.m, Render: h2.render, Quiet: time.Second}).Start(w, h)
	return h2
}

// render is the frame without escape sequences, the services' SQL ports
// (random loopback ports) replaced by fixed ones of the same width (the
// harness's Screen strips nothing more).
func (h *harness) render() string {
	out := ansi.Strip(h.m.Render())
	svcs, err := h.d.c.ListServices(bg)
	if err != nil {
		return out
	}
	// two passes: a real port may equal a fixed one (40004 given to one
	// service, 40004 put for another), so each real port becomes a mark
	// first and the marks become the fixed ports after
	fixed := map[string]string{}
	for i, s := range svcs {
		p := s.ReadWritePort()
		if p <= 0 {
			continue
		}
		ps := strconv.Itoa(p)
		f := strconv.Itoa(40001 + i)
		if len(f) != len(ps) {
			f = strings.Repeat("9", len(ps))
		}
		mark := "\x00" + strconv.Itoa(i) + "\x00"
		fixed[mark] = f
		re := regexp.MustCompile(`(^|[^0-9A-Za-z-])` + ps + `([^0-9A-Za-z-]|$)`)
		out = re.ReplaceAllString(out, "${1}"+mark+"${2}")
	}
	for mark, f := range fixed {
		out = strings.ReplaceAll(out, mark, f)
	}
	return out
}

// lastToast is the message line's text, whole.
func (h *harness) lastToast() string { return h.m.Message() }

// replication is the application at 120x40 on the Replication screen
// (4), which must show what shows say.
func (d *demo) replication(tweak func(*tui.Options), shows ...string) *harness {
	d.t.Helper()
	h := d.app(120, 40, tweak)
	h.Key("4")
	for _, s := range shows {
		h.Sees(s)
	}
	return h
}

// save writes the demo profile's replication state, as an earlier run
// would have left it.
func (d *demo) save(st replsetup.ProfileState) {
	d.t.Helper()
	store := replsetup.DefaultStore()
	if err := store.Save("demo", st, store.NextSeq()); err != nil {
		d.t.Fatal(err)
	}
}

// saveAtAllowList saves an unfinished setup of pri -> sec checked up to
// its allow-list step (step 1), as a setup left there earlier.
func (d *demo) saveAtAllowList(pri, sec api.Service) {
	d.t.Helper()
	eng := &replsetup.Engine{Client: d.c, Now: d.clk.Now}
	w := replsetup.NewWizard(d.clk.Now())
	w.Apply(eng.CheckPair(bg, pri.ID, sec.ID), d.clk.Now())
	w.Apply(eng.CheckAllowList(bg, w.Progress), d.clk.Now())
	step1 := w.Progress
	d.save(replsetup.ProfileState{Setup: &step1})
}

// saveAtPair saves an unfinished setup of pri -> sec gone back to its
// pair step (bksp from step 1 on a writable profile, then left).
func (d *demo) saveAtPair(pri, sec api.Service) {
	d.t.Helper()
	eng := &replsetup.Engine{Client: d.c, Now: d.clk.Now}
	w := replsetup.NewWizard(d.clk.Now())
	w.Apply(eng.CheckPair(bg, pri.ID, sec.ID), d.clk.Now())
	w.GoTo(replsetup.StepPair)
	p := w.Progress
	d.save(replsetup.ProfileState{Setup: &p})
}

// readOnly makes the demo profile read-only (its own read_only).
func readOnly(o *tui.Options) { o.ReadOnly = true }

// readOnlyRun is a run started with --read-only on the (writable) demo
// profile.
func readOnlyRun(o *tui.Options) { o.ReadOnly, o.ReadOnlyFlag = true, true }

// savePair saves one pair set up earlier.
func (d *demo) savePair(p replsetup.Pair) {
	d.t.Helper()
	d.save(replsetup.ProfileState{Pairs: []replsetup.Pair{p}})
}

// skyPair saves a pair of the sky procedures, secondary from primary (by
// name), configured now, with method (MethodGTID, or "": not said).
func (d *demo) skyPair(primary, secondary, method string) (pri, sec api.Service) {
	d.t.Helper()
	pri, sec = d.byName(primary), d.byName(secondary)
	d.savePair(replsetup.Pair{PrimaryID: pri.ID, PrimaryName: pri.Name, SecondaryID: sec.ID, SecondaryName: sec.Name, Method: method, ConfiguredAt: d.clk.Now()})
	return pri, sec
}

// managedSetup is the app at w x h on the Replication screen with the
// managed setup open (4, n, m), at the primary's choice.
func (d *demo) managedSetup(w, h int) *harness {
	d.t.Helper()
	hs := d.app(w, h, nil)
	hs.Keys("4", "n", "m")
	return hs
}

// managedStatus is a uni-directional managed pair (orders-prod ->
// replica-west, as managedPair) on the status list of a w x h app, its
// threads read; it returns the app and the replica.
func (d *demo) managedStatus(w, h int) (*harness, api.Service) {
	d.t.Helper()
	_, rep := d.managedPair("uni-directional")
	a := d.app(w, h, nil)
	a.Key("4")
	a.Until("the threads read", func() bool { return strings.Contains(a.Screen(), "IO thread     Yes") })
	return a, rep
}

// managedPair starts managed replication of replica-west from orders-prod
// (mode: uni-directional, bi-directional) and saves the pair, as the
// managed setup does: the two services.
func (d *demo) managedPair(mode string) (pri, rep api.Service) {
	d.t.Helper()
	pri, rep = d.byName("orders-prod"), d.byName("replica-west")
	if _, err := d.c.StartManagedReplication(bg, rep.ID, pri.ID, mode); err != nil {
		d.t.Fatal(err)
	}
	d.savePair(replsetup.ManagedPair(&pri, &rep, mode, d.clk.Now()))
	return pri, rep
}

// pick filters a list of services on name and presses enter on it.
func (h *harness) pick(name string) {
	h.T.Helper()
	h.Key("/")
	h.TypeText(name)
	h.Keys("enter", "enter")
}

// forgetPair forgets the only pair on the status list (d, then y).
func (h *harness) forgetPair() {
	h.T.Helper()
	h.Key("d")
	h.Sees("Forget this pair?")
	h.Key("y")
	h.Sees("No replication set up with skytui yet.")
}

// refused presses k on a read-only profile: the message line says
// read-only, and nothing is asked (notAsked does not show).
func (h *harness) refused(k string, notAsked ...string) {
	h.T.Helper()
	h.Key(k)
	for _, q := range notAsked {
		if strings.Contains(h.Screen(), q) {
			h.T.Fatalf("read-only asked %q instead of refusing", q)
		}
	}
	if !strings.Contains(h.lastToast(), "read-only") {
		h.T.Fatalf("toast %q", h.lastToast())
	}
}

// goldenSizes runs test at 80x24 and 140x40, each in a subtest named by
// the size, on a new demo.
func goldenSizes(t *testing.T, test func(t *testing.T, d *demo, w, h int)) {
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			test(t, newDemo(t), size[0], size[1])
		})
	}
}

// snapper compares the frame, which must fill the terminal, with the
// golden file of t's subtest name (regenerated with -update).
func (h *harness) snapper(t *testing.T) func(name string) {
	return func(name string) {
		t.Helper()
		out := h.Screen()
		t.Run(name, func(t *testing.T) {
			tuitest.CheckFrame(t, out, h.w, h.h)
			golden.RequireEqual(t, out)
		})
	}
}

// activeScreen is the visible screen.
func (h *harness) active() *replication.Screen {
	s, _ := h.m.Active().(*replication.Screen)
	return s
}

// flat is the frame's words on one line (wrapping undone).
func (h *harness) flat() string { return strings.Join(strings.Fields(h.Screen()), " ") }

// selectedRow is the status list's row under the cursor when its pair's
// primary is primary, else "".
func (h *harness) selectedRow(primary string) string {
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.Contains(l, "> "+primary) {
			return l
		}
	}
	return ""
}

// clockTick fires the root's clock tick (relative times re-rendered).
func (h *harness) clockTick() {
	h.Fire(func(m tea.Msg) bool { return fmt.Sprintf("%T", m) == "tui.clockMsg" })
}
