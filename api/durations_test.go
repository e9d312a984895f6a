package api

import (
	"testing"
	"time"
)

func TestAgo(t *testing.T) {
	for _, c := range []struct {
		d           time.Duration
		ago, agoHrs string
	}{
		{-time.Second, "0s", "0s"},
		{59 * time.Second, "59s", "59s"},
		{3 * time.Minute, "3m", "3m"},
		{47 * time.Hour, "47h", "47h"},
		{4*24*time.Hour + 5*time.Hour, "4d", "4d05h"},
	} {
		if got := Ago(c.d); got != c.ago {
			t.Errorf("Ago(%v) = %q, want %q", c.d, got, c.ago)
		}
		if got := AgoHours(c.d); got != c.agoHrs {
			t.Errorf("AgoHours(%v) = %q, want %q", c.d, got, c.agoHrs)
		}
	}
}
