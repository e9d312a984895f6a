package backupform

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// The review step: the request as it will be sent (credentials redacted),
// the submit through the action layer, and the form's view and keys.

func (b *Form) reviewKey(msg tea.KeyPressMsg) tea.Cmd {
	if d := kit.ScrollDir(msg, kit.ReviewKeys.More, kit.ReviewKeys.Less); d != 0 {
		b.top = b.reviewLayout().Scroll(b.height, b.top, d)
		return nil
	}
	switch {
	case key.Matches(msg, b.keys.ReviewQuit):
		return b.cancel()
	case key.Matches(msg, b.keys.Edit):
		// to the field the refusal names (the API's first), else the start
		field := b.namedField(b.submitErr)
		if field == "" {
			field = b.namedField(b.reviewErr)
		}
		b.step = phaseForm
		b.submitErr, b.reviewErr = "", ""
		b.build()
		init := b.form.Init()
		return tea.Batch(init, kit.FocusField(b.form, b.groups, b.fields[field]))
	case key.Matches(msg, b.keys.Submit):
		if b.submitted {
			return nil // once
		}
		if err := b.check(); err != nil {
			b.reviewErr = err.Error()
			return nil
		}
		if end, hidden := b.reviewLayout().End(b.height, b.top); hidden {
			// what would be sent is below the window: it is shown first,
			// and the next enter submits
			b.top = end
			return kit.Toast(kit.ToastInfo, "the end of the request is shown: "+b.keys.Submit.Help().Key+" submits")
		}
		return b.submit()
	}
	return nil
}

func (b *Form) submit() tea.Cmd {
	d := b.Draft()
	req, err := d.Request(b.svc.ID)
	if err != nil {
		b.reviewErr = err.Error()
		return nil
	}
	b.submitted = true
	b.submitErr = ""
	a := b.action(req, d)
	shown := b.shownRequest(req, d)
	return func() tea.Msg {
		return SubmitMsg{Form: b, Request: shown, Credential: credName(d), Action: a}
	}
}

func credName(d Draft) string {
	if d.Destination == DestBucket {
		return d.Credential
	}
	return ""
}

// shownRequest is the request with the credentials replaced by a note.
func (b *Form) shownRequest(req api.ScheduleRequest, d Draft) api.ScheduleRequest {
	if req.ExternalStorage != nil {
		es := *req.ExternalStorage
		es.Bucket.Credentials = Redacted(d.Credential, b.credentialKind(d.Credential))
		req.ExternalStorage = &es
	}
	return req
}

// What says in words what the request does.
func What(req api.ScheduleRequest, svcName string) string {
	where := ""
	if req.ExternalStorage != nil {
		where = " to " + req.ExternalStorage.Bucket.Path
	}
	if req.Schedule == "once" {
		return req.BackupType + " backup of " + svcName + where
	}
	desc := api.DescribeCron(req.Schedule)
	if desc == "" {
		desc = "on cron " + req.Schedule
	}
	return req.BackupType + " backup of " + svcName + where + ", " + desc
}

// action sends req once; the credentials are read from the keystore and
// encoded inside Run, so the form never holds them.
func (b *Form) action(req api.ScheduleRequest, d Draft) kit.Action {
	client, secrets := b.common.Client, b.common.Secrets
	svcName := b.svc.Name
	if svcName == "" {
		svcName = b.svc.ID
	}
	credential := credName(d)
	name := What(req, svcName)
	if req.Schedule != "once" {
		name = "schedule " + name
	}
	keyParts := []string{"backup", req.ServiceID, req.BackupType, req.Schedule}
	if req.ExternalStorage != nil {
		keyParts = append(keyParts, req.ExternalStorage.Bucket.Path)
	}
	return kit.Action{
		Name:     name,
		Key:      strings.Join(keyParts, ":"),
		Mutating: true,
		Run: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errors.New("no API client")
			}
			if req.ExternalStorage != nil {
				enc, err := keystore.EncodeForBucket(secrets, credential, req.ExternalStorage.Bucket.Path)
				if err != nil {
					return nil, err
				}
				es := *req.ExternalStorage
				es.Bucket.Credentials = enc
				req.ExternalStorage = &es
			}
			return client.CreateSchedule(ctx, req)
		},
		Success: func(r any) string {
			sc, _ := r.(*api.Schedule)
			switch {
			case sc == nil:
				return name + ": submitted"
			case sc.ID == 0 && req.Schedule == "once":
				return "backup job started: " + What(req, svcName)
			case sc.ID == 0:
				return "backup schedule created: " + What(req, svcName)
			}
			if req.Schedule == "once" {
				msg := fmt.Sprintf("backup job %d started: %s", int64(sc.ID), What(req, svcName))
				if sc.BackupID != "" {
					msg += " (backup " + api.ShortKey(sc.BackupID) + ")"
				}
				return msg
			}
			return fmt.Sprintf("backup schedule %d created: %s", int64(sc.ID), What(req, svcName))
		},
		Refresh:    []string{kit.BackupsKey(req.ServiceID).String(), kit.SchedulesKey(req.ServiceID).String()},
		Evidence:   kit.BackupJobsEvidence(client, req.ServiceID),
		EvidenceOf: "the backup jobs and backups of " + svcName,
	}
}

// RequestJSON is the body shown in the review, indented.
func RequestJSON(req api.ScheduleRequest) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the redaction note's <…> as typed
	enc.SetIndent("", "  ")
	if err := enc.Encode(req); err != nil {
		return err.Error()
	}
	return strings.TrimRight(buf.String(), "\n")
}

// ---- view ----

// View renders the form or the review in the area given by SetSize.
func (b *Form) View() string {
	if b.step == phaseReview {
		return b.reviewLayout().View(b.common, b.width, b.height, b.top)
	}
	th := b.common.Theme
	name := b.svc.Name
	if name == "" {
		name = b.svc.ID
	}
	head := ansi.Truncate(th.Bold.Render(" New backup of "+name), b.width, th.Glyphs.Ellipsis)
	form := kit.FormView(b.common, b.form, b.formHeight())
	warn := b.serviceWarning()
	if warn != "" {
		head += "\n" + th.Warn.Render(ansi.Truncate(" ! "+warn, b.width, th.Glyphs.Ellipsis))
	}
	more := func(form string) string {
		return kit.FormCut(b.common, b.form, b.groups, b.fields, form, b.keys.Next, b.keys.Prev, b.width)
	}
	mark := more(form)
	switch {
	case mark == "" && warn == "":
		return head + "\n\n" + form
	case mark == "":
		return head + "\n" + form
	case warn != "":
		// the warning keeps the heading's second line: the form gives its
		// last line to the one naming the fields it does not show
		lines := strings.Split(form, "\n")
		form = strings.Join(lines[:max(0, len(lines)-1)], "\n")
		return head + "\n" + form + "\n" + more(form)
	}
	// a step that does not fit ends with a line naming the fields below
	// and above, as the new service's (the blank line under the heading
	// makes room for it)
	return head + "\n" + form + "\n" + mark
}

func (b *Form) serviceWarning() string {
	if b.svc.Status == "" || b.svc.Ready() {
		return ""
	}
	return fmt.Sprintf("%s is %s: the API takes backups of a ready service only", b.svc.Name, b.svc.Status)
}

// reviewLayout is the review in three parts: what stays on top (the
// title and the request line), the request, which scrolls when the area is
// too short for it (J/K, as the new service's review), and what is said
// of it (when it repeats, the service's state, a broken rule, the API's
// refusal), under it. When what is said leaves the request fewer than
// kit.ReviewMinRows lines, it scrolls too, above the request (a refusal is
// then the first thing seen), and tail is empty.
func (b *Form) reviewLayout() kit.Review {
	th := b.common.Theme
	w, h := b.width, b.height
	d := b.Draft()
	req, _ := d.Request(b.svc.ID)
	shown := b.shownRequest(req, d)
	// the request line, whole (wrapped if need be); the keys are the
	// footer's
	head := []string{th.Bold.Render(" Review: this is the request that will be sent")}
	for _, l := range strings.Split(kit.Wrap("POST "+b.backupPath("/backups/schedules"), max(10, w-1), " ", "/"), "\n") {
		head = append(head, th.Muted.Render(" "+l))
	}
	head = append(head, "")
	var request []string
	for _, l := range strings.Split(RequestJSON(shown), "\n") {
		for _, wl := range wrapJSONLine(l, max(10, w-4)) {
			request = append(request, "   "+th.Code.Render(wl))
		}
	}
	svcName := b.svc.Name
	if svcName == "" {
		svcName = b.svc.ID
	}
	// the answer to the last submit first: on a short terminal what is
	// said scrolls with the request, and the refusal (its trace ID) is
	// what the user looks for
	var tail []string
	if b.reviewErr != "" {
		for _, l := range strings.Split(b.reviewErr, "\n") {
			tail = append(tail, th.Error.Render(kit.Said("! "+l, w)))
		}
		tail = append(tail, th.Muted.Render(" "+b.editHint(b.reviewErr)))
	}
	if b.submitErr != "" {
		tail = append(tail, th.Error.Render(kit.Said("! the API refused it: "+b.submitErr, w)))
		tail = append(tail, th.Muted.Render(" everything you typed is kept: "+b.editHint(b.submitErr)+", enter to try again"))
	}
	if wn := b.serviceWarning(); wn != "" {
		tail = append(tail, th.Warn.Render(kit.Said("! "+wn, w)))
	}
	if wn := b.sameScheduleWarning(req, svcName); wn != "" {
		tail = append(tail, th.Warn.Render(kit.Said("! "+wn, w)))
	}
	switch {
	case b.reviewErr != "":
		// refused here: nothing starts or repeats until it is mended
	case req.Schedule == "once":
		tail = append(tail, " "+strings.ReplaceAll(kit.Wrap("Starts now: "+What(req, svcName)+". It appears in the list at once and is followed until it completes.", max(10, w-2)), "\n", "\n "))
	case req.Schedule != "":
		tail = append(tail, " "+strings.ReplaceAll(kit.Wrap("Repeats: "+What(req, svcName)+".", max(10, w-2)), "\n", "\n "))
		runs := api.RunLines(req.Schedule, b.common.Time(), 3, nil)
		if h < 30 && len(runs) > 1 {
			runs = runs[:1] // small terminal: the request first
		}
		for _, l := range runs {
			tail = append(tail, th.Muted.Render("   next "+l))
		}
	}
	if len(tail) > 0 {
		tail = strings.Split(strings.Join(tail, "\n"), "\n")
	}
	return kit.NewReview(h, head, tail, request, true)
}

// wrapJSONLine wraps one line of the indented request to width between
// words (a single token longer than the line is the only thing broken);
// its continuation lines are indented two more than the line, so they
// read as part of its value.
func wrapJSONLine(l string, width int) []string {
	if ansi.StringWidth(l) <= width {
		return []string{l}
	}
	text := strings.TrimLeft(l, " ")
	indent := l[:len(l)-len(text)]
	if len(indent)+2 > width/2 {
		indent = ""
	}
	out := strings.Split(kit.Wrap(text, max(1, width-len(indent)-2)), "\n")
	for i := range out {
		if i == 0 {
			out[i] = indent + out[i]
		} else {
			out[i] = indent + "  " + out[i]
		}
	}
	return out
}

// formKeys are the form's bindings. In the form phase huh moves between
// the fields (Next and Prev are its keys, listed for help); esc, the
// review's keys and the help are the form's own.
type formKeys struct {
	Next, Prev, Cancel       key.Binding
	Reload                   key.Binding // the stored credentials, read again
	Submit, Edit, ReviewQuit key.Binding
}

func newFormKeys() formKeys {
	return formKeys{
		Next:   kit.BindHelp("enter/tab", "next", "enter", "tab"),
		Prev:   kit.Bind("shift+tab", "previous"),
		Cancel: kit.Bind("esc", "cancel (keeps input)"),
		Reload: kit.Bind("ctrl+r", "re-read credentials"),
		Submit: kit.Bind("enter", "submit", "y"),
		Edit:   kit.Bind("e", "edit", "backspace"),
		// the review's esc, in words a 60-column footer has room for
		// beside submit and edit (the draft is kept there too)
		ReviewQuit: kit.Bind("esc", "cancel"),
	}
}

// KeyMap implements kit.Pane: the bindings of the current phase (in the
// review submit, edit and esc first, then the scroll while the request
// is cut).
func (b *Form) KeyMap() kit.Keys {
	keys := b.Keys()
	return kit.KeysOf(keys...)
}

// Keys lists the form's bindings in its current phase, for help.
func (b *Form) Keys() []key.Binding {
	k := b.keys
	if b.step == phaseReview {
		keys := []key.Binding{k.Submit, k.Edit, k.ReviewQuit}
		if b.reviewErr != "" {
			// refused here: enter would be refused again, e mends it
			keys = keys[1:]
		}
		if _, _, cut := b.reviewLayout().Window(b.height, b.top); cut {
			keys = append(keys, kit.ScrollHelp(kit.ReviewKeys.More, kit.ReviewKeys.Less))
		}
		return keys
	}
	if b.onBucketStep() {
		// a credential added meanwhile (skytui creds add) is listed
		return []key.Binding{k.Next, k.Prev, k.Cancel, k.Reload}
	}
	return []key.Binding{k.Next, k.Prev, k.Cancel}
}

// onBucketStep reports that the form shows its own-bucket step (the
// path and the stored credentials).
func (b *Form) onBucketStep() bool {
	f := b.form.GetFocusedField()
	return b.step == phaseForm && f != nil && (f == b.fields["bucket path"] || f == b.fields["credentials"])
}

// backupPath is the path the request goes to, as the client sends it.
func (b *Form) backupPath(p string) string {
	if b.common.Client == nil {
		return api.DefaultBackupPrefix + p
	}
	return b.common.Client.BackupPath(p)
}
