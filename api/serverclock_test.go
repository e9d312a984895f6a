package api_test

import (
	"context"
	"testing"
	"time"
)

// TestNowFollowsTheServersClock: a server whose clock is far from ours
// (here the sandbox's, at 2026-11-21 12:00 while the test runs on another
// day, or a fast demo clock) is the clock ages are measured by: after an
// answer, Client.Now is the server's time to the second, and it moves on.
func TestNowFollowsTheServersClock(t *testing.T) {
	c, _, clock := sandboxClient(t, "")
	if d := time.Since(c.Now()); d < -time.Second || d > time.Second {
		t.Fatalf("before any answer Now is %v from our clock", d)
	}
	clock.Advance(3 * time.Hour)
	if _, err := c.ListServices(context.Background()); err != nil {
		t.Fatal(err)
	}
	if d := c.Now().Sub(clock.Now()); d < -time.Second || d > time.Second {
		t.Fatalf("after an answer Now is %v off the server's clock (%v)", d, clock.Now())
	}
	a := c.Now()
	time.Sleep(20 * time.Millisecond)
	if !c.Now().After(a) {
		t.Fatal("Now stands still between answers")
	}
}
