package backups_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

// trace IDs are random: a placeholder of the same width keeps the layout
var traceRe = regexp.MustCompile(`[0-9a-f]{32}\)`)

const tracePlaceholder = "<trace-id......................>)"

// TestGolden snapshots the whole frame (escape sequences stripped) of the
// Backups screen on the demo sandbox at a fixed time, at 80x24 and 140x40.
// Regenerate with: go test ./screens/backups/ -run TestGolden -update
func TestGolden(t *testing.T) {
	type step func(h *harness)
	keys := func(ks ...string) step { return func(h *harness) { h.Keys(ks...) } }
	typ := func(s string) step { return func(h *harness) { h.TypeText(s) } }
	paste := func(s string) step { return func(h *harness) { h.Paste(s) } }
	cmd := func(line string) step { return func(h *harness) { h.command(line) } }
	orders := cmd("backups orders-prod")
	// the form up to the destination step, with a custom cron
	toBucket := []step{orders, keys("n", "down", "down", "enter", "enter", "down", "enter")}
	cases := []struct {
		name  string
		tweak func(*tui.Options)
		steps []step
		want  []string // also asserted in words
		wide  []string // asserted at 140x40 only
	}{
		{name: "all_services", steps: []step{keys("2")}, want: []string{"Backups of all services", "74 backups, 1 in progress", "SERVICE", "analytics-gcp", "orders-prod", "dev-serverless"}},
		{name: "all_detail", steps: []step{keys("2", "j", "enter")}, want: []string{"Backup 8d2286750d52"},
			wide: []string{"Service orders-prod (dbtaf33737495)", "Can start replication"}},
		{name: "all_help", steps: []step{keys("2", "?")}, want: []string{"for one service", "schedules/backups"}},
		{name: "picker", steps: []step{keys("2", "f")}, want: []string{"Backups of which service?", "analytics-gcp"}},
		{name: "list", steps: []step{orders}, want: []string{"Backups of orders-prod", "44 backups", "incremental", "too old"}},
		{name: "list_running", steps: []step{cmd("backups analytics-gcp")}, want: []string{"in progress", "failed", "1 in progress"}},
		{name: "detail", steps: []step{orders, keys("enter")}, want: []string{"Backup 8d2286750d52"}, wide: []string{"Can start replication", "yes: 45m old"}},
		{name: "detail_bucket", steps: []step{orders, keys("/"), typ("s3://"), keys("enter", "enter")},
			want: []string{"logical", "too old"}, wide: []string{"Bucket path s3://acme-db-exports/orders", "too old to start replication"}},
		{name: "schedules", steps: []step{orders, keys("t")}, want: []string{"daily at 03:00 UTC", "every hour at :15", "Next runs", "Sun 2026-03-15 03:00 UTC"}},
		{name: "schedules_bucket", steps: []step{cmd("backups analytics-gcp"), keys("t")},
			want: []string{"every Sunday at 01:30 UTC"}, wide: []string{"Bucket path gs://acme-analytics-dumps/weekly"}},
		{name: "form_type", steps: []step{orders, keys("n")}, want: []string{"Step 1 of 3: type", "logical", "portable"}},
		{name: "form_incremental_refused", steps: []step{cmd("backups reporting-new"), keys("n", "down", "enter")},
			want: []string{"Not available: incremental needs a completed full backup first", "reporting-new is pending_create"}},
		{name: "form_when", steps: []step{orders, keys("n", "enter")}, want: []string{"once: now, one time", "custom cron expression"}},
		{name: "form_daily", steps: []step{orders, keys("n", "enter", "down", "enter")}, want: []string{"ok: daily at 03:00 UTC", "next runs"}},
		{name: "form_cron", steps: []step{orders, keys("n", "enter", "down", "down", "down", "enter"), paste("30 1 * * 0")},
			want: []string{"ok: every Sunday at 01:30 UTC", "Sun 2026-03-15 01:30 UTC"}},
		{name: "form_cron_invalid", steps: []step{orders, keys("n", "enter", "down", "down", "down", "enter"), paste("0 25 * *"), keys("enter")},
			want: []string{"! schedule: must be \"once\" or a 5-field cron expression", "this has 4"}},
		{name: "form_destination", steps: []step{orders, keys("n", "enter", "enter")}, want: []string{"managed storage", "your own bucket"}},
		{name: "form_bucket", steps: append(toBucket, paste("s3://acme-exports/orders")),
			want: []string{"ok: s3 bucket acme-exports", "Logical (SQL statements): the portable choice for leaving the service", "team-s3"}},
		{name: "form_bucket_full", steps: []step{orders, keys("n", "enter", "enter", "down", "enter"), paste("gs://acme-exports/orders")},
			want: []string{"A logical backup (SQL statements) is the portable choice for leaving the service; you chose full", "team-gcs"}},
		{name: "form_bucket_invalid", steps: append(toBucket, paste("s3://Acme/x"), keys("enter")),
			want: []string{`! external_storage.bucket.path: bucket name "Acme" must be 3 to 63`}},
		{name: "form_no_keystore", tweak: func(o *tui.Options) { o.Secrets = nil },
			steps: append(toBucket, paste("gs://acme-exports/orders")), want: []string{"no keystore is open", "skytui creds add gcs"}},
		{name: "review_bucket", steps: append(toBucket, paste("s3://acme-exports/orders"), keys("enter", "enter")),
			want: []string{`"path": "s3://acme-exports/orders"`, `redacted: stored S3 credential`, "logical"}},
		{name: "review_api_error", steps: []step{cmd("backups reporting-new"), keys("n", "enter", "enter", "enter", "enter")},
			want: []string{"the API refused it: 409 Conflict", "pending state", "trace <trace-id", "everything you typed is kept"}},
		{name: "help", steps: []step{orders, keys("?")}, want: []string{"copy GTID", "schedules/backups", "for one service", "a all services"}},
		{name: "readonly_refused", tweak: func(o *tui.Options) { o.ReadOnly, o.Profile = true, "prod-eu" },
			steps: []step{orders, keys("n")}, want: []string{"not allowed on read-only profile prod-eu: a new backup"}},
		{name: "not_found", steps: []step{keys("2"), cmd("backups nosuch")},
			want: []string{`no service named "nosuch"; still showing all services`, "Backups of all services", "SERVICE"}},
		{name: "not_found_narrowed", steps: []step{orders, cmd("backups nosuch")},
			want: []string{`no service named "nosuch"; still showing orders-prod`, "Backups of orders-prod", "44 backups"}},
	}
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				h, _, _ := app(t, size[0], size[1], true, tc.tweak)
				for _, s := range tc.steps {
					s(h)
				}
				out := traceRe.ReplaceAllString(h.Screen(), tracePlaceholder)
				tuitest.CheckFrame(t, out, size[0], size[1])
				want := tc.want
				if size[0] == 140 {
					want = append(want, tc.wide...)
				}
				text := words(out)
				for _, w := range want {
					if !strings.Contains(text, words(w)) {
						t.Errorf("the frame does not say %q", w)
					}
				}
				golden.RequireEqual(t, out)
			})
		}
	}
}

// words is the text of a frame as one line: form borders and line breaks
// gone, spaces collapsed, so a wrapped sentence still matches.
func words(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "| ")
		out = append(out, strings.Fields(l)...)
	}
	return strings.Join(out, " ")
}
