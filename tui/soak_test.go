package tui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"go.uber.org/goleak"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// soakDuration is 2 minutes under CI, 10 s otherwise; SKYTUI_SOAK overrides.
func soakDuration(t *testing.T) time.Duration {
	if v := os.Getenv("SKYTUI_SOAK"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("SKYTUI_SOAK=%q: %v", v, err)
		}
		return d
	}
	if os.Getenv("CI") == "true" {
		return 2 * time.Minute
	}
	if testing.Short() {
		t.Skip("soak skipped in -short")
	}
	return 10 * time.Second
}

// The application runs in real time against a sandbox that fails 30% of
// requests in every way it can (500, 503, 429 with Retry-After, hangs past
// the client's timeout, malformed JSON, dropped connections) while the user
// moves across every screen, refreshes, and submits changes. Nothing
// panics, the header says the data is stale, every submitted change reaches
// the server exactly once, the first refresh after the faults stop recovers,
// and no goroutine is left behind.
func TestSoakUnderFaults(t *testing.T) {
	d := soakDuration(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())

	faults := sandbox.Faults{ErrorRate: 0.10, RateLimitRate: 0.05, RetryAfter: time.Second,
		TimeoutRate: 0.03, MalformedRate: 0.06, DropRate: 0.06, Seed: 42}
	sb := sandbox.New(sandbox.Options{APIKey: testKey, TimeScale: 60, DemoData: true, Faults: faults, Seed: 3})
	url, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	// no client retries: every fault reaches the polling engine, so the
	// stale header and the engine's backoff are what is exercised
	client, err := api.New(api.Config{BaseURL: url, APIKey: testKey, HTTPClient: &http.Client{Transport: tr},
		Timeout: 800 * time.Millisecond, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	after := func(d time.Duration, msg tea.Msg) tea.Cmd {
		return func() tea.Msg {
			tm := time.NewTimer(d)
			defer tm.Stop()
			select {
			case <-tm.C:
				return msg
			case <-ctx.Done():
				return nil
			}
		}
	}
	m := newModel(ctx, Options{Client: client, Profile: "soak", Demo: true, FastInterval: MinInterval,
		SlowInterval: MinInterval, After: after, Getenv: func(string) string { return "" }})
	msgs := make(chan tea.Msg, 256)
	running := 0
	spawn := func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		running++
		go func() {
			msg := cmd()
			select {
			case msgs <- msg:
			case <-ctx.Done():
				msgs <- nil
			}
		}()
	}
	var deliver func(msg tea.Msg)
	deliver = func(msg tea.Msg) {
		switch msg := msg.(type) {
		case nil:
			return
		case tea.BatchMsg:
			for _, c := range msg {
				spawn(c)
			}
			return
		case tea.RawMsg:
			return
		}
		if strings.Contains(fmt.Sprintf("%T", msg), "cursor.") || fmt.Sprintf("%T", msg) == "tea.sequenceMsg" {
			return
		}
		_, cmd := m.Update(msg)
		spawn(cmd)
	}
	spawn(m.Init())
	deliver(tea.WindowSizeMsg{Width: 120, Height: 40})

	submitted := 0
	sawStale := false
	rng := rand.New(rand.NewPCG(9, 9))
	keys := []string{"1", "2", "3", "4", "5", "r", "tab", "j", "enter", "esc"}
	pump := func(until time.Time, each func()) {
		next := time.Now()
		for time.Now().Before(until) {
			select {
			case msg := <-msgs:
				running--
				deliver(msg)
			case <-time.After(20 * time.Millisecond):
			}
			if time.Now().After(next) {
				next = time.Now().Add(250 * time.Millisecond)
				each()
			}
		}
	}
	start := time.Now()
	lastPost := start
	pump(start.Add(d), func() {
		deliver(tuitest.KeyMsg(keys[rng.IntN(len(keys))]))
		if strings.Contains(ansi.Strip(m.Render()), "stale since") {
			sawStale = true
		}
		if time.Since(lastPost) > 2*time.Second {
			lastPost = time.Now()
			submitted++
			name := fmt.Sprintf("soak-%03d", submitted)
			deliver(kit.ActionRequestMsg{Action: kit.Action{Name: "create service " + name, Mutating: true, Origin: "services",
				Run: func(ctx context.Context) (any, error) {
					return client.CreateService(ctx, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single",
						Provider: "aws", Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: name})
				}}})
		}
	})
	if !sawStale {
		t.Error("with 30% faults the header never said the data was stale")
	}

	// the faults stop: the first refresh recovers
	sb.SetFaults(sandbox.Faults{})
	pump(time.Now().Add(time.Second), func() {}) // let requests in flight end
	deliver(tuitest.KeyMsg("1"))
	deliver(tuitest.KeyMsg("r"))
	recovered := false
	pump(time.Now().Add(5*time.Second), func() {
		if !recovered {
			f := ansi.Strip(m.Render())
			recovered = strings.Contains(f, "updated") && !strings.Contains(f, "stale since")
		}
	})
	if !recovered {
		t.Errorf("one refresh after the faults stopped did not recover:\n%s", ansi.Strip(m.Render()))
	}

	// quit; wait for what is in flight, then check nothing leaked
	deliver(tuitest.KeyMsg("q"))
	pump(time.Now().Add(2*time.Second), func() {})
	if got := sb.Stats().Count("POST", "/provisioning/v1/services"); got != submitted {
		t.Errorf("%d creates were submitted but %d POSTs reached the server: a POST was duplicated or lost", submitted, got)
	}
	cancel()
	for running > 0 {
		<-msgs
		running--
	}
	sb.Close()
	tr.CloseIdleConnections()
	t.Logf("soak %s: %d requests, faults %v, %d creates submitted once each", d, sb.Stats().Total, sb.Stats().Faults, submitted)
}
