package backupform

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// host runs a form as a program would: its size, then every answer of
// its commands (huh's dynamic options and descriptions come that way).
type host struct{ b *Form }

func (h host) Init() tea.Cmd { return h.b.Init() }
func (h host) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		h.b.SetSize(ws.Width, ws.Height)
		return h, nil
	}
	return h, h.b.Update(msg)
}
func (h host) View() tea.View { return tea.NewView(h.b.View()) }

// run opens a form in a w x h area (the form's, under the tabs and above
// the footer: 80x21 and 60x13 are the Backups screen's at 80x24 and
// 60x16) and settles.
func run(t *testing.T, c *kit.Common, o Options, w, h int) (*Form, *tuitest.Harness) {
	t.Helper()
	b := New(c, svc, o)
	return b, tuitest.New(t, host{b}, b.View, w, h)
}

// focus moves the form to the named field.
func focus(b *Form, h *tuitest.Harness, field string) {
	h.Spawn(kit.FocusField(b.form, b.groups, b.fields[field]))
	h.Settle()
}

// typeKeys types s, a key at a time, as fast as a typist.
func typeKeys(h *tuitest.Harness, s string) {
	for _, k := range tuitest.Typed(s) {
		h.Deliver(k)
	}
	h.Settle()
}

// TestTypingIsNeverDropped: typing into a prefilled field that is "full"
// (the daily time's 03:00; a cron expression or a bucket path longer than
// a limit) keeps every key: the field shows what was typed and its hint
// says the rule it breaks, instead of the keys vanishing until five
// backspaces made room. A long valid cron expression is taken whole.
func TestTypingIsNeverDropped(t *testing.T) {
	c := common(t, tuitest.Secrets(t, "team"), nil)
	for _, size := range [][2]int{{80, 21}, {60, 13}} {
		b, h := run(t, c, Options{HasFullBackup: boolp(true), Draft: &Draft{Type: api.BackupFull, When: WhenDaily, DailyAt: "03:00", Destination: DestManaged}}, size[0], size[1])
		focus(b, h, "daily")
		typeKeys(h, "07:30")
		if got := b.daily.Get(); got != "03:0007:30" {
			t.Fatalf("%v: typing 07:30 after the prefilled 03:00 gave %q", size, got)
		}
		v := h.Screen()
		flat := strings.Join(strings.Fields(strings.ReplaceAll(v, "| ", " ")), " ")
		if !strings.Contains(v, "> 03:0007:30") || !strings.Contains(flat, `! time: "03:0007:30" is not HH:MM (24-hour, UTC), such as 03:00`) {
			t.Fatalf("%v: the field does not show what was typed and why it is refused:\n%s", size, v)
		}
		tuitest.CheckFits(t, "daily", h.Render(), size[0], size[1])
		for range len("03:0007:30") {
			h.Deliver(tuitest.KeyMsg("backspace"))
		}
		typeKeys(h, "07:30")
		if got := b.daily.Get(); got != "07:30" || !strings.Contains(h.Screen(), "ok: daily at 07:30 UTC") {
			t.Fatalf("%v: emptied and typed again, the field holds %q:\n%s", size, got, h.Screen())
		}
	}

	// a cron expression longer than 80 characters, valid
	long := "0,5,10,15,20,25,30,35,40,45,50,55 0,2,4,6,8,10,12,14,16,18,20,22 1,8,15,22,29 * 1-5"
	b, h := run(t, c, Options{HasFullBackup: boolp(true), Draft: &Draft{Type: api.BackupFull, When: WhenCustom, Cron: "0 3 * * *", Destination: DestManaged}}, 80, 21)
	focus(b, h, "cron")
	for range len("0 3 * * *") {
		h.Deliver(tuitest.KeyMsg("backspace"))
	}
	typeKeys(h, long)
	if got := b.cron.Get(); got != long {
		t.Fatalf("cron: typed %d characters, the field holds %d: %q", len(long), len(got), got)
	}
	if err := api.ValidateSchedule(long); err != nil {
		t.Fatalf("the long expression is not valid, pick another: %v", err)
	}

	// a bucket path longer than 300 characters
	path := "s3://acme-exports/" + strings.Repeat("orders/", 45)
	b, h = run(t, c, Options{HasFullBackup: boolp(true), Draft: &Draft{Type: api.BackupLogical, When: WhenOnce, Destination: DestBucket, BucketPath: "s3://", Credential: "team-s3"}}, 80, 21)
	focus(b, h, "bucket path")
	typeKeys(h, strings.TrimPrefix(path, "s3://"))
	if got := b.path.Get(); got != path {
		t.Fatalf("bucket path: typed %d characters, the field holds %d", len(path), len(got))
	}
}

// TestReviewRequestLineIsWhole: the review's second line is the request
// line alone, whole ("POST /backup/v1/backups/schedules"), not followed by
// the keys the footer shows already (cut at 80 columns: "esc cancel
// (keeps in~"); where it does not fit, it wraps.
func TestReviewRequestLineIsWhole(t *testing.T) {
	b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true),
		Draft: &Draft{Type: api.BackupLogical, When: WhenOnce, Destination: DestBucket, BucketPath: "s3://acme-exports/orders", Credential: "team-s3"}})
	b.step = phaseReview
	for _, size := range [][2]int{{80, 21}, {60, 13}} {
		b.SetSize(size[0], size[1])
		lines := strings.Split(tuitest.View(b), "\n")
		if got := strings.TrimRight(lines[1], " "); got != " POST /backup/v1/backups/schedules" {
			t.Errorf("%v: the request line is %q", size, got)
		}
		for _, l := range lines {
			if strings.Contains(l, "submit") || strings.Contains(l, "esc") || strings.HasSuffix(l, b.common.Theme.Glyphs.Ellipsis) {
				t.Errorf("%v: the review repeats the footer's keys or cuts a line: %q", size, l)
			}
		}
		tuitest.CheckFits(t, "review", b.View(), size[0], size[1])
	}
	b.SetSize(24, 13)
	lines := strings.Split(tuitest.View(b), "\n")
	if got := strings.TrimSpace(lines[1]) + strings.TrimSpace(lines[2]); got != "POST /backup/v1/backups/schedules" {
		t.Errorf("at 24 columns the request line does not wrap whole: %q / %q", lines[1], lines[2])
	}
}

// TestTypeStepFits: the backup type step shows whole at the Backups
// screen's areas of 60x16 and 80x24 (60x13, 80x21), and at the smaller
// ones the Restores screen's migration gives it at 60x16 (60x11, 60x10),
// whichever type is selected, on both backup interfaces: every option on
// one line ("> full         complete copy; ..." was followed by a line
// "|   build on" in the option column), the selected type's description
// wrapped between words only (no stray break after "backup,") and
// never cut (binarylog's "recovery" was below the area).
func TestTypeStepFits(t *testing.T) {
	live, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k", BackupPrefix: api.LiveBackupPrefix})
	if err != nil {
		t.Fatal(err)
	}
	for _, client := range []*api.Client{nil, live} {
		for _, full := range []bool{true, false} {
			for _, size := range [][2]int{{60, 13}, {80, 21}, {60, 11}, {60, 10}} {
				c := common(t, tuitest.Secrets(t, "team"), client)
				b, h := run(t, c, Options{HasFullBackup: boolp(full)}, size[0], size[1])
				opts := b.typeOptions()
				for i, o := range opts {
					if i > 0 {
						h.Key("down")
					}
					what := fmt.Sprintf("%dx%d, %s (full backup: %v, live: %v)", size[0], size[1], o.Value, full, client != nil)
					if b.typ.Get() != o.Value {
						t.Fatalf("%s: down went to %s", what, b.typ.Get())
					}
					v := h.Screen()
					tuitest.CheckFits(t, what, h.Render(), size[0], size[1])
					lines := strings.Split(v, "\n")
					field := func(l string) string { return strings.TrimRight(strings.TrimPrefix(l, "| "), " ") }
					// every option on one line, the selected one marked
					for j, p := range opts {
						want := "  " + p.Key
						if j == i {
							want = "> " + p.Key
						}
						if !slices.ContainsFunc(lines, func(l string) bool { return field(l) == want }) {
							t.Fatalf("%s: no line %q:\n%s", what, want, v)
						}
					}
					if slices.ContainsFunc(lines, func(l string) bool {
						f := field(l)
						return strings.HasPrefix(f, "  ") && !slices.ContainsFunc(opts, func(p huh.Option[string]) bool { return f == "  "+p.Key }) && strings.TrimSpace(f) != ""
					}) {
						t.Fatalf("%s: an option goes on over two lines:\n%s", what, v)
					}
					// the description: under the title, the lines kit.Wrap
					// makes, all of them
					desc := b.typeHint()
					at := slices.IndexFunc(lines, func(l string) bool { return field(l) == "Backup type" })
					if at < 0 {
						t.Fatalf("%s: no title:\n%s", what, v)
					}
					if desc == "" {
						if b.typeRoom.Get() >= 2 {
							t.Fatalf("%s: no description although %d lines are free:\n%s", what, b.typeRoom.Get(), v)
						}
						continue
					}
					for k, dl := range strings.Split(kit.Wrap(desc, b.hintWidth.Get()), "\n") {
						if at+1+k >= len(lines) || field(lines[at+1+k]) != strings.TrimRight(dl, " ") {
							t.Fatalf("%s: description line %d is not %q:\n%s", what, k+1, dl, v)
						}
					}
					// on the Backups screen, every type's own description
					if size[1] >= 13 && desc != b.typeDescription() {
						t.Fatalf("%s: the description %q, not %q", what, desc, b.typeDescription())
					}
				}
			}
		}
	}
}

// TestTypeStepAfterResize: a terminal grown back from 60x16 shows every
// option and the whole description again (huh only ever shrinks a field
// to its form's height).
func TestTypeStepAfterResize(t *testing.T) {
	b, h := run(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true)}, 60, 10)
	h.Send(tea.WindowSizeMsg{Width: 80, Height: 21})
	h.Keys("down", "down", "down", "down") // binarylog, the last
	v := h.Screen()
	for _, want := range []string{"> binarylog    the binary logs, for point-in-time recovery", "| Saves the binary logs: the changes since the last backup, for point-in-time",
		"| recovery.", "|   full         complete copy; what incremental backups build on"} {
		if !strings.Contains(v, want) {
			t.Fatalf("after a resize, no %q:\n%s", want, v)
		}
	}
	if b.typeHint() != b.typeDescription() {
		t.Fatalf("after a resize the description is %q", b.typeHint())
	}
}

// TestShortTextsFit: every short label fits its option's line at 60
// columns (labelWidth), and every short description two lines there.
func TestShortTextsFit(t *testing.T) {
	for typ, tt := range typeInfo {
		for _, l := range []string{tt.shortLabel, "unavailable: no completed full backup yet", "checking whether a full backup exists..."} {
			if n := ansi.StringWidth(l); n > labelWidth {
				t.Errorf("%s: label %q is %d cells, more than %d", typ, l, n, labelWidth)
			}
		}
		if tt.shortDesc != "" {
			if n := strings.Count(kit.Wrap(tt.shortDesc, 56), "\n") + 1; n > 2 {
				t.Errorf("%s: short description %q takes %d lines at 56 cells", typ, tt.shortDesc, n)
			}
		}
	}
}

// TestFieldTextsWrapBetweenWords: every step's title and description are
// wrapped to the field between words, as kit.Wrap does, at the Backups
// screen's areas of 60x16 and 80x24: huh's own wrap broke the cron
// expression's title inside "day-of-" / "week" and let a line end one
// cell past the field at a comma, which the field then broke again.
func TestFieldTextsWrapBetweenWords(t *testing.T) {
	c := common(t, tuitest.Secrets(t, "team"), nil)
	for _, size := range [][2]int{{60, 13}, {80, 21}} {
		for _, tc := range []struct {
			field string
			draft Draft
			texts func(b *Form) []string
		}{
			{"when", Draft{Type: api.BackupFull, When: WhenOnce, Destination: DestManaged},
				func(*Form) []string { return []string{whenDescription} }},
			{"daily", Draft{Type: api.BackupFull, When: WhenDaily, DailyAt: "03:00", Destination: DestManaged},
				func(b *Form) []string { return []string{b.dailyHint("03:00")} }},
			{"cron", Draft{Type: api.BackupFull, When: WhenCustom, Cron: "0 25 * *", Destination: DestManaged},
				func(b *Form) []string { return []string{cronTitle, b.cronHint("0 25 * *")} }},
			{"destination", Draft{Type: api.BackupFull, When: WhenOnce, Destination: DestManaged},
				func(*Form) []string { return []string{destDescription} }},
			{"bucket path", Draft{Type: api.BackupPhysical, When: WhenOnce, Destination: DestBucket, BucketPath: "s3://acme-exports/orders", Credential: "team-s3"},
				func(b *Form) []string {
					return []string{b.bucketTitle(), b.pathHint("s3://acme-exports/orders", api.BackupPhysical)}
				}},
		} {
			b, h := run(t, c, Options{HasFullBackup: boolp(true), Draft: &tc.draft}, size[0], size[1])
			focus(b, h, tc.field)
			v := h.Screen()
			var lines []string
			for _, l := range strings.Split(v, "\n") {
				lines = append(lines, strings.TrimRight(strings.TrimPrefix(strings.TrimLeft(l, " "), "| "), " "))
			}
			for _, text := range tc.texts(b) {
				want := strings.Split(kit.Wrap(text, b.hintWidth.Get()), "\n")
				at := slices.Index(lines, strings.TrimRight(want[0], " "))
				if at < 0 || at+len(want) > len(lines) {
					t.Fatalf("%v %s: no line %q:\n%s", size, tc.field, want[0], v)
				}
				for k, wl := range want {
					if lines[at+k] != strings.TrimRight(wl, " ") {
						t.Fatalf("%v %s: line %q, want %q:\n%s", size, tc.field, lines[at+k], wl, v)
					}
				}
			}
			tuitest.CheckFits(t, tc.field, h.Render(), size[0], size[1])
		}
	}
}

// TestBucketStepSaysWhatIsBelow: the bucket step never cuts the
// credential field without saying so. At 60x16 (an area of 60x12: the
// root keeps 4 lines, tui's bodyHeight) a full backup's step showed the path's hint and the credentials' title, then
// stopped mid-sentence in their description, the stored credentials
// below the area and no line saying so. Now, at the Backups screen's
// areas of 60x16 and 80x24 and the migration's smaller ones, typed or
// not, either the credential field shows whole (its description, then
// its option) or the step's last line names it below; with the focus on
// the credentials and the path cut above, the last line names the path.
// At 60x16 and 80x24 the step of the report fits: the credentials'
// choice is seen while the path is typed.
func TestBucketStepSaysWhatIsBelow(t *testing.T) {
	c := common(t, tuitest.Secrets(t, "team"), nil)
	field := func(l string) string { return strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "| ")) }
	credWhole := func(b *Form, lines []string) bool {
		_, hint := b.bucketHints()
		want := strings.Split(kit.Wrap(hint, b.hintWidth.Get()), "\n")
		at := slices.IndexFunc(lines, func(l string) bool { return field(l) == "Bucket credentials (stored in the keystore)" })
		if at < 0 || at+1+len(want) >= len(lines) {
			return false
		}
		for k, wl := range want {
			if field(lines[at+1+k]) != strings.TrimSpace(wl) {
				return false
			}
		}
		return strings.HasPrefix(field(lines[at+1+len(want)]), "> ")
	}
	for _, size := range [][2]int{{60, 12}, {80, 20}, {60, 13}, {60, 10}} {
		for _, typ := range []string{api.BackupFull} { // the longest hints
			for _, path := range []string{"", "gs://qa5-b/p", "s3://acme-exports-of-the-orders-service/nightly/full"} {
				what := fmt.Sprintf("%dx%d, %s, path %q", size[0], size[1], typ, path)
				b, h := run(t, c, Options{HasFullBackup: boolp(true), Draft: &Draft{Type: typ, When: WhenOnce, Destination: DestBucket}}, size[0], size[1])
				focus(b, h, "bucket path")
				if path != "" {
					h.Paste(path)
				}
				if b.path.Get() != path {
					t.Fatalf("%s: the field holds %q", what, b.path.Get())
				}
				v := h.Screen()
				tuitest.CheckFits(t, what, h.Render(), size[0], size[1])
				lines := strings.Split(strings.TrimRight(v, "\n "), "\n")
				last := strings.TrimSpace(lines[len(lines)-1])
				if !credWhole(b, lines) && last != "~ below: credentials (enter/tab)" {
					t.Fatalf("%s: the credentials are cut and the last line does not say so:\n%s", what, v)
				}
				if size[1] >= 12 && path != "s3://acme-exports-of-the-orders-service/nightly/full" && !credWhole(b, lines) {
					t.Fatalf("%s: the credential field is not seen whole while the path is typed:\n%s", what, v)
				}
				if path == "gs://qa5-b/p" && size[1] >= 12 && !strings.Contains(v, "> team-gcs  (GCS)") {
					t.Fatalf("%s: the stored GCS credentials are not in view:\n%s", what, v)
				}
				if path == "" {
					continue
				}
				// on to the credentials: what is cut of the path is named above
				h.Key("enter")
				if b.form.GetFocusedField() != b.fields["credentials"] {
					t.Fatalf("%s: enter did not go to the credentials:\n%s", what, h.Screen())
				}
				v = h.Screen()
				tuitest.CheckFits(t, what+", on the credentials", h.Render(), size[0], size[1])
				lines = strings.Split(strings.TrimRight(v, "\n "), "\n")
				last = strings.TrimSpace(lines[len(lines)-1])
				pathWhole := slices.ContainsFunc(lines, func(l string) bool { return field(l) == b.bucketTitle() }) &&
					slices.ContainsFunc(lines, func(l string) bool { return field(l) == "> "+path })
				if !pathWhole && last != "~ above: bucket path (shift+tab)" {
					t.Fatalf("%s, on the credentials: the path is cut above and the last line does not say so:\n%s", what, v)
				}
			}
		}
	}
}

// TestCredentialsReadAgainWithCtrlR: a credential added while the bucket
// step is open (skytui creds add, as its hint says) is listed after
// ctrl+r, which the footer offers there; before, only leaving the form
// read the keystore again.
func TestCredentialsReadAgainWithCtrlR(t *testing.T) {
	st := tuitest.EmptySecrets(t)
	b, h := run(t, common(t, st, nil), Options{HasFullBackup: boolp(true)}, 80, 21)
	h.Keys("enter", "enter", "down", "enter") // full, once, your own bucket
	typeKeys(h, "s3://acme-exports/orders")
	h.Key("tab")
	h.Sees("none stored for s3://")
	if !slices.ContainsFunc(b.Keys(), func(k key.Binding) bool { return k.Help().Key == "ctrl+r" }) {
		t.Fatalf("the bucket step's keys do not offer ctrl+r: %v", b.Keys())
	}
	if err := st.PutBucketCredential(keystore.S3Credential{Name: "added-now", AccessKeyID: "AKIATEST0000000001", SecretAccessKey: "x", Region: "us-east-1"}); err != nil {
		t.Fatal(err)
	}
	h.Key("ctrl+r")
	h.Sees("added-now")
	if got := keys(b.credOptions()); got != "added-now  (S3)" {
		t.Fatalf("after ctrl+r the credentials offered are %q", got)
	}
}
