package restoreform

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// unreadWatch submits the restore at the confirmation w shows (the
// target's name typed), reads its Evidence as the action layer does just
// before sending, and returns the action and the watch started for an
// answer that named no restore (accepted, the answer unreadable). Run is
// not called: the server carried nothing out yet.
func unreadWatch(t *testing.T, e *rtEnv, w *Wizard) (kit.Action, kit.Watch) {
	t.Helper()
	rtType(w, w.Target().Name)
	a, _ := rtAction(t, rtPress(w, "enter"))
	if a.Evidence == nil {
		t.Fatal("the restore reads no evidence before it is sent")
	}
	if _, err := a.Evidence(context.Background()); err != nil {
		t.Fatal(err)
	}
	tag := a.Tag.(Tag)
	return a, Watch(e.common, "restores", Record(nil, tag), tag)().(kit.WatchMsg).Watch
}

// watchReading is one reading of a watch: its outcome.
func watchReading(t *testing.T, w kit.Watch) (bool, kit.ToastLevel, string) {
	t.Helper()
	data, err := w.Fetch(context.Background())
	if err != nil {
		t.Fatalf("reading %s: %v", w.Name, err)
	}
	return w.Outcome(data)
}

// TestUnreadableAnswerNeverFollowsAnOlderRestore: accepted with an answer
// that names no restore, the watch follows only a restore of the target
// that was not listed before the submit. replica-west's restore 1 had
// succeeded before: it was announced as this restore's success. When no
// new restore appears, the watch ends saying it is not found, the
// outcome unknown, never a success.
func TestUnreadableAnswerNeverFollowsAnOlderRestore(t *testing.T) {
	e, w := rtManagedConfirm(t)
	now := tuitest.T0
	e.common.Now = func() time.Time { return now }
	_, watch := unreadWatch(t, e, w)
	for i := range 5 {
		done, _, text := watchReading(t, watch)
		if done || strings.Contains(text, "succeeded") {
			t.Fatalf("reading %d, nothing new listed: %v %q", i, done, text)
		}
	}
	now = now.Add(2 * time.Minute)
	done, level, text := watchReading(t, watch)
	want := "restore into replica-west: outcome unknown — accepted, but no new restore into replica-west is listed a minute later; check its restores (3) before sending it again"
	if !done || level != kit.ToastWarn || text != want {
		t.Fatalf("no new restore for 2 minutes: %v %v %q, want %q", done, level, text, want)
	}

	// the restore the server did carry out is followed, the old one not
	e, w = rtManagedConfirm(t)
	a, watch := unreadWatch(t, e, w)
	if _, err := a.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, err := watch.Fetch(context.Background())
	r, _ := data.(*api.Restore)
	if err != nil || r == nil || r.ID == 1 || r.ServiceID != w.Target().ID {
		t.Fatalf("followed %+v (%v), want the new restore", data, err)
	}
}
