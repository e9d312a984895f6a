package tui

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// allowFaults serves the sandbox, failing the next failGets readings of
// an allow list (503) and dropping the next dropChanges changes of one
// without handing them on: the server never carries them out.
type allowFaults struct {
	srv         http.Handler
	mu          sync.Mutex
	failGets    int
	dropChanges int
}

func (f *allowFaults) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasSuffix(r.URL.Path, "/security/allowlist") {
		f.mu.Lock()
		fail := r.Method == http.MethodGet && f.failGets > 0
		drop := r.Method != http.MethodGet && f.dropChanges > 0
		if fail {
			f.failGets--
		}
		if drop {
			f.dropChanges--
		}
		f.mu.Unlock()
		if fail {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"code":503,"message":"unavailable"}`))
			return
		}
		if drop {
			panic(http.ErrAbortHandler) // the connection closed, nothing done
		}
	}
	f.srv.ServeHTTP(w, r)
}

func (f *allowFaults) arm(gets, changes int) {
	f.mu.Lock()
	f.failGets, f.dropChanges = gets, changes
	f.mu.Unlock()
}

// allowHarness is the demo at 80x24 on the allow list of orders-prod,
// its requests going through faults.
func allowHarness(t *testing.T) (*harness, *sandbox.Server, *allowFaults) {
	t.Helper()
	srv, clk, _ := tuitest.Sandbox(t, true)
	faults := &allowFaults{srv: srv}
	c := tuitest.Client(t, faults, api.Config{APIKey: tuitest.TestKey})
	h := newHarness(t, Options{Client: c, Profile: "demo", Demo: true, Now: clk.Now, SlowInterval: 30 * time.Second}, 80, 24)
	h.Keys("j", "j", "j", "j", "a") // orders-prod
	wantScreen(t, h, "192.0.2.44/32")
	return h, srv, faults
}

func allowListHas(t *testing.T, srv *sandbox.Server, h *harness, ip string) bool {
	t.Helper()
	groups, err := h.m.common.Client.GetAllowList(t.Context(), tuitest.Service(t, h.m.common.Client, sandbox.DemoOrders).ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		for _, e := range g.AllowList {
			if e.IP == ip {
				return true
			}
		}
	}
	return false
}

// TestOutcomeUnknownAllowListBeforeUnread: an allow-list add whose answer
// is lost, when the list could not be read before it was sent. The
// entries that were there already prove nothing: the dialog says it was
// most likely carried out only when the list shows the address sent.
func TestOutcomeUnknownAllowListBeforeUnread(t *testing.T) {
	t.Run("not carried out", func(t *testing.T) {
		h, srv, faults := allowHarness(t)
		h.Key("n")
		h.TypeText("198.51.100.132")
		faults.arm(1, 1) // the reading before fails, the POST is lost
		h.Key("enter")
		if allowListHas(t, srv, h, "198.51.100.132/32") {
			t.Fatal("the sandbox carried out the add")
		}
		wantScreen(t, h, "Outcome unknown: add 198.51.100.132/32", "Nothing in the allow list of orders-prod shows it yet")
		refuseScreen(t, h, "most likely carried out", "bastion", "192.0.2.44/32 (")
	})
	t.Run("comment not set", func(t *testing.T) {
		h, srv, faults := allowHarness(t)
		h.Key("n")
		h.TypeText("192.0.2.44 jump host")
		h.Key("enter")
		faults.arm(1, 1) // the reading before fails, the PUT is lost
		h.Key("y")       // replace the comment "bastion"
		if allowListHas(t, srv, h, "192.0.2.44/32") != true {
			t.Fatal("192.0.2.44/32 is gone")
		}
		wantScreen(t, h, "Outcome unknown: set the comment of 192.0.2.44/32", "Nothing in the allow list of orders-prod shows it yet")
		refuseScreen(t, h, "most likely carried out", "203.0.113.10/32 (")
	})
	t.Run("carried out", func(t *testing.T) {
		h, srv, faults := allowHarness(t)
		h.Key("n")
		h.TypeText("198.51.100.132")
		faults.arm(1, 0)
		armDrop(t, srv, "/provisioning/v1/services/{id}/security/allowlist")
		h.Key("enter")
		words := strings.Join(strings.Fields(strings.ReplaceAll(h.Screen(), h.m.common.Theme.Glyphs.BoxV, " ")), " ")
		for _, want := range []string{"Seen in the allow list of orders-prod since it was sent:",
			"198.51.100.132/32 is in the allow list of orders-prod", "It was most likely carried out"} {
			if !strings.Contains(words, want) {
				t.Errorf("%q is not in view:\n%s", want, h.Screen())
			}
		}
		refuseScreen(t, h, "bastion")
	})
}
