package cli

import (
	"bytes"
	"context"
	"net/url"
	"testing"

	"github.com/skytui/skytui/config"
	"github.com/skytui/skytui/tui"
)

// labHarness is a harness whose config file has profile lab, its key
// stored (auth login).
func labHarness(t *testing.T) *harness {
	t.Helper()
	h := newHarness(t)
	if out, err := h.run(goodKey+"\n", "auth", "login", "--profile", "lab", "--api-url", h.url); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return h
}

// tuiOptions runs the command line with args and returns the options the
// terminal UI would start with.
func tuiOptions(h *harness, args ...string) tui.Options {
	h.t.Helper()
	var opts tui.Options
	var out bytes.Buffer
	e := h.newEnv("", &out, &out)
	e.tuiRun = func(_ context.Context, o tui.Options) error { opts = o; return nil }
	cmd := newRootCmd(e)
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		h.t.Fatalf("%v\n%s", err, out.String())
	}
	return opts
}

// TestTUIKnowsEachProfilesHostAndReadOnly: the ":profile" picker is given
// every profile's endpoint host and read-only mark from the config file
// (--read-only marks them all).
func TestTUIKnowsEachProfilesHostAndReadOnly(t *testing.T) {
	h := labHarness(t)
	cfg, err := config.LoadFile(h.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	ro := config.NewProfile("prod", "https://prod.example.com")
	ro.ReadOnly = true
	if err := cfg.Upsert(ro); err != nil {
		t.Fatal(err)
	}
	if err := cfg.SaveFile(h.cfgPath); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(h.url)
	for _, flag := range []bool{false, true} {
		args := []string{"--profile", "lab"}
		if flag {
			args = append(args, "--read-only")
		}
		got := tuiOptions(h, args...).ProfileDetails
		want := map[string]tui.ProfileInfo{
			"lab":    {Host: u.Host, ReadOnly: flag},
			"prod":   {Host: "prod.example.com", ReadOnly: true},
			"skysql": {Host: "api.skysql.com", ReadOnly: flag},
		}
		for name, w := range want {
			if got[name] != w {
				t.Errorf("read-only flag %v: %s: %+v, want %+v", flag, name, got[name], w)
			}
		}
	}
}

// TestSwitchBackKeepsThisRunsURL: ":profile" back to the profile skytui
// started with goes to this run's --api-url, not the config file's URL
// (a switch back to skysql went to api.skysql.com).
func TestSwitchBackKeepsThisRunsURL(t *testing.T) {
	h := newHarness(t)
	t.Setenv("SKYSQL_API_KEY", goodKey)
	opts := tuiOptions(h, "--profile", "skysql", "--api-url", h.url)
	p, err := opts.SwitchProfile("skysql")
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Client.BaseURL(); got != h.url {
		t.Errorf("back to skysql: %s, want this run's %s", got, h.url)
	}
}
