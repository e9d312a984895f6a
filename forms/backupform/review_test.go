package backupform

import (
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// dailyToOwnBucket is the review of the defect: logical, daily at 07:30,
// to the user's own bucket with a stored credential.
func dailyToOwnBucket(t *testing.T, w, h int) *Form {
	t.Helper()
	return reviewed(t, w, h, Draft{Type: api.BackupLogical, When: WhenDaily, DailyAt: "07:30", Destination: DestBucket, BucketPath: "gs://qa3-bkt/x", Credential: "team-gcs"})
}

// reviewed is the review of d at w x h, the service's schedules listed as
// schedules when the form opened.
func reviewed(t *testing.T, w, h int, d Draft, schedules ...api.Schedule) *Form {
	t.Helper()
	b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true), Draft: &d})
	b.Update(schedulesListedMsg{id: b.id, list: schedules})
	b.SetSize(w, h)
	b.Update(huhDoneMsg{id: b.id})
	if !b.Reviewing() {
		t.Fatal("not reviewing")
	}
	return b
}

func helpKeys(b *Form) string {
	var out []string
	for _, k := range b.Keys() {
		out = append(out, k.Help().Key+" "+k.Help().Desc)
	}
	return strings.Join(out, ", ")
}

// flat is the view's words, one space apart (a wrapped line reads on).
func flat(v string) string { return strings.Join(strings.Fields(v), " ") }

// request is the lines of a review view between the request line and
// the line saying what is above or below.
func request(v string) string {
	lines := strings.Split(v, "\n")
	var out []string
	for _, l := range lines[2:] {
		if strings.HasPrefix(strings.TrimSpace(l), "~ ") {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func press(b *Form, k string) tea.Cmd { return b.Update(tuitest.KeyMsg(k)) }

// TestReviewScrolls: at the Backups screen's area of a 60x16 terminal the
// review of a daily backup to the user's own bucket is cut; it said
// "~ 8 more lines" and no key showed them, so the bucket path and the
// redacted credential were never seen before submitting. Its last line
// now says "J: n more lines", J (and ctrl+d, pgdown, down) scroll to the
// credential and K (ctrl+u, pgup, up) back, the help lists the scroll
// after submit, edit and esc, and an enter while the end is below the
// window shows it first (a toast says so); the next enter submits. At
// 80x24 the request is whole and enter submits at once.
func TestReviewScrolls(t *testing.T) {
	const cred = `"credentials": "<redacted: stored GCS credential \"team-gcs\", base64-encoded when sent>"`
	for _, size := range [][2]int{{60, 12}, {60, 13}} {
		for _, down := range []string{"J", "ctrl+d", "pgdown", "down"} {
			b := dailyToOwnBucket(t, size[0], size[1])
			v := tuitest.View(b)
			tuitest.CheckFits(t, "review", b.View(), size[0], size[1])
			if !strings.Contains(v, "~ J: ") || !strings.Contains(v, " more lines") || strings.Contains(v, "gs://qa3-bkt/x\",") || strings.Contains(v, "team-gcs") {
				t.Fatalf("%v: the cut review does not say J shows more:\n%s", size, v)
			}
			if got := helpKeys(b); got != "enter submit, e edit, esc cancel, J/K scroll text" {
				t.Fatalf("%v: the review's keys are %q", size, got)
			}
			// every line of the request is seen on the way down
			seen := request(v)
			for range 10 {
				press(b, down)
				seen += "\n" + request(tuitest.View(b))
			}
			v = tuitest.View(b)
			tuitest.CheckFits(t, "review scrolled", b.View(), size[0], size[1])
			if !strings.Contains(seen, `"path": "gs://qa3-bkt/x"`) || !strings.Contains(flat(seen), cred) || !strings.Contains(v, "~ K: ") || strings.Contains(v, "more line") {
				t.Fatalf("%v: %s does not reach the bucket and the credential:\n%s", size, down, v)
			}
			for _, up := range []string{"K", "ctrl+u", "pgup", "up"} {
				for range 10 {
					press(b, up)
				}
				if v := tuitest.View(b); !strings.Contains(v, `"backup_type": "logical"`) || strings.Contains(v, "lines above") {
					t.Fatalf("%v: %s does not come back to the top:\n%s", size, up, v)
				}
				press(b, down)
			}
		}
		// enter shows the end first, then submits
		b := dailyToOwnBucket(t, size[0], size[1])
		cmd := press(b, "enter")
		if cmd == nil {
			t.Fatalf("%v: enter with the end below the window does nothing", size)
		}
		if _, ok := cmd().(SubmitMsg); ok || b.submitted {
			t.Fatalf("%v: enter submitted a request whose end was never shown", size)
		}
		if msg, ok := cmd().(kit.ToastMsg); !ok || !strings.Contains(msg.Text, "the end of the request is shown: enter submits") {
			t.Fatalf("%v: enter's toast = %#v", size, cmd())
		}
		if v := tuitest.View(b); !strings.Contains(flat(v), "base64-encoded when sent>\"") || strings.Contains(v, "more line") {
			t.Fatalf("%v: enter did not show the end:\n%s", size, v)
		}
		if _, ok := press(b, "enter")().(SubmitMsg); !ok {
			t.Fatalf("%v: the second enter does not submit", size)
		}
	}
	b := dailyToOwnBucket(t, 80, 21)
	v := tuitest.View(b)
	if !strings.Contains(flat(v), cred) || strings.Contains(v, "more line") {
		t.Fatalf("80x21: the review is not whole:\n%s", v)
	}
	if got := helpKeys(b); got != "enter submit, e edit, esc cancel" {
		t.Fatalf("80x21: the review's keys are %q", got)
	}
	if _, ok := press(b, "enter")().(SubmitMsg); !ok {
		t.Fatal("80x21: enter does not submit a whole review")
	}
}

// TestReviewRefusalStaysInView: after the API refuses, at 60x16's area
// the refusal is the first thing under the request line (too long to sit
// under the request, it scrolls above it) and J still reaches the
// credential.
func TestReviewRefusalStaysInView(t *testing.T) {
	b := dailyToOwnBucket(t, 60, 12)
	press(b, "J")
	b.Failed(errors.New("400 Bad Request: external_storage.bucket.path: no such bucket"))
	v := tuitest.View(b)
	tuitest.CheckFits(t, "refused review", b.View(), 60, 12)
	if !strings.Contains(flat(v), "! the API refused it: 400 Bad Request: external_storage.bucket.path: no such bucket") ||
		!strings.Contains(flat(v), "everything you typed is kept") || !strings.Contains(v, "~ J: ") {
		t.Fatalf("the refusal is not in view:\n%s", v)
	}
	seen := tuitest.View(b)
	for range 10 {
		press(b, "J")
		seen += "\n" + tuitest.View(b)
	}
	if !strings.Contains(seen, `"credentials": "<redacted`) || strings.Contains(tuitest.View(b), "more line") {
		t.Fatalf("J does not reach the credential after a refusal:\n%s", seen)
	}
}

// TestSameScheduleByItsRuns: the review's warning of a schedule the
// service has already compares when they run, not how the expression is
// written, and where they write: orders-prod's schedule 1 takes a full
// backup to managed storage at 0 3 * * 1-5. 0 3 * * MON-FRI to managed
// storage is that schedule; 0 3 * * 1-5 to the user's own bucket runs at
// its times but is not the same backup, and is said so; 0 3 * * 1-6 is
// not warned of.
func TestSameScheduleByItsRuns(t *testing.T) {
	weekdays := api.Schedule{ID: 1, ServiceID: svc.ID, Type: api.BackupFull, Schedule: "cron", Cron: "0 3 * * 1-5", Target: "managed"}
	custom := func(cron, bucket string) Draft {
		d := Draft{Type: api.BackupFull, When: WhenCustom, Cron: cron, Destination: DestManaged}
		if bucket != "" {
			d.Destination, d.BucketPath, d.Credential = DestBucket, bucket, "team-s3"
		}
		return d
	}
	said := func(d Draft) string { return flat(tuitest.View(reviewed(t, 120, 40, d, weekdays))) }

	if v := said(custom("0 3 * * MON-FRI", "")); !strings.Contains(v, "! orders-prod has this schedule already: schedule 1, full at 0 3 * * 1-5, "+
		"the same runs as 0 3 * * MON-FRI. Submitting adds a second one, taking the same backup at the same times (enter still submits it)") {
		t.Fatalf("the same runs written otherwise are not warned of:\n%s", v)
	}
	v := said(custom("0 3 * * 1-5", "s3://acme-exports/orders"))
	if strings.Contains(v, "same backup") || strings.Contains(v, "has this schedule already") ||
		!strings.Contains(v, "! orders-prod has a schedule at these times already: schedule 1, full at 0 3 * * 1-5, to managed storage. "+
			"This one writes to s3://acme-exports/orders: submitting adds a second full backup at the same times, to another place (enter still submits it)") {
		t.Fatalf("a schedule to another place is said to be the same backup:\n%s", v)
	}
	if v := said(custom("0 3 * * 1-6", "")); strings.Contains(v, "already") {
		t.Fatalf("other times are warned of:\n%s", v)
	}
}
