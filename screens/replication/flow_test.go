package replication_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

// choosePair picks the primary and the secondary in the wizard's list by
// filtering on their names.
func (h *harness) choosePair(primary, secondary string) {
	h.T.Helper()
	h.pick(primary)
	h.Sees("Choose the SECONDARY")
	h.pick(secondary)
}

// toRestored drives the wizard through step 3 (keys, and the sandbox
// clock for the restore).
func (h *harness) toRestored() {
	h.T.Helper()
	h.toRestoring()
	h.d.clk.Advance(time.Hour)
	h.FirePolls()
	h.Sees("PASS  3 Restore")
	h.Sees("replica-west's default username and password are now those of orders-prod")
}

// toRunning drives the wizard through its six steps to replication that
// runs (keys, and the sandbox clock for the restore), copying the grant
// with y on the way.
func (h *harness) toRunning() {
	h.T.Helper()
	h.toRestored()
	h.Sees("Step 4 of 6")
	h.Sees("CALL sky.change_external_primary_gtid('" + h.d.byName("orders-prod").FQDN + "'")
	h.Key("enter")
	h.Sees("PASS  4 Change primary")
	h.Sees("Step 5 of 6")
	grant := regexp.MustCompile(`GRANT REPLICATION SLAVE ON \*\.\* TO 'skysql_replication_[a-z0-9]+'@'[0-9.]+' IDENTIFIED BY '[0-9A-F]{24}';`)
	if !grant.MatchString(strings.ReplaceAll(h.Screen(), "\n  ", " ")) {
		h.T.Fatalf("no grant shown verbatim:\n%s", h.Screen())
	}
	h.Key("y")
	if len(h.Raw) == 0 || !strings.Contains(h.Raw[len(h.Raw)-1], "\x1b]52;c;") {
		h.T.Fatalf("y did not copy the grant by OSC 52: %q", h.Raw)
	}
	h.Key("enter") // run the grant on the primary
	h.Sees("PASS  5 Grant")
	h.Sees("Step 6 of 6")
	h.Key("enter") // start
	h.Sees("orders-prod -> replica-west set up")
}

// The real screen, driven by keys only, through the demo to Yes / Yes.
func TestFlowDemoToYesYes(t *testing.T) {
	d := newDemo(t)
	h := d.replication(nil, "No replication set up with skytui yet.")
	h.toRunning()
	out := h.Screen()
	for _, w := range []string{"IO thread     Yes", "SQL thread    Yes", "Gtid_IO_Pos", "Last IO err   none"} {
		if !strings.Contains(out, w) {
			t.Fatalf("status view lacks %q:\n%s", w, out)
		}
	}
	// the lag's history grows with each poll
	for range 5 {
		d.clk.Advance(5 * time.Second)
		h.FirePolls()
	}
	if !strings.Contains(h.Screen(), "over the last 6 reads") {
		t.Fatalf("no history after 6 polls:\n%s", h.Screen())
	}
}

func fileText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The app closed after the grant was shown: a new one (a new model on the
// same state directory) offers to resume, continues at step 5 (the grant
// read again from the secondary, never from the file), and the state file
// never held a secret.
func TestFlowResumeAfterRestart(t *testing.T) {
	d := newDemo(t)
	h := d.app(120, 40, nil)
	h.toRestored()
	h.Key("enter")
	h.Sees("Step 5 of 6")
	pri, sec := d.byName("orders-prod"), d.byName("replica-west")
	priCreds, _ := d.c.GetCredentials(bg, pri.ID)
	secrets := []string{priCreds.Password, "IDENTIFIED", "GRANT", tuitest.TestKey}
	text := fileText(t, d.stateFile())
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Fatalf("the state file holds a secret (%q):\n%s", s, text)
		}
	}
	for _, w := range []string{`"step": "grant"`, `"restore_id"`, `"gtid": "0-`, pri.ID, sec.ID} {
		if !strings.Contains(text, w) {
			t.Fatalf("the state file lacks %s:\n%s", w, text)
		}
	}

	// restart
	h2 := d.replication(nil, "Unfinished setup: orders-prod -> replica-west, at step 5 (Grant). c continues it")
	h2.Key("c")
	h2.Sees("Step 5 of 6")
	for _, s := range []string{"PASS    Pair", "PASS  1 Allow list", "PASS  2 Backup", "PASS  3 Restore", "PASS  4 Change primary"} {
		h2.Sees(s)
	}
	h2.Sees("IDENTIFIED BY") // read again with replication_grants
	h2.Key("enter")
	h2.Sees("Step 6 of 6")
	h2.Key("enter")
	h2.Sees("IO thread     Yes")
	if _, err := os.Stat(d.stateFile()); err != nil {
		t.Fatal(err)
	}
	text = fileText(t, d.stateFile())
	if strings.Contains(text, `"setup"`) || !strings.Contains(text, `"pairs"`) {
		t.Fatalf("after the setup the file should hold the pair and no setup:\n%s", text)
	}
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Fatalf("the state file holds a secret (%q):\n%s", s, text)
		}
	}
	// a third start shows the pair, polled
	d.replication(nil, "IO thread     Yes")
}

// A read-only profile: a new setup is refused at n, before a pair is
// chosen; an unfinished one (begun before the profile was made read-only)
// can be looked at, and its every mutating step is refused by the action
// layer; nothing changes on the API or on the servers.
func TestFlowReadOnlyRefusesEveryChange(t *testing.T) {
	d := newDemo(t)
	pri, sec := d.byName("orders-prod"), d.byName("replica-west")
	d.failAllowList(pri, sec)
	ro := readOnly
	h := d.app(120, 40, ro)
	before := d.srv.Stats()
	h.Keys("4")
	// the empty screen does not invite a key that is refused
	h.Sees("This profile is read-only: setting up replication is refused")
	if strings.Contains(h.Screen(), "Press n") {
		t.Fatalf("a read-only profile's empty screen invites n:\n%s", h.Screen())
	}
	h.refused("n", "Choose the PRIMARY")
	if got := h.lastToast(); !strings.Contains(got, "not allowed on read-only profile demo: setting up replication") {
		t.Fatalf("n on a read-only profile: %q", got)
	}
	// the unfinished setup, at step 1
	d.saveAtAllowList(pri, sec)
	h = d.app(120, 40, ro)
	h.Keys("4", "c")
	h.Sees("FAIL  1 Allow list")
	h.refused("enter")
	h.Sees("Fix: nothing was changed; switch to a writable profile (:profile) to go on")
	// the entry is added by someone else; checking again passes step 1
	for _, ip := range sec.OutboundIPs {
		if _, err := d.c.AddAllowListEntry(bg, pri.ID, ip); err != nil {
			t.Fatal(err)
		}
	}
	if n := d.srv.Stats().Count("POST", "/provisioning/v1/services/{id}/security/allowlist") - before.Count("POST", "/provisioning/v1/services/{id}/security/allowlist"); n != len(sec.OutboundIPs) {
		t.Fatalf("%d allow-list POSTs, want only the test's %d", n, len(sec.OutboundIPs))
	}
	before = d.srv.Stats()
	h.Key("c")
	h.Sees("Step 2 of 6")
	h.Key("enter") // choosing a backup changes nothing on the API
	h.Sees("Step 3 of 6")
	// the restore is refused before its name is asked
	h.refused("enter", "Type replica-west to confirm")
	if got := h.lastToast(); !strings.Contains(got, "not allowed on read-only profile demo: restoring into replica-west") {
		t.Fatalf("enter at step 3 read-only: %q", got)
	}
	after := d.srv.Stats()
	for _, route := range []string{"/backup/v1/restores", "/provisioning/v1/services/{id}/security/allowlist"} {
		if after.Count("POST", route) != before.Count("POST", route) {
			t.Fatalf("POST %s in read-only", route)
		}
	}
	if s := d.byName("replica-west"); s.Status != "ready" {
		t.Fatalf("replica-west is %s: a restore ran", s.Status)
	}

	// Steps 4–6 and stop/start: set up by a writable engine up to the
	// change, then resumed read-only at each step.
	eng := &replsetup.Engine{Client: d.c, Now: d.clk.Now}
	w := d.setupToChange(t, eng, pri, sec)
	// resumed read-only at the saved step, whose enter is refused
	refusedAt := func(step string, shows ...string) {
		t.Helper()
		p := w.Progress
		d.save(replsetup.ProfileState{Setup: &p})
		h = d.app(120, 40, ro)
		h.Keys("4", "c")
		h.Sees(step)
		for _, s := range shows {
			h.Sees(s)
		}
		h.Key("enter")
		h.Sees("Fix: nothing was changed; switch to a writable profile (:profile) to go on")
	}
	refusedAt("Step 4 of 6")
	secDB := d.sqlOf(t, sec)
	if st, err := secDB.ReplicationStatus(bg); err != nil || st.Configured {
		t.Fatalf("read-only step 4 configured replication: %+v %v", st, err)
	}

	// writable: change primary; read-only: the grant is refused
	w.Apply(eng.ChangePrimary(bg, w.Progress), d.clk.Now())
	refusedAt("Step 5 of 6", "IDENTIFIED BY") // reading it is allowed

	// writable: the user says they ran it (they did not); read-only: start refused
	w.GrantRanByUser(d.clk.Now())
	refusedAt("Step 6 of 6")
	if st, _ := secDB.ReplicationStatus(bg); st.IORunning != "No" {
		t.Fatalf("read-only start started replication: %+v", st)
	}
	if _, err := eng.SetReplication(bg, replsetup.PairOf(w.Progress, d.clk.Now()), true); err != nil {
		t.Fatal(err)
	}
	d.savePair(replsetup.PairOf(w.Progress, d.clk.Now()))
	// status view: stop and start refused, the grant still shown
	h = d.replication(ro, "IO thread     Connecting", "1045")
	h.refused("s", "Stop replication?")
	h.refused("S", "Start replication?")
	if st, _ := secDB.ReplicationStatus(bg); st.IORunning != "Connecting" {
		t.Fatalf("read-only stop changed replication: %+v", st)
	}
	h.Key("g")
	h.Sees("IDENTIFIED BY")
}

// The restore asks for the secondary's exact name; typing never triggers
// global keys (q, 1, :); esc goes back without a call.
func TestFlowRestoreNeedsTheExactName(t *testing.T) {
	d := newDemo(t)
	h := d.app(120, 40, nil)
	h.Keys("4", "n")
	h.choosePair("orders-prod", "replica-west")
	if strings.Contains(h.Screen(), "FAIL  1 Allow list") {
		h.Key("enter")
	}
	h.Sees("Step 2 of 6")
	h.Keys("enter", "enter")
	h.Sees("Type replica-west to confirm")
	before := d.srv.Stats().Count("POST", "/backup/v1/restores")
	h.TypeText("q1:replica-wes")
	h.Key("enter")
	h.Sees("does not match")
	if h.m.Active().ID() != "replication" || d.srv.Stats().Count("POST", "/backup/v1/restores") != before {
		t.Fatalf("a wrong name submitted or left the screen:\n%s", h.Screen())
	}
	h.Key("esc")
	h.Sees("Step 3 of 6")
	if strings.Contains(h.Screen(), "Type replica-west to confirm") || d.srv.Stats().Count("POST", "/backup/v1/restores") != before {
		t.Fatalf("esc did not go back without a call:\n%s", h.Screen())
	}
}

// TestChooserSaysWhatCannotBeChosen: the pair chooser marks each service
// the rules would refuse, with the reason in a few words, and once the
// primary is chosen the cursor leaves it for a service that can be the
// secondary.
func TestChooserSaysWhatCannotBeChosen(t *testing.T) {
	d := newDemo(t)
	h := d.app(140, 40, nil)
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	row := func(name string) string {
		for _, l := range strings.Split(h.Screen(), "\n") {
			if strings.HasPrefix(strings.TrimLeft(l, "> "), name+" ") {
				return l
			}
		}
		t.Fatalf("no row for %s:\n%s", name, h.Screen())
		return ""
	}
	if l := row("legacy-batch"); !strings.Contains(l, "primary: not ready") {
		t.Fatalf("a stopped service is not marked as no primary: %q", l)
	}
	h.pick("orders-prod")
	h.Sees("Choose the SECONDARY")
	for name, why := range map[string]string{
		"orders-prod":   "secondary: the primary",
		"analytics-gcp": "secondary: other provider",
		"legacy-batch":  "secondary: not ready",
	} {
		if l := row(name); !strings.Contains(l, why) {
			t.Errorf("%s: %q, want %q", name, l, why)
		}
	}
	if l := row("replica-west"); strings.Contains(l, "secondary:") {
		t.Errorf("replica-west can be the secondary, yet: %q", l)
	}
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.HasPrefix(l, "> ") && strings.Contains(l, "secondary:") {
			t.Fatalf("the cursor is on a service that cannot be the secondary: %q", l)
		}
	}
	// put there by the user, the cursor stays on a refused row through a
	// refresh of the listing
	selected := func() string {
		for _, l := range strings.Split(h.Screen(), "\n") {
			if strings.HasPrefix(l, "> ") && !strings.Contains(l, "Pair") {
				return strings.Fields(l)[1]
			}
		}
		return ""
	}
	h.Key("k") // from replica-west up, onto a service that cannot be the secondary
	on := selected()
	if !strings.Contains(row(on), "secondary:") {
		t.Fatalf("k did not move onto a refused service:\n%s", h.Screen())
	}
	if h.FirePolls() == 0 {
		t.Fatal("no refresh was armed")
	}
	if got := selected(); got != on {
		t.Fatalf("a refresh moved the cursor from %s to %s", on, got)
	}
}

// At 60x16 step 4's statement is below the window: enter shows it first
// (nothing runs), and only the next enter runs CHANGE PRIMARY.
func TestSmallStepShowsWhatItRunsFirst(t *testing.T) {
	d := newDemo(t)
	h, _, sec := d.smallAtChange(t)
	h.Sees("more line")
	h.Key("enter")
	if !strings.Contains(h.lastToast(), "the rest of the step is shown now") {
		t.Fatalf("enter with the statement hidden: %q\n%s", h.lastToast(), h.Screen())
	}
	if strings.Contains(h.Screen(), "more line") {
		t.Fatalf("the end of the step is not shown:\n%s", h.Screen())
	}
	secDB := d.sqlOf(t, sec)
	if st, err := secDB.ReplicationStatus(bg); err != nil || st.Configured {
		t.Fatalf("the first enter ran the change: %+v %v", st, err)
	}
	h.Key("enter")
	h.Sees("Step 5 of 6")
}

// smallAtChange is the app at 60x16 continuing (c) a setup of orders-prod
// -> replica-west saved at step 4 (setupToChange).
func (d *demo) smallAtChange(t *testing.T) (h *harness, pri, sec api.Service) {
	t.Helper()
	pri, sec = d.byName("orders-prod"), d.byName("replica-west")
	w := d.setupToChange(t, &replsetup.Engine{Client: d.c, Now: d.clk.Now}, pri, sec)
	p := w.Progress
	d.save(replsetup.ProfileState{Setup: &p})
	h = d.app(60, 16, nil)
	h.Keys("4", "c")
	return h, pri, sec
}

// setupToChange runs a setup of pri -> sec with a writable engine up to
// step 4 (the allow list, the newest backup, its restore, an hour on).
func (d *demo) setupToChange(t *testing.T, eng *replsetup.Engine, pri, sec api.Service) *replsetup.Wizard {
	t.Helper()
	w := replsetup.NewWizard(d.clk.Now())
	w.Apply(eng.CheckPair(bg, pri.ID, sec.ID), d.clk.Now())
	w.Apply(eng.CheckAllowList(bg, w.Progress), d.clk.Now())
	o := eng.ListBackups(bg, w.Progress)
	w.Apply(o, d.clk.Now())
	if err := w.ChooseBackup(o.Backup.Backup.Key, d.clk.Now()); err != nil {
		t.Fatal(err)
	}
	w.Apply(eng.StartRestore(bg, w.Progress), d.clk.Now())
	d.clk.Advance(time.Hour)
	w.Apply(eng.CheckRestore(bg, w.Progress), d.clk.Now())
	if w.Current() != replsetup.StepChange {
		t.Fatalf("the writable setup is at %s, want step 4", w.Current())
	}
	return w
}

// sqlOf connects to a demo service's SQL endpoint with its default
// credentials, closed when the test ends.
func (d *demo) sqlOf(t *testing.T, v api.Service) *api.SQLClient {
	t.Helper()
	cr, err := d.c.GetCredentials(bg, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	db, err := api.OpenSQL(api.SQLTarget{Host: v.FQDN, Port: v.ReadWritePort(), User: cr.Username, Password: cr.Password})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// The wizard's list of services cut by the terminal says how many are
// below and above the rows shown (at 80x24 it showed 4 of 8 and at 60x16
// 2, saying nothing of the rest).
func TestWizardChooserSaysCut(t *testing.T) {
	for _, c := range []struct {
		w, h         int
		below, above string
	}{
		{80, 24, "down/j: 5 more services", "up/k: 5 services above"},
		{60, 16, "down/j: 6 more services", "up/k: 6 services above"},
	} {
		t.Run(fmt.Sprintf("%dx%d", c.w, c.h), func(t *testing.T) {
			h := newDemo(t).app(c.w, c.h, nil)
			h.Keys("4", "n")
			h.Sees("Choose the PRIMARY")
			h.Sees(c.below)
			h.Key("G")
			h.Sees(c.above)
			if strings.Contains(h.Screen(), "more services") {
				t.Fatalf("the last row shown, the list says more are below:\n%s", h.Screen())
			}
		})
	}
}

// A read-only profile's replication screen invites no key it refuses: an
// unfinished setup is offered to be shown (c), not n, which is refused;
// c with none says so without inviting n; at the allow list's step the
// fix says where to add the entry instead of "press enter", the footer
// leaves enter out and the help marks it "(read-only)".
func TestFlowReadOnlyInvitesNoRefusedKey(t *testing.T) {
	d := newDemo(t)
	pri, sec := d.byName("orders-prod"), d.byName("replica-west")
	d.failAllowList(pri, sec)
	ro := readOnly
	h := d.replication(ro)
	h.Key("c")
	if got := h.lastToast(); !strings.Contains(got, "no unfinished setup") || strings.Contains(got, "n starts") {
		t.Fatalf("c with no setup on a read-only profile: %q", got)
	}

	d.saveAtAllowList(pri, sec)
	h = d.replication(ro, "Unfinished setup: orders-prod -> replica-west", "this profile is read-only")
	if strings.Contains(h.Screen(), "n starts") {
		t.Fatalf("a read-only profile invites n:\n%s", h.Screen())
	}
	h.Key("c")
	h.Sees("FAIL  1 Allow list")
	h.Sees("Fix: this profile is read-only: add")
	if scr := h.Screen(); strings.Contains(scr, "press enter") {
		t.Fatalf("the fix invites a refused enter:\n%s", scr)
	}
	lines := strings.Split(h.Screen(), "\n")
	if f := lines[len(lines)-1]; strings.Contains(f, "enter") || !strings.Contains(f, "c check again") {
		t.Fatalf("the footer invites the refused enter or lacks c: %q", f)
	}
	if help := fmt.Sprint(h.active().KeyMap().FullHelp()); !strings.Contains(help, "add to allow list (read-only)") {
		t.Fatalf("the help does not mark enter read-only: %s", help)
	}
}

// bksp at the backup's step goes back to the allow list's step and stays
// there, though its check passes at once (it moved straight on to the
// backup again); enter there checks again and goes on; bksp once more is
// the pair's choice.
func TestBackFromBackupStaysAtAllowList(t *testing.T) {
	h := newDemo(t).app(80, 24, nil)
	h.toBackupStep()
	h.Key("backspace")
	h.Sees("PASS  1 Allow list")
	if !strings.Contains(h.Screen(), "Step 1 of 6") {
		t.Fatalf("bksp at step 2 did not stay at step 1:\n%s", h.Screen())
	}
	h.Key("enter")
	h.Sees("Step 2 of 6")
	h.Key("backspace")
	h.Sees("Step 1 of 6")
	h.Key("backspace")
	h.Sees("Choose the PRIMARY")
}

// The start refused (error 1045: the grant was said to be run but was
// not), bksp and the grant run: the start's step no longer shows its old
// failure; enter at it starts replication.
func TestRerunClearsOldFailure(t *testing.T) {
	h := newDemo(t).replication(nil, "No replication set up with skytui yet.")
	h.toRestored()
	h.Sees("Step 4 of 6")
	h.Key("enter")
	h.Sees("Step 5 of 6")
	h.Keys("m", "y")
	h.Sees("Step 6 of 6")
	h.Key("enter")
	h.Sees("error 1045")
	h.Key("backspace")
	h.Sees("Step 5 of 6")
	h.Key("enter")
	h.Sees("Step 6 of 6")
	if strings.Contains(h.Screen(), "error 1045") {
		t.Fatalf("the grant ran, step 6 still shows the start's old failure:\n%s", h.Screen())
	}
}

// toBackups drives the wizard to step 2 at h's size.
func (h *harness) toBackups() {
	h.T.Helper()
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	h.choosePair("orders-prod", "replica-west")
	for i := 0; i < 3 && !strings.Contains(h.Screen(), "Step 2 of 6"); i++ {
		h.Key("enter") // the missing entry added (the step's end shown first)
	}
	h.Sees("Step 2 of 6")
}

// The backups' list cut to its room says how many rows are below and
// above (as the services' list does), its cut header is marked, and the
// selected row's reason, cut in its row, shows whole under the list.
func TestBackupListSaysCutAndWhyWhole(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newDemo(t).app(size[0], size[1], nil)
			h.toBackups()
			if !regexp.MustCompile(`down/j: \d+ more backups`).MatchString(h.Screen()) {
				t.Fatalf("the cut backups' list does not say so:\n%s", h.Screen())
			}
			if size[0] == 60 && !regexp.MustCompile(`GTID / WHY (~|…)`).MatchString(h.Screen()) {
				t.Fatalf("the header is cut without a mark:\n%s", h.Screen())
			}
			for i := 0; i < 20 && !strings.Contains(h.Screen(), "up/k: "); i++ {
				h.Key("j")
			}
			h.Sees("above")
			for i := 0; i < 20 && !strings.Contains(h.Screen(), "refused: t"); i++ {
				h.Key("j")
			}
			// cut in its row, whole under the list
			h.Sees("refused: taken")
			h.Sees("binary logs from")
			h.Sees("its position)")
		})
	}
}

// With no pair, the text saying how to make one, cut at 60x16 on a
// read-only profile, says what is below and scrolls with J/K.
func TestEmptyTextScrolls(t *testing.T) {
	h := newDemo(t).app(60, 16, func(o *tui.Options) { o.ReadOnly = true })
	h.Key("4")
	h.Sees("No replication set up with skytui yet.")
	h.Sees("J: ")
	h.Keys("J", "J", "J")
	h.Sees("starts clean.")
	h.Sees("K: ")
	h.Sees("Its first step offers managed")
}

// A service that a saved pair has replicate already (set up with the sky
// procedures) is marked in the managed flow's replica list and in the
// guided wizard's secondary list, and enter on it is refused with its
// primary named, before any request.
func TestKnownReplicaMarked(t *testing.T) {
	d := newDemo(t)
	d.skyPair("orders-prod", "replica-west", replsetup.MethodGTID)
	h := d.replication(nil, "1 pair")
	rowOf := func(name string) string {
		for _, l := range strings.Split(h.Screen(), "\n") {
			if strings.Contains(l, name) && !strings.Contains(l, "->") && !strings.Contains(l, "Primary") {
				return l
			}
		}
		return ""
	}
	// managed: n, m, the primary
	h.Keys("n", "m")
	h.pick("orders-prod")
	if r := rowOf("replica-west"); !strings.Contains(r, "replica: replicates already") {
		t.Fatalf("managed: replica-west's row %q:\n%s", r, h.Screen())
	}
	h.pick("replica-west")
	h.Sees("replica-west already replicates from orders-prod")
	h.Keys("esc", "esc", "esc", "esc")
	// guided: the secondary's list
	h.Key("n")
	h.Sees("Choose the PRIMARY")
	h.pick("orders-prod")
	h.Sees("Choose the SECONDARY")
	if r := rowOf("replica-west"); !strings.Contains(r, "secondary: replicates already") {
		t.Fatalf("guided: replica-west's row %q:\n%s", r, h.Screen())
	}
	h.pick("replica-west")
	h.Sees("replica-west already replicates from orders-prod")
	h.Sees("Choose the SECONDARY")
}

// toRestoring drives the wizard at its size to step 3 and submits the
// restore of orders-prod's newest backup into replica-west: it runs.
func (h *harness) toRestoring() {
	h.T.Helper()
	h.toRestoreStep()
	h.Key("enter")
	h.Sees("This erases ALL data in replica-west.")
	h.TypeText("replica-west")
	h.Key("enter")
	h.Sees("WAIT  3 Restore")
}

// toBackupStep drives a new setup of orders-prod -> replica-west to its
// step 2 (the backup), adding the allow list's missing IP on the way.
func (h *harness) toBackupStep() {
	h.T.Helper()
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	h.choosePair("orders-prod", "replica-west")
	h.Sees("Step 1 of 6")
	// on a short terminal the first enter shows the fix whole, the next
	// adds the missing outbound IP
	for i := 0; i < 3 && strings.Contains(h.Screen(), "FAIL  1 Allow list"); i++ {
		h.Key("enter")
	}
	h.Sees("Step 2 of 6")
}

// toRestoreStep is toBackupStep, then the newest usable backup chosen:
// step 3, before its enter.
func (h *harness) toRestoreStep() {
	h.T.Helper()
	h.toBackupStep()
	h.Key("enter")
	h.Sees("Step 3 of 6")
}

// shownToasts lets every toast's time run out, in turn, and is what the
// message line showed, the one in front first.
func (h *harness) shownToasts() []string {
	h.T.Helper()
	shown := []string{h.lastToast()}
	for range 10 {
		if h.Fire(func(m tea.Msg) bool { return fmt.Sprintf("%T", m) == "tui.toastExpireMsg" }) == 0 {
			break
		}
		shown = append(shown, h.lastToast())
	}
	return shown
}

// At 60x16, enter while the restore runs says it runs; once the restore
// ends that line goes (it stayed on step 4), and the first enter on
// step 4 shows the CALL with its arguments (it only took the line away,
// saying the rest was shown), the next runs it; the hint that the rest
// is shown does not come back once it ran.
func TestSmallRestoreEndsItsNoticeAndEnterShowsTheCall(t *testing.T) {
	d := newDemo(t)
	h := d.app(60, 16, nil)
	h.toRestoring()
	running := "the restore is running: it is followed here until it ends"
	h.Key("enter")
	h.Sees(running)
	d.clk.Advance(time.Hour)
	h.FirePolls()
	h.Sees("Step 4 of 6")
	if strings.Contains(h.Screen(), running) {
		t.Fatalf("the restore ended, step 4 says it runs:\n%s", h.Screen())
	}
	h.Key("enter")
	args := "'" + d.byName("orders-prod").FQDN + "'"
	if !strings.Contains(h.Screen(), args) || regexp.MustCompile(`J: \d+ more line`).MatchString(h.Screen()) {
		t.Fatalf("the first enter did not show the CALL's arguments:\n%s", h.Screen())
	}
	if st, err := d.sqlOf(t, d.byName("replica-west")).ReplicationStatus(bg); err != nil || st.Configured {
		t.Fatalf("the first enter ran the change: %+v %v", st, err)
	}
	h.Key("enter")
	h.Sees("Step 5 of 6")
	for _, shown := range h.shownToasts() {
		if strings.Contains(shown, "the rest of the step is shown") {
			t.Fatalf("once the step ran, the message line said %q", shown)
		}
	}
}

// A notice on step 4 (b's) taken away by enter does not keep enter from
// showing the CALL below the window: the first enter shows it.
func TestSmallEnterShowsTheCallUnderANotice(t *testing.T) {
	d := newDemo(t)
	h, pri, _ := d.smallAtChange(t)
	h.Sees("Step 4 of 6")
	h.Key("b")
	h.Sees("replication will start from the backup's binlog file")
	h.Key("enter")
	if !strings.Contains(h.Screen(), "'"+pri.FQDN+"'") || regexp.MustCompile(`J: \d+ more line`).MatchString(h.Screen()) {
		t.Fatalf("the first enter did not show the CALL's arguments:\n%s", h.Screen())
	}
	h.Key("enter")
	h.Sees("Step 5 of 6")
}

// At 60x16 a refusal that takes three lines above the wizard's list
// keeps the line counting the services cut (the step's text above gives
// way: it could show none of itself beside them).
func TestWizardRefusalKeepsTheCount(t *testing.T) {
	h := newDemo(t).app(60, 16, nil)
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	h.pick("orders-prod")
	h.Sees("Choose the SECONDARY")
	for range 8 {
		if strings.Contains(h.Screen(), "> analytics-gcp") {
			break
		}
		h.Key("up")
	}
	h.Sees("> analytics-gcp")
	h.Key("enter")
	h.Sees("refused: orders-prod runs on aws and analytics-gcp on gcp")
	h.Sees("down/j: 5 more services, up/k: 1 service above")
}

// TestChooserRefusesALiveReplica: a secondary that replicates now (set up
// from another machine: no pair saved here) is refused at step 0, read
// over SQL, before the wizard offers the restore that would erase it.
func TestChooserRefusesALiveReplica(t *testing.T) {
	for _, c := range []struct {
		name  string
		tweak func(*tui.Options)
		fix   string
	}{
		// the demo's sandbox is reached by no command
		{"demo", nil, "end it first (STOP REPLICA on it), then try again"},
		// an account's: the command on this profile and API URL, never
		// the default profile's service of the same name
		{"account", func(o *tui.Options) { o.Demo, o.Profile = false, "lab" },
			"end it first (`skytui replication stop replica-west --yes --profile lab --api-url http://127.0.0.1:8080`, or STOP REPLICA on it), then try again"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDemo(t)
			h := d.app(100, 30, c.tweak)
			h.Key("4")
			h.Sees("No replication set up with skytui yet.")
			h.toRunning()
			h.Key("esc")
			h.forgetPair()
			h.Key("n")
			h.choosePair("orders-prod", "replica-west")
			h.Sees("replica-west replicates now (IO thread Yes, SQL thread Yes")
			// the primary stays chosen; the refusal names what it
			// replicates from and says what frees it
			h.Sees("Primary: orders-prod on aws. Choose the SECONDARY")
			said := strings.Join(strings.Fields(h.Screen()), " ")
			if !strings.Contains(said, "from orders-prod (") || !strings.Contains(said, c.fix) {
				t.Fatalf("the refusal does not name the primary or say %q:\n%s", c.fix, h.Screen())
			}
			if n := d.srv.Stats().Count("POST", "/backup/v1/restores"); n != 1 {
				t.Fatalf("%d restores sent, want the first setup's one", n)
			}
			// at 60x16 the long refusal scrolls (J/K), and the list keeps
			// its row and its filter's line
			h.Send(tea.WindowSizeMsg{Width: 60, Height: 16})
			h.Sees("refused: replica-west replicates now")
			h.Sees("/replica-west 1 of 8")
			if c.name == "account" && !regexp.MustCompile(`J: \d+ more lines?`).MatchString(h.Screen()) {
				t.Fatalf("the cut refusal does not say J shows the rest:\n%s", h.Screen())
			}
			// J reaches the refusal's last line (its fix)
			for range 5 {
				h.Key("J")
			}
			h.Sees("then try again")
		})
	}
}

// TestRestoreStepLooksAgain: a secondary that began replicating after
// step 0 passed (here by managed replication, set up meanwhile) is
// refused when the restore is submitted: the restore is read as a last
// look before it is sent, and nothing is sent.
func TestRestoreStepLooksAgain(t *testing.T) {
	d := newDemo(t)
	h := d.app(120, 40, nil)
	h.toRestoreStep()
	pri, rep := d.byName("orders-prod"), d.byName("replica-west")
	if _, err := d.c.StartManagedReplication(bg, rep.ID, pri.ID, "uni-directional"); err != nil {
		t.Fatal(err)
	}
	h.Key("enter")
	h.Sees("This erases ALL data in replica-west.")
	h.TypeText("replica-west")
	h.Key("enter")
	h.Sees("(the restore was not sent)")
	if !strings.Contains(h.lastToast(), "into replica-west: not sent: ") {
		t.Fatalf("the message line does not say the restore was not sent: %q", h.lastToast())
	}
	if said := strings.Join(strings.Fields(h.Screen()), " "); !strings.Contains(said, "the API reports replica-west as a replica of orders-prod") {
		t.Fatalf("the refusal does not say why:\n%s", h.Screen())
	}
	if n := d.srv.Stats().Count("POST", "/backup/v1/restores"); n != 0 {
		t.Fatalf("%d restores sent into a replica", n)
	}
}

// TestChooserMarksManagedServices: the secondary's list marks, before
// enter, a managed replica and the primary of one (from the API's primary
// host), and the cursor starts on neither.
func TestChooserMarksManagedServices(t *testing.T) {
	d := newDemo(t)
	d.managedPair("uni-directional") // orders-prod -> replica-west
	legacy := d.byName("legacy-batch")
	if err := d.c.StartService(bg, legacy.ID); err != nil {
		t.Fatal(err)
	}
	d.clk.Advance(time.Hour)
	h := d.app(140, 40, nil)
	h.Keys("4", "n")
	h.pick("legacy-batch")
	h.Sees("Choose the SECONDARY")
	for name, why := range map[string]string{"replica-west": "secondary: a replica", "orders-prod": "secondary: a primary"} {
		if !regexp.MustCompile(`(?m)^[ >] ` + name + ` .*` + why).MatchString(h.Screen()) {
			t.Errorf("%s is not marked %q:\n%s", name, why, h.Screen())
		}
	}
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.HasPrefix(l, "> orders-prod ") || strings.HasPrefix(l, "> replica-west ") {
			t.Fatalf("the cursor starts on a service it would refuse: %q", l)
		}
	}
	// chosen anyway: the pair on the status list, and the key that ends it
	h.pick("replica-west")
	if said := strings.Join(strings.Fields(h.Screen()), " "); !strings.Contains(said, "esc to the status list: E ends it") {
		t.Fatalf("the refusal of a pair's replica names no key:\n%s", h.Screen())
	}
	// its forget says E ends managed replication, not s
	h.Keys("esc", "esc", "esc")
	h.Sees("orders-prod  replica-west")
	h.Key("d")
	h.Sees("Forget this pair?")
	if said := strings.Join(strings.Fields(h.Screen()), " "); !strings.Contains(said, "(E ends it)") {
		t.Fatalf("the forget of a managed pair names s:\n%s", h.Screen())
	}
}

// TestBackupStepMethodKey: b on step 2 switches the backup under the
// cursor to its binlog file and position before it is chosen (it said
// "the backup has no GTID position" of a backup that has one: no backup
// was chosen yet), and the choice keeps it. b on step 4 changes what step
// 2's line says too (it kept the method the backup was chosen with).
func TestBackupStepMethodKey(t *testing.T) {
	d := newDemo(t)
	h := d.app(100, 40, nil)
	h.toBackupStep()
	h.Key("b")
	h.Sees("replication will start from the backup's binlog file and position")
	if strings.Contains(h.Screen(), "has no GTID position") {
		t.Fatalf("b on step 2 refused:\n%s", h.Screen())
	}
	h.Key("enter")
	h.Sees("Step 3 of 6")
	if row := tuitest.LineWith(h.Screen(), "PASS  2 Backup"); !strings.Contains(row, "binlog mariadb-bin") {
		t.Fatalf("the chosen backup's line does not start from the binlog: %q", row)
	}

	// on: the restore, then step 4, where b goes back to the GTID
	h.Key("enter")
	h.Sees("This erases ALL data in replica-west.")
	h.TypeText("replica-west")
	h.Key("enter")
	h.Sees("WAIT  3 Restore")
	d.clk.Advance(time.Hour)
	h.FirePolls()
	h.Until("step 4", func() bool { return strings.Contains(h.Screen(), "Step 4 of 6") })
	h.Key("b")
	h.Sees("replication will start from the backup's GTID position")
	if row := tuitest.LineWith(h.Screen(), "PASS  2 Backup"); !strings.Contains(row, "GTID") || strings.Contains(row, "binlog mariadb-bin") {
		t.Fatalf("after b on step 4, step 2's line says %q:\n%s", row, h.Screen())
	}
}
