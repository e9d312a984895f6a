package replication

import (
	"context"
	"testing"

	"github.com/skytui/skytui/api/replsetup"
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
	if len(h.samples) != HistoryLen || *h.samples[0] != 40 || h.max() != 99 {
		t.Fatalf("history keeps %d, first %d, max %d", len(h.samples), *h.samples[0], h.max())
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
