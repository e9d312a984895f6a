package api

import (
	"fmt"
	"time"
)

// Ago formats a duration coarsely, the way lists show ages: 4s, 3m, 2h
// (up to two days), then 5d.
func Ago(d time.Duration) string { return ago(d, false) }

// AgoHours is Ago with the hours kept after the days, 4d05h, for spans
// that are counted against a limit in hours (a binary-log retention).
func AgoHours(d time.Duration) string { return ago(d, true) }

func ago(d time.Duration, hours bool) string {
	if d < 0 {
		d = 0
	}
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	h := int(d.Hours())
	if hours {
		return fmt.Sprintf("%dd%02dh", h/24, h%24)
	}
	return fmt.Sprintf("%dd", h/24)
}
