package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// profilesApp is the application at width columns on profile prod-eu, one
// of four (prod-us read-only), with a fake screen.
func profilesApp(t *testing.T, width int) *harness {
	t.Helper()
	opts := Options{
		Profile:  "prod-eu",
		Profiles: []string{"lab", "prod-eu", "prod-us", "staging"},
		ProfileDetails: map[string]ProfileInfo{
			"lab":     {Host: "api.lab.example.com"},
			"prod-eu": {Host: "api.prod-eu.example.com"},
			"prod-us": {Host: "api.prod-us.example.com", ReadOnly: true},
			"staging": {Host: "api.staging.example.com"},
		},
		Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen {
			return []kit.Screen{&fakeScreen{id: "services", res: []*fakeRes{{key: "services"}}}}
		},
		SwitchProfile: func(name string) (Profile, error) {
			c, _ := api.New(api.Config{BaseURL: "https://" + name + ".example.com", APIKey: "k"})
			return Profile{Name: name, Client: c}, nil
		},
	}
	return newHarness(t, opts, width, 30)
}

// TestProfileCompletion: ":profile <tab>" completes profile names, to the
// common prefix first and then the whole name.
func TestProfileCompletion(t *testing.T) {
	h := profilesApp(t, 100)
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
	h := profilesApp(t, 100)
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

// TestProfilePickerTellsProfilesApart: the picker shows each profile's
// READ-ONLY mark and its endpoint's host; at 60 columns the host is cut
// first, the names and marks stay whole.
func TestProfilePickerTellsProfilesApart(t *testing.T) {
	for _, w := range []int{100, MinWidth} {
		h := profilesApp(t, w)
		h.Key(":")
		h.TypeText("profile")
		h.Key("enter")
		scr := h.Screen()
		for _, name := range []string{"lab", "prod-eu", "prod-us", "staging"} {
			line := pickerLine(scr, name)
			ro := name == "prod-us"
			if strings.Contains(line, "READ-ONLY") != ro {
				t.Errorf("%d columns: %s READ-ONLY %v:\n%s", w, name, !ro, scr)
			}
			host := "api." + name + ".example.com"
			switch {
			case w > MinWidth && !strings.Contains(line, host):
				t.Errorf("%d columns: %s lacks its host %s:\n%s", w, name, host, scr)
			case w == MinWidth && !strings.Contains(line, host[:6]):
				t.Errorf("%d columns: %s lacks the start of its host %s:\n%s", w, name, host, scr)
			}
		}
		tuitest.CheckFrame(t, scr, w, 30)
	}
}

// pickerLine is the row of the picker (below its title) naming name.
func pickerLine(scr, name string) string {
	_, rows, _ := strings.Cut(scr, "Switch to which profile?")
	return tuitest.LineWith(rows, " "+name+" ")
}

// keylessProfileHarness is the application on profile lab, whose key
// works, with a second profile, fresh, that has no API key stored: its
// switch answers a client without a key and keystore.ErrNotFound, as the
// command line's does.
func keylessProfileHarness(t *testing.T) (*harness, *fakeLogin, *sandbox.Server) {
	t.Helper()
	srv, _, _ := tuitest.Sandbox(t, true)
	fl := &fakeLogin{srv: srv, stored: map[string]string{}}
	opts := Options{
		Client: tuitest.Client(t, srv, api.Config{APIKey: testKey}), Profile: "lab", Profiles: []string{"fresh", "lab"},
		Login: fl.login, Now: func() time.Time { return t0 },
		SwitchProfile: func(name string) (Profile, error) {
			c := tuitest.Client(t, srv, api.Config{})
			return Profile{Name: name, Client: c}, fmt.Errorf("no API key for profile %q: run `skytui auth login --profile %s`: %w", name, name, keystore.ErrNotFound)
		},
	}
	return newHarness(t, opts, 100, 30), fl, srv
}

// TestSwitchToProfileWithoutKeyOpensThePrompt: choosing in the picker a
// profile with no API key stored switches to it and opens the masked key
// prompt, as a first start does, instead of failing; nothing is sent
// until a key is entered, and then the profile's services are listed.
func TestSwitchToProfileWithoutKeyOpensThePrompt(t *testing.T) {
	h, fl, srv := keylessProfileHarness(t)
	h.sees(t, "orders-prod", "lab lists its services")
	h.Key(":")
	h.TypeText("profile")
	h.Key("enter")
	h.Key("up") // fresh
	before := srv.Stats().Total
	h.Key("enter")
	h.Settle()
	if h.m.common.Profile != "fresh" {
		t.Fatalf("profile %q after choosing fresh, want fresh:\n%s", h.m.common.Profile, h.Screen())
	}
	h.sees(t, "API key for profile fresh", "a profile without a key should open the key prompt")
	h.sees(t, "has no API key yet", "the prompt should say why it asks")
	h.sees(t, "no API key for this profile", "the header should say why nothing is shown")
	if strings.Contains(h.Screen(), "secret not found") {
		t.Fatalf("the switch should not fail:\n%s", h.Screen())
	}
	h.Key("esc")
	h.Keys("2", "3", "1")
	if n := srv.Stats().Total - before; n != 0 {
		t.Fatalf("%d requests were sent without a key", n)
	}
	h.loginWith(t, fl, "fresh")
	h.sees(t, "orders-prod", "with the key entered, fresh lists its services")
}
