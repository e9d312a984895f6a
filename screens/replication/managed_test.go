package replication_test

import (
	"database/sql"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

const (
	managedPOST   = "/provisioning/v1/services/{id}/replication"
	managedDELETE = "/provisioning/v1/services/{id}/replication"
)

// answer presses k, which must ask what asks say, and answers yn: "y"
// sends one request method route, "n" none; sent is how many there are
// after.
func (h *harness) answer(k, yn, method, route string, sent int, asks ...string) {
	h.T.Helper()
	count := func() int { return h.d.srv.Stats().Count(method, route) }
	before := sent
	if yn == "y" {
		before--
	}
	if n := count(); n != before {
		h.T.Fatalf("%d %s requests before %s, want %d", n, method, k, before)
	}
	h.Key(k)
	for _, a := range asks {
		h.Sees(a)
	}
	// nothing says it is being sent while the confirmation still asks
	if scr := h.Screen(); strings.Contains(scr, "sending") || strings.Contains(scr, "ending managed replication") {
		h.T.Fatalf("%s: the page says it is sending while the confirmation asks:\n%s", k, scr)
	}
	h.Key(yn)
	if n := count(); n != sent {
		h.T.Fatalf("%d %s requests after %s %s, want %d", n, method, k, yn, sent)
	}
}

// Managed replication in the demo, by keys: offered in the wizard's first
// step beside the sky procedures, a pending service refused with the
// reason, the review of what is sent, one request after yes, the pair in
// the status list with the primary's replicas and Yes / Yes read over
// SQL, and its end asked yes/no naming both (no: nothing sent).
func TestFlowManagedReplication(t *testing.T) {
	d := newDemo(t)
	h := d.app(120, 40, nil)
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	h.Sees("Or m: managed replication")
	h.Key("m")
	h.Sees("Managed replication")
	h.Sees("Needs two ready services")

	// reporting-new is pending_create in the demo until the clock moves
	h.pick("reporting-new")
	h.Sees("refused: reporting-new is pending_create: a service in a pending state cannot be the primary")
	h.Key("esc") // the filter
	h.pick("orders-prod")
	h.Sees("Choose the REPLICA")
	h.pick("reporting-new")
	h.Sees("refused: the replica reporting-new is pending_create: a service in a pending state cannot take part")
	h.Key("esc")
	h.pick("replica-west")
	pri, rep := d.byName("orders-prod"), d.byName("replica-west")
	h.Sees(`Sends  POST /provisioning/v1/services/` + rep.ID + `/replication`)
	h.Sees(`{"primary_host":"` + pri.ID + `","replication_type":"uni-directional"}`)
	h.Key("t")
	h.Sees(`"replication_type":"bi-directional"`)
	h.Key("t")
	h.Sees(`"replication_type":"uni-directional"`)
	// no sends nothing and says nothing: the review stays as it was
	h.answer("enter", "n", "POST", managedPOST, 0, "Set up managed replication?")
	h.Sees(`Sends  POST /provisioning/v1/services/` + rep.ID + `/replication`)
	if strings.Contains(h.Screen(), "refused") {
		t.Fatalf("a cancelled confirmation is reported:\n%s", h.Screen())
	}
	h.answer("enter", "y", "POST", managedPOST, 1, "Set up managed replication?")
	h.Sees("Method        managed replication (uni-directional); E ends it")
	h.Sees("Replicas      of orders-prod: replica-west (ready)")
	h.Sees("IO thread     Yes")
	h.Sees("SQL thread    Yes")
	if s := d.byName("replica-west"); s.PrimaryHost != pri.ID || !s.ReplicationEnabled {
		t.Fatalf("the replica does not report its primary: %+v", s)
	}
	// the pair is saved, without secrets
	text := fileText(t, d.stateFile())
	if !strings.Contains(text, `"method": "managed"`) || !strings.Contains(text, `"mode": "uni-directional"`) {
		t.Fatalf("state file:\n%s", text)
	}

	// g has no grant to show; E asks naming both; no sends nothing
	h.Key("g")
	if !strings.Contains(h.lastToast(), "managed replication: the service runs it, there is no grant") {
		t.Errorf("g on a managed pair: %q", h.lastToast())
	}
	h.answer("E", "n", "DELETE", managedDELETE, 0, "End managed replication?", "replica-west stops replicating from orders-prod")
	h.answer("E", "y", "DELETE", managedDELETE, 1, "End managed replication?")
	h.Sees("replica-west no longer replicates from orders-prod")
	h.Sees("No replication set up with skytui yet.")
	if s := d.byName("replica-west"); s.PrimaryHost != "" {
		t.Fatalf("ended, the replica still reports %s", s.PrimaryHost)
	}
}

// A read-only profile: the managed setup is refused at n, before a pair
// is chosen, and its end by the action layer before anything is asked or
// sent.
func TestFlowManagedReadOnly(t *testing.T) {
	d := newDemo(t)
	ro := readOnly
	h := d.app(120, 40, ro)
	h.Keys("4")
	h.refused("n", "Choose the PRIMARY")
	h.Key("m")
	if strings.Contains(h.Screen(), "managed replication") && strings.Contains(h.Screen(), "PRIMARY") {
		t.Fatalf("a managed setup opened read-only:\n%s", h.Screen())
	}

	// a managed pair set up elsewhere: E is refused too
	d.managedPair("bi-directional")
	h = d.replication(ro, "managed replication (bi-directional)", "Replicas      of orders-prod: replica-west (ready)")
	h.refused("E", "End managed replication?")
	if n := d.srv.Stats().Count("POST", managedPOST); n != 1 {
		t.Fatalf("%d POSTs, want only the test's", n)
	}
	if n := d.srv.Stats().Count("DELETE", managedDELETE); n != 0 {
		t.Fatalf("read-only sent %d DELETEs", n)
	}
}

// The end refused by the API while the replica is pending: its status,
// message (the service named "name (ID)") and trace ID are shown, and the
// pair stays.
func TestFlowManagedEndWhilePending(t *testing.T) {
	d := newDemo(t)
	_, rep := d.managedPair("uni-directional")
	if err := d.c.StopService(bg, rep.ID); err != nil {
		t.Fatal(err)
	}
	h := d.replication(nil, "managed replication (uni-directional)")
	h.Key("E")
	h.Sees("End managed replication?")
	h.Key("y")
	h.Sees("Refused       409 Conflict: service replica-west (" + rep.ID + ") is in a pending state")
	if !regexp.MustCompile(`trace [0-9a-f]{32}`).MatchString(strings.ReplaceAll(h.Screen(), "\n", " ")) {
		t.Fatalf("the refusal lacks the message or the trace ID:\n%s", h.Screen())
	}
	h.Sees("managed replication (uni-directional)")
}

// TestGoldenManaged snapshots the managed flow at 80x24 and 140x40: the
// replica's choice, the review of the request, and the managed pair in
// the status list with the primary's replicas.
// Regenerate with: go test ./screens/replication/ -run TestGoldenManaged -update
func TestGoldenManaged(t *testing.T) {
	goldenSizes(t, func(t *testing.T, d *demo, w, ht int) {
		h := d.app(w, ht, nil)
		snap := h.snapper(t)
		h.Keys("4", "n", "m")
		h.pick("orders-prod")
		h.Sees("Choose the REPLICA")
		snap("01_choose_replica")
		h.pick("replica-west")
		h.Sees("Sends  POST")
		snap("02_review")
		h.Key("enter")
		h.Key("y")
		h.Sees("IO thread     Yes")
		h.Sees("Replicas      of orders-prod")
		snap("03_status")
	})
}

// The managed setup's answer lost (the replica reports its primary when
// read again) or unreadable: the pair is recorded once, one POST sent,
// and the toast says what happened; never a failure.
func TestFlowManagedAnswerLostOrUnreadable(t *testing.T) {
	for _, tc := range []struct {
		fault sandbox.AfterFault
		toast string
	}{
		{sandbox.AnswerDropped, "the answer was lost, but replica-west now reports"},
		{sandbox.AnswerUnreadable, "replica-west from orders-prod: accepted; the answer could not"},
	} {
		t.Run(string(tc.fault), func(t *testing.T) {
			d := newDemo(t)
			if err := d.srv.ArmFault(sandbox.ArmedFault{Kind: tc.fault, Method: "POST", Path: managedPOST}); err != nil {
				t.Fatal(err)
			}
			h := d.managedSetup(120, 40)
			h.pick("orders-prod")
			h.pick("replica-west")
			h.answer("enter", "y", "POST", managedPOST, 1, "Set up managed replication?")
			h.Sees("Method        managed replication (uni-directional); E ends it")
			if got := h.lastToast(); !strings.Contains(got, tc.toast) {
				t.Fatalf("toast %q, want %q", got, tc.toast)
			}
			if text := fileText(t, d.stateFile()); !strings.Contains(text, `"method": "managed"`) {
				t.Fatalf("the pair was not recorded:\n%s", text)
			}
		})
	}
}

// The managed setup's refusals name the other service as the command line
// does, "name (ID)": a user knows services by name, and the rules (and
// the API) name the service a replica replicates from by its ID alone.
func TestFlowManagedRefusalsNameServices(t *testing.T) {
	d := newDemo(t)
	pri, rep := d.byName("orders-prod"), d.byName("replica-west")
	if _, err := d.c.StartManagedReplication(bg, rep.ID, pri.ID, "uni-directional"); err != nil {
		t.Fatal(err)
	}
	h := d.managedSetup(200, 40)
	h.Sees("Managed replication")
	h.pick("replica-west")
	h.Sees("refused: replica-west is itself a replica of orders-prod (" + pri.ID + "): choose a service that is not a replica")
	h.Key("esc") // the filter
	h.pick("analytics-gcp")
	h.Sees("Choose the REPLICA")
	h.pick("replica-west")
	h.Sees("refused: replica-west already replicates from orders-prod (" + pri.ID + "): end that replication first")
}

// The API's refusal of the setup (the replica began replicating after it
// was chosen) names both services "name (ID)" too.
func TestFlowManagedAPIRefusalNamesServices(t *testing.T) {
	d := newDemo(t)
	pri, rep := d.byName("orders-prod"), d.byName("replica-west")
	h := d.managedSetup(200, 40)
	h.pick("analytics-gcp")
	h.pick("replica-west")
	h.Sees("Sends  POST")
	if _, err := d.c.StartManagedReplication(bg, rep.ID, pri.ID, "uni-directional"); err != nil {
		t.Fatal(err)
	}
	h.answer("enter", "y", "POST", managedPOST, 2, "Set up managed replication?")
	h.Sees("service replica-west (" + rep.ID + ") already replicates from orders-prod (" + pri.ID + ")")
}

// Managed replication's lists on a 60x16 terminal: they say how many
// services are below and above the rows shown (one row showed, nothing
// said), and the services that cannot take the role are marked before
// enter (CANNOT BE; enter on the primary was refused only after).
func TestFlowManagedShortLists(t *testing.T) {
	d := newDemo(t)
	h := d.managedSetup(60, 16)
	h.Sees("Choose the PRIMARY")
	h.Sees("CANNOT BE")
	h.Sees("down/j: 6 more services")
	h.Keys("G")
	h.Sees("up/k: 6 services above")
	h.Sees("primary: pending") // reporting-new, last by name
	h.Keys("g")
	h.pick("orders-prod")
	h.Sees("Choose the REPLICA")
	// the primary is marked, and the cursor starts on one that can be chosen
	if !regexp.MustCompile(`(?m)^  orders-prod +ready +the primary`).MatchString(h.Screen()) {
		t.Fatalf("the primary is not marked in the replica's list:\n%s", h.Screen())
	}
	h.onRow("analytics-gcp")
	h.cut("J: 3 more lines")
	h.Key("J")
	h.Sees("K: 3 lines above")
}

// The managed review on a 60x16 terminal: cut, it says what is below,
// scrolls with J/K, keeps enter, esc and t in the footer, and a first
// enter with the request below the window shows it; only the next asks
// (it opened the yes/no at once, the request never seen).
func TestFlowManagedShortReview(t *testing.T) {
	d := newDemo(t)
	h := d.managedSetup(60, 16)
	h.pick("orders-prod")
	h.pick("replica-west")
	h.Sees("replica-west -> replicates from -> orders-prod")
	reqEnd := `"replication_type":"uni-directional"}`
	if strings.Contains(h.Screen(), reqEnd) || !regexp.MustCompile(`J: \d+ more lines`).MatchString(h.Screen()) {
		t.Fatalf("the cut review does not say what is below:\n%s", h.Screen())
	}
	lines := strings.Split(h.Screen(), "\n")
	if f := lines[len(lines)-1]; !strings.Contains(f, " enter ") || !strings.Contains(f, " esc ") || !strings.Contains(f, " t uni/bi") {
		t.Fatalf("the review's footer lacks enter, esc or t: %q", f)
	}
	h.Key("J")
	h.Sees(reqEnd)
	h.Sees("t switches uni- /")
	h.Key("K")
	h.Sees("replica-west -> replicates from -> orders-prod")
	// the first enter shows the request, sending nothing and asking nothing
	h.Key("enter")
	h.Sees(reqEnd)
	if strings.Contains(h.Screen(), "Set up managed replication?") || d.srv.Stats().Count("POST", managedPOST) != 0 {
		t.Fatalf("enter asked before the request was shown:\n%s", h.Screen())
	}
	h.answer("enter", "n", "POST", managedPOST, 0, "Set up managed replication?")
}

// A managed pair whose replica the API says replicates while SQL on it
// shows no replication (`skytui sandbox --mariadb` keeps managed
// replication in the API only): the pane says what the API says and that
// its threads cannot be read over SQL, not that its replication ended,
// and does not advise forgetting it.
func TestManagedInAPIOnlyIsNotEnded(t *testing.T) {
	d := newDemo(t)
	_, rep := d.managedPair("uni-directional")
	cr, err := d.c.GetCredentials(bg, rep.ID)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(127.0.0.1:%d)/", cr.Username, cr.Password, rep.ReadWritePort()))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CALL sky.reset_replication()"); err != nil {
		t.Fatal(err)
	}
	h := d.replication(nil, "Replicas      of orders-prod: replica-west (ready)")
	h.Sees("the API says replica-west replicates from orders-prod; its threads cannot be read over SQL here")
	out := h.Screen()
	for _, no := range []string{"managed replication ended", "d forgets this pair", "not configured on", "none  none"} {
		if strings.Contains(out, no) {
			t.Fatalf("a pair the API says replicates reads %q:\n%s", no, out)
		}
	}
}

// The hint that the rest of the request is shown, sent with the request
// about to be set up (keys in one burst), does not show once the pair is
// set up: after its done toast, nothing says the request is shown.
func TestFlowManagedHintGoesOnceSetUp(t *testing.T) {
	d := newDemo(t)
	h := d.managedSetup(60, 16)
	h.pick("orders-prod")
	h.pick("replica-west")
	h.Key("enter")
	if !strings.Contains(h.lastToast(), "the rest of the request is shown now") {
		t.Fatalf("enter with the request hidden: %q", h.lastToast())
	}
	h.answer("enter", "y", "POST", managedPOST, 1, "Set up managed replication?")
	h.Sees("Replicas")
	for _, shown := range h.shownToasts() {
		if strings.Contains(shown, "the rest of the request is shown") {
			t.Fatalf("once set up, the message line said %q", shown)
		}
	}
}
