package restoreform

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/tui/tuitest"
)

// tab goes on: on a field with a fix it fixes and moves on, on a step's
// last field it does what enter does.

// bucketWizard is the own-bucket step into dev-serverless, at 80x24.
func bucketWizard(t *testing.T) *Wizard {
	t.Helper()
	e := rtSetup(t, true)
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: e.byName["dev-serverless"].ID, LockTarget: true})
	w.SetSize(80, 24)
	if w.StepName() != "bucket" {
		t.Fatalf("step %s", w.StepName())
	}
	return w
}

// TestBucketTabFixesAndMovesOn: bucket, tab, file typed in one go: tab
// adds the slash and moves to Backup file, so the file name lands there
// (it was appended to the bucket, "gs://qa3-bkt/y/d.sql.gz"). A whole
// path typed as the bucket is split and the focus moves on too.
func TestBucketTabFixesAndMovesOn(t *testing.T) {
	w := bucketWizard(t)
	rtType(w, "gs://qa3-bkt")
	rtPress(w, "tab")
	rtType(w, "y/d.sql.gz")
	b := w.bucket
	out := rtView(w)
	if b.bucket.Value() != "gs://qa3-bkt/" || b.file.Value() != "y/d.sql.gz" || b.focus != fieldFile {
		t.Fatalf("bucket %q, file %q, focus %d, want gs://qa3-bkt/, y/d.sql.gz on Backup file:\n%s", b.bucket.Value(), b.file.Value(), b.focus, out)
	}
	if l := tuitest.LineWith(out, "Backup file"); !strings.Contains(l, "y/d.sql.gz") || !strings.HasPrefix(strings.TrimSpace(l), ">") {
		t.Fatalf("the file is not in the focused Backup file field:\n%s", out)
	}

	w = bucketWizard(t)
	rtType(w, "gs://acme/exports/a.gz")
	rtPress(w, "tab")
	if b := w.bucket; b.bucket.Value() != "gs://acme/" || b.file.Value() != "exports/a.gz" || b.focus != fieldFile {
		t.Fatalf("split: bucket %q, file %q, focus %d", b.bucket.Value(), b.file.Value(), b.focus)
	}
}

// bucketFilled is the bucket step with its bucket (gs://acme/) and its
// file (dump.sql.gz) typed, the focus on the file.
func bucketFilled(t *testing.T) *Wizard {
	t.Helper()
	w := bucketWizard(t)
	rtType(w, "gs://acme/")
	rtPress(w, "tab")
	rtType(w, "dump.sql.gz")
	return w
}

// TestBucketTabOnTheLastFieldGoesOn: tab on Encryption (the last field),
// and on Keep as when a new key is kept, does what enter does: the
// confirmation (it wrapped to Bucket); a problem takes the focus to its
// field, as enter does; down stops on it (it wrapped to Bucket).
func TestBucketTabOnTheLastFieldGoesOn(t *testing.T) {
	w := bucketFilled(t)
	rtPress(w, "down", "down", "down")
	if w.bucket.focus != fieldEnc {
		t.Fatalf("focus %d, want Encryption", w.bucket.focus)
	}
	rtPress(w, "down")
	if w.bucket.focus != fieldEnc {
		t.Fatalf("down on the last field: focus %d, want Encryption (it stops there)", w.bucket.focus)
	}
	rtPress(w, "tab")
	if w.StepName() != "confirm" {
		t.Fatalf("tab on Encryption: step %s, want confirm:\n%s", w.StepName(), rtView(w))
	}

	// a new key kept: Keep as is the last field
	w = bucketFilled(t)
	rtPress(w, "tab", "tab", "tab", "right", "right", "right", "tab") // encryption: new key, the last
	rtType(w, "k3y")
	rtPress(w, "tab", "space", "tab")
	if w.bucket.focus != fieldKeepName {
		t.Fatalf("focus %d, want Keep as", w.bucket.focus)
	}
	rtPress(w, "tab")
	if w.StepName() != "confirm" {
		t.Fatalf("tab on Keep as: step %s, want confirm:\n%s", w.StepName(), rtView(w))
	}

	// a problem: the focus goes to its field, the reason shown
	w = bucketWizard(t)
	rtType(w, "gs://acme/")
	rtPress(w, "down", "down", "down", "down", "tab") // to Encryption, the last
	if w.StepName() != "bucket" || w.bucket.focus != fieldFile || !strings.Contains(rtView(w), "id: is required") {
		t.Fatalf("tab on Encryption without a file: step %s, focus %d:\n%s", w.StepName(), w.bucket.focus, rtView(w))
	}
}

// TestBackupIDTabGoesOn: tab on the backup ID step's input does what
// enter does (it did nothing).
func TestBackupIDTabGoesOn(t *testing.T) {
	e := rtSetup(t, false)
	dev := e.byName["dev-serverless"]
	w := e.wizard(t, Options{Source: SourceBackupID, TargetID: dev.ID, LockTarget: true})
	rtPress(w, "tab")
	if !strings.Contains(rtView(w), "id: is required") {
		t.Fatalf("tab on an empty ID:\n%s", rtView(w))
	}
	list, err := e.client.ListBackups(context.Background(), e.byName["analytics-gcp"].ID)
	if err != nil || len(list) == 0 {
		t.Fatal(err)
	}
	done := list[slices.IndexFunc(list, func(b api.Backup) bool { return api.BackupState(b.Status) == api.BackupCompleted })]
	rtRun(w, w.Update(tea.PasteMsg{Content: done.Key}))
	rtPress(w, "tab")
	if w.Confirm() == nil {
		t.Fatalf("tab on the ID: step %s, want confirm:\n%s", w.StepName(), rtView(w))
	}
}

// TestPITRTabGoesOn: tab on the moment does what enter does: a moment
// outside the window is refused, one inside is looked up.
func TestPITRTabGoesOn(t *testing.T) {
	w, win := pitrAt(t, 80, 24)
	w.pitr.moment.SetValue(win.Start.Add(-24 * time.Hour).UTC().Format("2006-01-02 15:04"))
	rtPress(w, "tab")
	if !strings.Contains(w.stepErr, "outside the window") {
		t.Fatalf("tab on an outside moment: %q", w.stepErr)
	}
	w.pitr.moment.SetValue(tuitest.T0.Add(-time.Hour).UTC().Format("2006-01-02 15:04"))
	msgs := rtPress(w, "tab")
	if len(msgs) != 1 {
		t.Fatalf("tab on a moment inside produced %v", msgs)
	}
	rtRun(w, w.Update(msgs[0]))
	if cf := w.Confirm(); cf == nil || !strings.Contains(cf.Request, `"point_in_time"`) {
		t.Fatalf("tab on the moment: step %s, want confirm:\n%s", w.StepName(), rtView(w))
	}
}

// TestBucketStepKeepsTheFocusInView: at 60x16 (the wizard's 60x12) with
// the .gz warning under Backup file, down from Backup file to
// Encryption, below the window: the fields scroll so that it and its
// hint show, with a line saying what is above; back up on Bucket the top
// shows again. Every view fits its height.
func TestBucketStepKeepsTheFocusInView(t *testing.T) {
	w := bucketWizard(t)
	w.SetSize(60, 12)
	rtType(w, "gs://qa3-bkt/")
	rtPress(w, "tab")
	rtType(w, "y/d.sql")
	rtPress(w, "down", "down", "down")
	if w.bucket.focus != fieldEnc {
		t.Fatalf("focus %d, want Encryption", w.bucket.focus)
	}
	out := rtView(w)
	if n := len(strings.Split(out, "\n")); n > 12 {
		t.Fatalf("%d lines in 12:\n%s", n, out)
	}
	if !strings.HasPrefix(tuitest.LineWith(out, "Encryption"), ">") || tuitest.LineWith(out, "only if the backup is encrypted") == "" {
		t.Fatalf("the focused Encryption is not in view:\n%s", out)
	}
	if tuitest.LineWith(out, "does not end in .gz") == "" || tuitest.LineWith(out, "lines above") == "" {
		t.Fatalf("the warning or the line saying what is above is missing:\n%s", out)
	}
	// up from Encryption to Bucket: the intro shows again
	w = bucketWizard(t)
	w.SetSize(60, 12)
	rtType(w, "gs://qa3-bkt/")
	rtPress(w, "tab")
	rtType(w, "y/d.sql")
	rtPress(w, "down", "down", "down", "up", "up", "up", "up")
	out = rtView(w)
	if w.bucket.focus != fieldBucket || !strings.HasPrefix(tuitest.LineWith(out, "Bucket"), ">") || tuitest.LineWith(out, "Restore dev-serverless") == "" {
		t.Fatalf("back on Bucket: the top is not shown:\n%s", out)
	}
}

// TestBucketTabKeepsTheFolder: a folder typed after the bucket name
// (gs://qa1-b/dumps/) is split with its slash kept, so the file name
// typed after tab goes into the folder: dumps/x.sql.gz (it was
// dumpsx.sql.gz, and the hint named the file "dumps").
func TestBucketTabKeepsTheFolder(t *testing.T) {
	w := bucketWizard(t)
	rtType(w, "gs://qa1-b/dumps/")
	if out := words(rtView(w)); !strings.Contains(out, "tab splits it: gs://qa1-b/ and the file's folder dumps/") {
		t.Fatalf("the hint does not name the folder:\n%s", rtView(w))
	}
	rtPress(w, "tab")
	rtType(w, "x.sql.gz")
	if b := w.bucket; b.bucket.Value() != "gs://qa1-b/" || b.file.Value() != "dumps/x.sql.gz" || b.focus != fieldFile {
		t.Fatalf("bucket %q, file %q, focus %d, want gs://qa1-b/ and dumps/x.sql.gz:\n%s", b.bucket.Value(), b.file.Value(), b.focus, rtView(w))
	}
}

// TestBucketChoicesStopAtTheirEnds: left and right on a choice of the
// bucket step (method, credentials, encryption) stop at its ends, and up
// and down at the first and last fields (a held arrow flipped the method
// back and forth); space still goes round, as a toggle.
func TestBucketChoicesStopAtTheirEnds(t *testing.T) {
	w := bucketWizard(t)
	rtPress(w, "up")
	if w.bucket.focus != fieldBucket {
		t.Fatalf("up on the first field: focus %d", w.bucket.focus)
	}
	rtPress(w, "down", "down")
	if w.bucket.focus != fieldMethod {
		t.Fatalf("focus %d, want Method", w.bucket.focus)
	}
	for _, c := range []struct{ keys, want string }{
		{"right", api.MethodMysqldump}, {"right", api.MethodMysqldump},
		{"left", api.MethodMariabackup}, {"left", api.MethodMariabackup},
		{"space", api.MethodMysqldump}, {"space", api.MethodMariabackup},
	} {
		rtPress(w, c.keys)
		if w.bucket.method != c.want {
			t.Fatalf("%s: method %s, want %s", c.keys, w.bucket.method, c.want)
		}
	}
	rtPress(w, "down", "down", "left", "left")
	if got := w.bucket.encChoice(); got != "none" {
		t.Fatalf("left on the first encryption choice: %q", got)
	}
	rtPress(w, "right", "right", "right", "right", "right")
	if got := w.bucket.encChoice(); got != "new key" {
		t.Fatalf("right past the last encryption choice: %q", got)
	}
}

// TestTargetFilterMatchingNothing: enter on a target list whose typed
// filter matches nothing says so, not "no service to restore into",
// which reads as an account without services.
func TestTargetFilterMatchingNothing(t *testing.T) {
	e := rtSetup(t, true)
	w := e.wizard(t, Options{Source: SourceBucket})
	w.SetSize(80, 24)
	if w.StepName() != "target" {
		t.Fatalf("step %s", w.StepName())
	}
	rtType(w, "zzzz")
	rtPress(w, "enter")
	if v := rtView(w); !strings.Contains(v, `no service matches "zzzz": change what is typed`) {
		t.Fatalf("enter on a filter matching nothing:\n%s", v)
	}
}

// TestBackupIDLookupAskedOnce: enter again while an ID is being looked
// up asks nothing more (the listings would pile up); another ID asks.
func TestBackupIDLookupAskedOnce(t *testing.T) {
	e := rtSetup(t, true)
	w := e.wizard(t, Options{Source: SourceBackupID, TargetID: e.byName["dev-serverless"].ID, LockTarget: true})
	if cmd := w.lookUpBackupID("deadbeef0000"); cmd == nil {
		t.Fatal("the first enter asked nothing")
	}
	if cmd := w.lookUpBackupID("deadbeef0000"); cmd != nil {
		t.Fatal("enter again while it is looked up asks again")
	}
	if cmd := w.lookUpBackupID("c0ffee000000"); cmd == nil {
		t.Fatal("another ID asked nothing")
	}
}

// TestBackupIDNoteGivesWayWhole: on a short terminal the note under the
// backup ID gives way whole to the lookup's answer, never cut inside a
// sentence (it ended at "A backup of"); where there is room both show.
func TestBackupIDNoteGivesWayWhole(t *testing.T) {
	e := rtSetup(t, true)
	for _, c := range []struct {
		w, h     int
		wantNote bool
	}{{58, 13, false}, {78, 21, true}} {
		w := e.wizard(t, Options{Source: SourceBackupID, TargetID: e.byName["dev-serverless"].ID, LockTarget: true})
		w.SetSize(c.w, c.h)
		rtType(w, "deadbeef0000")
		rtPress(w, "enter")
		v := rtView(w)
		flat := strings.Join(strings.Fields(v), " ")
		if !strings.Contains(v, "> deadbeef0000") || !strings.Contains(flat, "enter again sends it as typed") {
			t.Fatalf("%dx%d: the field or the lookup's answer is not shown:\n%s", c.w, c.h, v)
		}
		whole := strings.Contains(flat, "A backup of a service on another cloud provider cannot be restored.")
		if strings.Contains(v, "Restoring into") && !whole {
			t.Errorf("%dx%d: the note is cut inside its sentence:\n%s", c.w, c.h, v)
		}
		if whole != c.wantNote {
			t.Errorf("%dx%d: note shown %v, want %v:\n%s", c.w, c.h, whole, c.wantNote, v)
		}
	}
}

// TestRefusalDropsTheIDStepsNote: an ID sent as typed on the second enter
// that is refused across providers shows the refusal alone: the ID step's
// "enter again sends it as typed" stayed under it, on a page where enter
// does nothing.
func TestRefusalDropsTheIDStepsNote(t *testing.T) {
	e := rtSetup(t, true)
	list, err := e.client.ListBackups(context.Background(), e.byName["orders-prod"].ID)
	if err != nil || len(list) == 0 {
		t.Fatal(err)
	}
	w := e.wizard(t, Options{Source: SourceBackupID, TargetID: e.byName["analytics-gcp"].ID, LockTarget: true})
	w.SetSize(78, 21)
	rtType(w, list[0].Key+"x") // on aws, and listed nowhere
	rtPress(w, "enter")
	if !strings.Contains(strings.Join(strings.Fields(rtView(w)), " "), "enter again sends it as typed") {
		t.Fatalf("the first enter:\n%s", rtView(w))
	}
	rtPress(w, "enter")
	v := rtView(w)
	if w.StepName() != "refusal" || !strings.Contains(v, "Not sent: a backup can be restored only within the same cloud provider") || strings.Contains(v, "enter again") {
		t.Fatalf("the refusal (step %s):\n%s", w.StepName(), v)
	}
}

// TestBucketSplitKeepsTheFileTyped: a folder typed into the bucket field
// is split off in front of a file name typed already ("exports/" and
// "dump.sql.gz": "exports/dump.sql.gz"); the split was no longer offered
// once a file was typed, and both had to be typed again.
func TestBucketSplitKeepsTheFileTyped(t *testing.T) {
	e := rtSetup(t, true)
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: e.byName["analytics-gcp"].ID, LockTarget: true})
	b := w.bucket
	for _, c := range []struct{ bucket, file, fix, wantFile string }{
		{"gs://qa4-gcs/exports/", "", "tab splits it: gs://qa4-gcs/ and the file's folder exports/", "exports/"},
		{"gs://qa4-gcs/exports/", "dump.sql.gz", "tab splits it: gs://qa4-gcs/ and the file exports/dump.sql.gz", "exports/dump.sql.gz"},
		{"gs://qa4-gcs/exports/", "exports/dump.sql.gz", "tab splits it: gs://qa4-gcs/ and the file exports/dump.sql.gz", "exports/dump.sql.gz"},
		{"gs://qa4-gcs/exports/a.gz", "b.gz", "", ""}, // two files: no one answer
	} {
		b.bucket.SetValue(c.bucket)
		b.file.SetValue(c.file)
		if got := b.fixable(); got != c.fix {
			t.Errorf("%q + %q: fix %q, want %q", c.bucket, c.file, got, c.fix)
			continue
		}
		if c.fix == "" {
			continue
		}
		if !b.applyFix() || b.bucket.Value() != "gs://qa4-gcs/" || b.file.Value() != c.wantFile {
			t.Errorf("%q + %q: split into %q and %q, want gs://qa4-gcs/ and %q", c.bucket, c.file, b.bucket.Value(), b.file.Value(), c.wantFile)
		}
	}
}
