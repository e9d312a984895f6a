package api

import "testing"

// TestWordsAreOneFormatter: a size's CPU and memory, and a backup's
// status, read the same wherever they are shown.
func TestWordsAreOneFormatter(t *testing.T) {
	for _, c := range []struct {
		s    Size
		want string
	}{
		{Size{CPU: "2 vCPU", RAM: "8 GB"}, "2 vCPU, 8 GB RAM"}, // the API's words: no "2 vCPU CPU"
		{Size{CPU: "4", RAM: "16"}, "4 vCPU, 16 GB RAM"},
		{Size{CPU: "8 vCPU"}, "8 vCPU"},
		{Size{}, ""},
	} {
		if got := c.s.Spec(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
	for in, want := range map[string]string{"Succeeded": "completed", "Running": "in progress", "completed": "completed",
		"FAILED": "failed", "Verifying": "Verifying", "": "unknown"} {
		if got := BackupWord(in); got != want {
			t.Errorf("BackupWord(%q) = %q, want %q", in, got, want)
		}
	}
}
