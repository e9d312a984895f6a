package services

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestLateLaunchKeepsTheColumns: at 80 columns a service 9 minutes into
// its create says it is past the ~5 minute estimate in no more room than
// it took on time ("pending_create 2m00s/~5m"): the STATUS column keeps
// its width, and neither its text nor any row's PROVIDER/REGION is cut
// ("pending_create 8m48s (est. ~5~" widened it and cut them all).
func TestLateLaunchKeepsTheColumns(t *testing.T) {
	list := []api.Service{
		{ID: "dbtgf82655032", Name: "analytics-gcp", Status: "ready", Provider: "gcp", Region: "us-central1"},
		{ID: "dbtzf87656494", Name: "broken-import", Status: "failed", Provider: "azure", Region: "eastus"},
		{ID: "dbtgf42942879", Name: "dev-serverless", Status: "ready", Provider: "gcp", Region: "us-east4"},
		{ID: "dbtaf65932198", Name: "legacy-batch", Status: "stopped", Provider: "aws", Region: "eu-west-1"},
		{ID: "dbtaf85489797", Name: "orders-prod", Status: "ready", Provider: "aws", Region: "us-east-1"},
		{ID: "dbtgf47954038", Name: "reporting-new", Status: "pending_create", Provider: "gcp", Region: "europe-west1",
			CreatedOn: api.UnixTime{Time: now.Add(-2 * time.Minute)}},
		{ID: "dbtzf07546771", Name: "staging-eu", Status: "pending_modifying", Provider: "azure", Region: "westeurope",
			UpdatedOn: api.UnixTime{Time: now.Add(-time.Minute)}},
	}
	clock := now
	c := tuitest.Common()
	c.Now = func() time.Time { return clock }
	s := New(c)
	s.SetSize(80, 20)
	feed(s, list)
	onTime := tuitest.View(s)
	if !strings.Contains(onTime, "pending_create 2m00s/~5m") {
		t.Fatalf("on time:\n%s", onTime)
	}
	header := func(v string) string {
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "STATUS") {
				return l
			}
		}
		return ""
	}
	for _, late := range []struct {
		after time.Duration
		says  string
	}{
		{7 * time.Minute, "pending_create 9m00s>~5m"},
		{7*time.Minute + 48*time.Second, "pending_create 9m48s>~5m"},
		{33 * time.Minute, "pending_create 35m>~5m"},
		{63 * time.Minute, "pending_create 1h05m>~5m"},
	} {
		clock = now.Add(late.after)
		s.Update(kit.ClockMsg{Now: clock})
		v := tuitest.View(s)
		tuitest.CheckFits(t, late.says, s.View(), 80, 20)
		if !strings.Contains(v, late.says) {
			t.Errorf("the late launch does not say %q:\n%s", late.says, v)
		}
		if header(v) != header(onTime) {
			t.Errorf("%s: the columns moved:\n%s\nwas\n%s", late.says, header(v), header(onTime))
		}
		for _, x := range list {
			if !strings.Contains(v, x.Where()) {
				t.Errorf("%s: %s is cut:\n%s", late.says, x.Where(), v)
			}
		}
		if regexp.MustCompile(regexp.QuoteMeta(s.common.Theme.Glyphs.Ellipsis) + `( |$)`).MatchString(v) {
			t.Errorf("%s: a cell is cut:\n%s", late.says, v)
		}
	}
	// the detail pane says it in words
	clock = now.Add(7 * time.Minute)
	s.Update(kit.ClockMsg{Now: clock})
	v := list[5]
	if got := statusDetail(&v, clock); got != "pending_create 9m00s (past the ~5m estimate)" {
		t.Errorf("detail status = %q", got)
	}
	// no late time is wider than the widest on time, however late
	widest := ansi.StringWidth("pending_create 4m59s/~5m")
	for _, d := range []time.Duration{5*time.Minute + time.Second, 9*time.Minute + 59*time.Second, 10 * time.Minute,
		59*time.Minute + 59*time.Second, 9*time.Hour + 59*time.Minute, 99 * time.Hour} {
		v.CreatedOn = api.UnixTime{Time: now.Add(-d)}
		if got := statusText(&v, now); ansi.StringWidth(got) > widest || !strings.HasSuffix(got, ">~5m") {
			t.Errorf("%v late: %q", d, got)
		}
	}
}
