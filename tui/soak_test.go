package tui

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"go.uber.org/goleak"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
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

// soakRSSTarget is the resident memory the soak's process (the
// application, its client and the sandbox) must stay under: 100 MiB. A huge
// answer is refused unread when it says its length (else read to MaxBody
// and no further), and an endless listing stops at MaxListItems or
// MaxListBytes; measured peaks are about 53 MiB in 10 s. The race
// detector's shadow memory multiplies it (make test runs with -race).
const soakRSSTarget = 100 << 20

// raceEnabled reports a test binary built with -race.
func raceEnabled() bool {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" {
				return s.Value == "true"
			}
		}
	}
	return false
}

// procStatusBytes reads a "kB" line of /proc/self/status (VmRSS, VmHWM);
// 0 where there is none (not Linux).
func procStatusBytes(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return n << 10
		}
	}
	return 0
}

// soakServicesCount reads the count of the Services screen's status line.
var soakServicesCount = regexp.MustCompile(`(?m)^ Services (\d+)(?: of \d+)?  sort:`)

// The application runs in real time against a sandbox that fails 40% of
// requests in every way it can (500, 503, 429 with Retry-After, hangs past
// the client's timeout, malformed JSON, dropped connections, and for GETs
// empty and null listings, listings with endless pages, answers over
// 32 MiB) while the user moves across every screen, refreshes, and submits
// changes; then each of empty, null, endless and huge answers every
// request for a refresh of the Services screen. Nothing panics, the header
// says the data is stale, the services shown are never replaced by an
// empty list (nor by generated ones), the process stays under 100 MB of
// resident memory, every submitted change reaches the server exactly
// once, the first refresh after the faults stop recovers, and no goroutine
// is left behind.
// soakStale is the header's stale note: "stale since 12:03:11, retry …",
// or "stale 12:03:11 …" when the reason would not fit.
var soakStale = regexp.MustCompile(`stale (since )?[0-9]{2}:[0-9]{2}:[0-9]{2}`)

func TestSoakUnderFaults(t *testing.T) {
	d := soakDuration(t)
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	// VmHWM from here on: whatever tests ran before in this process
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
	var peakRSS int64
	sampleRSS := func() {
		peakRSS = max(peakRSS, procStatusBytes("VmRSS"))
	}

	faults := sandbox.Faults{ErrorRate: 0.10, RateLimitRate: 0.05, RetryAfter: time.Second,
		TimeoutRate: 0.03, MalformedRate: 0.06, DropRate: 0.06,
		EmptyRate: 0.03, NullRate: 0.03, EndlessRate: 0.02, HugeRate: 0.02, Seed: 42}
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
	// Once the application has shown services, an answer that failed
	// (empty, null, endless, huge or any other fault) never replaces them
	// with no services, and no generated record is ever shown.
	shownServices := 0
	var lastServices *pollResultMsg
	checkFrame := func(why string) {
		f := ansi.Strip(m.Render())
		if mm := soakServicesCount.FindStringSubmatch(f); mm != nil {
			n, _ := strconv.Atoi(mm[1])
			if n > 0 {
				shownServices = max(shownServices, n)
			} else if shownServices > 0 {
				t.Errorf("%s: the Services screen shows 0 services after it showed %d (the sandbox has %d):\n%s", why, shownServices, len(sb.ServiceIDs()), f)
			}
		}
		if shownServices > 0 || len(m.known) > 0 {
			for _, empty := range []string{"no services yet", "no services in this account yet", "no services: create two"} {
				if strings.Contains(f, empty) {
					t.Errorf("%s: %q shown after services were (the sandbox has %d):\n%s", why, empty, len(sb.ServiceIDs()), f)
				}
			}
		}
		for _, gen := range []string{"dbendless", "endless-", "dbhuge", "xxxxxxxx"} {
			if strings.Contains(f, gen) {
				t.Errorf("%s: a record of an endless or huge answer is shown:\n%s", why, f)
			}
		}
	}
	knownServices := 0
	sawStale := false
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
		// a failed answer makes the header say so at once: looked for
		// after each one, not only between keys, where a quick success
		// may already have ended it
		if r, ok := msg.(pollResultMsg); ok && r.err != nil && !sawStale {
			sawStale = soakStale.MatchString(ansi.Strip(m.Render()))
		}
		if r, ok := msg.(pollResultMsg); ok && r.key == "services" {
			lastServices = &r
			if len(m.known) > 0 {
				knownServices = len(m.known)
			} else if knownServices > 0 {
				t.Errorf("the application's services went from %d to none (the sandbox has %d; last answer: %v)", knownServices, len(sb.ServiceIDs()), r.err)
			}
			checkFrame("services answer")
		}
	}
	spawn(m.Init())
	deliver(tea.WindowSizeMsg{Width: 120, Height: 40})

	submitted := 0
	var sends atomic.Int32 // Run calls: each submit, and each explicit resend
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
		sampleRSS()
		deliver(tuitest.KeyMsg(keys[rng.IntN(len(keys))]))
		checkFrame("key")
		if soakStale.MatchString(ansi.Strip(m.Render())) {
			sawStale = true
		}
		if time.Since(lastPost) > 2*time.Second {
			lastPost = time.Now()
			submitted++
			name := fmt.Sprintf("soak-%03d", submitted)
			deliver(kit.ActionRequestMsg{Action: kit.Action{Name: "create service " + name, Mutating: true, Origin: "services",
				Run: func(ctx context.Context) (any, error) {
					sends.Add(1) // a submit, or a "Send again" chosen in the outcome-unknown dialog
					return client.CreateService(ctx, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single",
						Provider: "aws", Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: name})
				}}})
		}
	})
	if !sawStale {
		t.Error("with 40% faults the header never said the data was stale")
	}
	// pumpUntil pumps until done or the deadline; false at the deadline.
	pumpUntil := func(limit time.Duration, done func() bool) bool {
		until := time.Now().Add(limit)
		for !done() {
			if time.Now().After(until) {
				return false
			}
			pump(time.Now().Add(50*time.Millisecond), sampleRSS)
		}
		return true
	}
	// refreshServices shows the Services screen, asks for a refresh, and
	// waits for the answer (after one in flight).
	refreshServices := func(limit time.Duration) *pollResultMsg {
		deliver(tuitest.KeyMsg("esc"))
		deliver(tuitest.KeyMsg("1"))
		lastServices = nil
		deliver(tuitest.KeyMsg("r"))
		pumpUntil(limit, func() bool { return lastServices != nil && !m.engine.inFlight() })
		return lastServices
	}

	t.Logf("after the mix: VmRSS %.1f MiB, VmHWM %.1f MiB", float64(procStatusBytes("VmRSS"))/(1<<20), float64(procStatusBytes("VmHWM"))/(1<<20))
	// each of empty, null, endless and huge answers a refresh of the
	// Services screen that has services: the services stay, marked stale
	sb.SetFaults(sandbox.Faults{})
	pump(time.Now().Add(time.Second), sampleRSS) // let requests in flight end
	if r := refreshServices(5 * time.Second); r == nil || r.err != nil || len(m.known) == 0 {
		t.Fatalf("no services after the faults stopped: %v", r)
	}
	for _, spike := range []struct {
		f    sandbox.Faults
		want string
	}{
		{sandbox.Faults{NullRate: 1}, "null answer where a list was expected"},
		{sandbox.Faults{EmptyRate: 1}, "empty answer where a list was expected"},
		{sandbox.Faults{EndlessRate: 1}, "items, the most the client reads"},
		{sandbox.Faults{HugeRate: 1}, "larger than 32 MiB"},
	} {
		sb.SetFaults(spike.f)
		r := refreshServices(10 * time.Second)
		switch {
		case r == nil:
			t.Errorf("%v: no answer to the refresh", spike.f)
		case r.err == nil || !strings.Contains(r.err.Error(), spike.want):
			t.Errorf("%v: the listing answered %v, want an error saying %q", spike.f, r.err, spike.want)
		}
		checkFrame(spike.f.String())
		t.Logf("after %v: VmRSS %.1f MiB, VmHWM %.1f MiB", spike.f, float64(procStatusBytes("VmRSS"))/(1<<20), float64(procStatusBytes("VmHWM"))/(1<<20))
		if f := ansi.Strip(m.Render()); !strings.Contains(f, "showing last data") {
			t.Errorf("%v: the Services screen does not say it shows the last data:\n%s", spike.f, f)
		}
	}

	// the faults stop: the first refresh recovers
	sb.SetFaults(sandbox.Faults{})
	pump(time.Now().Add(500*time.Millisecond), sampleRSS) // let requests in flight end
	deliver(tuitest.KeyMsg("1"))
	deliver(tuitest.KeyMsg("r"))
	recovered := pumpUntil(5*time.Second, func() bool {
		f := ansi.Strip(m.Render())
		return strings.Contains(f, "updated") && !soakStale.MatchString(f)
	})
	if !recovered {
		t.Errorf("one refresh after the faults stopped did not recover:\n%s", ansi.Strip(m.Render()))
	}
	checkFrame("recovered")

	// quit; wait for what is in flight, then check nothing leaked
	deliver(tuitest.KeyMsg("q"))
	pump(time.Now().Add(2*time.Second), func() {})
	// every send reaches the server exactly once: none is retried by the
	// client, none is lost; a second send is only ever the user's choice
	// in the outcome-unknown dialog (random tab+enter can make it here)
	if got, want := sb.Stats().Count("POST", "/provisioning/v1/services"), int(sends.Load()); got != want || want < submitted {
		t.Errorf("%d creates were submitted and sent %d times, but %d POSTs reached the server: a POST was duplicated or lost", submitted, want, got)
	}
	cancel()
	for running > 0 {
		<-msgs
		running--
	}
	sb.Close()
	tr.CloseIdleConnections()
	sampleRSS()
	hwm := procStatusBytes("VmHWM")
	t.Logf("soak %s (%s in all): %d requests, faults %v, %d creates submitted once each", d, time.Since(start).Round(100*time.Millisecond), sb.Stats().Total, sb.Stats().Faults, submitted)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("peak RSS %.1f MiB (VmHWM; VmRSS sampled: %.1f MiB), Go heap obtained from the OS %.1f MiB, race detector %v",
		float64(hwm)/(1<<20), float64(peakRSS)/(1<<20), float64(ms.HeapSys)/(1<<20), raceEnabled())
	limit := int64(soakRSSTarget)
	if raceEnabled() {
		limit *= 6 // the race detector's shadow memory: 5-10x by its documentation
	}
	if peak := max(hwm, peakRSS); peak > limit {
		t.Errorf("the process reached %.1f MiB of resident memory, more than %d MiB", float64(peak)/(1<<20), limit>>20)
	}
}
