package replication

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
	"github.com/skytui/skytui/tui/tuitest"
)

func TestMain(m *testing.M) { tuitest.Main(m) }

func TestSparkline(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	samples := []*int64{n(0), n(1), nil, n(5), n(10), n(2)}
	if got := Sparkline(theme.ASCII, samples, 60); got != "_. -#." {
		t.Fatalf("ascii sparkline %q", got)
	}
	if got := Sparkline(theme.ASCII, samples, 3); got != "-#." {
		t.Fatalf("cut to the last 3: %q", got)
	}
	if got := Sparkline(theme.Unicode, []*int64{n(0), n(5)}, 10); got != "▁█" {
		t.Fatalf("unicode %q", got)
	}
	var h history
	for i := range 100 {
		h.add(n(int64(i)))
	}
	if m, _ := h.max(); len(h.samples) != HistoryLen || *h.samples[0] != 40 || m != 99 {
		t.Fatalf("history keeps %d, first %d, max %d", len(h.samples), *h.samples[0], m)
	}
}

// A check's answer that arrives after a newer check of the same step was
// asked is dropped: the screen shows the newest.
func TestStaleCheckDropped(t *testing.T) {
	s := NewWithOptions(tuitest.Common(), Options{Store: &replsetup.Store{Path: t.TempDir() + "/r.json"}})
	s.wizard.w = replsetup.Resume(replsetup.Progress{PrimaryID: "dbtaaaa1", SecondaryID: "dbtaaaa2", Step: replsetup.StepAllowList, Passed: 1})
	s.mode = modeWizard
	older := s.wizard.check(replsetup.StepAllowList, "checking", func(context.Context) replsetup.Outcome {
		return replsetup.Outcome{Step: replsetup.StepAllowList, Verdict: replsetup.Fail, Problem: "old answer"}
	})
	newer := s.wizard.check(replsetup.StepAllowList, "checking", func(context.Context) replsetup.Outcome {
		return replsetup.Outcome{Step: replsetup.StepAllowList, Verdict: replsetup.Pass, Summary: "new answer"}
	})
	s.Update(newer())
	s.Update(older())
	if o := s.wizard.w.Result(replsetup.StepAllowList); o.Summary != "new answer" || s.wizard.w.Current() != replsetup.StepBackup {
		t.Fatalf("the older answer won: %+v at %s", o, s.wizard.w.Current())
	}
	// an answer for a setup that was replaced is dropped too
	stale := s.wizard.check(replsetup.StepBackup, "listing", func(context.Context) replsetup.Outcome {
		return replsetup.Outcome{Step: replsetup.StepBackup, Verdict: replsetup.Fail, Problem: "from the old setup"}
	})
	s.newSetup()
	s.Update(stale())
	if o := s.wizard.w.Result(replsetup.StepBackup); o.Problem != "" {
		t.Fatalf("an answer of the previous setup was applied: %+v", o)
	}
}

// The answer of a managed setup sent from an earlier run of the flow
// records the pair the server accepted, and leaves the run shown now (its
// phase, its mode) as it is; the current run's answer ends that run.
func TestManagedAnswerOfAnEarlierRun(t *testing.T) {
	s := NewWithOptions(tuitest.Common(), Options{Store: &replsetup.Store{Path: t.TempDir() + "/r.json"}})
	pri := api.Service{ID: "dbtaaaa1", Name: "orders-prod", Status: "ready"}
	rep := api.Service{ID: "dbtaaaa2", Name: "replica-west", Status: "ready"}
	s.openManaged(&pri)
	old := managedStartTag{pair: replsetup.ManagedPair(&pri, &rep, api.ReplicationUni, time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)), gen: s.managed.gen}
	s.openManaged(nil) // the user left and began again
	s.Update(kit.ActionDoneMsg{Tag: old})
	if s.mode != modeManaged || s.managed.phase != pickPrimary {
		t.Fatalf("an earlier run's answer moved the flow shown: mode %d phase %d", s.mode, s.managed.phase)
	}
	if len(s.state.Pairs) != 1 || s.state.Pairs[0].SecondaryID != rep.ID {
		t.Fatalf("the accepted pair was not recorded: %+v", s.state.Pairs)
	}
	cur := managedStartTag{pair: old.pair, gen: s.managed.gen}
	s.Update(kit.ActionDoneMsg{Tag: cur, Err: kit.ErrCancelled})
	if s.managed.err != "" {
		t.Fatalf("a cancelled confirmation says %q", s.managed.err)
	}
	s.Update(kit.ActionDoneMsg{Tag: cur})
	if s.mode != modeStatus {
		t.Fatalf("the current run's answer left mode %d", s.mode)
	}
}

// The pair chooser starts on a service that can be the primary when the
// first listing arrives after it opened, and esc from the secondary's step
// goes back to the primary chosen.
func TestChooserStartsOnAChoosableService(t *testing.T) {
	s := NewWithOptions(tuitest.Common(), Options{Store: &replsetup.Store{Path: t.TempDir() + "/r.json"}})
	s.SetSize(120, 30)
	s.newSetup()
	ep := []api.Endpoint{{Ports: []api.Port{{Name: "readwrite", Port: 3306}}}}
	svcs := []api.Service{
		{ID: "dbtaaaa1", Name: "stopped-one", Status: "stopped", Provider: "aws", FQDN: "a.example", Endpoints: ep},
		{ID: "dbtaaaa2", Name: "no-endpoint", Status: "ready", Provider: "aws"},
		{ID: "dbtaaaa3", Name: "orders", Status: "ready", Provider: "aws", FQDN: "c.example", Endpoints: ep},
		{ID: "dbtaaaa4", Name: "replica", Status: "ready", Provider: "aws", FQDN: "d.example", Endpoints: ep},
	}
	s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: svcs})
	c := s.wizard.chooser
	if c == nil || c.table.SelectedID() != "dbtaaaa3" {
		t.Fatalf("the chooser starts on %q, want the first service that can be the primary", c.table.SelectedID())
	}
	if got := c.refusal(&svcs[1]); got != "primary: no endpoint yet" {
		t.Fatalf("a primary without an endpoint is marked %q", got)
	}
	s.Update(tuitest.KeyMsg("enter"))
	if c.primary == nil || c.table.SelectedID() != "dbtaaaa4" {
		t.Fatalf("the secondary's step starts on %q, want replica", c.table.SelectedID())
	}
	s.Update(tuitest.KeyMsg("esc"))
	if c.primary != nil || c.table.SelectedID() != "dbtaaaa3" {
		t.Fatalf("esc: back on %q (primary %v), want the primary chosen", c.table.SelectedID(), c.primary)
	}
}

// At 60x16 (a 60x12 body) a notice that comes after the step's text
// scrolls into sight: what happened is never left below the window.
func TestWizardNoticeScrollsIntoSight(t *testing.T) {
	s := NewWithOptions(tuitest.Common(), Options{Store: &replsetup.Store{Path: t.TempDir() + "/r.json"}})
	s.SetSize(60, 12)
	s.wizard.w = replsetup.Resume(replsetup.Progress{PrimaryID: "dbtaaaa1", SecondaryID: "dbtaaaa2", Step: replsetup.StepChange, Passed: 4})
	s.mode = modeWizard
	s.layout()
	if strings.Contains(s.View(), "K: ") {
		t.Fatalf("the step's text starts scrolled:\n%s", s.View())
	}
	s.wizard.w.Results[replsetup.StepChange] = replsetup.Outcome{Step: replsetup.StepChange, Verdict: replsetup.Fail,
		Problem: "the secondary refused the call: its default user could not log in (error 1045)",
		Fix:     "wait until the restore's new credentials are in place, then press enter again"}
	s.wizard.setNotice("restore the backup first (step 3): the secondary still has its own data and credentials", true)
	s.layout()
	out := s.View()
	if !strings.Contains(out, "restore the backup first") || !strings.Contains(out, "K: ") {
		t.Fatalf("the notice is not in sight, or the text above it is not said:\n%s", out)
	}
	if !strings.Contains(fmt.Sprint(s.KeyMap().ShortHelp()), "J/K") {
		t.Fatalf("the footer does not name J/K: %v", s.KeyMap().ShortHelp())
	}
}

// The empty screen says where progress is kept: in the state directory
// for a profile, only while it runs for the demo (whose state is thrown
// away at exit).
func TestEmptyScreenSaysWhereProgressIsKept(t *testing.T) {
	for _, demo := range []bool{false, true} {
		c := tuitest.Common()
		c.Demo = demo
		s := NewWithOptions(c, Options{Store: &replsetup.Store{Path: t.TempDir() + "/r.json"}})
		s.SetSize(120, 30)
		s.Update(s.Init()())
		out := tuitest.View(s)
		if strings.Contains(out, "in the user state directory") == demo || strings.Contains(out, "while this demo runs") != demo {
			t.Errorf("demo %v:\n%s", demo, out)
		}
	}
}

// TestFitMarksACut: a line wider than the screen is cut with the ellipsis
// glyph, so a statement's token cut at the edge never reads as whole.
func TestFitMarksACut(t *testing.T) {
	th := tuitest.Common().Theme
	got := fit("CALL sky.start_replication()\nok", 12, 5, th)
	if want := "CALL sky.st" + th.Glyphs.Ellipsis + "\nok"; got != want {
		t.Errorf("fit = %q, want %q", got, want)
	}
}

// At the allow list's step, enter checks again as c does unless entries
// are missing (then it adds them): the footer and the help say "check
// again" once, not for both keys (while a check runs, or after one that
// failed for another reason).
func TestAllowListSaysCheckAgainOnce(t *testing.T) {
	s := NewWithOptions(tuitest.Common(), Options{Store: &replsetup.Store{Path: t.TempDir() + "/r.json"}})
	s.wizard.w = replsetup.Resume(replsetup.Progress{PrimaryID: "dbtaaaa1", SecondaryID: "dbtaaaa2", Step: replsetup.StepAllowList, Passed: 1})
	s.mode = modeWizard
	s.SetSize(120, 40)
	check := func(state string) {
		t.Helper()
		k := s.KeyMap()
		for what, keys := range map[string][]key.Binding{"footer": k.ShortHelp(), "help": k.FullHelp()[0]} {
			n := 0
			for _, b := range keys {
				if b.Help().Desc == "check again" {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%s: the %s says check again %d times: %v", state, what, n, keys)
			}
		}
	}
	check("unchecked")
	s.Update(s.wizard.check(replsetup.StepAllowList, "checking", func(context.Context) replsetup.Outcome {
		return replsetup.Outcome{Step: replsetup.StepAllowList, Verdict: replsetup.Fail, Problem: "the listing failed"}
	})())
	check("failed, nothing missing")
}

// A step run again shows WAIT and what runs, not its last failure, until
// the answer comes.
func TestStepRerunDropsItsOldFailure(t *testing.T) {
	s := NewWithOptions(tuitest.Common(), Options{Store: &replsetup.Store{Path: t.TempDir() + "/r.json"}})
	s.wizard.w = replsetup.Resume(replsetup.Progress{PrimaryID: "dbtaaaa1", SecondaryID: "dbtaaaa2", Step: replsetup.StepStart, Passed: 0x3f})
	s.wizard.w.Results = map[replsetup.Step]replsetup.Outcome{replsetup.StepStart: {Step: replsetup.StepStart, Verdict: replsetup.Fail, Problem: "refused (error 1045)"}}
	s.mode = modeWizard
	s.SetSize(100, 30)
	s.wizard.runStep()
	s.SetSize(100, 30)
	if v := ansi.Strip(s.View()); strings.Contains(v, "1045") || !strings.Contains(v, "WAIT  6 Start") {
		t.Fatalf("the start runs again, its old failure shows:\n%s", v)
	}
}
