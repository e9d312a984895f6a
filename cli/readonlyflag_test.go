package cli

import (
	"testing"
)

// TestTUIKnowsReadOnlyCameFromTheFlag: the TUI is told when --read-only,
// not the profile, made the run read-only, so its refusals name the flag
// (start again without it) rather than the writable profile.
func TestTUIKnowsReadOnlyCameFromTheFlag(t *testing.T) {
	h := labHarness(t)
	for _, args := range [][]string{{"--profile", "lab"}, {"--profile", "lab", "--read-only"}} {
		opts := tuiOptions(h, args...)
		flag := len(args) == 3
		if opts.ReadOnlyFlag != flag || opts.ReadOnly != flag {
			t.Errorf("%v: ReadOnly %v, ReadOnlyFlag %v; want both %v", args, opts.ReadOnly, opts.ReadOnlyFlag, flag)
		}
	}
}
