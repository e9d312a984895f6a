package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

func profilesApp(t *testing.T) *harness {
	t.Helper()
	opts := Options{
		Profile:  "prod-eu",
		Profiles: []string{"lab", "prod-eu", "prod-us", "staging"},
		Now:      func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen {
			return []kit.Screen{&fakeScreen{id: "services", res: []*fakeRes{{key: "services"}}}}
		},
		SwitchProfile: func(name string) (Profile, error) {
			c, _ := api.New(api.Config{BaseURL: "https://" + name + ".example.com", APIKey: "k"})
			return Profile{Name: name, Client: c}, nil
		},
	}
	return newHarness(t, opts, 100, 30)
}

// TestProfileCompletion: ":profile <tab>" completes profile names, to the
// common prefix first and then the whole name.
func TestProfileCompletion(t *testing.T) {
	h := profilesApp(t)
	h.Key(":")
	h.TypeText("prof")
	h.Key("tab")
	if got := h.m.cmdline.Value(); got != "profile " {
		t.Fatalf("tab after prof: %q, want %q", got, "profile ")
	}
	h.TypeText("pr")
	h.Key("tab")
	if got := h.m.cmdline.Value(); got != "profile prod-" {
		t.Fatalf("tab after profile pr: %q, want the common prefix %q", got, "profile prod-")
	}
	if !strings.Contains(h.Screen(), "prod-eu  prod-us") {
		t.Fatalf("the candidates are not shown:\n%s", h.Screen())
	}
	h.TypeText("u")
	h.Key("tab")
	h.Key("enter")
	if h.m.common.Profile != "prod-us" {
		t.Fatalf("profile after :profile prod-u<tab>: %q", h.m.common.Profile)
	}
}

// TestProfilePicker: ":profile" alone opens a picker of the profiles with
// the current one selected and marked; enter on another switches to it,
// esc changes nothing.
func TestProfilePicker(t *testing.T) {
	h := profilesApp(t)
	h.Key(":")
	h.TypeText("profile")
	h.Key("enter")
	scr := h.Screen()
	if !strings.Contains(scr, "Switch to which profile?") || !strings.Contains(scr, "staging") {
		t.Fatalf(":profile did not open the picker:\n%s", scr)
	}
	if !strings.Contains(scr, "> prod-eu") || !strings.Contains(scr, "current") {
		t.Fatalf("the current profile is not selected and marked:\n%s", scr)
	}
	h.Key("esc")
	if h.m.common.Profile != "prod-eu" || strings.Contains(h.Screen(), "Switch to which profile?") {
		t.Fatalf("esc: profile %q\n%s", h.m.common.Profile, h.Screen())
	}
	h.Key(":")
	h.TypeText("profile")
	h.Key("enter")
	h.Key("down") // prod-us (j is typed: a name may start with it)
	h.Key("enter")
	h.Settle()
	if h.m.common.Profile != "prod-us" {
		t.Fatalf("picker: profile %q, want prod-us", h.m.common.Profile)
	}
	if !strings.Contains(h.Screen(), "prod-us.example.com") {
		t.Fatalf("the header does not show the new profile:\n%s", h.Screen())
	}
}
