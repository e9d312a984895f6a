package services

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// toastApp is the screen with the toasts it sends kept, as the root
// would show them.
type toastApp struct {
	screenApp
	toasts *[]kit.ToastMsg
}

func (a toastApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if m, ok := msg.(kit.ToastMsg); ok {
		*a.toasts = append(*a.toasts, m)
		return a, nil
	}
	_, cmd := a.screenApp.Update(msg)
	return a, cmd
}

// lastToast is the text of the last toast, "" if none came.
func lastToast(toasts []kit.ToastMsg) string {
	if len(toasts) == 0 {
		return ""
	}
	return toasts[len(toasts)-1].Text
}

// TestLostLaunchSaysWhatTheListShows: after a launch that was sent and
// never answered, n reopens the draft with one warning mark (the root
// puts it: the toast read "! ! the last launch…"), telling to check the
// list while it shows no new service of that name, and, once it does,
// that it was launched, naming it (a service of that name from before
// is not taken for it).
func TestLostLaunchSaysWhatTheListShows(t *testing.T) {
	var toasts []kit.ToastMsg
	hs, s := demoScreen(t, 100, 30, func(s *Screen) tea.Model { return toastApp{screenApp{s}, &toasts} })
	old := svc(1, "ready")
	old.Name = "qa5-lost"
	list := func(svcs ...api.Service) {
		hs.Send(kit.DataMsg{Key: kit.ServicesKey.String(), Data: svcs, At: now})
	}
	list(old)
	s.draft = reviewDraft("")
	s.draft.Name = "qa5-lost"
	s.mode = modeReview
	hs.Key("enter")
	hs.Send(kit.ActionDoneMsg{Name: "create service qa5-lost", Tag: createTag{name: "qa5-lost"},
		Err: &api.Error{Method: "POST", Path: "/provisioning/v1/services", Unknown: true}})
	hs.Key("n")
	got := lastToast(toasts)
	if strings.HasPrefix(got, "!") || !strings.Contains(got, "the last launch of qa5-lost was sent and never answered") ||
		!strings.Contains(got, "check the list for qa5-lost") {
		t.Fatalf("n after the lost launch, with no new service listed: toast %q", got)
	}
	hs.Key("esc")
	launched := svc(2, "pending_create")
	launched.Name = "qa5-lost"
	list(old, launched)
	hs.Key("n")
	got = lastToast(toasts)
	if strings.HasPrefix(got, "!") || !strings.Contains(got, "it was launched: qa5-lost ("+launched.ID+")") ||
		strings.Contains(got, "check the list") || strings.Contains(got, old.ID) {
		t.Fatalf("n after the lost launch, its service listed: toast %q", got)
	}
	hs.Key("esc")
	s.mode = modeReview
	if v := hs.Screen(); !strings.Contains(v, "! the last launch of qa5-lost") || strings.Contains(v, "! !") {
		t.Fatalf("the review does not say it with one mark:\n%s", v)
	}
}
