package kit

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
)

// Watch follows one long operation (a restore, a backup job) to its end
// whatever screen is visible. Resources are polled only while their screen
// is shown; a Watch is polled by the root (tui/watch.go) until Outcome says
// the operation ended, then the root toasts the outcome, rings the terminal
// bell when the user is on another screen (Options.Bell), and hands a
// WatchDoneMsg to the Origin screen. Watches survive screen switches; a
// second Watch with the same Key replaces the first.
type Watch struct {
	// Key identifies the operation: "restore/12".
	Key string
	// Name says what is followed, in the words of a toast: "restore 12
	// into orders-prod".
	Name string
	// Origin is the ID of the screen that gets the WatchDoneMsg.
	Origin string
	// Fetch reads the operation's current state. It runs in a tea.Cmd.
	Fetch func(ctx context.Context) (any, error)
	// Outcome inspects what Fetch returned: done reports that the
	// operation ended, with the toast to show. It runs in Update: no I/O.
	Outcome func(data any) (done bool, level ToastLevel, text string)
	// Gone is the toast when Fetch answers 404 (the operation was deleted);
	// "" means "<Name>: no longer exists".
	Gone string
}

// WatchMsg asks the root to start (or replace) a watch.
type WatchMsg struct{ Watch Watch }

// StartWatch returns a command that starts a watch.
func StartWatch(w Watch) tea.Cmd {
	return Send(WatchMsg{Watch: w})
}

// WatchDoneMsg tells the Origin screen that a watched operation ended:
// Data is the last value Fetch returned (nil when it was gone).
type WatchDoneMsg struct {
	Key  string
	Data any
	Gone bool
}

// ServiceWatch follows service id (named name) after a stop, a start or
// a delete (what) to the state it leads to, and says so: "service
// replica-west (db1) is stopped" for a stop, "… is ready" for a start,
// "… is gone" for a delete (404, deleted or retired). A failed service
// ends it with its status; a service that left its pending state for
// another status ends it too, saying that status.
func ServiceWatch(client *api.Client, origin, id, name, what string) Watch {
	gone := what == "delete"
	end := map[string]string{"stop": "stopped", "start": "ready", "delete": "gone"}[what]
	seenPending := false
	return Watch{
		Key:    "service/" + id + "/" + what,
		Name:   what + " " + name,
		Origin: origin,
		Fetch: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errNoClient
			}
			v, err := client.GetService(ctx, id)
			if gone && api.IsNotFound(err) {
				return (*api.Service)(nil), nil
			}
			return v, err
		},
		Outcome: func(data any) (bool, ToastLevel, string) {
			v, _ := data.(*api.Service)
			ended := fmt.Sprintf("service %s (%s) is %s", name, id, end)
			switch {
			case v == nil && gone, gone && api.StatusIs(v.Status, "deleted", "retired"),
				!gone && v != nil && api.StatusIs(v.Status, end):
				return true, ToastSuccess, ended
			case v == nil:
				return false, 0, ""
			case api.StatusIs(v.Status, "failed"):
				return true, ToastWarn, fmt.Sprintf("service %s (%s) is %s", name, id, v.Status)
			case v.Pending():
				seenPending = true
			case seenPending:
				return true, ToastWarn, fmt.Sprintf("service %s (%s) is %s, not %s", name, id, orUnknown(v.Status), end)
			}
			return false, 0, ""
		},
	}
}
