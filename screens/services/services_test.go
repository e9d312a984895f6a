package services

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

func TestMain(m *testing.M) { tuitest.Main(m) }

var now = tuitest.T0

func newScreen(w, h int) *Screen {
	s := New(tuitest.Common())
	s.SetSize(w, h)
	return s
}

func svc(i int, status string) api.Service {
	providers := []string{"aws", "gcp", "azure"}
	v := api.Service{
		ID:        fmt.Sprintf("dbtaf%08d", i),
		Name:      fmt.Sprintf("svc-%05d", i),
		Status:    status,
		Provider:  providers[i%3],
		Region:    "region-1",
		Size:      "sky-2x8",
		Nodes:     1 + i%3,
		Version:   "11.4.2-1",
		CreatedOn: api.UnixTime{Time: now.Add(-time.Duration(i) * time.Minute)},
	}
	if status == "ready" {
		v.FQDN = v.ID + ".example.net"
		v.Endpoints = []api.Endpoint{{Name: "primary", Ports: []api.Port{{Name: "readwrite", Port: 3306}, {Name: "readonly", Port: 3307}}}}
	}
	return v
}

func services(n int) []api.Service {
	out := make([]api.Service, n)
	for i := range out {
		st := "ready"
		if i%17 == 0 {
			st = "pending_create"
		}
		out[i] = svc(i, st)
	}
	return out
}

func feed(s *Screen, svcs []api.Service) tea.Cmd {
	_, cmd := s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: svcs, At: now})
	return cmd
}

func press(s *Screen, k string) tea.Cmd { return tuitest.Press(s, k) }

func TestSelectionKeptByIDAcrossRefreshes(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, services(20))
	for range 5 {
		press(s, "j")
	}
	id := s.Table.SelectedID()
	if id == "" || id != "dbtaf00000005" {
		t.Fatalf("selected %q after 5 downs", id)
	}
	// the next listing has new services before it and a changed status
	next := append([]api.Service{svc(100, "pending_create"), svc(101, "ready")}, services(20)...)
	next[7].Status = "pending_modifying"
	feed(s, next)
	if got := s.Table.SelectedID(); got != id {
		t.Fatalf("selection moved from %s to %s when rows changed", id, got)
	}
	// sorting keeps it too
	press(s, "s")
	if got := s.Table.SelectedID(); got != id {
		t.Fatalf("selection moved from %s to %s on sort", id, got)
	}
	// when the row disappears, the cursor stays where it was
	pos := s.Table.Cursor()
	var without []api.Service
	for _, v := range next {
		if v.ID != id {
			without = append(without, v)
		}
	}
	feed(s, without)
	if s.Table.Cursor() != pos {
		t.Fatalf("cursor jumped from %d to %d when the selected row went away", pos, s.Table.Cursor())
	}
}

func ids(s *Screen) []string {
	var out []string
	for i := range s.services {
		out = append(out, s.services[i].Name)
	}
	return out
}

func TestSort(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, []api.Service{svc(3, "ready"), svc(1, "pending_create"), svc(2, "failed")})
	if got := ids(s); !reflect.DeepEqual(got, []string{"svc-00001", "svc-00002", "svc-00003"}) {
		t.Fatalf("by name: %v", got)
	}
	press(s, "s") // status
	if got := ids(s); !reflect.DeepEqual(got, []string{"svc-00002", "svc-00001", "svc-00003"}) {
		t.Fatalf("by status: %v", got)
	}
	press(s, "s") // created, newest first
	if got := ids(s); !reflect.DeepEqual(got, []string{"svc-00001", "svc-00002", "svc-00003"}) {
		t.Fatalf("by created: %v", got)
	}
	press(s, "S") // reversed: oldest first
	if got := ids(s); !reflect.DeepEqual(got, []string{"svc-00003", "svc-00002", "svc-00001"}) {
		t.Fatalf("by created, reversed: %v", got)
	}
	if !strings.Contains(tuitest.View(s), "sort: created ^") {
		t.Fatalf("sort not shown:\n%s", tuitest.View(s))
	}
}

func TestFilter(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, services(30))
	press(s, "/")
	if !s.CapturesKeys() {
		t.Fatal("the filter input does not capture keys")
	}
	for _, r := range "gcp" {
		press(s, string(r))
	}
	if s.Table.Len() != 10 {
		t.Fatalf("filter gcp shows %d rows, want 10", s.Table.Len())
	}
	press(s, "enter")
	if s.CapturesKeys() || s.Table.Filter() != "gcp" {
		t.Fatal("enter did not keep the filter")
	}
	// a refresh keeps the filter
	feed(s, services(30))
	if s.Table.Len() != 10 {
		t.Fatalf("after refresh the filter shows %d rows", s.Table.Len())
	}
	press(s, "esc")
	if s.Table.Len() != 30 {
		t.Fatalf("esc did not clear the filter: %d rows", s.Table.Len())
	}
}

func TestPendingShowsElapsedAgainstEstimate(t *testing.T) {
	v := svc(1, "pending_create")
	v.CreatedOn = api.UnixTime{Time: now.Add(-72 * time.Second)}
	if got := statusText(&v, now); got != "pending_create 1m12s/~5m" {
		t.Fatalf("status = %q", got)
	}
	v.CreatedOn = api.UnixTime{Time: now.Add(-7 * time.Minute)}
	if got := statusText(&v, now); got != "pending_create 7m00s>~5m" {
		t.Fatalf("late status = %q", got)
	}
	r := svc(2, "ready")
	if got := statusText(&r, now); got != "ready" {
		t.Fatalf("ready status = %q", got)
	}
}

func TestToastWhenServiceBecomesReady(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, []api.Service{svc(1, "pending_create"), svc(2, "ready")})
	cmd := feed(s, []api.Service{svc(1, "ready"), svc(2, "ready")})
	if cmd == nil {
		t.Fatal("no toast")
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		msg = b[0]()
	}
	tm, ok := msg.(kit.ToastMsg)
	if !ok || !strings.Contains(tm.Text, "svc-00001 (dbtaf00000001) is ready") {
		t.Fatalf("toast = %#v", msg)
	}
	if cmd := feed(s, []api.Service{svc(1, "ready"), svc(2, "ready")}); cmd != nil {
		if m := cmd(); m != nil {
			t.Fatalf("a second toast for a service already ready: %#v", m)
		}
	}
}

func TestCreatedServiceAppearsAtOnce(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, services(3))
	created := &api.Service{ID: "dbtaf99999999", Name: "fresh-db", Status: "pending_create"}
	s.Update(kit.ActionDoneMsg{Tag: createTag{name: "fresh-db"}, Result: created})
	if s.Table.SelectedID() != created.ID {
		t.Fatalf("the new service is not selected: %q", s.Table.SelectedID())
	}
	// a listing that predates it does not hide it
	feed(s, services(3))
	if _, ok := s.byID[created.ID]; !ok {
		t.Fatal("the new service vanished on an older listing")
	}
	if !strings.Contains(tuitest.View(s), "fresh-db") {
		t.Fatal("not shown")
	}
	// once listed by the API, the API's record wins
	listed := append(services(3), api.Service{ID: created.ID, Name: "fresh-db", Status: "ready"})
	feed(s, listed)
	if v, _ := s.service(created.ID); v.Status != "ready" || len(s.created) != 0 {
		t.Fatalf("status %q, optimistic %d", v.Status, len(s.created))
	}
}

func TestCreateFailureKeepsInput(t *testing.T) {
	s := newScreen(120, 30)
	s.draft = &draft{Name: "my-db", Nodes: "2", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
		Topology: "es-single", Architecture: "amd64", Size: "sky-2x8", Storage: 100, SSL: true, AllowList: "203.0.113.7"}
	s.mode = modeReview
	s.Update(kit.ActionDoneMsg{Tag: createTag{name: "my-db"}, Err: &api.Error{Status: 409, Message: "name taken"}})
	if s.mode != modeReview || s.draft == nil || s.draft.Name != "my-db" {
		t.Fatalf("mode %d draft %+v", s.mode, s.draft)
	}
	if !strings.Contains(tuitest.View(s), "name taken") {
		t.Fatalf("error not shown:\n%s", tuitest.View(s))
	}
	// e reopens the form with the values
	press(s, "e")
	if s.mode != modeCreate || s.form.values.name.Get() != "my-db" || s.form.values.nodes.Get() != "2" {
		t.Fatal("the form did not come back with what was typed")
	}
}

// TestEditAfterRefusalGoesToTheField: after the API refuses naming a
// field, the review says which and e opens the form on it, not on the
// first step; a refusal naming none opens the first field.
func TestEditAfterRefusalGoesToTheField(t *testing.T) {
	for _, tc := range []struct{ msg, field string }{
		{"The number of nodes for topology es-single must be exactly 1", "nodes"},
		{"service name my-db is already in use", "name"},
		{"storage size 50 is below the minimum of 100", "storage"},
		{"internal error", "provider"},
	} {
		s := newScreen(120, 30)
		s.draft = &draft{Name: "my-db", Nodes: "2", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
			Topology: "es-replica", Architecture: "amd64", Size: "sky-2x8", Storage: 100, SSL: true, AllowList: "203.0.113.7"}
		s.mode = modeReview
		s.Update(kit.ActionDoneMsg{Tag: createTag{name: "my-db"}, Err: &api.Error{Status: 400, Message: tc.msg}})
		if tc.field != "provider" && !strings.Contains(tuitest.View(s), "e to edit "+tc.field) {
			t.Fatalf("%q: the review does not say e edits %s:\n%s", tc.msg, tc.field, tuitest.View(s))
		}
		press(s, "e")
		if s.mode != modeCreate {
			t.Fatalf("%q: e did not open the form", tc.msg)
		}
		if got := s.form.focused(); got != tc.field {
			t.Fatalf("%q: the form opened on %q, want %q", tc.msg, got, tc.field)
		}
	}
}

func TestRequestJSONIsTheBodySent(t *testing.T) {
	d := &draft{Name: "my-db", Nodes: "2", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
		Topology: "es-replica", Architecture: "amd64", Size: "sky-2x8", Storage: 100, SSL: true,
		AllowList: "203.0.113.7, 198.51.100.0/24"}
	req, err := d.request()
	if err != nil {
		t.Fatal(err)
	}
	var shown, sent any
	if err := json.Unmarshal([]byte(requestJSON(req)), &shown); err != nil {
		t.Fatalf("review JSON does not parse: %v\n%s", err, requestJSON(req))
	}
	b, _ := json.Marshal(req)
	_ = json.Unmarshal(b, &sent)
	if !reflect.DeepEqual(shown, sent) {
		t.Fatalf("review shows\n%v\nbut the client sends\n%v", shown, sent)
	}
	if !strings.Contains(requestJSON(req), `{"ip": "203.0.113.7/32"}`) {
		t.Fatalf("allow-list entries not compact or not normalised:\n%s", requestJSON(req))
	}
}

func TestFormValidationUsesAPIRules(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ab", "must be 4 to 24 characters (has 2)"},
		// nothing typed yet: what to type, no "!" (it read "! name: is
		// required" as the step opened); tab or enter on it still refuses
		{"", "type the service's name: 4 to 24 characters"},
		{"orders", "ok: 6 characters"},
		{strings.Repeat("x", 25), "has 25"},
		{"Orders-Prod", "! a service named orders-prod exists already"},
	} {
		if got := nameHint(c.in, []string{"orders-prod"}); !strings.Contains(got, c.want) {
			t.Errorf("nameHint(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := nameHint("", nil); strings.HasPrefix(got, "!") {
		t.Errorf("an empty name's hint is an error before anything was typed: %q", got)
	}
	if got := allowHint("2001:db8::/64, 2001:DB8:0::/64"); !strings.Contains(got, "2001:db8::/64 is given twice") {
		t.Errorf("allowHint of one network twice = %q", got)
	}
	if got := allowHint("10.0.0.1/8"); !strings.Contains(got, "host bits set") {
		t.Errorf("allowHint = %q", got)
	}
	if _, err := parseNodes("0"); err == nil {
		t.Error("0 nodes accepted")
	}
}

func TestCredentialsCommand(t *testing.T) {
	v := svc(1, "ready")
	c := newCredsView(nil, newKeyMap(), v)
	c.creds = &api.Credentials{Username: "dbpaf1", Password: "s3cret!"}
	got := c.command()
	want := "mariadb --host dbtaf00000001.example.net --port 3306 --user dbpaf1 -p"
	if got != want {
		t.Fatalf("command = %q, want %q", got, want)
	}
	c.svc.SSLEnabled = true
	if !strings.HasSuffix(c.command(), " -p --ssl-verify-server-cert") {
		t.Fatalf("SSL command = %q", c.command())
	}
	if strings.Contains(c.command(), "s3cret") {
		t.Fatal("the password is on the command line")
	}
}

func TestCredentialsMaskedUntilRevealed(t *testing.T) {
	s := newScreen(100, 24)
	feed(s, []api.Service{svc(1, "ready")})
	press(s, "c")
	s.creds.onLoaded(credsMsg{id: "dbtaf00000001", creds: &api.Credentials{Username: "u1", Password: "hunter22-secret"}})
	if strings.Contains(tuitest.View(s), "hunter22-secret") {
		t.Fatal("password shown before reveal")
	}
	press(s, "v")
	if !strings.Contains(tuitest.View(s), "hunter22-secret") {
		t.Fatal("reveal did not show the password")
	}
	press(s, "esc")
	if s.creds != nil {
		t.Fatal("the password outlives the view")
	}
}

func TestCredentialsBeforeReadyExplains(t *testing.T) {
	s := newScreen(100, 24)
	feed(s, []api.Service{svc(1, "pending_create")})
	if cmd := press(s, "c"); cmd != nil {
		t.Fatal("credentials requested before the service is ready")
	}
	out := tuitest.View(s)
	if !strings.Contains(out, "Credentials exist once the service is ready") {
		t.Fatalf("no explanation:\n%s", out)
	}
	// it fills in by itself once ready
	if cmd := feed(s, []api.Service{svc(1, "ready")}); cmd == nil {
		t.Fatal("no credentials read when the service became ready")
	}
}

// TestCredentialsOfAStoppedServiceOfferNoCopy: the credentials view of a
// stopped service explains, and its footer offers no copy key nor v (there
// is nothing to copy); pressed anyway, each says why. Once the
// credentials are read, the footer offers them.
func TestCredentialsOfAStoppedServiceOfferNoCopy(t *testing.T) {
	v := svc(1, "ready")
	v.Name, v.Status = "legacy-batch", "stopped"
	s := newScreen(100, 24)
	feed(s, []api.Service{v})
	press(s, "c")
	if out := tuitest.View(s); !strings.Contains(out, "Credentials are readable once the service is ready again") {
		t.Fatalf("no explanation:\n%s", out)
	}
	offered := func(k string) bool {
		return slices.ContainsFunc(s.KeyMap().ShortHelp(), func(b key.Binding) bool { return b.Help().Key == k })
	}
	for _, k := range []string{"y", "Y", "u", "v"} {
		if offered(k) {
			t.Errorf("the footer offers %s with nothing to copy", k)
		}
		cmd := press(s, k)
		if cmd == nil {
			t.Fatalf("%s with nothing to copy says nothing", k)
		}
		if m, ok := cmd().(kit.ToastMsg); !ok || m.Text != "nothing to copy while legacy-batch is stopped" {
			t.Fatalf("%s with nothing to copy: %#v", k, m)
		}
	}
	v.Status = "ready"
	feed(s, []api.Service{v})
	s.creds.onLoaded(credsMsg{id: v.ID, creds: &api.Credentials{Username: "u1", Password: "hunter22-secret"}})
	for _, k := range []string{"y", "Y", "u", "v"} {
		if !offered(k) {
			t.Errorf("the footer does not offer %s with the credentials read", k)
		}
	}
}

func TestAllowListInvalidEntryNotSubmitted(t *testing.T) {
	s := newScreen(100, 24)
	feed(s, []api.Service{svc(1, "ready")})
	press(s, "a")
	press(s, "n")
	for _, r := range "10.1.2.3/8" {
		press(s, string(r))
	}
	if !strings.Contains(tuitest.View(s), "did you mean 10.0.0.0/8") {
		t.Fatalf("no as-you-type message:\n%s", tuitest.View(s))
	}
	if cmd := press(s, "enter"); cmd != nil {
		if _, ok := cmd().(kit.ActionRequestMsg); ok {
			t.Fatal("an invalid entry was submitted")
		}
	}
	if s.allow.input.Value() != "10.1.2.3/8" {
		t.Fatalf("what was typed was lost: %q", s.allow.input.Value())
	}
	// fixed, it goes to the action layer, mutating
	s.allow.input.SetValue("10.0.0.0/8")
	cmd := press(s, "enter")
	req, ok := cmd().(kit.ActionRequestMsg)
	if !ok || !req.Action.Mutating || req.Action.Name != "add 10.0.0.0/8 to the allow list of svc-00001" {
		t.Fatalf("action = %#v", req)
	}
}

// TestAllowListWideNetworkAsksFirst: a network wider than /16 (or
// everything, 0.0.0.0/0) is flagged as it is typed, next to the field, and
// its add asks yes/no saying what it opens; a narrow one is added at once.
func TestAllowListWideNetworkAsksFirst(t *testing.T) {
	for _, tc := range []struct{ typed, hint, detail string }{
		{"0.0.0.0/0", "warning: 0.0.0.0/0 lets every address on the internet connect; asked before adding", "0.0.0.0/0 lets every address on the internet connect: only the password then keeps them out"},
		{"10.0.0.0/8", "warning: 10.0.0.0/8 is wider than /16: every address in it may connect", "10.0.0.0/8 is wider than /16"},
		{"2001:db8::/32", "wider than /48", "2001:db8::/32 is wider than /48"},
		{"198.51.100.0/24", "will add 198.51.100.0/24", ""},
	} {
		s := newScreen(120, 24)
		feed(s, []api.Service{svc(1, "ready")})
		press(s, "a")
		press(s, "n")
		for _, r := range tc.typed {
			press(s, string(r))
		}
		if v := tuitest.View(s); !strings.Contains(v, tc.hint) {
			t.Errorf("%s: the hint does not say %q:\n%s", tc.typed, tc.hint, v)
		}
		wideAsked(t, tc.typed, s, tc.detail, "svc-00001")
	}
}

// wideAsked presses enter on s, which must ask for a change, and checks
// its question: none when detail is "", else the wide network's yes/no
// saying detail and naming the service. It returns the request.
func wideAsked(t *testing.T, what string, s *Screen, detail, name string) (kit.ActionRequestMsg, bool) {
	t.Helper()
	req, ok := press(s, "enter")().(kit.ActionRequestMsg)
	if !ok || !req.Action.Mutating {
		t.Fatalf("%s: action = %#v", what, req)
	}
	c := req.Action.Confirm
	if detail == "" {
		if c.Kind != kit.ConfirmNone {
			t.Errorf("%s: a narrow network asked %q", what, c.Detail)
		}
		return req, false
	}
	if c.Kind != kit.ConfirmYesNo || c.Title != "Allow a wide network?" || !strings.Contains(c.Detail, detail) || !strings.Contains(c.Detail, name) {
		t.Errorf("%s: confirmation = %#v", what, c)
	}
	return req, true
}

func TestAllowListRemoveAsksConfirmation(t *testing.T) {
	s := newScreen(100, 24)
	v := svc(1, "ready")
	v.Endpoints[0].AllowList = []api.AllowListEntry{{IP: "203.0.113.7/32", Comment: "office"}}
	feed(s, []api.Service{v})
	press(s, "a")
	cmd := press(s, "d")
	req, ok := cmd().(kit.ActionRequestMsg)
	if !ok || req.Action.Confirm.Kind != kit.ConfirmYesNo || !req.Action.Mutating {
		t.Fatalf("remove = %#v", req)
	}
	// one change of the list at a time: a comment is set by putting the
	// whole list back, which would undo a change made meanwhile
	press(s, "n")
	for _, r := range "198.51.100.9 vpn" {
		press(s, string(r))
	}
	add, _ := press(s, "enter")().(kit.ActionRequestMsg)
	if add.Action.Key == "" || add.Action.Key != req.Action.Key {
		t.Fatalf("add and remove keys %q and %q: not one change at a time", add.Action.Key, req.Action.Key)
	}
}

func TestViewFitsArea(t *testing.T) {
	for _, size := range [][2]int{{60, 12}, {80, 20}, {140, 36}, {200, 56}} {
		s := newScreen(size[0], size[1])
		feed(s, services(500))
		for _, k := range []string{"", "enter"} {
			if k != "" {
				press(s, k)
			}
			tuitest.CheckFits(t, fmt.Sprintf("%dx%d %q", size[0], size[1], k), s.View(), size[0], size[1])
		}
	}
}

// benchView measures a frame of the Services screen with 10,000 services
// at 200x60, after the keys are pressed.
func benchView(b *testing.B, keys ...string) {
	s := newScreen(200, 60)
	feed(s, services(10000))
	for _, k := range keys {
		press(s, k)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		_ = s.View()
	}
}

// BenchmarkView10k is a frame of the Services screen with 10,000 services
// at 200x60 (target: well under 1 ms), the cursor halfway down.
func BenchmarkView10k(b *testing.B) { benchView(b, slices.Repeat([]string{"j"}, 5000)...) }

// BenchmarkView10kDetail is the same frame with the detail pane open.
func BenchmarkView10kDetail(b *testing.B) { benchView(b, "enter") }

// BenchmarkRefresh10k is the cost of a listing of 10,000 services
// arriving (sort, rows, filter cache, widths): once per poll, not per frame.
func BenchmarkRefresh10k(b *testing.B) {
	s := newScreen(200, 60)
	svcs := services(10000)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		feed(s, append([]api.Service(nil), svcs...))
	}
}

// TestCreateFormShowsWhyEnterIsRefused: nodes that are not a number keep
// the form on the field, and the field says why (the form's validation
// errors were drawn below its area, so enter seemed to do nothing), at
// the areas of an 80x24 and a 60x16 terminal.
func TestCreateFormShowsWhyEnterIsRefused(t *testing.T) {
	for _, size := range [][2]int{{80, 20}, {60, 12}} {
		s := newScreen(size[0], size[1])
		s.draft = &draft{Name: "orders-prod2", Nodes: "1ab", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
			Topology: "es-single", Architecture: "amd64", Size: "sky-2x8", Storage: 100, SSL: true}
		s.mode = modeReview
		press(s, "e") // the form opens on the field the request's check names
		if got := s.form.focused(); got != "nodes" {
			t.Fatalf("the form opened on %q", got)
		}
		press(s, "enter")
		what := fmt.Sprintf("%dx%d", size[0], size[1])
		if got := s.form.focused(); got != "nodes" {
			t.Fatalf("%s: enter left the refused field for %q", what, got)
		}
		v := tuitest.View(s)
		if !strings.Contains(v, "! nodes: must be a whole number, at least 1") {
			t.Errorf("%s: the refusal is not shown:\n%s", what, v)
		}
		tuitest.CheckFits(t, what, s.View(), size[0], size[1])
	}
}

// TestCreateWithAWideNetworkAsksFirst: an allow-list entry wider than the
// allow-list screen takes without a question is flagged next to the field
// and in the review, and launching asks yes/no in the allow-list
// screen's words; a narrow one launches without a question.
func TestCreateWithAWideNetworkAsksFirst(t *testing.T) {
	for _, tc := range []struct{ allow, hint, detail string }{
		{"0.0.0.0/0", "! warning: 0.0.0.0/0 lets every address on the internet connect; asked before launching",
			"0.0.0.0/0 lets every address on the internet connect: only the password then keeps them out. Launch my-db"},
		{"203.0.113.7, 10.0.0.0/8", "! warning: 10.0.0.0/8 is wider than /16: every address in it may connect; asked before launching",
			"10.0.0.0/8 is wider than /16: every address in it may connect: only the password then keeps them out"},
		{"2001:db8::/32", "wider than /48", "2001:db8::/32 is wider than /48"},
		{"198.51.100.0/24", "ok: 198.51.100.0/24", ""},
	} {
		if got := allowHint(tc.allow); got != tc.hint && !strings.Contains(got, tc.hint) {
			t.Errorf("%s: the field says %q, want %q", tc.allow, got, tc.hint)
		}
		s := newScreen(120, 30)
		s.draft = &draft{Name: "my-db", Nodes: "1", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
			Topology: "es-single", Architecture: "amd64", Size: "sky-2x8", Storage: 100, SSL: true, AllowList: tc.allow}
		s.mode = modeReview
		if v := tuitest.View(s); (tc.detail != "") != strings.Contains(v, "launching asks yes/no first") {
			t.Errorf("%s: the review's warning:\n%s", tc.allow, v)
		}
		req, asked := wideAsked(t, tc.allow, s, tc.detail, "my-db")
		if !asked {
			continue
		}
		// "no": back to the review, everything kept, nothing blamed on the API
		s.Update(kit.ActionDoneMsg{Name: req.Action.Name, Tag: req.Action.Tag, Err: kit.ErrCancelled})
		v := tuitest.View(s)
		if s.mode != modeReview || s.draft == nil || s.draft.AllowList != tc.allow ||
			strings.Contains(v, "the API refused it") || !strings.Contains(v, "not launched: you answered no") {
			t.Errorf("%s: after no, mode %d draft %+v:\n%s", tc.allow, s.mode, s.draft, v)
		}
	}
}

// A launch the action layer did not send (a read-only profile, one already
// under way) is said as not sent, never as the API's refusal; a no to the
// question says it was not launched.
func TestCreateNotSentIsNotCalledARefusal(t *testing.T) {
	for err, want := range map[error]string{
		fmt.Errorf("%w: create service my-db not allowed", kit.ErrReadOnly): "! not sent: profile is read-only: create service my-db not allowed",
		kit.ErrBusy:      "! not sent: already being submitted",
		kit.ErrCancelled: "not launched: you answered no",
	} {
		s := newScreen(120, 30)
		s.draft = &draft{Name: "my-db", Nodes: "1", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
			Topology: "es-single", Architecture: "amd64", Size: "sky-2x8", Storage: 100, SSL: true}
		s.Update(kit.ActionDoneMsg{Tag: createTag{name: "my-db"}, Err: err})
		v := tuitest.View(s)
		if !strings.Contains(v, want) || strings.Contains(v, "the API refused it") {
			t.Errorf("%v: the review says:\n%s", err, v)
		}
	}
}

// TestLateLaunchKeepsTheColumns: at 80 columns a service 9 minutes into
// its create says it is past the ~5 minute estimate in no more room than
// it took on time ("pending_create 2m00s/~5m"): the STATUS column keeps
// its width, and neither its text nor any row's PROVIDER/REGION is cut
// ("pending_create 8m48s (est. ~5~" widened it and cut them all).
func TestLateLaunchKeepsTheColumns(t *testing.T) {
	list := []api.Service{
		{ID: "dbtgf82655032", Name: "analytics-gcp", Status: "ready", Provider: "gcp", Region: "us-central1"},
		{ID: "dbtzf87656494", Name: "broken-import", Status: "failed", Provider: "azure", Region: "eastus"},
		{ID: "dbtgf42942879", Name: "dev-serverless", Status: "ready", Provider: "gcp", Region: "us-east4"},
		{ID: "dbtaf65932198", Name: "legacy-batch", Status: "stopped", Provider: "aws", Region: "eu-west-1"},
		{ID: "dbtaf85489797", Name: "orders-prod", Status: "ready", Provider: "aws", Region: "us-east-1"},
		{ID: "dbtgf47954038", Name: "reporting-new", Status: "pending_create", Provider: "gcp", Region: "europe-west1",
			CreatedOn: api.UnixTime{Time: now.Add(-2 * time.Minute)}},
		{ID: "dbtzf07546771", Name: "staging-eu", Status: "pending_modifying", Provider: "azure", Region: "westeurope",
			UpdatedOn: api.UnixTime{Time: now.Add(-time.Minute)}},
	}
	clock := now
	c := tuitest.Common()
	c.Now = func() time.Time { return clock }
	s := New(c)
	s.SetSize(80, 20)
	feed(s, list)
	onTime := tuitest.View(s)
	if !strings.Contains(onTime, "pending_create 2m00s/~5m") {
		t.Fatalf("on time:\n%s", onTime)
	}
	header := func(v string) string {
		for _, l := range strings.Split(v, "\n") {
			if strings.Contains(l, "STATUS") {
				return l
			}
		}
		return ""
	}
	for _, late := range []struct {
		after time.Duration
		says  string
	}{
		{7 * time.Minute, "pending_create 9m00s>~5m"},
		{7*time.Minute + 48*time.Second, "pending_create 9m48s>~5m"},
		{33 * time.Minute, "pending_create 35m>~5m"},
		{63 * time.Minute, "pending_create 1h05m>~5m"},
	} {
		clock = now.Add(late.after)
		s.Update(kit.ClockMsg{Now: clock})
		v := tuitest.View(s)
		tuitest.CheckFits(t, late.says, s.View(), 80, 20)
		if !strings.Contains(v, late.says) {
			t.Errorf("the late launch does not say %q:\n%s", late.says, v)
		}
		if header(v) != header(onTime) {
			t.Errorf("%s: the columns moved:\n%s\nwas\n%s", late.says, header(v), header(onTime))
		}
		for _, x := range list {
			if !strings.Contains(v, x.Where()) {
				t.Errorf("%s: %s is cut:\n%s", late.says, x.Where(), v)
			}
		}
		if regexp.MustCompile(regexp.QuoteMeta(s.common.Theme.Glyphs.Ellipsis) + `( |$)`).MatchString(v) {
			t.Errorf("%s: a cell is cut:\n%s", late.says, v)
		}
	}
	// the detail pane says it in words
	clock = now.Add(7 * time.Minute)
	s.Update(kit.ClockMsg{Now: clock})
	v := list[5]
	if got := statusDetail(&v, clock); got != "pending_create 9m00s (past the ~5m estimate)" {
		t.Errorf("detail status = %q", got)
	}
	// no late time is wider than the widest on time, however late
	widest := ansi.StringWidth("pending_create 4m59s/~5m")
	for _, d := range []time.Duration{5*time.Minute + time.Second, 9*time.Minute + 59*time.Second, 10 * time.Minute,
		59*time.Minute + 59*time.Second, 9*time.Hour + 59*time.Minute, 99 * time.Hour} {
		v.CreatedOn = api.UnixTime{Time: now.Add(-d)}
		if got := statusText(&v, now); ansi.StringWidth(got) > widest || !strings.HasSuffix(got, ">~5m") {
			t.Errorf("%v late: %q", d, got)
		}
	}
}

// TestCredentialsShortAreaKeepsWhatMatters: in a 60x16 terminal's area
// the credentials keep the host, port, user, the password masked, the
// whole command and the line of the copy keys (y, Y, u): the blank lines
// and "esc back", which the footer keeps, go first.
func TestCredentialsShortAreaKeepsWhatMatters(t *testing.T) {
	s := newScreen(60, 12)
	v := svc(1, "ready")
	v.SSLEnabled = true
	feed(s, []api.Service{v})
	press(s, "c")
	s.creds.onLoaded(credsMsg{id: v.ID, creds: &api.Credentials{Username: "dbpaf00000001", Password: "hunter22-secret"}})
	out := tuitest.View(s)
	tuitest.CheckFits(t, "60x12", s.View(), 60, 12)
	for _, want := range []string{"Host", "Port", "Username   dbpaf00000001", "Password   ****", "Connect",
		"--ssl-verify-server-cert", "y copy password", "Y copy command", "u copy username"} {
		if !strings.Contains(out, want) {
			t.Errorf("60x12: %q is not shown:\n%s", want, out)
		}
	}
	if strings.Contains(out, "hunter22") {
		t.Fatal("the password is shown unmasked")
	}
	// with room, the blank lines and esc back are there
	s.SetSize(80, 20)
	if out := tuitest.View(s); !strings.Contains(out, "esc back") || !strings.Contains(out, "(OSC 52; works over SSH)") {
		t.Errorf("80x20: esc back or the clipboard's note is missing:\n%s", out)
	}
}

// TestOpenUnknownServiceWarns: ":stop rep", a name typed in part, acts on
// nothing and says so as a warning, which goes in its time (an error
// stayed on the message line until dismissed); when the text is part of
// one name it says the command to type, of several it names them.
func TestOpenUnknownServiceWarns(t *testing.T) {
	s := newScreen(120, 30)
	named := func(i int, name string) api.Service {
		v := svc(i, "ready")
		v.Name = name
		return v
	}
	feed(s, []api.Service{named(1, "orders-prod"), named(2, "replica-west"), named(3, "reporting-new"), named(4, "staging-eu"), named(5, "broken-import")})
	for arg, want := range map[string]string{
		"stop rep":     `no service is named "rep": type one whole (replica-west, reporting-new)`,
		"scale repl":   `no service is named "repl": type the whole name, :scale replica-west`,
		"start r":      `no service is named "r": type one whole (broken-import, orders-prod, replica-west, …)`,
		"delete nosql": `no service has the name or ID "nosql"`,
		"ORDERS":       `no service is named "ORDERS": type the whole name, :services orders-prod`,
		"stop":         `:stop needs a service name or ID`,
	} {
		cmd := s.Open(arg)
		if cmd == nil {
			t.Fatalf("%s: nothing said", arg)
		}
		var msg tea.Msg = cmd()
		tm, ok := msg.(kit.ToastMsg)
		if !ok || tm.Level != kit.ToastWarn || tm.Text != want {
			t.Errorf("%s: %#v\nwant a warning %q", arg, msg, want)
		}
		if s.mode != modeList || s.pane() != nil {
			t.Errorf("%s: a part of a name opened something (mode %v)", arg, s.mode)
		}
	}
}

// TestScaleSizesFillTheAreaAsATable: at 60x16 (a 12-line area) the seven
// sizes show whole, none hidden while rows are free; the sizes' specs
// start in one column whatever the name's length; a list longer than the
// area says what is below.
func TestScaleSizesFillTheAreaAsATable(t *testing.T) {
	s := newScreen(60, 12)
	v := svc(1, "ready")
	v.Topology, v.Size = "es-replica", "sky-4x16"
	sv := newScaleView(s.common, s.keys, v)
	sv.SetSize(60, 12)
	sv.step, sv.kind = scalePickValue, scaleSize
	var choices []scaleChoice
	for _, z := range []api.Size{{Name: "sky-2x8", CPU: "2", RAM: "8"}, {Name: "sky-4x16", CPU: "4", RAM: "16"},
		{Name: "sky-4x32", CPU: "4", RAM: "32"}, {Name: "sky-8x32", CPU: "8", RAM: "32"}, {Name: "sky-8x64", CPU: "8", RAM: "64"},
		{Name: "sky-16x64", CPU: "16", RAM: "64"}, {Name: "sky-32x128", CPU: "32", RAM: "128"}} {
		choices = append(choices, scaleChoice{label: z.Name, value: z.Name, spec: z.Spec()})
	}
	sv.onChoices(scaleChoicesMsg{serviceID: v.ID, kind: scaleSize, choices: choices})
	out := ansi.Strip(sv.View())
	if !strings.Contains(out, "sky-32x128") {
		t.Fatalf("the last size is hidden with room to spare:\n%s", out)
	}
	col := -1
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "vCPU"); i >= 0 {
			at := strings.LastIndex(l[:i-1], " ") // the spec's start
			if col >= 0 && at+strings.Index(l[at:], strings.TrimSpace(l[at:i])) != col {
				t.Fatalf("the specs do not start in one column:\n%s", out)
			}
			col = at + strings.Index(l[at:], strings.TrimSpace(l[at:i]))
		}
	}
	sv.SetSize(60, 6)
	sv.cursor = 0
	out = ansi.Strip(sv.View())
	if n := len(strings.Split(out, "\n")); n > 6 || !strings.Contains(out, "more choices") {
		t.Fatalf("a list cut to 6 lines (%d) does not say what is below:\n%s", n, out)
	}
}

// TestScaleNodesKeepToTheTopology: the node counts es-replica cannot have
// are offered blocked, in the API's rule's words, and the cursor starts
// on one that can be chosen (one more than now, else the nearest).
func TestScaleNodesKeepToTheTopology(t *testing.T) {
	s := newScreen(60, 12)
	v := svc(1, "ready")
	v.Topology, v.Nodes = "es-replica", 5
	sv := newScaleView(s.common, s.keys, v)
	sv.SetSize(60, 12)
	sv.step, sv.kind = scalePickValue, scaleNodes
	sv.load()
	for _, c := range sv.choices {
		want := ""
		switch {
		case c.n < 2 || c.n > 5:
			want = "es-replica has 2 to 5 nodes"
		case c.n == 5:
			want = "current"
		}
		if c.blocked != want {
			t.Errorf("%d nodes: blocked %q, want %q", c.n, c.blocked, want)
		}
	}
	if c := sv.choices[sv.cursor]; c.n != 4 {
		t.Errorf("the cursor starts on %d nodes, want 4", c.n)
	}
}

// TestPendingRefusalHoldsWhileThePendingLasts: x on a pending service is
// refused with its status, and the refusal says so only while the listing
// shows that status (the root takes it down after).
func TestPendingRefusalHoldsWhileThePendingLasts(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, []api.Service{svc(1, "pending_stop")})
	cmd := press(s, "x")
	if cmd == nil {
		t.Fatal("x on a pending service said nothing")
	}
	tm, ok := cmd().(kit.ToastMsg)
	if !ok || !strings.Contains(tm.Text, "svc-00001 is pending_stop: it can be stopped or started") || tm.Holds == nil {
		t.Fatalf("x on a pending service: %#v", tm)
	}
	if !tm.Holds() {
		t.Fatal("the refusal does not hold while the service is pending_stop")
	}
	feed(s, []api.Service{svc(1, "stopped")})
	if tm.Holds() {
		t.Fatal("the refusal still holds once the service is stopped")
	}
	feed(s, nil)
	if tm.Holds() {
		t.Fatal("the refusal still holds once the service is gone")
	}
}

// TestOpenSharedNameChoosesNothing: ":delete NAME" (and :stop, :start,
// :scale) where two services have that name acts on neither: it says so
// with their IDs and statuses, and how to name one; the typed-name
// confirmation could not tell them apart. By ID it acts. ":services NAME"
// selects one and says that another has the name.
func TestOpenSharedNameChoosesNothing(t *testing.T) {
	s := newScreen(120, 30)
	ready, stopped := svc(1, "ready"), svc(2, "stopped")
	ready.Name, stopped.Name = "qa-x", "qa-x"
	feed(s, []api.Service{ready, stopped})
	for _, verb := range []string{"delete", "start", "stop", "scale"} {
		msg := s.Open(verb + " qa-x")()
		want := `2 services are named "qa-x" (` + ready.ID + ` ready, ` + stopped.ID + ` stopped): give its ID, :` + verb + ` ID`
		if tm, ok := msg.(kit.ToastMsg); !ok || tm.Level != kit.ToastWarn || tm.Text != want {
			t.Errorf(":%s qa-x: %#v\nwant a warning %q", verb, msg, want)
		}
		if s.mode != modeList || s.pane() != nil {
			t.Fatalf(":%s of a shared name opened something (mode %v)", verb, s.mode)
		}
	}
	// a part of the shared name: the IDs to type, not the name twice
	if msg, ok := s.Open("start QA")().(kit.ToastMsg); !ok || !strings.Contains(msg.Text, "("+ready.ID+" (qa-x), "+stopped.ID+" (qa-x))") {
		t.Errorf(":start QA: %#v", msg)
	}
	if msg := s.Open("start " + stopped.ID)(); msg == nil {
		t.Fatal(":start by ID did nothing")
	} else if tm, ok := msg.(kit.ToastMsg); ok && tm.Level == kit.ToastWarn {
		t.Fatalf(":start by ID warned: %q", tm.Text)
	}
	s.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	msg := s.Open("qa-x")()
	if tm, ok := msg.(kit.ToastMsg); !ok || !strings.Contains(tm.Text, `2 services are named "qa-x": `+ready.ID+" is selected") {
		t.Errorf(":services qa-x: %#v", msg)
	}
}

// TestVerbReadsTheServiceAgain: ":start X" acts on X as it is now, not as
// the listing kept while another screen was in front showed it: the
// listing is read again first (it said "X is ready: only a stopped service
// can be started" of a service stopped since, the Replication screen's own
// fix refused). A listing that cannot be read then leaves the verb undone,
// said so.
func TestVerbReadsTheServiceAgain(t *testing.T) {
	s := newScreen(120, 30)
	v := svc(1, "ready")
	feed(s, []api.Service{v})
	msg := s.Open("start " + v.Name)()
	if r, ok := msg.(kit.RefreshMsg); !ok || !slices.Contains(r.Keys, kit.ServicesKey.String()) {
		t.Fatalf(":start on an old listing: %#v, want the services read again", msg)
	}
	v.Status = "stopped"
	cmd := feed(s, []api.Service{v})
	var req kit.ActionRequestMsg
	for _, m := range tuitest.Drain(cmd) {
		if r, ok := m.(kit.ActionRequestMsg); ok {
			req = r
		}
	}
	if req.Action.Name != "start "+v.Name {
		t.Fatalf("after the listing read again: action %q, want the start asked", req.Action.Name)
	}

	if _, ok := s.Open("stop " + v.Name)().(kit.RefreshMsg); !ok {
		t.Fatal(":stop did not read the listing again")
	}
	_, cmd = s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Err: errors.New("503 Service Unavailable"), At: now})
	tm, ok := tuitest.Drain(cmd)[0].(kit.ToastMsg)
	if !ok || tm.Text != ":stop "+v.Name+" not done: the services could not be read again to see "+v.Name+" as it is now" {
		t.Fatalf("a failed read: %#v", tm)
	}
	if c := feed(s, []api.Service{v}); c != nil {
		for _, m := range tuitest.Drain(c) {
			if _, asked := m.(kit.ActionRequestMsg); asked {
				t.Fatal("the stop was asked later, on the next listing")
			}
		}
	}
}
