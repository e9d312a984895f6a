package sandbox

import (
	"sync"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

func TestDemoDataHasThePromisedVariety(t *testing.T) {
	h := newHarness(t, Options{DemoData: true, Seed: 7})
	var svcs []api.Service
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200).decode(t, &svcs)
	byName := map[string]api.Service{}
	providers, statuses := map[string]bool{}, map[string]int{}
	for _, s := range svcs {
		byName[s.Name] = s
		providers[s.Provider] = true
		statuses[s.Status]++
		if api.ValidateServiceID(s.ID) != nil || len(s.OutboundIPs) == 0 {
			t.Fatalf("service %+v", s)
		}
	}
	if len(providers) != 3 || statuses["ready"] < 3 || statuses["pending_create"] != 1 || statuses["stopped"] != 1 || statuses["failed"] != 1 || statuses["pending_modifying"] != 1 {
		t.Fatalf("providers %v statuses %v", providers, statuses)
	}
	orders := byName[DemoOrders]
	if len(orders.AllowList()) < 2 || orders.FQDN == "" {
		t.Fatalf("orders-prod %+v", orders)
	}

	// Backups of several ages, with GTID positions; a failed one; an
	// own-bucket logical one; one still running.
	now := h.clk.Now()
	var old, young, failed, ownLogical, running, noGTID int
	for _, s := range svcs {
		for _, b := range h.backups(s.ID) {
			age := now.Sub(b.StartTime.Time)
			switch {
			case age > 4*24*time.Hour:
				old++
			case age > 0:
				young++
			}
			if b.BinlogGTIDPosition == "" {
				noGTID++
			}
			switch {
			case b.Status == "Failed":
				failed++
			case b.Status == "Running":
				running++
			}
			if b.IsExternalStorage && b.Type == "logical" && b.Bucket != "" {
				ownLogical++
			}
		}
	}
	if old == 0 || young == 0 || failed == 0 || ownLogical == 0 || running == 0 || noGTID != 0 {
		t.Fatalf("backups: old %d young %d failed %d own-bucket logical %d running %d without GTID %d", old, young, failed, ownLogical, running, noGTID)
	}
	for _, name := range []string{DemoOrders, DemoAnalytics, DemoReplica} {
		if n := len(h.backups(byName[name].ID)); n < 5 {
			t.Fatalf("%s has %d backups", name, n)
		}
	}

	// Schedules: daily, hourly, own bucket.
	var scheds struct{ Schedules []api.Schedule }
	h.do("GET", "/backup/v1/backups/schedules?page_size=100", nil).want(t, 200).decode(t, &scheds)
	var daily, hourly, bucket bool
	for _, sc := range scheds.Schedules {
		switch sc.Expression() {
		case "0 3 * * *":
			daily = true
		case "15 * * * *":
			hourly = true
		}
		if sc.Target != "" && sc.Target != "managed" {
			bucket = true
		}
	}
	if !daily || !hourly || !bucket {
		t.Fatalf("schedules %+v", scheds.Schedules)
	}

	// Restores: one running, one finished.
	var restores []api.Restore
	h.do("GET", "/backup/v1/restores", nil).want(t, 200).decode(t, &restores)
	var runningR, doneR int
	for _, r := range restores {
		if r.Running() {
			runningR++
		} else if r.Succeeded() {
			doneR++
		}
	}
	if runningR == 0 || doneR == 0 {
		t.Fatalf("restores %+v", restores)
	}

	// Within five sandbox minutes the launch and the restore finish.
	h.clk.Advance(5 * time.Minute)
	if st := h.service(byName[DemoReporting].ID).Status; st != "ready" {
		t.Fatalf("%s is %s after 5 minutes", DemoReporting, st)
	}
	if st := h.service(byName[DemoStaging].ID).Status; st != "ready" {
		t.Fatalf("%s is %s after 5 minutes", DemoStaging, st)
	}
}

func TestDemoDataIsDeterministic(t *testing.T) {
	dump := func(seed int64) string {
		h := newHarness(t, Options{DemoData: true, Seed: seed})
		out := string(h.do("GET", "/provisioning/v1/services", nil).body)
		out += string(h.do("GET", "/skybackup/v1/backups?page_size=1000", nil).body)
		out += string(h.do("GET", "/backup/v1/restores", nil).want(t, 200).body)
		return out + string(h.do("GET", "/backup/v1/backups/schedules", nil).want(t, 200).body)
	}
	a, b, c := dump(3), dump(3), dump(4)
	if a != b {
		t.Fatal("same seed and start, different demo data")
	}
	if a == c {
		t.Fatal("the seed does not matter")
	}
}

func TestClocks(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := NewScaledClock(start, 3600)
	time.Sleep(20 * time.Millisecond)
	if el := c.Now().Sub(start); el < 60*time.Second || el > time.Hour {
		t.Fatalf("scaled clock moved %v in 20 ms at 3600x", el)
	}
	m := NewManualClock(start)
	m.Advance(-time.Hour)
	if !m.Now().Equal(start) {
		t.Fatal("manual clock ran backwards")
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				m.Advance(time.Second)
				m.Now()
			}
		}()
	}
	wg.Wait()
	if got := m.Now().Sub(start); got != 800*time.Second {
		t.Fatalf("advanced %v", got)
	}
	if s := New(Options{TimeScale: 60}); s.Clock().Now().IsZero() {
		t.Fatal("no default clock")
	}
}
