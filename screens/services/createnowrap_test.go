package services

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/api"

	"github.com/skytui/skytui/tui/tuitest"
)

// TestCreateListsStopAtTheirEnds: j on a list's last choice and k on its
// first leave the choice where it is, as the Services list does: huh's
// select went round to the other end, and a user who held j on Microsoft
// Azure's westeurope launched in eastus.
func TestCreateListsStopAtTheirEnds(t *testing.T) {
	hs, s := demoForm(t)
	openCreate(hs, s)
	hs.Key("k")
	if got := s.form.values.provider.Get(); got != "aws" {
		t.Fatalf("k on the first provider chose %q, want aws:\n%s", got, hs.Screen())
	}
	hs.Keys("j", "j", "j", "j")
	if got := s.form.values.provider.Get(); got != "azure" {
		t.Fatalf("j past the last provider chose %q, want azure:\n%s", got, hs.Screen())
	}
	hs.Key("tab")
	hs.Until("the regions of azure", func() bool {
		return s.form.focused() == "region" && strings.Contains(hs.Screen(), "(westeurope)")
	})
	hs.Keys("j", "j", "j")
	hs.Settle()
	if got := s.form.values.region.Get(); got != "westeurope" {
		t.Fatalf("j past the last region chose %q, want westeurope:\n%s", got, hs.Screen())
	}
	if v := tuitest.LineWith(hs.Screen(), "(westeurope)"); !strings.Contains(v, ">") {
		t.Fatalf("the cursor left westeurope:\n%s", hs.Screen())
	}
}

// TestScaleListsStopAtTheirEnds: in the z lists, j on the last choice and
// k on the first leave the cursor where it is (it went round).
func TestScaleListsStopAtTheirEnds(t *testing.T) {
	s := newScreen(80, 20)
	v := svc(1, "ready")
	v.Topology, v.Nodes = "es-replica", 2
	feed(s, []api.Service{v})
	press(s, "z")
	if s.scale == nil {
		t.Fatalf("z did not open the scale:\n%s", tuitest.View(s))
	}
	for range 3 { // from nodes: size, storage, and one more
		press(s, "j")
	}
	if l := tuitest.LineWith(tuitest.View(s), "storage"); !strings.Contains(l, ">") {
		t.Fatalf("j past the last kind left storage:\n%s", tuitest.View(s))
	}
	for range 3 {
		press(s, "k")
	}
	if l := tuitest.LineWith(tuitest.View(s), "nodes"); !strings.Contains(l, ">") {
		t.Fatalf("k past the first kind left nodes:\n%s", tuitest.View(s))
	}
}
