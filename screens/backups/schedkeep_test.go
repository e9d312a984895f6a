package backups

import (
	"errors"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestScheduleEditRefusedAway: an edit the API refuses after the
// schedules were left is not lost: e on that schedule brings back what
// was typed.
func TestScheduleEditRefusedAway(t *testing.T) {
	s := newScreen(t, 100, 30)
	press := func(keys ...string) {
		for _, k := range keys {
			s.Update(tuitest.KeyMsg(k))
		}
	}
	press("t")
	s.Update(kit.DataMsg{Key: kit.SchedulesKey(sid).String(), At: now,
		Data: []api.Schedule{{ID: 7, ServiceID: sid, Type: "full", Schedule: "cron", Cron: "0 3 * * *"}}})
	press("e", "backspace")
	for _, r := range "6" {
		press(string(r))
	}
	if v := tuitest.View(s); !strings.Contains(v, "> 0 3 * * 6") {
		t.Fatalf("the edit:\n%s", v)
	}
	sent := s.edit
	press("enter", "t") // sent; back to the backups before the answer
	if s.mode != modeList {
		t.Fatalf("mode %d after t", s.mode)
	}
	s.Update(kit.ActionDoneMsg{Tag: schedTag{change: changeEdit, id: 7, svcID: sid, edit: sent}, Err: errors.New("backup schedule 7 is busy")})
	press("t", "e")
	if v := tuitest.View(s); !strings.Contains(v, "Edit schedule 7") || !strings.Contains(v, "> 0 3 * * 6") {
		t.Fatalf("e after a refusal that came while away:\n%s", v)
	}
}
