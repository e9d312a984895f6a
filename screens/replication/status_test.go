package replication_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/tui/tuitest"
)

// header is the frame's first line (the header: its freshness).
func (h *harness) header() string {
	return strings.SplitN(h.Screen(), "\n", 2)[0]
}

// footer is the frame's last line.
func (h *harness) footer() string {
	lines := strings.Split(h.Screen(), "\n")
	return lines[len(lines)-1]
}

// A pair whose secondary is stopped, failed or pending: the pane says its
// state and the fix of that state (start a stopped one; a failed one does
// not recover by itself; wait for a pending one), the header stays fresh
// (a service's state is no failed request: it read "stale …, retry … -
// analytics-gcp is sto~"), and s/S say why nothing is sent instead of
// asking. It read "Fix  wait until it is ready (a restore or a change is
// running)" for a stopped service, where nothing runs.
func TestStatusSecondaryNotReady(t *testing.T) {
	for _, tc := range []struct {
		secondary string
		status    string
		fix       string
	}{
		{"legacy-batch", "the secondary legacy-batch is stopped: it does not replicate",
			"start it: :start legacy-batch (or x on the Services screen)"},
		{"broken-import", "the secondary broken-import is failed", "a failed service does not become ready by itself"},
		{"reporting-new", "the secondary reporting-new is pending_create: a change is running on it", "wait until it is ready"},
	} {
		t.Run(tc.secondary, func(t *testing.T) {
			d := newDemo(t)
			_, sec := d.skyPair("orders-prod", tc.secondary, "")
			h := d.replication(nil, tc.secondary+" is "+sec.Status)
			if hd := h.header(); strings.Contains(hd, "stale") || strings.Contains(hd, "no data") || !strings.Contains(hd, "updated") {
				t.Errorf("the header reports the service's state as a failed refresh: %q", hd)
			}
			scr := strings.Join(strings.Fields(h.Screen()), " ")
			for _, want := range []string{"Status " + tc.status, "Fix " + tc.fix} {
				if !strings.Contains(scr, want) {
					t.Errorf("the pane lacks %q:\n%s", want, h.Screen())
				}
			}
			if strings.Contains(scr, "could not be read") || strings.Contains(scr, "a restore or a change is running") {
				t.Errorf("the service's state reads as a failed read:\n%s", h.Screen())
			}
			h.Key("s")
			if strings.Contains(h.Screen(), "Stop replication?") {
				t.Fatalf("s on a %s secondary asks:\n%s", sec.Status, h.Screen())
			}
			if got := h.lastToast(); !strings.Contains(got, tc.secondary+" is "+sec.Status) || !strings.Contains(got, "nothing was sent; "+tc.fix[:20]) {
				t.Errorf("s on a %s secondary: %q", sec.Status, got)
			}
		})
	}
}

// A managed pair whose primary is stopped: the replica's IO thread cannot
// connect (2003), and the fix is to start the primary, not the allow
// list's step 1 (which a managed pair does not have).
func TestStatusPrimaryStopped(t *testing.T) {
	d := stoppedPrimaryPair(t)
	h := d.replication(nil, "Problem       the primary orders-prod is stopped: nothing replicates from it",
		"Fix           start it: :start orders-prod (or x on the Services screen)")
	if strings.Contains(h.Screen(), "allow list (step 1)") {
		t.Fatalf("a stopped primary's fix is the allow list's:\n%s", h.Screen())
	}
}

// stoppedPrimaryPair is the demo with a managed pair whose primary,
// orders-prod, is stopped.
func stoppedPrimaryPair(t *testing.T) *demo {
	t.Helper()
	d := newDemo(t)
	pri, _ := d.managedPair("uni-directional")
	if err := d.c.StopService(bg, pri.ID); err != nil {
		t.Fatal(err)
	}
	d.clk.Advance(time.Hour)
	if s := d.byName("orders-prod"); s.Status != "stopped" {
		t.Fatalf("orders-prod is %s", s.Status)
	}
	return d
}

// At 60x16 a managed pair whose primary is stopped says so, and what to
// do, at the top of its pane, as a stopped secondary does: they came
// after Method, Replicas and the threads, under "~ 21 more lines".
func TestStatusPrimaryStoppedComesFirst(t *testing.T) {
	d := stoppedPrimaryPair(t)
	h := d.app(60, 16, nil)
	h.Key("4")
	h.Until("the replica's status read", func() bool {
		return strings.Contains(h.Screen(), "IO") && !strings.Contains(h.Screen(), "reading the replica status")
	})
	scr := strings.Join(strings.Fields(h.Screen()), " ")
	problem, fix, method := strings.Index(scr, "Problem the primary orders-prod is stopped"), strings.Index(scr, "Fix start it: :start orders-prod"), strings.Index(scr, "Method")
	if problem < 0 || fix < problem || (method >= 0 && method < fix) {
		t.Fatalf("the stopped primary's Problem and Fix should be the pane's first lines, before Method:\n%s", h.Screen())
	}
}

// The footer names the one of s/S that the pair's threads leave to do (s
// while replication runs, S once it is stopped; it named s and dropped
// S), after a managed pair's own E, and s on a stopped replication says
// it is stopped already instead of asking "Stop replication?" again.
func TestStatusFooterFollowsThreads(t *testing.T) {
	d := newDemo(t)
	h, _ := d.managedStatus(80, 24)
	if f := h.footer(); !strings.Contains(f, "E end managed replication  s stop") {
		t.Errorf("a managed pair's footer does not name E first: %q", f)
	}
	if f := h.footer(); !strings.Contains(f, "s stop replication") || strings.Contains(f, "S start") {
		t.Errorf("running: footer %q", f)
	}
	h.saysAlready("S", "Start replication?", "replication runs already on")
	h.Key("s")
	h.Sees("Stop replication?")
	var box []string // the dialog's lines, inside its border
	for _, l := range strings.Split(h.Screen(), "\n") {
		if i, j := strings.Index(l, "|"), strings.LastIndex(l, "|"); i >= 0 && j > i {
			box = append(box, l[i+1:j])
		}
	}
	if said := strings.Join(strings.Fields(strings.Join(box, " ")), " "); !strings.Contains(said, "Managed replication stays set up (E ends it).") {
		t.Errorf("the stop of a managed pair's threads does not say it stays set up:\n%s", h.Screen())
	}
	h.Key("y")
	h.Until("the threads stop", func() bool { return strings.Contains(h.Screen(), "IO thread     No") })
	if f := h.footer(); !strings.Contains(f, "S start replication") || strings.Contains(f, "s stop") {
		t.Errorf("stopped: footer %q", f)
	}
	h.saysAlready("s", "Stop replication?", "replication is stopped already")
	h.Key("S")
	h.Sees("Start replication?")
}

// saysAlready presses key, whose change is made already: it says so in
// a toast rather than asking question.
func (h *harness) saysAlready(key, question, toast string) {
	h.T.Helper()
	h.Key(key)
	if strings.Contains(h.Screen(), question) {
		h.T.Errorf("%s asks %q though it is done already:\n%s", key, question, h.Screen())
		h.Key("n")
	} else if got := h.lastToast(); !strings.Contains(got, toast) {
		h.T.Errorf("%s: toast %q, want %q", key, got, toast)
	}
}

// readsOver is the pane's count of reads its lag's maximum is over
// ("max 0s over the last 3 reads"), or -1.
func readsOver(scr string) int {
	m := regexp.MustCompile(`over the last (\d+) reads`).FindStringSubmatch(scr)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// While the replica is stopped, its row's READ column says when the
// status was last read, as the pane's "Last read" does (it said "0s ago":
// when the stopped service was last seen), and the pane's "over the last
// N reads" counts the polls that read a status, not those that found the
// replica stopped.
func TestStatusReadWhileReplicaStopped(t *testing.T) {
	d := newDemo(t)
	h, rep := d.managedStatus(120, 40)
	for range 3 {
		d.clk.Advance(2 * time.Second)
		h.FirePolls()
	}
	h.Until("reads counted", func() bool { return readsOver(h.Screen()) > 1 })
	reads := readsOver(h.Screen())
	if err := d.c.StopService(bg, rep.ID); err != nil {
		t.Fatal(err)
	}
	d.clk.Advance(time.Hour)
	for range 3 {
		d.clk.Advance(2 * time.Second)
		h.FirePolls()
	}
	h.Until("the replica found stopped", func() bool { return strings.Contains(h.Screen(), "shown below") })
	scr := h.Screen()
	ago := regexp.MustCompile(`Last read +[0-9:]+ \(([^)]+ ago)\); shown below`).FindStringSubmatch(strings.Join(strings.Fields(scr), " "))
	if ago == nil || ago[1] == "0s ago" {
		t.Fatalf("the pane should say when the status was last read, an hour ago:\n%s", scr)
	}
	row := ""
	for _, l := range strings.Split(scr, "\n") {
		if strings.Contains(l, "> orders-prod") {
			row = l
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(row), ago[1]) {
		t.Errorf("the row's READ should say %q, as the pane does: %q\n%s", ago[1], row, scr)
	}
	if got := readsOver(scr); got != reads {
		t.Errorf("the lag's maximum should be over the %d reads that read a status, not %d:\n%s", reads, got, scr)
	}
}

// cliSave saves pair for the demo profile as `skytui replication setup`
// does while the screen runs: read, add, write the whole file.
func (d *demo) cliSave(pair replsetup.Pair) {
	d.t.Helper()
	store := replsetup.DefaultStore()
	ps, err := store.Load("demo")
	if err != nil {
		d.t.Fatal(err)
	}
	ps.WithPair(pair)
	if err := store.Save("demo", ps, 0); err != nil {
		d.t.Fatal(err)
	}
}

// A pair saved by the command line (`skytui replication setup …
// --managed`) while the screen runs is listed at the next refresh (r):
// only a restart listed it.
func TestPairSavedElsewhereListedOnRefresh(t *testing.T) {
	d := newDemo(t)
	h := d.replication(nil, "No replication set up with skytui yet.")
	pri, rep := d.byName("orders-prod"), d.byName("replica-west")
	if _, err := d.c.StartManagedReplication(bg, rep.ID, pri.ID, "uni-directional"); err != nil {
		t.Fatal(err)
	}
	d.cliSave(replsetup.ManagedPair(&pri, &rep, "uni-directional", d.clk.Now()))
	h.Key("r")
	h.Until("the pair listed", func() bool { return strings.Contains(h.Screen(), "> orders-prod  replica-west") })
	h.Sees("Replication 1 pair")
	h.Sees("managed replication (uni-directional)")
}

// A setup under way in the wizard while the command line saves a pair:
// the wizard's save (esc keeps its progress) keeps that pair in the file,
// and the list shows it under the unfinished setup (the save wrote the
// screen's state whole, and the pair was gone).
func TestPairSavedElsewhereKeptBySetup(t *testing.T) {
	d := newDemo(t)
	h := d.replication(nil, "No replication set up with skytui yet.")
	h.Key("n")
	h.Sees("Choose the PRIMARY")
	h.choosePair("orders-prod", "replica-west")
	h.Sees("Step 1 of 6")
	pri, sec := d.byName("staging-eu"), d.byName("analytics-gcp")
	d.cliSave(replsetup.Pair{PrimaryID: pri.ID, PrimaryName: pri.Name, SecondaryID: sec.ID, SecondaryName: sec.Name, ConfiguredAt: d.clk.Now()})
	h.Key("esc")
	h.Until("the pair listed", func() bool { return strings.Contains(h.Screen(), "> staging-eu") })
	h.Sees("Unfinished setup: orders-prod -> replica-west")
	ps, err := replsetup.DefaultStore().Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(ps.Pairs) != 1 || ps.Pairs[0].SecondaryID != sec.ID || ps.Setup == nil || ps.Setup.SecondaryID != d.byName("replica-west").ID {
		t.Fatalf("the file should keep the pair saved elsewhere and the setup's progress: %+v", ps)
	}
}

// TestStatusIOStateReadableAt60: at 60x16 the IO column keeps enough of
// "Connecting" to read it (it showed "Co~": the problem's word lost in
// the list).
func TestStatusIOStateReadableAt60(t *testing.T) {
	d := newDemo(t)
	pri, sec := d.byName("analytics-gcp"), d.byName("dev-serverless") // long names: the IO column gives way first
	eng := &replsetup.Engine{Client: d.c, Now: d.clk.Now}
	w := replsetup.NewWizard(d.clk.Now())
	w.Apply(eng.CheckPair(bg, pri.ID, sec.ID), d.clk.Now())
	allow := eng.CheckAllowList(bg, w.Progress)
	if len(allow.Missing) > 0 {
		allow = eng.AddAllowList(bg, w.Progress, allow.Missing)
	}
	w.Apply(allow, d.clk.Now())
	o := eng.ListBackups(bg, w.Progress)
	w.Apply(o, d.clk.Now())
	if err := w.ChooseBackup(o.Backup.Backup.Key, d.clk.Now()); err != nil {
		t.Fatal(err)
	}
	w.Apply(eng.StartRestore(bg, w.Progress), d.clk.Now())
	d.clk.Advance(12 * time.Hour) // a large backup's restore
	w.Apply(eng.CheckRestore(bg, w.Progress), d.clk.Now())
	w.Apply(eng.ChangePrimary(bg, w.Progress), d.clk.Now())
	w.GrantRanByUser(d.clk.Now()) // it was not: the IO thread stays Connecting (1045)
	pair := replsetup.PairOf(w.Progress, d.clk.Now())
	if _, err := eng.SetReplication(bg, pair, true); err != nil {
		t.Fatal(err)
	}
	d.savePair(pair)
	h := d.app(60, 16, nil)
	h.Key("4")
	h.Until("the status read", func() bool { return strings.Contains(h.Screen(), "1045") || strings.Contains(h.Screen(), "Connec") })
	if row := tuitest.LineWith(h.Screen(), "> analytics"); !strings.Contains(row, "Connec") {
		t.Fatalf("the IO state is cut past reading at 60 columns: %q\n%s", row, h.Screen())
	}
}
