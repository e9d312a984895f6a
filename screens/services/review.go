package services

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The review of a service to create: the exact body that will be sent,
// before anything is. Its title stays on top and what is said of the
// request (a wide network, why the last launch did not happen) under it,
// then the request; a terminal too short for the request scrolls it (J/K,
// as the detail pane's), its last line saying what is above and below. The
// request's last lines (the name, SSL, the allow list) are shown before
// enter launches: an enter while they are below the window shows them
// first, as the replication wizard's steps do.

// reviewCancel leaves the review (the draft is kept: n brings it back,
// the review itself (atReview),
// as the toast says; the footer at 60 columns has room for "esc cancel",
// not for the form's longer words). kit.ReviewKeys scroll it.
var reviewCancel = kit.Bind("esc", "cancel")

func (s *Screen) onReviewKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	if d := kit.ScrollDir(msg, kit.ReviewKeys.More, kit.ReviewKeys.Less); d != 0 {
		_, h := s.Size()
		s.draft.top = s.reviewLayout().Scroll(h, s.draft.top, d)
		return nil
	}
	switch {
	case key.Matches(msg, reviewCancel):
		s.mode = modeList
		s.draft.at = atReview // n shows the review again
		return kit.Toast(kit.ToastInfo, "create cancelled; n brings back what you typed")
	case key.Matches(msg, k.Edit):
		return s.openCreate()
	case key.Matches(msg, k.Launch):
		req, err := s.draft.request()
		if err != nil {
			return nil // the review says why, next to e to edit
		}
		_, h := s.Size()
		if end, hidden := s.reviewLayout().End(h, s.draft.top); hidden {
			// what would be sent is below the window: it is shown first,
			// and the next enter launches
			s.draft.top = end
			return kit.Toast(kit.ToastInfo, "the end of the request is shown: "+k.Launch.Help().Key+" launches")
		}
		client := s.common.Client
		s.submitErr, s.notSent, s.declined = "", false, false // "submitting" from kit.ActionSentMsg
		s.draft.named = nil
		for _, v := range s.services {
			if v.Name == req.Name {
				s.draft.named = append(s.draft.named, v.ID)
			}
		}
		s.mode = modeList
		return kit.Do(kit.Action{
			Name:     "create service " + req.Name,
			Key:      "create-service:" + req.Name,
			Mutating: true,
			Origin:   ID,
			Confirm:  wideConfirm(req),
			Tag:      createTag{name: req.Name},
			Run: func(ctx context.Context) (any, error) {
				return client.CreateService(ctx, req)
			},
			Success: func(r any) string {
				if v, ok := r.(*api.Service); ok && v != nil && v.ID != "" {
					return fmt.Sprintf("service %s (%s) launched; ready in about 5 min", req.Name, v.ID)
				}
				return "service " + req.Name + " launched; ready in about 5 min"
			},
			Refresh:    []string{kit.ServicesKey.String()},
			Evidence:   kit.ServicesEvidence(client, req.Name),
			EvidenceOf: "the services named " + req.Name,
		})
	}
	return nil
}

// requestJSON is the body the client sends (the same encoding of the
// same value), indented, with each allow-list entry on one line.
func requestJSON(req api.CreateServiceRequest) string {
	b, err := json.MarshalIndent(req, "", "  ")
	if err != nil {
		return err.Error()
	}
	return entryRe.ReplaceAllString(string(b), "{$1$2}")
}

var entryRe = regexp.MustCompile(`\{\n\s*("ip": "[^"]*")(,\s*"comment": "[^"]*")?\n\s*\}`)

// reviewPane is the review of a service to create, before its launch.
type reviewPane struct{ s *Screen }

// SetSize implements kit.Pane: the review is drawn at the screen's size.
func (r reviewPane) SetSize(int, int) {}

// CapturesKeys implements kit.Pane.
func (r reviewPane) CapturesKeys() bool { return false }

// KeyMap implements kit.Pane: launch, edit and cancel first (a 60-column
// footer keeps them), then the scroll while the request is cut (the line
// under the request names J and K too).
func (r reviewPane) KeyMap() kit.Keys {
	k := r.s.keys
	_, h := r.s.Size()
	if _, _, cut := r.s.reviewLayout().Window(h, r.s.draft.top); cut {
		return kit.KeysOf(k.Launch, k.Edit, reviewCancel, kit.ScrollHelp(kit.ReviewKeys.More, kit.ReviewKeys.Less))
	}
	return kit.KeysOf(k.Launch, k.Edit, reviewCancel)
}

// View implements kit.Pane.
func (r reviewPane) View() string {
	w, h := r.s.Size()
	return r.s.reviewLayout().View(r.s.common, w, h, r.s.draft.top)
}

// reviewLayout is the review in two parts: what stays on top (the title,
// the path, and what is said of the request: a wide network, why the
// last launch did not happen, each wrapped whole) and the request, which
// scrolls. What is said is under the title, not under the request: an
// error's toast covers the bottom lines of the body, and the refusal is
// then still seen whole (its status, message and trace ID) next to it.
// When it leaves the request fewer than kit.ReviewMinRows lines, it scrolls
// with the request, above it, rather than be cut.
func (s *Screen) reviewLayout() kit.Review {
	th := s.common.Theme
	w, h := s.Size()
	head := []string{
		th.Bold.Render(" Review: this is the request that will be sent"),
		th.Muted.Render(" POST " + api.DefaultProvisioningPrefix + "/services"),
	}
	req, err := s.draft.request()
	var request []string
	for _, l := range strings.Split(requestJSON(req), "\n") {
		request = append(request, "   "+th.Code.Render(l))
	}
	var notes []string
	// say adds text wrapped between words (kit.Said)
	say := func(st lipgloss.Style, text string) {
		for _, l := range strings.Split(kit.Said(text, w), "\n") {
			notes = append(notes, st.Render(l))
		}
	}
	if wide := wideNetworks(req.AllowList); wide != "" && err == nil {
		say(th.Warn, "! warning: "+wide+"; launching asks yes/no first")
	}
	if err != nil {
		say(th.Error, "! "+err.Error()+" ("+editHint(err.Error())+")")
	}
	if s.maybeSent != "" {
		say(th.Warn, "! "+s.maybeSentText())
	}
	switch {
	case s.declined:
		// the answer to the wide network's yes/no: nothing was sent
		say(th.Muted, "not launched: you answered no; enter asks again, e to edit the allow list")
	case s.notSent:
		say(th.Error, "! not sent: "+s.submitErr)
	case s.submitErr != "":
		say(th.Error, "! the API refused it: "+s.submitErr)
		say(th.Muted, "everything you typed is kept: "+editHint(s.submitErr)+", enter to try again")
	}
	return kit.NewReview(h, head, notes, request, false)
}

// maybeSentText is what the draft says of its last launch, sent and
// never answered (no level mark: the toast's and the review's own): the
// service it launched once the listing shows one of that name that was
// not there when it was sent, else to check the list.
func (s *Screen) maybeSentText() string {
	name := s.maybeSent
	if v, ok := s.lostLaunch(); ok {
		return fmt.Sprintf("the last launch of %s was sent and never answered, and it was launched: %s (%s); launching again makes a second one", name, v.Name, v.ID)
	}
	return "the last launch of " + name + " was sent and never answered: it may have been carried out; check the list for " + name + " before launching again"
}

// lostLaunch is the service the last launch, sent and never answered,
// made: one listed with its name that was not there when it was sent.
func (s *Screen) lostLaunch() (api.Service, bool) {
	if s.maybeSent == "" || s.draft == nil {
		return api.Service{}, false
	}
	for _, v := range s.services {
		if v.Name == s.maybeSent && !slices.Contains(s.draft.named, v.ID) {
			return v, true
		}
	}
	return api.Service{}, false
}

// editHint is "e to edit" and, when the refusal names a field, which.
func editHint(refusal string) string {
	if f := namedField(refusal); f != "" {
		return "e to edit " + f
	}
	return "e to edit"
}
