package cli

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
)

// TestChangeAnswerReported: the four changes that answer a record
// (services create, backups create, restores create, schedules edit)
// report that answer alike: an answer that never came is "outcome
// unknown" naming the command that shows what happened (exit 1); an
// accepted answer that could not be read is said on stderr and the change
// stands (exit 0, the record on stdout); a request rule the client refuses
// names the flag (exit 2, nothing sent).
func TestChangeAnswerReported(t *testing.T) {
	h, sb := newChangeHarness(t)
	sched := dailySchedule(t, h)
	key := newestBackupKey(t, h, sandbox.DemoOrders)
	create := []string{"services", "create", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8", "--storage", "100"}
	const (
		unread  = ": invalid character '<' looking for beginning of value\n"
		dropped = "skytui: outcome unknown: the request was sent and no answer came back: EOF "
	)
	for _, c := range []struct {
		name         string
		fault        sandbox.AfterFault
		method, path string
		args         []string
		code         int
		stderr       string
		json         map[string]any // fields of -o json's record
	}{
		{"services create, unreadable", sandbox.AnswerUnreadable, "POST", "/provisioning/v1/services",
			append(create, "--name", "cli-unread", "-o", "json"), 0,
			"skytui: accepted; the answer could not be read: 202 answer to POST /provisioning/v1/services" + unread,
			map[string]any{"name": "cli-unread", "status": "pending_create"}},
		{"services create, dropped", sandbox.AnswerDropped, "POST", "/provisioning/v1/services",
			append(create, "--name", "cli-dropped", "-o", "json"), exitFailed,
			dropped + "(POST /provisioning/v1/services); it may have been carried out: check with `skytui services get cli-dropped` before sending it again\n", nil},
		{"backups create, unreadable", sandbox.AnswerUnreadable, "POST", "/skybackup/v1/backups/schedules",
			[]string{"backups", "create", "--service", sandbox.DemoOrders, "--type", "dump", "-o", "json"}, 0,
			"skytui: accepted; the answer could not be read: 200 answer to POST /skybackup/v1/backups/schedules" + unread,
			map[string]any{"type": "dump", "schedule": "once"}},
		{"backups create, dropped", sandbox.AnswerDropped, "POST", "/skybackup/v1/backups/schedules",
			[]string{"backups", "create", "--service", sandbox.DemoOrders, "--type", "dump", "-o", "json"}, exitFailed,
			dropped + "(POST /skybackup/v1/backups/schedules); it may have been carried out: check with `skytui backups list --service orders-prod` and `skytui schedules list --service orders-prod` before sending it again\n", nil},
		{"restores create, unreadable", sandbox.AnswerUnreadable, "POST", "/skybackup/v1/restores",
			[]string{"restores", "create", "--service", sandbox.DemoReplica, "--backup", key, "--yes", "--confirm", sandbox.DemoReplica, "-o", "json"}, 0,
			"skytui: accepted; the answer could not be read: ", nil},
		{"schedules edit, unreadable", sandbox.AnswerUnreadable, "PATCH", "/skybackup/v1/backups/schedules/{id}",
			[]string{"schedules", "edit", sched, "--cron", "0 4 * * *", "-o", "json"}, 0,
			"skytui: accepted; the answer could not be read: 200 answer to PATCH /skybackup/v1/backups/schedules/" + sched + unread,
			map[string]any{"cron": "0 4 * * *"}},
		{"schedules edit, dropped", sandbox.AnswerDropped, "PATCH", "/skybackup/v1/backups/schedules/{id}",
			[]string{"schedules", "edit", sched, "--cron", "0 5 * * *"}, exitFailed,
			dropped + "(PATCH /skybackup/v1/backups/schedules/" + sched + "); it may have been carried out: check with `skytui schedules get " + sched + "` before sending it again\n", nil},
		{"schedules edit, a type the live service does not take", "", "", "",
			[]string{"schedules", "edit", sched, "--type", "logical"}, exitUsage,
			"skytui: invalid request: --type (backup_type): the live service takes full, incremental, binarylog, dump or snapshot: its logical (SQL) backup is dump\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.fault != "" {
				if err := sb.ArmFault(sandbox.ArmedFault{Kind: c.fault, Method: c.method, Path: c.path}); err != nil {
					t.Fatal(err)
				}
			}
			patches := sb.Stats().Count("PATCH", "/skybackup/v1/backups/schedules/{id}")
			stdout, stderr, code := h.script(h.live(c.args...)...)
			switch {
			case code != c.code:
				t.Errorf("exit %d, want %d\n%s", code, c.code, stderr)
			case c.code != 0 && stdout != "":
				t.Errorf("stdout on an error:\n%s", stdout)
			case !strings.HasPrefix(stderr, c.stderr) || strings.Count(stderr, "\n") != 1:
				t.Errorf("stderr\n%q, want\n%q", stderr, c.stderr)
			}
			if c.code == 0 {
				got := decodeJSON[map[string]any](t, stdout)
				for k, v := range c.json {
					if got[k] != v {
						t.Errorf("-o json %s = %v, want %v (%v)", k, got[k], v, got)
					}
				}
			}
			if sent := sb.Stats().Count("PATCH", "/skybackup/v1/backups/schedules/{id}") - patches; c.fault == "" && sent != 0 {
				t.Errorf("%d PATCHes sent by a refused request", sent)
			}
		})
	}
}

// TestAnswered: what the four changes share, on answers the sandbox does
// not give them: a refusal naming a field (one the command's own checks
// missed) is that flag's usage error; a refused field no flag sets keeps
// its name; a 404 is exit 4.
func TestAnswered(t *testing.T) {
	var stderr strings.Builder
	e := &env{stderr: &stderr}
	flags := map[string]string{"backup_type": "--type"}
	for _, c := range []struct {
		err  error
		code int
		want string
	}{
		{&api.FieldError{Field: "backup_type", Rule: "is not taken here"}, exitUsage, "invalid request: --type (backup_type): is not taken here"},
		{api.ValidationErrors{{Field: "backup_type", Rule: "a"}, {Field: "service_id", Rule: "b"}}, exitUsage, "invalid request: --type (backup_type): a; service_id: b"},
		{&api.Error{Method: "PATCH", Path: "/x", Status: 404, Message: "gone"}, exitNotFound, "404 Not Found: gone (PATCH /x)"},
		{&api.Error{Method: "PATCH", Path: "/x", Status: 409, Message: "busy"}, exitFailed, "409 Conflict: busy (PATCH /x)"},
		{&api.Error{Method: "PATCH", Path: "/x", Unknown: true}, exitFailed, "outcome unknown: the request was sent and no answer came back (PATCH /x); it may have been carried out: check with `skytui schedules get 1` before sending it again"},
	} {
		err := e.answered((*api.Schedule)(nil), c.err, flags, "skytui schedules get 1")
		var eb strings.Builder
		if code := reportError(&eb, err); code != c.code || eb.String() != "skytui: "+c.want+"\n" {
			t.Errorf("%v: exit %d %q, want %d %q", c.err, code, eb.String(), c.code, c.want)
		}
	}
	if err := e.answered(&api.Schedule{}, nil, flags, ""); err != nil || stderr.Len() != 0 {
		t.Errorf("a read answer: %v, stderr %q", err, stderr.String())
	}
	sc := &api.Schedule{}
	sc.Unreadable = "200 answer to PATCH /x: not JSON\x1b[2J"
	if err := e.answered(sc, nil, flags, ""); err != nil || stderr.String() != "skytui: accepted; the answer could not be read: 200 answer to PATCH /x: not JSON\n" {
		t.Errorf("an unreadable answer: %v, stderr %q", err, stderr.String())
	}
}
