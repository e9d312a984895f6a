package replication_test

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// The list's READ column ages with the clock, as the pane's Read does
// (it stayed at "0s ago" until new data came).
func TestStatusReadColumnAges(t *testing.T) {
	d := newDemo(t)
	d.managedPair("uni-directional")
	h := d.replication(nil, "IO thread     Yes")
	if r := h.selectedRow("orders-prod"); !strings.HasSuffix(strings.TrimSpace(r), "0s ago") {
		t.Fatalf("the row just read: %q", r)
	}
	d.clk.Advance(42 * time.Second)
	h.clockTick()
	if !strings.Contains(h.flat(), "(42s ago)") {
		t.Fatalf("the pane does not say 42s ago:\n%s", h.Screen())
	}
	if r := h.selectedRow("orders-prod"); !strings.HasSuffix(strings.TrimSpace(r), "42s ago") {
		t.Fatalf("the row's READ does not age with the pane's: %q\n%s", r, h.Screen())
	}
}

// Reads whose lag was NULL (replication stopped) do not make a maximum
// of 0 s: the pane says no lag was read; once some reads have a lag, the
// maximum is theirs and the NULL ones are counted apart.
func TestStatusLagMaxOnlyOverNumbers(t *testing.T) {
	d := newDemo(t)
	_, rep := d.managedPair("uni-directional")
	if _, err := d.sqlOf(t, rep).StopReplication(bg); err != nil {
		t.Fatal(err)
	}
	h := d.replication(nil, "IO thread     No")
	for range 2 {
		d.clk.Advance(5 * time.Second)
		h.FirePolls()
	}
	h.Until("three reads", func() bool { return strings.Contains(h.flat(), "last 3 reads") })
	scr := h.flat()
	if strings.Contains(scr, "max 0s") || !strings.Contains(scr, "no lag read in the last 3 reads") {
		t.Fatalf("NULL lags read as a maximum:\n%s", h.Screen())
	}
	if _, err := d.sqlOf(t, rep).StartReplication(bg); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		d.clk.Advance(5 * time.Second)
		h.FirePolls()
	}
	h.Until("five reads", func() bool { return strings.Contains(h.flat(), "last 5 reads") })
	if !regexp.MustCompile(`max \d+s over the last 5 reads \(3 of them NULL\)`).MatchString(h.flat()) {
		t.Fatalf("mixed reads:\n%s", h.Screen())
	}
}

// The pane's cut says what is below and above in the words every cut
// text uses ("~ J: 5 more lines, K: 3 lines above"; it said "~ 7 more
// lines (J/K scroll)").
func TestStatusPaneCutSaysKeys(t *testing.T) {
	d := newDemo(t)
	h, _ := d.managedStatus(80, 18)
	if strings.Contains(h.Screen(), "J/K scroll)") || !regexp.MustCompile(`~ J: \d+ more lines?\n`).MatchString(h.Screen()) {
		t.Fatalf("the pane's cut:\n%s", h.Screen())
	}
	h.Key("J")
	if !regexp.MustCompile(`K: \d+ lines? above`).MatchString(h.Screen()) {
		t.Fatalf("scrolled, the pane's cut does not say what is above:\n%s", h.Screen())
	}
}

// Between two clock ticks (auto-refresh paused: p), the row's READ and
// the pane's Read say the same age: both are of the same clock reading
// (the row said "3s ago" while the pane said "(6s ago)").
func TestStatusReadAgeSameInRowAndPane(t *testing.T) {
	d := newDemo(t)
	d.managedPair("uni-directional")
	h := d.replication(nil, "IO thread     Yes")
	h.Key("p")
	d.clk.Advance(3 * time.Second)
	h.clockTick()
	d.clk.Advance(3 * time.Second) // no tick: a frame drawn meanwhile
	row := h.selectedRow("orders-prod")
	age := regexp.MustCompile(`(\d+s) ago\s*$`).FindStringSubmatch(row)
	if age == nil {
		t.Fatalf("the row says no age: %q", row)
	}
	if !strings.Contains(h.flat(), "("+age[1]+" ago)") {
		t.Fatalf("the row says %s ago, the pane another age:\n%s", age[1], h.Screen())
	}
}
