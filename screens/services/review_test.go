package services

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// toastCover is how many of the body's last lines an error's toast covers
// (the root draws a long error over them, up to three lines with its own).
const toastCover = 2

// refusal is the API's refusal of a create, as the client reports it.
func refusal(msg, solution string) *api.Error {
	return &api.Error{Status: 400, Message: msg, Solution: solution, Method: "POST",
		Path: api.DefaultProvisioningPrefix + "/services", TraceID: "c98866af3cf3d066fa32410e024134fa"}
}

// refusalShown is where the refusal reads whole in lines of a view: the
// first and last line it is on, or -1 when it is not whole (its lines
// joined read its text, whatever the wrap).
func refusalShown(lines []string, text string) (first, last int) {
	flat := func(s string) string { return strings.ReplaceAll(s, " ", "") }
	want := flat("! the API refused it: " + text)
	for i, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "! the API refused it") {
			continue
		}
		got := ""
		for j := i; j < len(lines); j++ {
			got += flat(lines[j])
			if strings.HasPrefix(got, want) {
				return i, j
			}
			if !strings.HasPrefix(want, got) {
				break
			}
		}
	}
	return -1, -1
}

// TestReviewRefusalIsWhole: after the API refuses a create, the review
// shows the refusal whole, its status, message and trace ID, under the
// title (not in the last lines, which the error's toast covers: its
// end, the trace ID, was hidden there), at the areas of an 80x24 and a
// 60x16 terminal; e still edits the field it names.
func TestReviewRefusalIsWhole(t *testing.T) {
	err := refusal("nodes: topology es-single has exactly 1 node", "")
	for _, sz := range [][2]int{{80, 20}, {60, 12}} {
		what := fmt.Sprintf("%dx%d", sz[0], sz[1])
		s := newScreen(sz[0], sz[1])
		s.draft = reviewDraft("203.0.113.7")
		s.draft.Nodes = "2"
		s.mode = modeReview
		s.Update(kit.ActionDoneMsg{Tag: createTag{name: "orders-db2"}, Err: err})
		v := tuitest.View(s)
		tuitest.CheckFits(t, what, s.View(), sz[0], sz[1])
		lines := strings.Split(v, "\n")
		first, last := refusalShown(lines, err.Error())
		if first < 0 {
			t.Fatalf("%s: the refusal is not whole:\n%s", what, v)
		}
		if last >= sz[1]-toastCover {
			t.Errorf("%s: the refusal ends on line %d of %d, under the error's toast:\n%s", what, last+1, sz[1], v)
		}
		if !strings.Contains(v, "c98866af3cf3d066fa32410e024134fa") || !strings.Contains(v, "e to edit nodes") {
			t.Errorf("%s: the trace ID or the way to edit is missing:\n%s", what, v)
		}
		if !strings.HasPrefix(lines[0], " Review: this is the request that will be sent") {
			t.Errorf("%s: the title left the top:\n%s", what, v)
		}
	}
}

// TestReviewLongRefusalScrollsWithTheRequest: a refusal too long to stay
// over the request on a 60x16 terminal (a wide network's warning above
// it, the API's solution in it) is never cut: it shows first, whole, even
// when the request had been scrolled to its end before enter launched,
// and J/K scroll the request under it and back to it.
func TestReviewLongRefusalScrollsWithTheRequest(t *testing.T) {
	const w, h = 60, 12
	err := refusal("service name orders-db2 is already in use by service dbtaf85489797 in this organisation",
		"Choose another name, or delete the other service first.")
	s := newScreen(w, h)
	s.draft = reviewDraft("203.0.113.7, 10.0.0.0/8")
	s.mode = modeReview
	press(s, "enter") // shows the request's end
	req, ok := press(s, "enter")().(kit.ActionRequestMsg)
	if !ok {
		t.Fatalf("the second enter did not launch:\n%s", tuitest.View(s))
	}
	s.Update(kit.ActionDoneMsg{Name: req.Action.Name, Tag: req.Action.Tag, Err: err})
	v := tuitest.View(s)
	tuitest.CheckFits(t, "refused", s.View(), w, h)
	if first, last := refusalShown(strings.Split(v, "\n"), err.Error()); first < 0 || last >= h-toastCover {
		t.Fatalf("the refusal is not whole above the toast (lines %d to %d):\n%s", first+1, last+1, v)
	}
	if !strings.Contains(v, "J: ") {
		t.Fatalf("the review does not say the request is below:\n%s", v)
	}
	for i := 0; i < 10 && strings.Contains(tuitest.View(s), "more line"); i++ {
		press(s, "J")
		tuitest.CheckFits(t, "scrolled", s.View(), w, h)
	}
	if v := tuitest.View(s); !strings.Contains(v, `{"ip": "10.0.0.0/8"}`) || !strings.Contains(v, `"name": "orders-db2"`) {
		t.Fatalf("J does not reach the request's end:\n%s", v)
	}
	for range 10 {
		press(s, "K")
	}
	if first, _ := refusalShown(strings.Split(tuitest.View(s), "\n"), err.Error()); first < 0 {
		t.Fatalf("K does not come back to the refusal:\n%s", tuitest.View(s))
	}
}

// TestEditAfterNoGoesToTheAllowList: after a no to the wide network's
// question the review says e edits the allow list, and e opens the form
// on it (it opened on the first step's provider, nine tabs away).
func TestEditAfterNoGoesToTheAllowList(t *testing.T) {
	s := newScreen(120, 30)
	s.draft = reviewDraft("0.0.0.0/0")
	s.mode = modeReview
	req, asked := wideAsked(t, "0.0.0.0/0", s, "0.0.0.0/0 lets every address on the internet connect", "orders-db2")
	if !asked {
		t.Fatal("launching did not ask")
	}
	s.Update(kit.ActionDoneMsg{Name: req.Action.Name, Tag: req.Action.Tag, Err: kit.ErrCancelled})
	if v := tuitest.View(s); !strings.Contains(v, "e to edit the allow list") {
		t.Fatalf("the review does not say e edits the allow list:\n%s", v)
	}
	press(s, "e")
	if s.mode != modeCreate {
		t.Fatal("e did not open the form")
	}
	if got := s.form.focused(); got != "allow list" {
		t.Fatalf("the form opened on %q, not the allow list", got)
	}
	if v := tuitest.View(s); !strings.Contains(v, "0.0.0.0/0") || !strings.Contains(v, "5/5: name and access") {
		t.Fatalf("the allow list is not shown with what was typed:\n%s", v)
	}
}

// TestReviewReopensWhereItWasLeft: esc on the review, then n, shows the
// review again, scrolled as it was left (the toast says n brings back
// what was typed; the form opened on its first step, four enters from
// the review); e there still opens the form.
func TestReviewReopensWhereItWasLeft(t *testing.T) {
	s := newScreen(60, 12)
	s.draft = reviewDraft("203.0.113.7, 198.51.100.0/24")
	s.mode = modeReview
	press(s, "J")
	left := tuitest.View(s)
	press(s, "esc")
	if s.mode != modeList {
		t.Fatalf("esc did not leave the review:\n%s", tuitest.View(s))
	}
	press(s, "n")
	if v := tuitest.View(s); s.mode != modeReview || v != left {
		t.Fatalf("n after esc on the review does not show it as it was left:\n%s\nwas:\n%s", v, left)
	}
	press(s, "e")
	if s.mode != modeCreate || s.form == nil {
		t.Fatalf("e on the review reopened does not open the form:\n%s", tuitest.View(s))
	}
}
