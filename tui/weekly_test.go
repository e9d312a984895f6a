package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// What users do every week, run as the real program (teatest) against
// the demo sandbox on its manual clock: the point-in-time restore from the
// wizard to Succeeded, and the refusals of the weekly operations.

// demoProgram runs the whole application in teatest against the demo
// sandbox, with the polls and the watches on short real intervals.
func demoProgram(t *testing.T, tweak func(*Options)) (*tuitest.Program, *sandbox.Server, *sandbox.ManualClock, *api.Client) {
	t.Helper()
	srv, clk, c := tuitest.Sandbox(t, true)
	opts := Options{Client: c, Profile: "demo", Demo: true, Now: clk.Now, Bell: true,
		SlowInterval: 30 * time.Second, FastInterval: 2 * time.Second, Getenv: func(string) string { return "" }}
	if tweak != nil {
		tweak(&opts)
	}
	p := tuitest.Run(t, New(opts), 140, 36)
	p.Wait("orders-prod")
	return p, srv, clk, c
}

// ordersWindow is orders-prod's point-in-time window, as the API gives it.
func ordersWindow(t *testing.T, c *api.Client) api.PITRWindow {
	t.Helper()
	ws, err := c.PointInTimeWindows(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w, ok := api.WindowOf(ws, tuitest.Service(t, c, sandbox.DemoOrders).ID)
	if !ok || !w.Known() {
		t.Fatalf("orders-prod has no window: %v", ws)
	}
	return w
}

// toPointInTime opens the restore wizard on its fourth source, into
// replica-west, with orders-prod's history chosen.
func toPointInTime(p *tuitest.Program, win api.PITRWindow) {
	p.T.Helper()
	p.Press("3")
	p.Wait("staging-eu")
	p.Press("n")
	p.Wait("4  Point in time")
	p.Press("4")
	p.Wait("2/4: which service to restore into?")
	p.Type("/replica-west")
	p.WaitRe(regexp.MustCompile(`>\s+replica-west\s`)) // the services may still be read under load
	p.Press("enter", "enter")
	p.Wait("window of replica-west: ") // its own past is offered first
	p.Press("up", "up")
	p.Wait("window of orders-prod: " + win.String())
}

func moment(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") }

// TestPointInTimeRestoreFlow: the fourth source from the wizard to
// Succeeded. A moment outside orders-prod's window is refused naming it,
// nothing sent; one inside goes to the confirmation, the name is typed,
// exactly one restore is sent, listed Running at once, followed by the
// watch to its end (its toast on another screen), and replica-west
// then has orders-prod's default credentials.
func TestPointInTimeRestoreFlow(t *testing.T) {
	p, srv, clk, c := demoProgram(t, nil)
	win := ordersWindow(t, c)
	toPointInTime(p, win)

	outside := win.Start.Add(-24 * time.Hour).UTC().Truncate(time.Minute)
	p.Type(moment(outside))
	p.Wait("outside the window: " + win.String())
	p.Press("enter")
	p.Wait("nothing was sent: point_in_time: " + outside.Format(api.PITRTimeLayout) + " UTC is outside the window of orders-prod")
	if n := tuitest.Changes(srv); n != 0 {
		t.Fatalf("a moment outside the window sent %d requests", n)
	}

	for range len(moment(outside)) {
		p.Press("backspace")
	}
	inside := tuitest.T0.Add(-150 * time.Minute)
	p.Type(moment(inside))
	p.Press("enter")
	p.Wait("4/4: confirm")
	p.Wait("orders-prod as it was at " + inside.Format(api.PITRTimeLayout) + " UTC")
	p.Wait(`"point_in_time":"` + inside.Format(api.PITRTimeLayout) + `"`)
	p.Type("replica-west")
	p.Press("enter")
	p.WaitRe(regexp.MustCompile(`^>\s+3\s+replica-west\s.*Running`))
	if n := rstPosts(srv); n != 1 {
		t.Fatalf("%d restores sent, want 1", n)
	}

	p.Press("5") // elsewhere (a screen with no news of its own): the watch tells the end
	p.Wait("[ 5 Settings ]")
	clk.Advance(3 * time.Hour)
	p.Wait("restore 3 into replica-west succeeded: its data, default username and password are now orders-prod's")
	p.Press("3")
	// its source is the moment sent, not only the backup the API's record
	// names (it has no point in time)
	p.WaitRe(regexp.MustCompile(`^>\s+3\s+replica-west\s.*orders-prod at ` + regexp.QuoteMeta(inside.Format(api.PITRTimeLayout)) + ` UTC.*Succeeded`))
	p.Press("enter")
	p.Wait("From        point in time (submitted here)")
	p.Wait("Moment      orders-prod at " + inside.Format(api.PITRTimeLayout) + " UTC")

	ctx := context.Background()
	src, err := c.GetCredentials(ctx, tuitest.Service(t, c, sandbox.DemoOrders).ID)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := c.GetCredentials(ctx, tuitest.Service(t, c, sandbox.DemoReplica).ID)
	if err != nil {
		t.Fatal(err)
	}
	if dst.Username != src.Username || dst.Password != src.Password {
		t.Fatalf("replica-west's credentials are %s's, want orders-prod's (%s)", dst.Username, src.Username)
	}
	p.Quit()
}

// TestWeeklyRefusals: each refusal is said on the screen, with its
// reason, and nothing reaches the API: a service in a pending state
// (staging-eu, a restore running into it) cannot be stopped, scaled or
// deleted; a read-only profile refuses at the key, before anything is
// asked; a delete with a wrong name typed sends nothing; a moment outside
// the point-in-time window is refused in the wizard.
func TestWeeklyRefusals(t *testing.T) {
	service := func(name string, keys ...string) func(*tuitest.Program, *api.Client) {
		return func(p *tuitest.Program, _ *api.Client) {
			p.Command("services " + name)
			p.WaitRe(regexp.MustCompile(`^> ` + name + ` `))
			p.Press(keys...)
		}
	}
	schedules := func(keys ...string) func(*tuitest.Program, *api.Client) {
		return func(p *tuitest.Program, _ *api.Client) {
			p.Command("backups orders-prod")
			p.Wait("Backups of orders-prod")
			p.Press("t")
			p.Wait("daily at 03:00 UTC")
			p.Press(keys...)
		}
	}
	const ro = "not allowed on read-only profile prod-eu: "
	cases := []struct {
		name     string
		readOnly bool
		do       func(*tuitest.Program, *api.Client)
		want     string
		notAsked string // what must not open
	}{
		{"pending: stop", false, service("staging-eu", "x"),
			"staging-eu is pending_modifying: it can be stopped or started once it is no longer pending", "Stop service?"},
		{"pending: :stop", false, func(p *tuitest.Program, _ *api.Client) { p.Command("stop staging-eu") },
			"staging-eu is pending_modifying: only a ready service can be stopped", "Stop service?"},
		{"pending: scale", false, service("staging-eu", "z"),
			"staging-eu is pending_modifying: it can be scaled once it is no longer pending", "What to change:"},
		{"pending: delete", false, service("staging-eu", "D"),
			"staging-eu is pending_modifying: it can be deleted once it is no longer pending", "Delete service?"},
		{"read-only: stop", true, service("orders-prod", "x"), ro + "stop orders-prod", "Stop service?"},
		{"read-only: start", true, service("legacy-batch", "x"), ro + "start legacy-batch", "Start service?"},
		{"read-only: scale", true, service("orders-prod", "z"), ro + "scale orders-prod", "What to change:"},
		{"read-only: delete", true, service("orders-prod", "D"), ro + "delete orders-prod", "Delete service?"},
		{"read-only: SSL", true, service("orders-prod", "a", "t"), ro + "turn SSL off for orders-prod", "Turn SSL off?"},
		{"read-only: schedule edit", true, schedules("e"), ro + "editing a schedule", "Edit schedule"},
		{"read-only: schedule delete", true, schedules("d"), ro + "delete schedule 1 of orders-prod", "Delete schedule"},
		{"read-only: restore this backup", true, func(p *tuitest.Program, _ *api.Client) {
			p.Command("backups orders-prod")
			p.Wait("Backups of orders-prod")
			p.Press("R")
		}, ro + "starting a restore", "New restore"},
		{"read-only: point-in-time restore", true, func(p *tuitest.Program, _ *api.Client) {
			p.Press("3")
			p.Wait("staging-eu")
			p.Press("n")
		}, ro + "starting a restore", "New restore"},
		{"delete: wrong name typed", false, func(p *tuitest.Program, _ *api.Client) {
			service("legacy-batch", "D")(p, nil)
			p.Wait("Delete service?")
			p.Type("legacy")
			p.Press("enter")
		}, "does not match", ""},
		{"point in time: a moment outside the window", false, func(p *tuitest.Program, c *api.Client) {
			win := ordersWindow(p.T.(*testing.T), c)
			toPointInTime(p, win)
			p.Type(moment(win.End.Add(time.Hour)))
			p.Press("enter")
		}, "nothing was sent: point_in_time: ", "4/4: confirm"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, srv, _, c := demoProgram(t, func(o *Options) { o.ReadOnly, o.Profile = tc.readOnly, "prod-eu" })
			tc.do(p, c)
			p.Wait(tc.want)
			if tc.notAsked != "" && strings.Contains(p.Frame(), tc.notAsked) {
				t.Fatalf("%q opened:\n%s", tc.notAsked, p.Frame())
			}
			if n := tuitest.Changes(srv); n != 0 {
				t.Fatalf("%d changes reached the API: %v", n, srv.Stats().Requests)
			}
			p.Quit()
		})
	}
}
