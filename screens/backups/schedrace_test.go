package backups_test

import (
	"context"
	"strings"
	"testing"
)

// TestScheduleDeleteAlreadyGone: a delete confirmed after the schedule
// was deleted elsewhere (the API answers 404) is done, not a failure: the
// schedule is gone, as asked; it leaves the list.
func TestScheduleDeleteAlreadyGone(t *testing.T) {
	h, _, sent := openDaily(t, nil)
	h.Key("d")
	h.Sees("Delete schedule 1 of orders-prod?")
	if err := h.m.Common().Client.DeleteSchedule(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	h.Key("y")
	h.Sees("schedule 1 of orders-prod was already gone (deleted elsewhere)")
	h.seesNot("failed", "404")
	if strings.Contains(h.Screen(), "daily at 03:00 UTC") {
		t.Fatalf("the deleted schedule is still listed:\n%s", h.Screen())
	}
	if n := sent("DELETE"); n != 2 {
		t.Fatalf("%d DELETEs, want 2 (the shell's and this one)", n)
	}
}

// TestOnceScheduleDeleteWords: the delete of a one-time job names it
// plainly: the one-time logical backup job set for its time, where its
// backup goes; not "once backups" or "takes no more backups".
func TestOnceScheduleDeleteWords(t *testing.T) {
	h, _, _ := openDaily(t, nil)
	h.Key("/")
	h.TypeText("once")
	h.Key("enter")
	h.Key("d")
	h.Sees("Delete schedule")
	scr := dialogText(h)
	for _, want := range []string{"the one-time logical backup job set for ", "to s3://acme-db-exports/orders"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the dialog does not say %q:\n%s", want, h.Screen())
		}
	}
	h.seesNot("once backups", "no more backups")
}

// dialogText is the text inside the dialog's box, its wrapped lines
// joined by single spaces.
func dialogText(h *harness) string {
	var words []string
	for _, l := range strings.Split(h.Screen(), "\n") {
		if i, j := strings.Index(l, "|"), strings.LastIndex(l, "|"); i >= 0 && j > i {
			words = append(words, strings.Fields(l[i+1:j])...)
		}
	}
	return strings.Join(words, " ")
}
