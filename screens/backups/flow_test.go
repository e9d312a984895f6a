package backups_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/screens/backups"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

const schedulesRoute = "/backup/v1/backups/schedules"

func createService(t *testing.T, c *api.Client, name string) *api.Service {
	t.Helper()
	v, err := c.CreateService(context.Background(), api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single",
		Provider: "aws", Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: name, SSLEnabled: true})
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBackupFlow runs the real program (teatest) against the sandbox on a
// manual clock: on a new service, incremental is refused in the form with
// the reason; a "once" full backup is submitted once, shows in progress at
// once and completes when the sandbox clock passes its end; then
// incremental is allowed and submitted.
func TestBackupFlow(t *testing.T) {
	srv, clk, c := tuitest.Sandbox(t, false)
	createService(t, c, "flow-db")
	clk.Advance(6 * time.Minute) // launched
	p := program(t, c, clk, 100, 30, func(o *tui.Options) { o.Profile, o.Demo = "flow", false })
	posts := func() int { return srv.Stats().Count("POST", schedulesRoute) }
	// chooseIncremental opens the form and picks incremental, which the
	// first step shows as offered
	chooseIncremental := func(offered string) {
		p.Press("n")
		p.Wait("Step 1 of 3: type")
		p.Wait("incremental  " + offered)
		p.Press("down", "enter")
	}

	p.Wait("flow-db")
	p.Command("backups flow-db")
	p.Wait("no backups yet")

	// incremental is refused before a full backup exists, with the reason
	chooseIncremental("unavailable: this service has no completed full backup yet")
	p.Wait("Not available: incremental needs a completed full backup first, and flow-db has none yet")
	if !strings.Contains(p.Frame(), "Step 1 of 3: type") {
		t.Fatalf("incremental was accepted:\n%s", p.Frame())
	}

	// a once full backup: in progress at once, then completed
	p.Press("up", "enter")
	p.Wait("Step 2 of 3: when")
	p.Press("enter")
	p.Wait("Step 3 of 3: destination")
	p.Press("enter")
	p.Wait(`"schedule": "once"`)
	p.Wait(`"backup_type": "full"`)
	p.Press("enter")
	p.Wait("1 backup, 1 in progress")
	p.Wait("backup job 1 started: full backup of flow-db")
	if n := posts(); n != 1 {
		t.Fatalf("the backup was sent %d times, want 1", n)
	}
	clk.Advance(2 * time.Minute) // past the job's end on the sandbox clock
	p.Press("r")
	p.Wait("completed")
	p.Wait("1 backup  sort")

	// now incremental is allowed
	chooseIncremental("only changes since the last backup")
	p.Wait("Step 2 of 3: when")
	p.Press("enter", "enter")
	p.Wait(`"backup_type": "incremental"`)
	p.Press("enter")
	p.Wait("2 backups, 1 in progress")
	if n := posts(); n != 2 {
		t.Fatalf("%d backups sent, want 2", n)
	}
	p.QuitWith("q")
}

// TestReadOnly: n says why and opens nothing; and a submit that reaches
// the action layer on a read-only profile is refused there: no POST
// reaches the sandbox either way.
func TestReadOnly(t *testing.T) {
	h, srv, _ := app(t, 100, 30, true, func(o *tui.Options) { o.ReadOnly = true })
	h.command("backups orders-prod")
	h.Key("n")
	h.Sees("not allowed on read-only profile demo: a new backup")
	if strings.Contains(h.Screen(), "Step 1 of 3") {
		t.Fatalf("the form opened on a read-only profile:\n%s", h.Screen())
	}
	// the enforcement is the action layer's: a form that got to its review
	// (the profile was writable when it opened) is refused on submit
	h.m.Common().ReadOnly = false
	h.Keys("n", "enter", "enter", "enter")
	h.Sees("Review: this is the request that will be sent")
	h.m.Common().ReadOnly = true
	h.Key("enter")
	h.Sees("not allowed on read-only profile demo")
	h.Sees("the API refused it: profile is read-only")
	if n := srv.Stats().Count("POST", schedulesRoute); n != 0 {
		t.Fatalf("%d POSTs reached the sandbox on a read-only profile", n)
	}
}

// TestAllServices runs the real program (teatest) on the demo sandbox, on
// the interface document's backup prefix and on the live one: 2 opens on
// the backups of every service with a SERVICE column (one listing on the
// live prefix, one per service on the interface prefix); ":backups NAME"
// narrows to one service, a goes back to all; ":backups nosuch" says so and
// changes nothing; t and n act on the selected backup's service.
func TestAllServices(t *testing.T) {
	for _, prefix := range []string{api.DefaultBackupPrefix, api.LiveBackupPrefix} {
		t.Run(strings.Trim(prefix, "/"), func(t *testing.T) {
			srv, clk, c := sandboxAt(t, prefix)
			p := program(t, c, clk, 120, 30, nil)
			listings := func() int { return srv.Stats().Requests["GET "+prefix+"/backups"] }
			// rows of the table: the lines after the SERVICE header
			rows := func(frame string) (services map[string]int) {
				services = map[string]int{}
				in := false
				for _, l := range strings.Split(frame, "\n") {
					f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "> "))
					switch {
					case len(f) > 0 && f[0] == "SERVICE":
						in = true
					case in && len(f) > 2:
						services[f[0]]++
					}
				}
				return services
			}

			p.Press("2")
			p.Wait("Backups of all services  74 backups, 1 in progress")
			p.Wait("SERVICE")
			got := rows(p.Frame())
			if got["orders-prod"] == 0 || got["analytics-gcp"] == 0 || got["dev-serverless"] == 0 {
				t.Fatalf("the all-services view lacks rows of several services: %v\n%s", got, p.Frame())
			}
			if n := listings(); prefix == api.LiveBackupPrefix && n != 1 || prefix == api.DefaultBackupPrefix && n < 2 {
				t.Fatalf("%d backup listings on %s", n, prefix)
			}

			// narrow, back to all
			p.Command("backups orders-prod")
			p.Wait("Backups of orders-prod (dbtaf33737495)  44 backups")
			if f := p.Frame(); strings.Contains(f, "SERVICE") || strings.Contains(f, "analytics-gcp") {
				t.Fatalf("the narrowed view shows other services:\n%s", f)
			}
			p.Press("a")
			p.Wait("Backups of all services  74 backups")
			p.Wait("SERVICE")

			// an unknown service: said, nothing changed
			p.Command("backups nosuch")
			p.Wait(`no service named "nosuch"; still showing all services`)
			if f := p.Frame(); !strings.Contains(f, "Backups of all services  74 backups") || len(rows(f)) < 3 {
				t.Fatalf("the view changed after an unknown service:\n%s", f)
			}
			p.Command("backups analytics-gcp")
			p.Wait("Backups of analytics-gcp (dbtgf08521099)")
			p.Command("backups nosuch")
			p.Wait(`no service named "nosuch"; still showing analytics-gcp`)
			if f := p.Frame(); !strings.Contains(f, "Backups of analytics-gcp (dbtgf08521099)") {
				t.Fatalf("the view changed after an unknown service:\n%s", f)
			}

			// back to all: t and n act on the selected backup's service
			// (the first row: analytics-gcp's running backup)
			p.Press("a")
			p.Wait("Backups of all services  74 backups")
			p.Press("j") // orders-prod
			p.Press("t")
			p.Wait("Schedules of orders-prod (dbtaf33737495)")
			p.Wait("daily at 03:00 UTC")
			p.Press("t", "k", "n")
			p.Wait("New backup of analytics-gcp")
			p.Press("esc")
			p.Wait("new backup cancelled")
			p.QuitWith("q")
		})
	}
}

// TestOpenBeforeServicesListed: ":backups NAME" before the services
// listing has arrived waits for it, then narrows, or says the name is
// unknown (after asking the listing once more) and changes nothing.
func TestOpenBeforeServicesListed(t *testing.T) {
	_, clk, c := tuitest.Sandbox(t, true)
	fresh := screenOn(c, clk, 100, 28)
	if cmd := fresh.Open("orders-prod"); cmd != nil {
		t.Fatal("Open before the listing did something at once")
	}
	if fresh.ServiceID() != "" || !strings.Contains(tuitest.View(fresh), "looking up service orders-prod") {
		t.Fatalf("before the listing: shows %q\n%s", fresh.ServiceID(), fresh.View())
	}
	svcs, err := c.ListServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	fresh.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: svcs})
	if fresh.ServiceID() != "dbtaf33737495" {
		t.Fatalf("after the listing: shows %q", fresh.ServiceID())
	}

	// unknown: the listing is asked once more, then the toast
	if msg, ok := run(fresh.Open("nosuch")).(kit.RefreshMsg); !ok || !slices.Equal(msg.Keys, []string{kit.ServicesKey.String()}) {
		t.Fatalf("an unknown name did not ask the listing again: %#v", msg)
	}
	_, cmd := fresh.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: svcs})
	warning, ok := run(cmd).(kit.ToastMsg)
	if !ok || warning.Level != kit.ToastWarn || warning.Text != `no service named "nosuch"; still showing orders-prod` || warning.Holds == nil || !warning.Holds() {
		t.Fatalf("unknown name: %#v", run(cmd))
	}
	if fresh.ServiceID() != "dbtaf33737495" {
		t.Fatalf("an unknown name changed the view to %q", fresh.ServiceID())
	}
	// "still showing orders-prod" holds only while it does
	fresh.Open("analytics-gcp")
	if fresh.ServiceID() != "dbtgf08521099" || warning.Holds() {
		t.Fatalf("showing %q, the warning holds %v", fresh.ServiceID(), warning.Holds())
	}

	// unknown before the listing: said when it arrives, nothing changed
	other := screenOn(c, clk, 100, 28)
	if cmd := other.Open("nosuch"); cmd != nil {
		t.Fatal("Open before the listing did something at once")
	}
	_, cmd = other.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: svcs})
	if _, ok := run(cmd).(kit.RefreshMsg); !ok {
		t.Fatalf("an unknown name did not ask the listing again: %#v", run(cmd))
	}
	_, cmd = other.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: svcs})
	if msg, ok := run(cmd).(kit.ToastMsg); !ok || msg.Text != `no service named "nosuch"; still showing all services` {
		t.Fatalf("unknown name: %#v", run(cmd))
	}
	if other.ServiceID() != "" || strings.Contains(tuitest.View(other), "looking up") {
		t.Fatalf("after an unknown name: shows %q\n%s", other.ServiceID(), other.View())
	}
}

// TestUnknownServiceWarningGoes: ":backups nosuch" is a warning that
// changes nothing; once another service is shown, its "still showing
// orders-prod" is taken down at the next clock tick instead of staying
// under a header that names another service.
func TestUnknownServiceWarningGoes(t *testing.T) {
	h, _, _ := app(t, 80, 24, true, nil)
	clock := func(msg tea.Msg) bool { return fmt.Sprintf("%T", msg) == "tui.clockMsg" }
	h.Key("2")
	h.backupsOf("orders-prod")
	h.command("backups nosuch")
	h.Sees(`! no service named "nosuch"; still showing orders-prod`)
	h.Fire(clock)
	h.Sees(`no service named "nosuch"; still showing orders-prod`)
	h.backupsOf("analytics-gcp")
	h.Fire(clock)
	if scr := h.Screen(); strings.Contains(scr, "nosuch") {
		t.Fatalf("the warning outlived the view it names:\n%s", scr)
	}
}

// screenOn is the Backups screen alone, outside the root, on c at the
// sandbox's clock.
func screenOn(c *api.Client, clk *sandbox.ManualClock, w, h int) *backups.Screen {
	common := tuitest.Common()
	common.Client, common.Now = c, clk.Now
	s := backups.New(common)
	s.SetSize(w, h)
	return s
}

func run(cmd tea.Cmd) tea.Msg {
	if cmd == nil {
		return nil
	}
	return cmd()
}

// TestFirstFetchListsEveryService: the all-services resource, fetched
// before anything else arrived (the screen's services listing included),
// lists backups of several services on both prefixes.
func TestFirstFetchListsEveryService(t *testing.T) {
	for _, prefix := range []string{api.DefaultBackupPrefix, api.LiveBackupPrefix} {
		t.Run(strings.Trim(prefix, "/"), func(t *testing.T) {
			_, clk, c := sandboxAt(t, prefix)
			s := screenOn(c, clk, 140, 30)
			for _, r := range s.Resources() {
				if r.Key != kit.AllBackupsKey.String() {
					continue
				}
				data, err := r.Fetch(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				s.Update(kit.DataMsg{Key: r.Key, Data: data})
				v := tuitest.View(s)
				// no services listing yet: the names the backups carry, else the IDs
				for _, svc := range [][2]string{{"orders-prod", "dbtaf33737495"}, {"analytics-gcp", "dbtgf08521099"}} {
					if !strings.Contains(v, svc[0]) && !strings.Contains(v, svc[1]) {
						t.Errorf("the first fetch lacks the backups of %s:\n%s", svc[0], v)
					}
				}
				return
			}
			t.Fatal("no all-services resource")
		})
	}
}

// TestPolledFastWhileInProgress: a service with a running backup is
// polled at the fast interval, a settled one at the slow one.
func TestPolledFastWhileInProgress(t *testing.T) {
	h, _, clk := app(t, 100, 30, true, nil)
	// armed reports the intervals of one round of polls after the data is
	// known (each reply arms its next tick by what all replies said)
	armed := func() []time.Duration {
		h.Key("r")
		h.FirePolls()
		return h.PollIntervals()
	}
	all := func(ds []time.Duration, want time.Duration) bool {
		for _, d := range ds {
			if d != want {
				return false
			}
		}
		return len(ds) > 0
	}
	h.command("backups analytics-gcp")
	if got := armed(); !all(got, tui.DefaultFastInterval) {
		t.Fatalf("with a backup in progress, polls armed at %v (want all %v)", got, tui.DefaultFastInterval)
	}
	h.command("backups orders-prod")
	if got := armed(); !all(got, 30*time.Second) {
		t.Fatalf("all settled, polls armed at %v (want all 30s)", got)
	}
	// the running backup of analytics-gcp ends: back to slow
	h.command("backups analytics-gcp")
	clk.Advance(time.Hour)
	if got := armed(); !all(got, 30*time.Second) {
		t.Fatalf("after the backup completed, polls armed at %v (want all 30s)", got)
	}
	h.Sees("8 backups  sort")
}

// TestCommandLineOpensByNameOrID: ":backups" takes a name or an ID, and a
// service created after the last listing is found by reading it again.
func TestCommandLineOpensByNameOrID(t *testing.T) {
	h, _, clk := app(t, 100, 30, true, nil)
	h.command("backups dbtgf08521099")
	h.Sees("Backups of analytics-gcp (dbtgf08521099)")
	h.command("backups orders-prod")
	h.Sees("Backups of orders-prod (dbtaf33737495)")
	v := createService(t, h.m.Common().Client, "late-db")
	clk.Advance(6 * time.Minute)
	h.command("backups late-db")
	h.Sees("Backups of late-db (" + v.ID + ")")
}

// TestEscKeepsWhatWasTyped: esc leaves the form; n brings it back as it
// was, a custom cron expression included.
func TestEscKeepsWhatWasTyped(t *testing.T) {
	h, _, _ := app(t, 100, 30, true, nil)
	h.command("backups orders-prod")
	h.Keys("n", "down", "down", "enter", "down", "down", "down", "enter")
	h.TypeText("0 4 * * 1-5") // as typed, one key at a time
	h.Sees("ok: Monday to Friday at 04:00 UTC")
	h.Key("esc")
	h.Sees("new backup cancelled; n brings back what you typed")
	h.Key("n")
	h.Sees("> logical")
	h.Keys("enter", "enter")
	h.Sees("> 0 4 * * 1-5")
}

// leaveCustomToBucket opens the new-backup form of the screen's service,
// chooses full, a custom cron expression and the user's own bucket at
// path, and leaves it with esc.
func (h *harness) leaveCustomToBucket(cron, path string) {
	h.Keys("n", "enter", "down", "down", "down", "enter") // full, custom
	h.TypeText(cron)
	h.Keys("enter", "down", "enter") // your own bucket
	h.TypeText(path)
	h.Sees(path)
	h.Key("esc")
	h.Sees("new backup cancelled; n brings back what you typed")
}

// TestDraftBelongsToItsService: what was left typed in orders-prod's form
// (a custom cron to its own bucket) never fills staging-eu's: there n
// starts afresh (once, to managed storage), and leaving that form keeps
// orders-prod's, which its own n brings back.
func TestDraftBelongsToItsService(t *testing.T) {
	h, _, _ := app(t, 100, 30, true, nil)
	h.backupsOf("orders-prod")
	h.leaveCustomToBucket("0 3 * * 1-5", "s3://acme-db-exports/orders")

	h.backupsOf("staging-eu")
	h.Keys("n", "enter", "enter", "enter") // full, once, managed storage
	h.Sees("Review: this is the request that will be sent")
	said := strings.Join(strings.Fields(h.Screen()), " ")
	if !strings.Contains(said, "Starts now: full backup of staging-eu.") || strings.Contains(said, "acme-db-exports") || strings.Contains(said, "Monday to Friday") {
		t.Fatalf("staging-eu's form starts with orders-prod's draft:\n%s", h.Screen())
	}
	h.Key("esc")

	h.backupsOf("orders-prod")
	h.Keys("n", "enter", "enter")
	h.Sees("> 0 3 * * 1-5")
	h.Keys("enter", "enter") // your own bucket, kept
	h.Sees("s3://acme-db-exports/orders")
}

// TestFormLaidOutAgainOnResize: a form open at 60x16 shows the new size's
// layout as soon as the terminal grows, without waiting for a key (huh
// lays a form out only in Update).
func TestFormLaidOutAgainOnResize(t *testing.T) {
	h, _, _ := app(t, 60, 16, true, nil)
	h.command("backups orders-prod")
	h.Keys("n", "enter", "enter", "down", "enter") // full, once, your own bucket
	h.TypeText("s3://bucket/path")
	h.Key("enter") // to the credentials: at 60x16 the path's title scrolls away
	h.Sees("Bucket credentials")
	if strings.Contains(h.Screen(), "Bucket path:") {
		t.Fatalf("at 60x16 the path's title is still shown; the test shows nothing:\n%s", h.Screen())
	}
	h.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
	if v := h.Screen(); !strings.Contains(v, "Bucket path:") || !strings.Contains(v, "s3://bucket/path") {
		t.Fatalf("grown to 80x24, the form keeps its 60x16 layout:\n%s", v)
	}
}

// TestSameScheduleTwice: a new backup with the type and times of a
// schedule the service has already (orders-prod's daily full at 03:00)
// is warned of in the review, naming the schedule; enter still submits
// it, once; then the two schedules' rows at 80 columns differ by their
// IDs.
func TestSameScheduleTwice(t *testing.T) {
	h, srv, _ := app(t, 80, 24, true, nil)
	h.backupsOf("orders-prod")
	h.Key("n")
	h.Sees("Step 1 of 3: type")
	h.Key("enter") // full
	h.Sees("Step 2 of 3: when")
	h.Keys("down", "enter") // daily
	h.Sees("03:00")
	h.Key("enter") // at 03:00
	h.Sees("Step 3 of 3: destination")
	h.Key("enter") // managed storage
	h.Sees("Review: this is the request that will be sent")
	said := strings.Join(strings.Fields(h.Screen()), " ")
	want := "! orders-prod has this schedule already: schedule 1, full at 0 3 * * *. Submitting adds a second one, taking the same backup at the same times (enter still submits it)"
	if !strings.Contains(said, want) {
		t.Fatalf("the review does not warn of the same schedule:\n%s", h.Screen())
	}
	h.Key("enter")
	h.Sees("backup schedule")
	if n := srv.Stats().Count("POST", schedulesRoute); n != 1 {
		t.Fatalf("%d POSTs, want 1", n)
	}
	h.Sees("Schedules of orders-prod") // shown with the new one
	var rows []string
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.Contains(l, "0 3 * * *") && strings.Contains(l, "full") {
			rows = append(rows, strings.Join(strings.Fields(strings.TrimPrefix(l, ">")), " "))
		}
	}
	if len(rows) != 2 || rows[0] == rows[1] {
		t.Fatalf("at 80 columns the two daily full schedules' rows = %q:\n%s", rows, h.Screen())
	}

	// a schedule the service has not: no warning
	h.Keys("n", "enter", "down", "enter")
	h.Sees("03:00")
	h.Keys("backspace", "backspace", "backspace", "backspace", "backspace")
	h.TypeText("04:30")
	h.Keys("enter", "enter")
	h.Sees("Review: this is the request that will be sent")
	if strings.Contains(h.Screen(), "has this schedule already") {
		t.Fatalf("a new schedule is warned of:\n%s", h.Screen())
	}
}

// TestOneOffBackupFollowed: a one-off backup taken here (n, once) is
// followed to its end whatever screen is shown, as a restore is: a toast
// (and the log) says "backup KEY of SERVICE completed", or failed with
// the reason, with the bell when the user is elsewhere.
func TestOneOffBackupFollowed(t *testing.T) {
	var client *api.Client
	h, srv, clk := app(t, 120, 36, true, func(o *tui.Options) { o.Bell, client = true, o.Client })
	svcs, err := client.ListServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(svcs, func(v api.Service) bool { return v.Name == "orders-prod" })
	if i < 0 {
		t.Fatal("no orders-prod in the demo")
	}
	h.backupsOf("orders-prod")
	for _, fail := range []bool{false, true} {
		if fail {
			srv.FailNextBackup(svcs[i].ID)
		}
		h.Key("2")
		h.Key("n")
		h.Sees("Step 1 of 3: type")
		h.Keys("enter", "enter", "enter") // full, once, managed storage
		h.Sees("Review: this is the request that will be sent")
		h.Key("enter")
		h.Sees("started: full backup of orders-prod")
		key := selectedKey(t, h)
		want := "backup " + key + " of orders-prod"
		if got := h.m.Watching(); !slices.Contains(got, want) {
			t.Fatalf("watching %v, want %q", got, want)
		}
		h.Key("1") // elsewhere: the outcome rings the bell
		h.Raw = nil
		clk.Advance(time.Hour)
		if h.FireWatches() == 0 {
			t.Fatal("no watch tick armed")
		}
		if fail {
			h.Sees(want + " failed: Backup failed")
		} else {
			h.Sees(want + " completed")
		}
		if len(h.Raw) != 1 || h.Raw[0] != "\a" {
			t.Fatalf("the outcome rang %q, want one bell", h.Raw)
		}
		if slices.Contains(h.m.Watching(), want) {
			t.Fatalf("still watching %v", h.m.Watching())
		}
	}
}
