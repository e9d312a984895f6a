package services

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/tui/tuitest"
)

// brokenAPI answers as h does, but the next GETs of a path it was told
// of get a cut JSON body (the sandbox's "malformed" fault).
type brokenAPI struct {
	h      http.Handler
	mu     sync.Mutex
	broken map[string]int
	// gets counts the GETs of each path
	gets map[string]int
}

// read is how many GETs of path came.
func (b *brokenAPI) read(path string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.gets[path]
}

func (b *brokenAPI) fail(path string, times int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.broken[path] = times
}

func (b *brokenAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b.mu.Lock()
	n := b.broken[r.URL.Path]
	if r.Method == http.MethodGet {
		b.gets[r.URL.Path]++
	}
	if r.Method == http.MethodGet && n > 0 {
		b.broken[r.URL.Path] = n - 1
	}
	b.mu.Unlock()
	if r.Method == http.MethodGet && n > 0 {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`[{"name": "us-`))
		return
	}
	b.h.ServeHTTP(w, r)
}

func brokenForm(t *testing.T) (*tuitest.Harness, *Screen, *brokenAPI) {
	t.Helper()
	srv, _, _ := tuitest.Sandbox(t, true)
	b := &brokenAPI{h: srv, broken: map[string]int{}, gets: map[string]int{}}
	c := tuitest.Common()
	c.Client = tuitest.Client(t, b, api.Config{APIKey: tuitest.TestKey})
	s := New(c)
	s.SetSize(80, 20)
	return (&tuitest.Harness{T: t, Model: screenApp{s}, Render: s.View, Quiet: 50 * time.Millisecond}).Start(80, 20), s, b
}

// TestCreateFailedListingIsReadAgain: a list whose listing could not be
// read says so and which key reads it again, refuses going on, and
// ctrl+r reads it (huh kept the failed options for the provider they
// were read for, so no key asked again and the form was stuck).
func TestCreateFailedListingIsReadAgain(t *testing.T) {
	hs, s, b := brokenForm(t)
	// broken until healed: however many times the form reads it first
	b.fail("/provisioning/v1/regions", 1<<30)
	hs.Key("n")
	hs.Until("the region's failure", func() bool { return strings.Contains(hs.Screen(), "could not load regions") })
	if v := hs.Screen(); !strings.Contains(v, "ctrl+r reads it again") {
		t.Fatalf("the failure does not say how to read the list again:\n%s", v)
	}
	if f := footerKeys(s); !strings.Contains(f, "ctrl+r read lists again") {
		t.Errorf("the footer does not offer ctrl+r: %s", f)
	}
	hs.Keys("enter", "enter")
	if s.form.focused() != "region" || strings.Contains(hs.Screen(), "2/5") {
		t.Fatalf("enter went on from a list that could not be read:\n%s", hs.Screen())
	}
	b.fail("/provisioning/v1/regions", 0)
	hs.Key("ctrl+r")
	hs.Until("the regions read again", func() bool { return strings.Contains(hs.Screen(), "(us-east-1)") })
	// read: the footer no longer offers it; the help lists it always
	if f := footerKeys(s); strings.Contains(f, "ctrl+r") {
		t.Errorf("the footer offers ctrl+r with every list read: %s", f)
	}
	var help []string
	for _, g := range s.KeyMap().FullHelp() {
		for _, b := range g {
			help = append(help, b.Help().Key+" "+b.Help().Desc)
		}
	}
	if !slices.Contains(help, "ctrl+r read lists again") {
		t.Errorf("the help does not list ctrl+r: %v", help)
	}
	hs.Key("enter")
	hs.Until("step 2", func() bool { return strings.Contains(hs.Screen(), "2/5: what") })
}

// TestCreateFailedListingKeepsTheChoice: a draft reopened on its version
// while the versions cannot be read keeps the version chosen (the
// failure's option took its place, and it left the request), and once
// read again it is the one chosen.
func TestCreateFailedListingKeepsTheChoice(t *testing.T) {
	hs, s, b := versionsFailing(t)
	if got := s.form.values.version.Get(); got != "11.4.2-1" {
		t.Fatalf("the version chosen became %q after a failed listing", got)
	}
	b.fail("/provisioning/v1/versions", 0)
	hs.Key("ctrl+r")
	hs.Until("the versions read again", func() bool { return strings.Contains(hs.Screen(), "> MariaDB Enterprise Server 11.4.2") })
	if got := s.form.values.version.Get(); got != "11.4.2-1" {
		t.Fatalf("the version chosen became %q after the listing was read again", got)
	}
}

// TestCreateFormReadsWithTheKeyEntered: a form opened before any API key
// was entered reads its lists, once ctrl+r asks again, with the client
// of the key entered meanwhile (the root keeps the screens then): it
// kept asking with none.
func TestCreateFormReadsWithTheKeyEntered(t *testing.T) {
	hs, s, _ := brokenForm(t)
	client := s.common.Client
	s.common.Client = nil
	hs.Key("n")
	hs.Until("the providers' failure", func() bool { return strings.Contains(hs.Screen(), "no API client") })
	s.common.Client = client // what the root does when a key is entered
	hs.Key("ctrl+r")
	hs.Until("the providers read with the key entered", func() bool { return !strings.Contains(hs.Screen(), "no API client") })
	hs.Key("enter")
	hs.Until("the regions", func() bool { return strings.Contains(hs.Screen(), "(us-east-1)") })
}

// TestCreateListingErrorGoesOnceRead: the error under a list whose
// listing failed (enter refused it) goes once ctrl+r reads the listing
// (it stayed under the providers listed, and a second failure showed
// under it too), and ctrl+r reads again only the lists whose listing
// gave nothing: a region list read fine is kept (it was read again, and
// a failure then replaced it).
func TestCreateListingErrorGoesOnceRead(t *testing.T) {
	hs, s, b := brokenForm(t)
	const providers, regions = "/provisioning/v1/providers", "/provisioning/v1/regions"
	b.fail(providers, 1<<30)
	hs.Key("n")
	hs.Until("the providers' failure", func() bool { return strings.Contains(hs.Screen(), "could not load providers") })
	hs.Key("enter")
	if s.form.focused() != "provider" {
		t.Fatalf("enter went on from the providers not read:\n%s", hs.Screen())
	}
	b.fail(providers, 0)
	hs.Key("ctrl+r")
	hs.Until("the providers", func() bool {
		return strings.Contains(hs.Screen(), "(aws)") && strings.Contains(hs.Screen(), "(us-east-1)")
	})
	hs.Settle()
	if v := hs.Screen(); strings.Contains(v, "could not load") {
		t.Fatalf("the providers are listed and their failure is still said:\n%s", v)
	}
	readRegions := b.read(regions)
	b.fail(regions, 1<<30)
	hs.Key("ctrl+r")
	hs.Settle()
	if v := hs.Screen(); !strings.Contains(v, "(us-east-1)") || strings.Contains(v, "could not load") || b.read(regions) != readRegions {
		t.Fatalf("ctrl+r with every list read read the regions again (%d reads, were %d):\n%s", b.read(regions), readRegions, v)
	}
}

// TestCreateCutLineWhileAListFailed: on a step cut short, the line that
// names the fields below says ctrl+r comes before enter while the focused
// list could not be read (enter is refused there); it said "(enter/tab)".
func TestCreateCutLineWhileAListFailed(t *testing.T) {
	hs, s, b := versionsFailing(t)
	s.SetSize(60, 12)
	v := s.View()
	if !strings.Contains(v, "below: storage (ctrl+r, then enter)") {
		t.Fatalf("the cut line while the versions are not read:\n%s", v)
	}
	b.fail("/provisioning/v1/versions", 0)
	hs.Key("ctrl+r")
	hs.Until("the versions read again", func() bool { return strings.Contains(hs.Screen(), "> MariaDB Enterprise Server 11.4.2") })
	if v := s.View(); !strings.Contains(v, "below: storage (enter/tab)") {
		t.Fatalf("the cut line once the versions are read:\n%s", v)
	}
}

// versionsFailing is the form reopened from a draft on its version while
// the versions cannot be read, the failure shown.
func versionsFailing(t *testing.T) (*tuitest.Harness, *Screen, *brokenAPI) {
	t.Helper()
	hs, s, b := brokenForm(t)
	b.fail("/provisioning/v1/versions", 1<<30)
	s.draft = reviewDraft("")
	s.draft.at = "version"
	hs.Key("n")
	hs.Until("the version's failure", func() bool { return strings.Contains(hs.Screen(), "could not load versions") })
	return hs, s, b
}

// TestCreateEmptyNameSaysWhyOnTab: the name step opens with what to type,
// no error; tab on the empty name stays there and says it is required.
func TestCreateEmptyNameSaysWhyOnTab(t *testing.T) {
	hs, s, _ := brokenForm(t)
	s.draft = reviewDraft("")
	s.draft.Name = ""
	s.draft.at = "name"
	hs.Key("n")
	hs.Until("the name step", func() bool { return strings.Contains(hs.Screen(), "type the service's name: 4 to 24 characters") })
	if strings.Contains(hs.Screen(), "is required") {
		t.Fatalf("the empty name is an error before anything was typed:\n%s", hs.Screen())
	}
	hs.Key("tab")
	hs.Until("the refusal", func() bool { return strings.Contains(hs.Screen(), "is required (4 to 24 characters)") })
	if got := s.form.focused(); got != "name" {
		t.Fatalf("tab on an empty name went to %s", got)
	}
}
