package services

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/tui/tuitest"
)

// slowAPI answers as h does, but while it is held every request waits
// until it is let go: the option listings of a step not yet visited come
// after the keys typed for it.
type slowAPI struct {
	h    http.Handler
	mu   sync.Mutex
	gate chan struct{} // nil: answers at once
}

func (s *slowAPI) hold() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gate = make(chan struct{})
}

func (s *slowAPI) letGo() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.gate)
	s.gate = nil
}

func (s *slowAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	g := s.gate
	s.mu.Unlock()
	if g != nil {
		<-g
	}
	s.h.ServeHTTP(w, r)
}

// burstForm opens the create form against a demo sandbox whose answers
// can be held, and waits for its first step's choices.
func burstForm(t *testing.T) (*tuitest.Harness, *Screen, *slowAPI) {
	t.Helper()
	srv, _, _ := tuitest.Sandbox(t, true)
	slow := &slowAPI{h: srv}
	c := tuitest.Common()
	c.Client = tuitest.Client(t, slow, api.Config{APIKey: tuitest.TestKey})
	s := New(c)
	s.SetSize(80, 20)
	hs := (&tuitest.Harness{T: t, Model: screenApp{s}, Render: s.View, Quiet: 50 * time.Millisecond}).Start(80, 20)
	openCreate(hs, s)
	return hs, s, slow
}

// burst delivers keys as one read of the terminal: all of them before
// any command's answer.
func burst(hs *tuitest.Harness, keys ...string) {
	for _, k := range keys {
		hs.Deliver(tuitest.KeyMsg(k))
	}
}

// TestCreateBurstWaitsForTheNextStep: tabs and a name typed in one burst
// while the next steps' choices are still being read (their first
// visit) go, in order, to the fields they were typed for once those have
// their choices: eight tabs from the provider reach the name, which then
// holds what was typed after them. Before, a tab that reached a list
// still loading was dropped, and the form stopped at the version with the
// name left empty.
func TestCreateBurstWaitsForTheNextStep(t *testing.T) {
	hs, s, slow := burstForm(t)
	slow.hold()
	burst(hs, "tab", "tab", "tab", "tab", "tab", "tab", "tab", "tab", "q", "a", "-", "b", "u", "r", "s", "t")
	hs.Settle() // the moves answer; the listings wait
	slow.letGo()
	hs.Until("the name typed in the burst", func() bool {
		return s.mode == modeCreate && s.form.focused() == "name" && s.form.values.name.Get() == "qa-burst"
	})
	v := hs.Screen()
	if !strings.Contains(v, "5/5: name and access") || !strings.Contains(v, "> qa-burst") {
		t.Fatalf("the last step does not show the name typed:\n%s", v)
	}
	d := s.form.values.draft()
	for what, got := range map[string]string{"service type": d.ServiceType, "topology": d.Topology,
		"architecture": d.Architecture, "size": d.Size, "version": d.Version} {
		if got == "" {
			t.Errorf("the %s was passed over with nothing chosen", what)
		}
	}
	if d.Storage <= 0 {
		t.Errorf("the storage was passed over with nothing chosen: %d", d.Storage)
	}
}

// TestCreateTabsFromRegionReachTopology: on the region, two tabs in one
// burst go to the service type and then, once its choices are read, on
// to the topology (the second tab was lost on the service type, still
// loading).
func TestCreateTabsFromRegionReachTopology(t *testing.T) {
	hs, s, slow := burstForm(t)
	hs.Key("tab")
	hs.Until("the region", func() bool { return s.form.focused() == "region" })
	slow.hold()
	burst(hs, "tab", "tab")
	hs.Settle()
	slow.letGo()
	hs.Until("the topology", func() bool {
		return s.form.focused() == "topology" && strings.Contains(hs.Screen(), "(es-single)")
	})
	if got := s.form.values.serviceType.Get(); got == "" {
		t.Errorf("the service type was passed over with nothing chosen")
	}
}
