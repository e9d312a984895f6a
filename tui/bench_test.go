package tui

import (
	"fmt"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// benchModel is the root model at w x h on the Services screen with n
// ready services named by name (a fmt pattern of the index).
func benchModel(n, w, h int, name string) *Model {
	m := New(Options{Profile: "bench", Now: func() time.Time { return t0 }, After: tuitest.After})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	svcs := make([]api.Service, n)
	for i := range svcs {
		svcs[i] = api.Service{ID: fmt.Sprintf("dbtaf%08d", i), Name: fmt.Sprintf(name, i), Status: "ready",
			Provider: "aws", Region: "us-east-1", Size: "sky-2x8", Nodes: 1, Version: "11.4.2-1",
			FQDN: fmt.Sprintf("dbtaf%08d.example.net", i), Endpoints: []api.Endpoint{{Ports: []api.Port{{Name: "readwrite", Port: 3306}}}}}
	}
	s, _ := m.screen().Update(kit.DataMsg{Key: "services", Data: svcs, At: t0})
	m.screens[0] = s
	return m
}

// BenchmarkFrame10k is a whole frame (header, tabs, Services screen with
// 10,000 services, message line, footer) at 200x60.
func BenchmarkFrame10k(b *testing.B) {
	m := benchModel(10000, 200, 60, "svc-%05d")
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkKeyFrame20 is the app's share of a key's latency: a key (j and
// k in turn, the selection moving a row) through the root Update and the
// whole frame that shows it, on 20 services at 120x40 (what `make bench`
// presses in its pseudo-terminal).
func BenchmarkKeyFrame20(b *testing.B) {
	m := benchModel(20, 120, 40, "bench-svc-%02d")
	keys := []tea.Msg{tuitest.KeyMsg("j"), tuitest.KeyMsg("k")}
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		m.Update(keys[i%2])
		_ = m.View()
		i++
	}
}
