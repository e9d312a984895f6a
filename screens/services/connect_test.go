package services

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestCredentialsOfAFailedServiceSayWhy: c on a service whose launch
// failed says why, from the service's record, and that it has no
// credentials to read, as the CLI does (it said they were readable once
// the service is ready again: it never was).
func TestCredentialsOfAFailedServiceSayWhy(t *testing.T) {
	v := svc(1, "failed")
	v.Name = "broken-import"
	v.Errors = []string{"launch failed: insufficient capacity for sky-2x8 in eastus; try another region or size"}
	s := newScreen(100, 24)
	feed(s, []api.Service{v})
	if cmd := press(s, "c"); cmd != nil {
		t.Fatal("credentials requested of a failed service")
	}
	out := strings.Join(strings.Fields(tuitest.View(s)), " ")
	for _, want := range []string{
		"broken-import is failed: launch failed: insufficient capacity for sky-2x8 in eastus; try another region or size",
		"it has no credentials to read",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the credentials of a failed service do not say %q:\n%s", want, tuitest.View(s))
		}
	}
	if strings.Contains(out, "ready again") {
		t.Errorf("the credentials of a failed service say it will be ready again:\n%s", tuitest.View(s))
	}
	v.Errors = nil
	feed(s, []api.Service{v})
	if out := strings.Join(strings.Fields(tuitest.View(s)), " "); !strings.Contains(out, "broken-import is failed; it has no credentials to read") {
		t.Errorf("without a reason:\n%s", tuitest.View(s))
	}
}
