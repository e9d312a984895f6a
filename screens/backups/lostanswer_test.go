package backups_test

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// dropNext makes the sandbox carry out the next change of method to path
// and then close the connection without an answer.
func (h *harness) dropNext(method, path string) {
	h.T.Helper()
	if err := h.srv.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: method, Path: path}); err != nil {
		h.T.Fatal(err)
	}
}

// seesNot fails the test if the screen shows any of not.
func (h *harness) seesNot(not ...string) {
	h.T.Helper()
	for _, n := range not {
		if strings.Contains(h.Screen(), n) {
			h.T.Fatalf("the screen shows %q:\n%s", n, h.Screen())
		}
	}
}

// TestScheduleChangeLostAnswerFound: an edit, a suspend or a resume that
// the API carried out but whose answer was lost is not said to be
// "probably not carried out": the schedules read again show the schedule
// as it was sent, and the outcome dialog says it was most likely carried
// out, naming the schedule as listed; leaving it sends nothing more.
func TestScheduleChangeLostAnswerFound(t *testing.T) {
	for _, tc := range []struct {
		name, title, want string
		before            []string // keys pressed before the change, answered
		send              func(h *harness)
	}{
		{"edit", `change schedule 1 of orders-prod to "0 4 * * *"`, "schedule 1: 0 4 * * *, active", nil, func(h *harness) {
			h.Key("e")
			clearInput(h)
			h.TypeText("0 4 * * *")
			h.Key("enter")
		}},
		{"suspend", "suspend schedule 1 of orders-prod", "schedule 1: 0 3 * * *, suspended", nil, func(h *harness) { h.Keys("s", "y") }},
		{"resume", "resume schedule 1 of orders-prod", "schedule 1: 0 3 * * *, active", []string{"s", "y"}, func(h *harness) { h.Keys("s", "y") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, _, sent := openDaily(t, nil)
			h.Keys(tc.before...)
			patches := sent("PATCH")
			h.dropNext("PATCH", scheduleRoute)
			tc.send(h)
			h.Sees("Outcome unknown: " + tc.title)
			h.Sees("Seen in schedule 1 since it was sent:")
			h.Sees(tc.want)
			h.Sees("It was most likely carried out")
			h.seesNot("probably not carried out", "failed")
			h.Key("enter") // the cursor is on "Leave it"
			h.seesNot("Outcome unknown")
			if n := sent("PATCH") - patches; n != 1 {
				t.Fatalf("%d PATCHes, want 1", n)
			}
		})
	}
}
