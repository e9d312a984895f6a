package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// fakeRes is a resource whose answers the test controls.
type fakeRes struct {
	key     string
	mu      sync.Mutex
	calls   int
	block   chan struct{} // when set, a fetch waits for it
	err     error
	pending bool
}

func (f *fakeRes) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *fakeRes) set(pending bool, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending, f.err = pending, err
}

func (f *fakeRes) resource() kit.Resource {
	return kit.Resource{
		Key: f.key,
		Fetch: func(ctx context.Context) (any, error) {
			f.mu.Lock()
			f.calls++
			block := f.block
			f.mu.Unlock()
			if block != nil {
				<-block
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.pending, f.err
		},
		Pending: func(d any) bool { p, _ := d.(bool); return p },
	}
}

// fakeScreen records the data it is given.
type fakeScreen struct {
	id   string
	res  []*fakeRes
	mu   sync.Mutex
	data []kit.DataMsg
	done []kit.ActionDoneMsg
	// onKey is returned for any key; got records every other message.
	onKey tea.Cmd
	got   []tea.Msg
}

func (s *fakeScreen) ID() string          { return s.id }
func (s *fakeScreen) Title() string       { return strings.ToUpper(s.id[:1]) + s.id[1:] }
func (s *fakeScreen) KeyMap() help.KeyMap { return emptyKeys{} }
func (s *fakeScreen) SetSize(int, int)    {}
func (s *fakeScreen) Init() tea.Cmd       { return nil }
func (s *fakeScreen) View() string        { return s.id }
func (s *fakeScreen) CapturesKeys() bool  { return false }
func (s *fakeScreen) Resources() []kit.Resource {
	out := make([]kit.Resource, len(s.res))
	for i, r := range s.res {
		out[i] = r.resource()
	}
	return out
}
func (s *fakeScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case kit.DataMsg:
		s.data = append(s.data, msg)
	case kit.ActionDoneMsg:
		s.done = append(s.done, msg)
	case tea.KeyPressMsg:
		return s, s.onKey
	default:
		s.got = append(s.got, msg)
	}
	return s, nil
}

// fakeApp builds a model over the given screens (a fifth screen is never
// needed: keys 1-4 switch).
func fakeApp(t *testing.T, slow time.Duration, screens ...*fakeScreen) *harness {
	t.Helper()
	opts := Options{
		Profile:      "test",
		Now:          func() time.Time { return t0 },
		SlowInterval: slow,
		Screens: func(*kit.Common) []kit.Screen {
			out := make([]kit.Screen, len(screens))
			for i, s := range screens {
				out[i] = s
			}
			return out
		},
	}
	return newHarness(t, opts, 100, 30)
}

func TestPollNoSecondRequestWhileInFlight(t *testing.T) {
	r := &fakeRes{key: "x", block: make(chan struct{})}
	h := fakeApp(t, 30*time.Second, &fakeScreen{id: "a", res: []*fakeRes{r}})
	if got := r.Calls(); got != 1 {
		t.Fatalf("calls after start = %d, want 1", got)
	}
	// refresh by hand, twice, and a tick arriving for the resource: none
	// may start a second request while the first is in flight
	h.Key("r")
	h.Key("r")
	st := h.m.engine.states["x"]
	h.Send(pollTickMsg{gen: h.m.engine.gen, serial: st.serial, seq: st.seq, key: "x"})
	if got := r.Calls(); got != 1 {
		t.Fatalf("calls while in flight = %d, want 1", got)
	}
	if len(h.pollIntervals()["x"]) != 0 {
		t.Fatalf("a tick was armed before the reply: %v", h.pollIntervals())
	}
	close(r.block)
	h.Settle()
	if got := h.pollIntervals()["x"]; len(got) != 1 || got[0] != 30*time.Second {
		t.Fatalf("after the reply: armed %v, want one tick of 30s", got)
	}
	h.FirePolls()
	if got := r.Calls(); got != 2 {
		t.Fatalf("calls after the tick = %d, want 2", got)
	}
}

func TestPollStaleReplyDroppedAfterScreenSwitch(t *testing.T) {
	// both screens poll the same key, as two screens may both want
	// "services": only the generation tells their replies apart
	ra := &fakeRes{key: "services", block: make(chan struct{}), err: &api.Error{Status: 500, Message: "old"}}
	rb := &fakeRes{key: "services", block: make(chan struct{})}
	a := &fakeScreen{id: "alpha", res: []*fakeRes{ra}}
	b := &fakeScreen{id: "beta", res: []*fakeRes{rb}}
	h := fakeApp(t, 30*time.Second, a, b)
	h.Key("2") // switch while alpha's request is in flight
	if rb.Calls() != 1 {
		t.Fatalf("beta not fetched on switch: %d", rb.Calls())
	}
	close(ra.block) // alpha's (failed) reply arrives late
	h.Settle()
	if len(a.data)+len(b.data) != 0 {
		t.Fatalf("a stale reply was delivered: alpha %+v, beta %+v", a.data, b.data)
	}
	if !h.m.engine.states["services"].inFlight {
		t.Fatal("the stale reply cleared beta's in-flight request")
	}
	if iv := h.pollIntervals(); len(iv) != 0 {
		t.Fatalf("the stale reply armed a tick: %v", iv)
	}
	if strings.Contains(h.Screen(), "old") {
		t.Fatalf("the stale error reached the header:\n%s", h.Screen())
	}
	close(rb.block)
	h.Settle()
	if len(b.data) != 1 || b.data[0].Err != nil {
		t.Fatalf("beta got %+v, want its own reply", b.data)
	}
	// a tick of the old generation does nothing either
	h.Send(pollTickMsg{gen: h.m.engine.gen - 1, serial: 1, seq: 1, key: "services"})
	if ra.Calls() != 1 || rb.Calls() != 1 {
		t.Fatalf("old-generation tick fetched: alpha %d, beta %d", ra.Calls(), rb.Calls())
	}
}

func TestPollStaleReplyDroppedAfterProfileSwitch(t *testing.T) {
	block := make(chan struct{})
	var mu sync.Mutex
	var built []*fakeScreen
	opts := Options{
		Profile: "one",
		Now:     func() time.Time { return t0 },
		Screens: func(c *kit.Common) []kit.Screen {
			mu.Lock()
			defer mu.Unlock()
			r := &fakeRes{key: "services"}
			if len(built) == 0 {
				r.block = block // the first profile's first fetch hangs
			}
			s := &fakeScreen{id: "services", res: []*fakeRes{r}}
			built = append(built, s)
			return []kit.Screen{s}
		},
		SwitchProfile: func(name string) (Profile, error) {
			c, _ := api.New(api.Config{BaseURL: "https://api.example.com", APIKey: "k"})
			return Profile{Name: name, Client: c, ReadOnly: true}, nil
		},
	}
	h := newHarness(t, opts, 100, 30)
	h.Key(":")
	h.TypeText("profile two")
	h.Key("enter")
	if h.m.common.Profile != "two" || !h.m.common.ReadOnly {
		t.Fatalf("profile not switched: %q read-only=%v", h.m.common.Profile, h.m.common.ReadOnly)
	}
	close(block) // the old profile's reply arrives
	h.Settle()
	mu.Lock()
	defer mu.Unlock()
	if len(built) != 2 {
		t.Fatalf("screens built %d times, want 2", len(built))
	}
	if n := len(built[0].data) + len(built[1].data); n != 1 {
		t.Fatalf("replies delivered: old %d, new %d; want only the new profile's", len(built[0].data), len(built[1].data))
	}
	if len(built[1].data) != 1 {
		t.Fatalf("new profile's screen got %d replies", len(built[1].data))
	}
	if !strings.Contains(h.Screen(), "READ-ONLY") || !strings.Contains(h.Screen(), "api.example.com") {
		t.Fatalf("header does not show the new profile:\n%s", h.Screen())
	}
}

func TestPollBackoffDoublesToTwoMinutes(t *testing.T) {
	r := &fakeRes{key: "x", err: &api.Error{Status: 503, Message: "down"}}
	h := fakeApp(t, 30*time.Second, &fakeScreen{id: "a", res: []*fakeRes{r}})
	want := []time.Duration{2, 4, 8, 16, 32, 64, 120, 120}
	for i, w := range want {
		got := h.pollIntervals()["x"]
		if len(got) != 1 || got[0] != w*time.Second {
			t.Fatalf("failure %d: armed %v, want [%v]", i+1, got, w*time.Second)
		}
		h.FirePolls()
	}
	h.sees(t, "no data - HTTP 503: down", "header does not say why")
	r.set(false, nil) // recovers: back to the slow interval
	h.FirePolls()
	if got := h.pollIntervals()["x"]; len(got) != 1 || got[0] != 30*time.Second {
		t.Fatalf("after recovery: armed %v, want [30s]", got)
	}
}

func TestPollFastWhilePendingSlowWhenSettled(t *testing.T) {
	r := &fakeRes{key: "x", pending: true}
	other := &fakeRes{key: "y"}
	h := fakeApp(t, 45*time.Second, &fakeScreen{id: "a", res: []*fakeRes{r, other}})
	iv := h.pollIntervals()
	if len(iv["x"]) != 1 || len(iv["y"]) != 1 || iv["x"][0] != 2*time.Second || iv["y"][0] != 2*time.Second {
		t.Fatalf("pending: armed %v, want 2s for both resources on screen", iv)
	}
	r.set(false, nil)
	h.FirePolls()
	h.FirePolls() // "y" re-arms from its own reply once nothing is pending
	iv = h.pollIntervals()
	if iv["x"][0] != 45*time.Second || iv["y"][0] != 45*time.Second {
		t.Fatalf("settled: armed %v, want 45s", iv)
	}
}

func TestPollSlowZeroIsOff(t *testing.T) {
	r := &fakeRes{key: "x"}
	h := fakeApp(t, 0, &fakeScreen{id: "a", res: []*fakeRes{r}})
	if iv := h.pollIntervals(); len(iv) != 0 {
		t.Fatalf("slow=0 armed %v", iv)
	}
	r.set(true, nil) // something pending: fast polling still applies
	h.Key("r")
	if iv := h.pollIntervals(); len(iv["x"]) != 1 || iv["x"][0] != 2*time.Second {
		t.Fatalf("pending with slow=0: armed %v, want [2s]", iv)
	}
}

func TestPoll401StopsPolling(t *testing.T) {
	r := &fakeRes{key: "x", err: &api.Error{Status: 401, Message: "invalid API key"}}
	h := fakeApp(t, 30*time.Second, &fakeScreen{id: "a", res: []*fakeRes{r}})
	if iv := h.pollIntervals(); len(iv) != 0 {
		t.Fatalf("polling continued after 401: %v", iv)
	}
	h.sees(t, "API key refused (401): polling stopped", "header does not say the key was refused")
	st := h.m.engine.states["x"]
	h.Send(pollTickMsg{gen: h.m.engine.gen, serial: st.serial, seq: st.seq, key: "x"})
	if r.Calls() != 1 {
		t.Fatalf("a tick fetched after 401: %d calls", r.Calls())
	}
	r.set(false, nil) // r retries by hand
	h.Key("r")
	if r.Calls() != 2 || strings.Contains(h.Screen(), "refused") {
		t.Fatalf("manual refresh after 401: %d calls\n%s", r.Calls(), h.Screen())
	}
}

func TestOnlyVisibleScreenPolls(t *testing.T) {
	ra, rb := &fakeRes{key: "a"}, &fakeRes{key: "b"}
	h := fakeApp(t, 30*time.Second, &fakeScreen{id: "alpha", res: []*fakeRes{ra}}, &fakeScreen{id: "beta", res: []*fakeRes{rb}})
	for range 3 {
		h.FirePolls()
	}
	if ra.Calls() != 4 || rb.Calls() != 0 {
		t.Fatalf("alpha %d, beta %d calls; want 4 and 0", ra.Calls(), rb.Calls())
	}
	h.Key("tab")
	for range 3 {
		h.FirePolls()
	}
	if ra.Calls() != 4 || rb.Calls() != 4 {
		t.Fatalf("after switching: alpha %d, beta %d calls; want 4 and 4", ra.Calls(), rb.Calls())
	}
}

func TestFreshnessHeader(t *testing.T) {
	now := t0
	r := &fakeRes{key: "x"}
	s := &fakeScreen{id: "a", res: []*fakeRes{r}}
	h := newHarness(t, Options{Now: func() time.Time { return now }, SlowInterval: 30 * time.Second,
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{s} }}, 100, 30)
	now = t0.Add(4 * time.Second)
	h.Send(clockMsg{})
	h.sees(t, "updated 4s ago", "no freshness")
	r.set(false, &api.Error{Status: 500, Message: "boom"})
	h.Key("r")
	// when the data was last good, when the next try comes, and why
	h.sees(t, "stale since 12:00:00, retry 12:00:06 - HTTP 500: boom", "no stale header")
}

// TestPauseStopsAutoRefresh: p stops the polling (the header says so and
// how to resume), r still refreshes by hand, and p again fetches at once
// and polls as before.
func TestPauseStopsAutoRefresh(t *testing.T) {
	r := &fakeRes{key: "x"}
	h := fakeApp(t, 30*time.Second, &fakeScreen{id: "a", res: []*fakeRes{r}})
	h.Key("p")
	h.sees(t, "paused (p resumes)", "the header does not say polling is paused")
	h.sees(t, "auto-refresh paused: r refreshes, p resumes", "no toast on pause")
	for range 3 {
		h.FirePolls()
	}
	if got := r.Calls(); got != 1 {
		t.Fatalf("calls while paused = %d, want 1 (the first load)", got)
	}
	h.Key("r")
	h.Settle()
	if got := r.Calls(); got != 2 {
		t.Fatalf("r while paused: %d calls, want 2", got)
	}
	if got := h.pollIntervals()["x"]; len(got) != 0 {
		t.Fatalf("a tick was armed while paused: %v", got)
	}
	h.Key("p")
	h.Settle()
	if got := r.Calls(); got != 3 {
		t.Fatalf("resume: %d calls, want 3 (fetched at once)", got)
	}
	if strings.Contains(h.Screen(), "paused (p") {
		t.Fatalf("still says paused after p:\n%s", h.Screen())
	}
	if got := h.pollIntervals()["x"]; len(got) != 1 || got[0] != 30*time.Second {
		t.Fatalf("after resuming: armed %v, want one tick of 30s", got)
	}
}

// emptyKeys is the key map of a screen without keys of its own.
type emptyKeys struct{}

func (emptyKeys) ShortHelp() []key.Binding  { return nil }
func (emptyKeys) FullHelp() [][]key.Binding { return nil }

// TestNoKeyListsSayWhy: without an API key (esc at the first prompt) the
// lists do not say "loading" for ever: each says there is no key and how
// to enter one, and nothing is sent.
func TestNoKeyListsSayWhy(t *testing.T) {
	srv, _, _ := tuitest.Sandbox(t, true)
	fl := &fakeLogin{srv: srv, stored: map[string]string{}}
	h := newHarness(t, Options{Client: tuitest.Client(t, srv, api.Config{}), Profile: "prod", NeedKey: true, Login: fl.login, Now: func() time.Time { return t0 }}, 100, 30)
	h.Key("esc")
	for _, c := range []struct{ key, noun string }{{"1", "services"}, {"2", "backups"}, {"3", "restores"}} {
		h.Key(c.key)
		out := h.Screen()
		if strings.Contains(out, "loading "+c.noun) || !strings.Contains(out, "could not load "+c.noun+": no API key (:login enters one; nothing was asked)") {
			t.Errorf("screen %s without a key:\n%s", c.key, out)
		}
	}
	// the wizards' lists of services say it too
	for _, c := range []struct {
		name string
		keys []string
	}{
		{"restore wizard", []string{"3", "n", "1"}},
		{"migration", []string{"3", "m"}},
		{"replication wizard", []string{"4", "n"}},
		{"managed replication", []string{"4", "n", "m"}},
	} {
		for _, k := range c.keys {
			h.Key(k)
		}
		out := h.Screen()
		if strings.Contains(out, "loading services") || strings.Contains(out, "create two") || !strings.Contains(out, "could not load services: no API key") {
			t.Errorf("%s without a key:\n%s", c.name, out)
		}
		h.Key("ctrl+x")
		h.Key("esc")
		h.Key("esc")
	}
	if n := srv.Stats().Total; n != 0 {
		t.Fatalf("%d requests were sent without a key", n)
	}
}
