package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The header: the profile, its host and org, the badges and how fresh the
// data is, dropping parts whole on a narrow terminal (headerDrops).

func (m *Model) headerView(w int) string {
	th := m.common.Theme
	// narrow: the parts go one by one, the least telling first (see
	// headerDrops), until how fresh the data is has its room
	var p headerParts
	for _, p = range headerDrops {
		if w-ansi.StringWidth(m.headerLeft(p))-3 >= ansi.StringWidth(m.pausedMark(p.hint))+m.freshnessRoom(p.hint) {
			break
		}
	}
	left := m.headerLeft(p)
	lw := ansi.StringWidth(left)
	room := w - lw - 3 // two spaces between the parts, one at the edge
	if room < 12 {
		left = ansi.Truncate(left, w, th.Glyphs.Ellipsis)
		return left
	}
	right := m.freshnessView(room, p.hint)
	if spin := m.spinnerView(); spin != "" && (ansi.StringWidth(right) > room || ansi.StringWidth(spin+right) <= room) {
		right = spin + right // never the cause of a cut: where it would be, it is left out
	}
	if ansi.StringWidth(right) > room {
		right = ansi.Truncate(right, room, th.Glyphs.Ellipsis)
	}
	return left + strings.Repeat(" ", max(2, w-lw-ansi.StringWidth(right)-1)) + right
}

// minFreshness is the room the header keeps for how fresh the data is
// ("updated 12s ago"), after the paused mark, before it drops anything.
const minFreshness = 16

// minReason is the least of a failed refresh's reason the header shows
// ("503 Service…"); with less room it leaves the reason out whole.
const minReason = 12

// freshnessRoom is the room the header keeps for how fresh the data is:
// minFreshness, or while a refresh fails with data shown, the narrow
// "stale 12:00:00, retry 12:00:16 — " and minReason cells of why. While
// polling is stopped it is the whole hint (long, where the host is all
// that went) or its short form, ":login" whole either way.
func (m *Model) freshnessRoom(long bool) int {
	if m.engine.stopped {
		return ansi.StringWidth(m.stoppedText(long))
	}
	lastOK, err, retryAt, _ := m.freshness()
	if err == nil || lastOK.IsZero() {
		return minFreshness
	}
	return max(minFreshness, ansi.StringWidth(m.staleText(lastOK, retryAt, true))+3+minReason)
}

// staleText is "stale since 12:00:00, retry 12:00:16" (short: "stale
// 12:00:00, …"), before the reason.
func (m *Model) staleText(lastOK, retryAt time.Time, short bool) string {
	text := "stale since " + lastOK.Local().Format("15:04:05")
	if short {
		text = "stale " + lastOK.Local().Format("15:04:05")
	}
	if !retryAt.IsZero() {
		text += ", retry " + retryAt.Local().Format("15:04:05")
	}
	return text
}

// headerParts says which of the header's droppable parts it shows.
type headerParts struct {
	host  bool // the API host
	hint  bool // "(p resumes)" after "paused"
	title bool // "skytui"
	label bool // "profile" before the profile's name
	org   bool // "org my-org"
}

// headerDrops is the header on ever narrower terminals: the first whose
// left part leaves room for the paused mark and how fresh the data is
// (minFreshness) is shown. The host goes first (the profile names it),
// then "(p resumes)" (the pause's toast and ? say it; "paused" stays) or
// the stopped polling's long hint (the short one keeps ":login"), then
// the app's name (the window's title says it), then the word
// "profile" (its name stays, first), then the org. The profile's name,
// the DEMO and READ-ONLY badges, "paused" and "updated …" stay.
var headerDrops = []headerParts{
	{host: true, hint: true, title: true, label: true, org: true},
	{hint: true, title: true, label: true, org: true},
	{title: true, label: true, org: true},
	{label: true, org: true},
	{org: true},
	{},
}

// headerLeft is the header's left part: the app's name, the profile
// (named "profile"), its host and its org (as p says), the DEMO and
// READ-ONLY badges.
func (m *Model) headerLeft(p headerParts) string {
	th := m.common.Theme
	var parts []string
	if p.title {
		parts = append(parts, th.Title.Render("skytui"))
	}
	if p.label {
		parts = append(parts, "profile "+th.Bold.Render(m.common.Profile))
	} else {
		parts = append(parts, th.Bold.Render(m.common.Profile))
	}
	if c := m.common.Client; c != nil {
		if p.host {
			parts = append(parts, c.Host())
		}
		if o := c.Org(); o != "" && p.org {
			parts = append(parts, "org "+o)
		}
	}
	if m.common.Demo {
		parts = append(parts, th.BadgeDemo.Render(" DEMO "))
	}
	if m.common.ReadOnly {
		parts = append(parts, th.BadgeRO.Render(" READ-ONLY "))
	}
	return " " + strings.Join(parts, "  ")
}

// pausedMark is what the header says before the freshness while p holds
// the polling: "paused (p resumes)", or "paused" alone (without hint);
// nothing when it is not paused. The freshness the engine stopped for
// (no API key, a refused key) says more, and has no mark.
func (m *Model) pausedMark(hint bool) string {
	if !m.engine.paused || m.engine.stopped {
		return ""
	}
	text := "paused"
	if hint {
		text += " (" + m.keys.Pause.Help().Key + " resumes)"
	}
	return m.common.Theme.Warn.Render(text) + "  "
}

// spinnerView is the spinner while a request is in flight, else nothing.
func (m *Model) spinnerView() string {
	th := m.common.Theme
	if m.engine.inFlight() || len(m.actions.running) > 0 {
		return th.Accent.Render(th.Spinner(m.spinFrame)) + " "
	}
	return ""
}

// freshnessView is the header's right part, for room cells, with
// "(p resumes)" after "paused" when hint: how fresh the data is.
func (m *Model) freshnessView(room int, hint bool) string {
	th := m.common.Theme
	if m.engine.stopped {
		text := m.stoppedText(true)
		if ansi.StringWidth(text) > room {
			text = m.stoppedText(false)
		}
		if errors.Is(m.engine.stopErr, errNoAPIKey) {
			return th.Warn.Render(text)
		}
		return th.Error.Render(text)
	}
	lastOK, err, retryAt, known := m.freshness()
	now := m.common.Wall() // the engine's clock
	paused := m.pausedMark(hint)
	retry := ""
	if !retryAt.IsZero() {
		retry = ", retry " + retryAt.Local().Format("15:04:05")
	}
	switch {
	case err != nil && lastOK.IsZero():
		return paused + th.Warn.Render("no data "+th.Glyphs.Dash+" "+reason(err)+retry)
	case err != nil:
		why := " " + th.Glyphs.Dash + " " + reason(err)
		text := m.staleText(lastOK, retryAt, false) + why
		if ansi.StringWidth(paused+text) > room {
			// narrow: the times first, the reason as far as it goes,
			// or (less than minReason of it) not at all: L has it whole
			text = m.staleText(lastOK, retryAt, true)
			if ansi.StringWidth(paused+text)+3+minReason <= room {
				text += why
			}
		}
		return paused + th.Warn.Render(text)
	case known && !lastOK.IsZero():
		return paused + th.Muted.Render("updated "+kit.Ago(now.Sub(lastOK))+" ago")
	case len(m.engine.order) == 0:
		return ""
	}
	return th.Muted.Render("loading" + th.Glyphs.Ellipsis)
}

// stoppedText is what the header says while polling is stopped (no API
// key, a refused key), long or short: both end in what to do, ":login".
func (m *Model) stoppedText(long bool) string {
	dash := m.common.Theme.Glyphs.Dash
	switch {
	case errors.Is(m.engine.stopErr, errNoAPIKey) && long:
		return "no API key for this profile " + dash + " :login to enter one"
	case errors.Is(m.engine.stopErr, errNoAPIKey):
		return "no API key " + dash + " :login"
	case long:
		return "API key refused (401): polling stopped " + dash + " :login or r to retry"
	}
	return "API key refused (401) " + dash + " :login or r"
}

// reason is the short form of a poll error for the header.
func reason(err error) string {
	var ae *api.Error
	if errors.As(err, &ae) {
		if ae.Status > 0 {
			msg := ae.Message
			if msg == "" && ae.Err != nil {
				msg = ae.Err.Error()
			}
			if msg == "" {
				return fmt.Sprintf("HTTP %d", ae.Status)
			}
			return fmt.Sprintf("HTTP %d: %s", ae.Status, msg)
		}
		if ae.Err != nil {
			return ae.Err.Error()
		}
	}
	return err.Error()
}

// freshness is the engine's status as the header tells it: while paused
// (p) nothing is retried, so no retry time is given.
func (m *Model) freshness() (lastOK time.Time, err error, retryAt time.Time, known bool) {
	lastOK, err, retryAt, known = m.engine.status()
	if m.engine.paused {
		retryAt = time.Time{}
	}
	return lastOK, err, retryAt, known
}
