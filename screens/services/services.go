// Package services is the Services screen: the table of database services,
// their detail pane, the create form, the credentials view and the allow
// list. It talks to the API only through tea.Cmds, polls through the root's
// engine (Resources) and mutates through the root's action layer (kit.Do).
package services

import (
	"context"
	"errors"
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// ID is the screen's name on the command line.
const ID = "services"

// LaunchEstimate is how long a launch takes, per the interface document.
const LaunchEstimate = 5 * time.Minute

// WideWidth is the width from which the detail pane goes to the right.
const WideWidth = kit.WideWidth

type mode int

const (
	modeList mode = iota
	modeCreate
	modeReview
	modeCreds
	modeAllow
	modeScale
)

// The orders of the list (kit.ListView.SetSort): s cycles, created
// newest first.
const (
	sortName = iota
	sortStatus
	sortCreated
)

// Column indices.
const (
	colName = iota
	colID
	colStatus
	colWhere
	colSize
	colNodes
	colCreated
	colVersion
	colRW
)

// Screen is the Services screen.
type Screen struct {
	kit.Name
	*kit.ListView
	common *kit.Common
	keys   keyMap
	mode   mode

	services []api.Service
	byID     map[string]int
	// created holds services this screen launched that the listing does
	// not show yet, so they appear at once.
	created map[string]api.Service
	// lastStatus remembers statuses to notice pending -> ready.
	lastStatus map[string]string
	// started holds the services whose start this screen sent and the
	// server carried out (answered, or found so after an unknown outcome):
	// the start's watch (kit.ServiceWatch) says when each is ready, on any
	// screen, so the listing does not say it again.
	started map[string]bool

	form       *createForm
	draft      *draft // what was typed, kept across cancel and failure
	submitting string
	// submitErr is why the last launch did not happen: the API's refusal
	// (an HTTP status), or, notSent, what stopped it before the API could
	// answer: the no to its question (declined), a read-only profile, a
	// launch already under way, a connection refused.
	submitErr         string
	notSent, declined bool
	// maybeSent names the service whose launch was sent and never
	// answered: the draft (n) says it may have been carried out, until
	// the next launch
	maybeSent string

	creds *credsView
	allow *allowView
	scale *scaleView
	// what was typed in each service's allow list, kept while it is closed
	allowDrafts allowDrafts
	// opening is a command-line verb that waits for the listing.
	opening *openRequest

	// the database shell's client finder and runner (connect.go; tests
	// replace them)
	findClient func(context.Context) (string, bool, error)
	exec       func(tea.ExecCommand, tea.ExecCallback) tea.Cmd
}

// New builds the screen.
func New(c *kit.Common) *Screen {
	s := &Screen{
		Name:       kit.NewName(ID, "Services"),
		common:     c,
		keys:       newKeyMap(),
		byID:       map[string]int{},
		created:    map[string]api.Service{},
		lastStatus: map[string]string{},
		started:    map[string]bool{},
		exec:       tea.Exec,
	}
	// Narrow terminals drop columns from the lowest priority rather than
	// truncate everything; the detail pane shows what was dropped.
	s.ListView = kit.NewListView(c, "Services", "services", []kit.Column{
		colName:    {Title: "NAME", Min: 16, Max: 24, Priority: 10},
		colID:      {Title: "ID", Min: 13, Max: 16, Priority: 8},
		colStatus:  {Title: "STATUS", Min: 24, Max: 30, Priority: 9},
		colWhere:   {Title: "PROVIDER/REGION", Min: 14, Max: 24, Priority: 7},
		colSize:    {Title: "SIZE", Min: 8, Max: 14, Priority: 6},
		colNodes:   {Title: "NODES", Min: 5, Max: 5, Priority: 5, Right: true},
		colCreated: {Title: "CREATED", Min: 12, Max: 12, Priority: 4},
		colVersion: {Title: "VERSION", Min: 8, Max: 14, Priority: 3},
		colRW:      {Title: "READWRITE", Min: 40, Max: 52, Priority: 2},
	})
	s.PaneOf = s.pane
	s.Rebuild, s.Moving = s.rebuildRows, s.anyPending
	s.SetSort(sortName, kit.Asc("name"), kit.Asc("status"), kit.Desc("created"))
	s.Table.SetSortIndicator(colName, false)
	s.DetailOf = s.detailOf
	s.Changes = []key.Binding{s.keys.Create, s.keys.StopStart, s.keys.Delete, s.keys.Scale}
	k := s.keys
	s.OnRow = []key.Binding{k.StopStart, k.Scale, k.Delete, k.Creds, k.Allow, k.Shell, k.Backups, k.Restores}
	return s
}

// pane is the sub-view shown instead of the list (nil: the list).
func (s *Screen) pane() kit.Pane {
	switch {
	case s.mode == modeCreate && s.form != nil:
		return s.form
	case s.mode == modeReview:
		return reviewPane{s}
	case s.mode == modeCreds && s.creds != nil:
		return s.creds
	case s.mode == modeAllow && s.allow != nil:
		return s.allow
	case s.mode == modeScale && s.scale != nil:
		return s.scale
	}
	return nil
}

// Resources implements kit.Screen: the listing, and the allow list of the
// service whose allow list is open.
func (s *Screen) Resources() []kit.Resource {
	res := []kit.Resource{kit.Services(s.common)}
	if s.mode == modeAllow && s.allow != nil {
		res = append(res, s.allow.resource())
	}
	return res
}

// ---- data ----

// Update implements kit.Screen.
func (s *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case kit.DataMsg:
		return s, s.onData(msg)
	case kit.ActionSentMsg:
		if tag, ok := msg.Tag.(createTag); ok {
			s.submitting = "create service " + tag.name
		}
		return s, nil
	case kit.ActionDoneMsg:
		return s, s.onActionDone(msg)
	case formDoneMsg:
		return s, s.onFormDone(msg)
	case shellReadyMsg:
		return s, s.onShellReady(msg)
	case shellDoneMsg:
		return s, s.onShellDone(msg)
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	}
	// the clock (the list's rows), the open pane's messages (form
	// internals, what it asked for, the input's cursor), else the list's
	return s, s.ListView.Update(msg)
}

func (s *Screen) onData(msg kit.DataMsg) tea.Cmd {
	if s.allow != nil {
		if mine, cmd := s.allow.onData(msg); mine {
			return cmd
		}
	}
	svcs, err, ok := kit.ServicesKey.Of(msg)
	switch {
	case !ok:
		return nil
	case err != nil:
		s.Failed(err)
		if o := s.opening; o != nil && o.verb != "" && s.IsLoaded() {
			// the verb waited for the listing to be read again: not done
			// on the old one, nor later, unasked
			s.opening = nil
			return kit.Toast(kit.ToastWarn, fmt.Sprintf(":%s %s not done: the services could not be read again to see %s as it is now", o.verb, o.name, o.name))
		}
		return nil
	}
	return s.setServices(svcs)
}

// setServices replaces the listing, keeps services just created that the
// listing does not show yet, and toasts the services that became ready.
func (s *Screen) setServices(svcs []api.Service) tea.Cmd {
	s.Loaded(kit.Invite(s.common, "no services yet", "press n to create one"))
	seen := make(map[string]bool, len(svcs))
	for _, v := range svcs {
		seen[v.ID] = true
	}
	for id, v := range s.created {
		if seen[id] {
			delete(s.created, id)
			continue
		}
		svcs = append(svcs, v)
	}
	var cmds []tea.Cmd
	first := len(s.lastStatus) == 0
	next := make(map[string]string, len(svcs))
	for _, v := range svcs {
		prev, ok := s.lastStatus[v.ID]
		if !first && ok && api.IsPendingServiceStatus(prev) && v.Ready() && !s.started[v.ID] {
			cmds = append(cmds, kit.Toast(kit.ToastSuccess, fmt.Sprintf("service %s (%s) is ready", v.Name, v.ID)))
		}
		if !v.Pending() && (api.IsPendingServiceStatus(prev) || !api.StatusIs(v.Status, "stopped")) {
			delete(s.started, v.ID) // the start's end, whatever it was, is past
		}
		next[v.ID] = v.Status
	}
	for id := range s.started {
		if _, listed := next[id]; !listed {
			delete(s.started, id)
		}
	}
	s.lastStatus = next
	s.services = svcs
	s.rebuildRows()
	if s.opening != nil {
		o := s.opening
		s.opening = nil
		cmds = append(cmds, s.openNow(o.verb, o.name, true))
	}
	if s.creds != nil {
		if v, ok := s.service(s.creds.svc.ID); ok {
			cmds = append(cmds, s.creds.onService(v))
		}
	}
	if s.allow != nil {
		if v, ok := s.service(s.allow.svc.ID); ok {
			s.allow.svc = v
		}
	}
	return tea.Batch(cmds...)
}

func (s *Screen) service(id string) (api.Service, bool) {
	i, ok := s.byID[id]
	if !ok {
		return api.Service{}, false
	}
	return s.services[i], true
}

func (s *Screen) selected() (api.Service, bool) {
	return s.service(s.SelectedID())
}

func (s *Screen) anyPending() bool { return kit.AnyPendingService(s.services) }

// ---- keys ----

func (s *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	switch s.mode {
	case modeCreate:
		if key.Matches(msg, s.keys.FormCancel) && !s.form.filtering() {
			s.draft = s.form.left()
			s.form = nil
			s.mode = modeList
			return kit.Toast(kit.ToastInfo, "create cancelled; n brings back what you typed")
		}
		return s.form.Update(msg)
	case modeReview:
		return s.onReviewKey(msg)
	case modeCreds:
		return s.onCredsKey(msg)
	case modeScale:
		return s.onScaleKey(msg)
	case modeAllow:
		if s.allow.leaves(msg) {
			s.allow = nil
			s.mode = modeList
			return nil
		}
		return s.allow.onKey(msg)
	}
	// list mode
	if s.Capturing() {
		_, cmd := s.HandleKey(msg)
		return cmd
	}
	k := s.keys
	switch {
	case key.Matches(msg, k.Create):
		return s.openCreate()
	case key.Matches(msg, k.Backups), key.Matches(msg, k.Restores), key.Matches(msg, k.Shell):
		v, ok := s.selected()
		switch {
		case !ok:
			return nil
		case key.Matches(msg, k.Backups):
			return kit.Jump("backups", v.ID)
		case key.Matches(msg, k.Restores):
			return kit.Jump("restores", v.ID)
		}
		return s.openShell(v)
	case key.Matches(msg, k.Creds):
		v, ok := s.selected()
		if !ok {
			return nil
		}
		s.creds = newCredsView(s.common, s.keys, v)
		s.creds.SetSize(s.Size())
		s.mode = modeCreds
		return s.creds.load()
	case key.Matches(msg, k.StopStart):
		if v, ok := s.selected(); ok {
			return s.stopStart(v)
		}
		return nil
	case key.Matches(msg, k.Delete):
		if v, ok := s.selected(); ok {
			return s.deleteService(v)
		}
		return nil
	case key.Matches(msg, k.Scale):
		if v, ok := s.selected(); ok {
			return s.openScale(v)
		}
		return nil
	case key.Matches(msg, k.Allow):
		v, ok := s.selected()
		if !ok {
			return nil
		}
		s.allow = newAllowView(s.common, s.keys, v, &s.allowDrafts)
		w, h := s.Size()
		s.allow.SetSize(w, h)
		s.mode = modeAllow
		return nil
	}
	_, cmd := s.HandleKey(msg)
	return cmd
}

// ---- actions ----

// createTag marks the create action's answer.
type createTag struct{ name string }

func (s *Screen) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	switch tag := msg.Tag.(type) {
	case createTag:
		s.submitting = ""
		if api.IsOutcomeUnknown(msg.Err) {
			// sent, never answered: the root's dialog shows whether the
			// service appeared; the form stays a draft (n), not a retry,
			// saying the launch may have been carried out
			s.submitErr, s.notSent, s.declined = "", false, false
			s.maybeSent = tag.name
			if s.mode == modeReview {
				s.mode = modeList
			}
			return nil
		}
		s.maybeSent = "" // answered (or refused before it was sent)
		if msg.Err != nil {
			// back to the review with everything typed kept
			s.submitErr = msg.Err.Error()
			s.declined = errors.Is(msg.Err, kit.ErrCancelled)
			s.notSent = api.StatusOf(msg.Err) == 0 // no answer of the API: as the restore wizard decides
			s.mode = modeReview
			if s.draft != nil {
				// from the top: the request's start, and why, when it
				// scrolls with the request, above it
				s.draft.top = 0
			}
			return nil
		}
		s.draft, s.submitErr, s.notSent, s.declined = nil, "", false, false
		v, ok := msg.Result.(*api.Service)
		if !ok || v == nil || v.ID == "" {
			return nil // accepted without a readable record: the refresh shows it
		}
		if v.Status == "" {
			v.Status = "pending_create"
		}
		if v.Name == "" {
			v.Name = tag.name
		}
		if v.CreatedOn.IsZero() {
			v.CreatedOn = api.UnixTime{Time: s.common.Time()}
		}
		s.created[v.ID] = *v
		if _, known := s.byID[v.ID]; !known {
			s.services = append(s.services, *v)
		}
		s.lastStatus[v.ID] = v.Status
		s.rebuildRows()
		s.Table.SetFilter("")
		s.Table.Select(v.ID)
		s.RefreshDetail()
		return nil
	case allowTag:
		s.allowDrafts.done(msg, tag)
		if s.allow != nil {
			return s.allow.onActionDone(msg, tag)
		}
	case lifecycleTag:
		if tag.verb == "start" && msg.Err == nil {
			s.started[tag.serviceID] = true // its watch says when it is ready
		}
		if tag.verb == "scale" && s.mode == modeScale && s.scale != nil && s.scale.svc.ID == tag.serviceID &&
			(msg.Err == nil || api.IsOutcomeUnknown(msg.Err)) {
			s.scale, s.mode = nil, modeList
		}
		if s.allow != nil {
			s.allow.onLifecycleDone(msg, tag)
		}
	}
	return nil
}

// ---- view ----

// View implements kit.Screen.
func (s *Screen) View() string {
	if p := s.pane(); p != nil {
		return p.View()
	}
	th := s.common.Theme
	note := th.Muted.Render(s.SortNote())
	if s.submitting != "" {
		note += "  " + th.Pending.Render("submitting "+s.submitting+th.Glyphs.Ellipsis)
	}
	return s.ListView.View("", note)
}

// MouseList implements kit.MouseList: the list, while it is shown.
func (s *Screen) MouseList() (*kit.ListView, int) {
	if s.mode != modeList {
		return nil, 0
	}
	return s.ListView, 0
}
