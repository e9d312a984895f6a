package cli

import (
	"strings"
	"testing"
)

// TestHintsRunWhereTheRunRan: a command skytui suggests carries the
// --profile and --api-url the run was given, once; one that names its own
// profile or URL, the demo or the sandbox is left as it is, and a run
// given neither suggests commands as they are.
func TestHintsRunWhereTheRunRan(t *testing.T) {
	e := &env{}
	msg := "check with `skytui services get orders` and `skytui auth login --profile lab --api-url https://x` or `skytui --demo`"
	if got := e.hinted(msg); got != msg {
		t.Errorf("no selection: %q", got)
	}
	e.noteSelection("staging", "")
	want := "check with `skytui services get orders --profile staging` and `skytui auth login --profile lab --api-url https://x` or `skytui --demo`"
	if got := e.hinted(msg); got != want {
		t.Errorf("--profile:\n%q\nwant\n%q", got, want)
	}
	e.noteSelection("my lab", "http://127.0.0.1:8080")
	if got := e.hinted("stop it (`skytui replication stop 'replica west' --yes`)"); got != "stop it (`skytui replication stop 'replica west' --yes --profile 'my lab' --api-url http://127.0.0.1:8080`)" {
		t.Errorf("--profile and --api-url: %q", got)
	}
	// in the command tree: creds takes neither flag (its secrets are no
	// profile's), and is suggested as it is
	newRootCmd(e)
	e.noteSelection("staging", "")
	if got := e.hinted("see `skytui creds list`; or `skytui services get orders`"); got != "see `skytui creds list`; or `skytui services get orders --profile staging`" {
		t.Errorf("creds: %q", got)
	}
	f := &outputFlags{apiURL: "http://127.0.0.1:8080"}
	if got := f.suggest("skytui restores list --service orders"); got != "skytui restores list --service orders --api-url http://127.0.0.1:8080" {
		t.Errorf("a JSON answer's check: %q", got)
	}
}

// TestUsageErrorHintsRunWhereTheRunRan: a command refused before it
// reached the API (a usage error) suggests commands with the --profile
// and --api-url it was given too.
func TestUsageErrorHintsRunWhereTheRunRan(t *testing.T) {
	h, _ := newChangeHarness(t)
	_, stderr, err := h.runSplit(h.live("schedules", "edit", "abc", "--suspend")...)
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "`"+h.sel("skytui schedules list --service SERVICE")+"`") {
		t.Fatalf("exit %d: %v\n%s", exitCode(err), err, stderr)
	}
}
