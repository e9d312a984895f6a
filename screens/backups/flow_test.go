package backups_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/skytui/skytui/api"
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
	noState(t)
	srv, clk, c := tuitest.Sandbox(t, false)
	createService(t, c, "flow-db")
	clk.Advance(6 * time.Minute) // launched
	rec := tuitest.NewFrameRecorder(tui.New(tui.Options{Client: c, Profile: "flow", Now: clk.Now, SlowInterval: 30 * time.Second,
		Getenv: func(string) string { return "" }, Secrets: tuitest.Secrets(t, "team")}))
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(100, 30))
	press := func(ks ...string) {
		for _, k := range ks {
			tm.Send(tuitest.KeyMsg(k))
		}
	}
	posts := func() int { return srv.Stats().Count("POST", schedulesRoute) }

	rec.Wait(t, "flow-db")
	press(":")
	tm.Type("backups flow-db")
	press("enter")
	rec.Wait(t, "no backups yet")

	// incremental is refused before a full backup exists, with the reason
	press("n")
	rec.Wait(t, "Step 1 of 3: type")
	rec.Wait(t, "incremental  unavailable: this service has no completed full backup yet")
	press("down", "enter")
	rec.Wait(t, "Not available: incremental needs a completed full backup first, and flow-db has none yet")
	if !strings.Contains(rec.Frame(), "Step 1 of 3: type") {
		t.Fatalf("incremental was accepted:\n%s", rec.Frame())
	}

	// a once full backup: in progress at once, then completed
	press("up", "enter")
	rec.Wait(t, "Step 2 of 3: when")
	press("enter")
	rec.Wait(t, "Step 3 of 3: destination")
	press("enter")
	rec.Wait(t, `"schedule": "once"`)
	rec.Wait(t, `"backup_type": "full"`)
	press("enter")
	rec.Wait(t, "1 backup, 1 in progress")
	rec.Wait(t, "backup job 1 started: full backup of flow-db")
	if n := posts(); n != 1 {
		t.Fatalf("the backup was sent %d times, want 1", n)
	}
	clk.Advance(2 * time.Minute) // past the job's end on the sandbox clock
	press("r")
	rec.Wait(t, "completed")
	rec.Wait(t, "1 backup  sort")

	// now incremental is allowed
	press("n")
	rec.Wait(t, "Step 1 of 3: type")
	rec.Wait(t, "incremental  only changes since the last backup")
	press("down", "enter")
	rec.Wait(t, "Step 2 of 3: when")
	press("enter", "enter")
	rec.Wait(t, `"backup_type": "incremental"`)
	press("enter")
	rec.Wait(t, "2 backups, 1 in progress")
	if n := posts(); n != 2 {
		t.Fatalf("%d backups sent, want 2", n)
	}
	press("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// TestReadOnly: n says why and opens nothing; and a submit that reaches
// the action layer on a read-only profile is refused there: no POST
// reaches the sandbox either way.
func TestReadOnly(t *testing.T) {
	noState(t)
	h, srv, _ := app(t, 100, 30, true, func(o *tui.Options) { o.ReadOnly = true })
	h.command("backups orders-prod")
	h.Key("n")
	waitFor(t, h, "profile demo is read-only: new backups are not allowed")
	if strings.Contains(h.Screen(), "Step 1 of 3") {
		t.Fatalf("the form opened on a read-only profile:\n%s", h.Screen())
	}
	// the enforcement is the action layer's: a form that got to its review
	// (the profile was writable when it opened) is refused on submit
	h.m.Common().ReadOnly = false
	h.Keys("n", "enter", "enter", "enter")
	waitFor(t, h, "Review: this is the request that will be sent")
	h.m.Common().ReadOnly = true
	h.Key("enter")
	waitFor(t, h, "profile demo is read-only")
	waitFor(t, h, "the API refused it: profile is read-only")
	if n := srv.Stats().Count("POST", schedulesRoute); n != 0 {
		t.Fatalf("%d POSTs reached the sandbox on a read-only profile", n)
	}
}

// TestLastServiceRemembered: the service chosen is written to the state
// file (per profile, other keys kept) and shown at the next start.
func TestLastServiceRemembered(t *testing.T) {
	path := useStateFile(t)
	if err := os.MkdirAll(strings.TrimSuffix(path, "/state.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(`{"someone_else": {"x": 1}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	h, _, _ := app(t, 100, 30, true, nil)
	h.Key("2")
	waitFor(t, h, "No service chosen")
	h.Key("p")
	waitFor(t, h, "Backups of which service?")
	h.Keys("j", "j", "j", "j", "enter") // orders-prod
	waitFor(t, h, "Backups of orders-prod (dbtaf33737495)")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["backups_last_service"]["demo"] != "dbtaf33737495" || doc["someone_else"]["x"] != 1.0 {
		t.Fatalf("state file = %s", data)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("state file mode %v", st.Mode().Perm())
	}

	// the next run of the same profile starts there
	again, _, _ := app(t, 100, 30, true, nil)
	again.Key("2")
	waitFor(t, again, "Backups of orders-prod (dbtaf33737495)")
	// another profile does not
	other, _, _ := app(t, 100, 30, true, func(o *tui.Options) { o.Profile = "other" })
	other.Key("2")
	waitFor(t, other, "No service chosen")
	// :backups <name> changes it
	again.command("backups analytics-gcp")
	waitFor(t, again, "Backups of analytics-gcp")
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), `"demo": "dbtgf08521099"`) {
		t.Fatalf("state file after :backups = %s", data)
	}
}

// TestPolledFastWhileInProgress: a service with a running backup is
// polled at the fast interval, a settled one at the slow one.
func TestPolledFastWhileInProgress(t *testing.T) {
	noState(t)
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
	waitFor(t, h, "8 backups  sort")
}

// TestCommandLineOpensByNameOrID: ":backups" takes a name or an ID, and a
// service created after the last listing is found by reading it again.
func TestCommandLineOpensByNameOrID(t *testing.T) {
	noState(t)
	h, _, clk := app(t, 100, 30, true, nil)
	h.command("backups dbtgf08521099")
	waitFor(t, h, "Backups of analytics-gcp (dbtgf08521099)")
	h.command("backups orders-prod")
	waitFor(t, h, "Backups of orders-prod (dbtaf33737495)")
	v := createService(t, h.m.Common().Client, "late-db")
	clk.Advance(6 * time.Minute)
	h.command("backups late-db")
	waitFor(t, h, "Backups of late-db ("+v.ID+")")
}

// TestEscKeepsWhatWasTyped: esc leaves the form; n brings it back as it
// was, a custom cron expression included.
func TestEscKeepsWhatWasTyped(t *testing.T) {
	noState(t)
	h, _, _ := app(t, 100, 30, true, nil)
	h.command("backups orders-prod")
	h.Keys("n", "down", "down", "enter", "down", "down", "down", "enter")
	h.TypeText("0 4 * * 1-5") // as typed, one key at a time
	waitFor(t, h, "ok: Monday to Friday at 04:00 UTC")
	h.Key("esc")
	waitFor(t, h, "new backup cancelled; n brings back what you typed")
	h.Key("n")
	waitFor(t, h, "> logical")
	h.Keys("enter", "enter")
	waitFor(t, h, "> 0 4 * * 1-5")
}
