package kit

import (
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// OutcomeCheckedMsg carries what the action layer found after a change
// whose outcome is unknown: the Evidence entries that appeared since the
// change was sent.
type OutcomeCheckedMsg struct {
	ID int
	// Found lists what appeared; All is set when there was nothing to
	// compare with (the first reading failed), so Found is everything,
	// which proves nothing: the dialog then cannot tell.
	Found []string
	All   bool
	Err   error
}

// OutcomeDialog tells the user that a change was sent and never answered,
// shows what a fresh reading found, and only then offers to send it again.
// The cursor starts on "Leave it"; "Send again" is a separate, explicit
// choice that answers ConfirmedMsg{Yes: true}.
type OutcomeDialog struct {
	ID       int
	common   *Common
	name     string // the action, "restore into orders-db"
	why      string // the error text
	of       string // what is read, "restores of orders-db"
	checking bool
	checked  OutcomeCheckedMsg
	// seen lists what a refreshed list showed of the change's effect on an
	// existing item (Action.Effect): "replica-west (db1): pending_stop".
	seen []string
	// effect says refreshed lists are checked for the change's effect
	// (Action.Effect): the dialog updates when one shows it
	effect   bool
	resend   bool // cursor on "Send again"
	answered bool
	keys     outcomeKeys

	width, height int
}

// outcomeKeys are the outcome dialog's bindings; its hint line is
// generated from them.
type outcomeKeys struct {
	Move, Leave, Choose key.Binding
}

func newOutcomeKeys() outcomeKeys {
	return outcomeKeys{
		Move:   moveBinding(),
		Leave:  Bind("esc", "leave it", "q", "n", "N"),
		Choose: Bind("enter", "choose", "space"),
	}
}

// NewOutcomeDialog builds the dialog; checking says a reading is under way
// (an OutcomeCheckedMsg with the same ID ends it).
func NewOutcomeDialog(c *Common, id int, name, why, of string, checking bool) *OutcomeDialog {
	return &OutcomeDialog{ID: id, common: c, name: name, why: why, of: of, checking: checking, keys: newOutcomeKeys()}
}

// DialogID identifies the dialog for the root.
func (d *OutcomeDialog) DialogID() int { return d.ID }

// KeyMap gives the footer the dialog's own keys, as its hint line has
// them.
func (d *OutcomeDialog) KeyMap() help.KeyMap {
	return KeysOf(d.keys.Choose, d.keys.Leave, d.keys.Move)
}

// Checking reports that the reading has not come back yet.
func (d *OutcomeDialog) Checking() bool { return d.checking }

// Checked takes the reading's result.
func (d *OutcomeDialog) Checked(msg OutcomeCheckedMsg) {
	d.checking = false
	d.checked = msg
}

// ChecksEffect says that every refreshed list is checked for the change's
// effect on an existing item (Action.Effect) while the dialog is open.
func (d *OutcomeDialog) ChecksEffect() { d.effect = true }

// Seen takes what a refreshed list shows of the change's effect: the
// dialog then says it was most likely carried out, and the cursor goes
// back to "Leave it".
func (d *OutcomeDialog) Seen(line string) {
	if !slices.Contains(d.seen, line) {
		d.seen = append(d.seen, line)
	}
	d.resend = false
}

func (d *OutcomeDialog) answer(resend bool) tea.Cmd {
	d.answered = true
	id := d.ID
	return Send(ConfirmedMsg{ID: id, Yes: resend})
}

// Update handles keys: left/right/tab move, enter chooses, esc leaves it.
func (d *OutcomeDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok || d.answered {
		return d, nil
	}
	k := d.keys
	switch {
	case key.Matches(kp, k.Move):
		if !d.checking {
			d.resend = !d.resend
		}
	case key.Matches(kp, k.Leave):
		return d, d.answer(false)
	case key.Matches(kp, k.Choose):
		return d, d.answer(d.resend && !d.checking)
	}
	return d, nil
}

// SetSize implements Dialog.
func (d *OutcomeDialog) SetSize(width, height int) { d.width, d.height = width, height }

// outcomeMaxWidth is the widest the dialog's box gets.
const outcomeMaxWidth = 76

// View renders the dialog within the SetSize area, as wide as it may be
// (outcomeMaxWidth at most): the title and what was found are wrapped,
// never cut. When the area is too short for everything, the explanation
// gives way first (to its short form, "No answer came back (EOF)."), then
// the blank lines, then the explanation whole, then the hint line (the
// footer has its keys: KeyMap), then the findings beyond what fits ("… and
// 2 more"): what was seen, the verdict and the buttons stay in view. While
// the list is read again and a finding already says "most likely carried
// out", the hint says nothing of sending again.
func (d *OutcomeDialog) View() string {
	th := d.common.Theme
	w := outcomeMaxWidth
	if d.width > 0 {
		w = min(d.width, outcomeMaxWidth)
	}
	inner := max(10, w-4)
	title := strings.Split(CapText("Outcome unknown: "+d.name, inner, 2, th.Glyphs.Ellipsis), "\n")
	for i, l := range title {
		title[i] = th.Title.Render(l)
	}
	leave, again := th.Button.Render("[ Leave it ]"), th.Button.Render("[ Send again ]")
	if d.checking {
		again = th.Muted.Render("[ Send again ]")
	}
	if d.resend && !d.checking {
		again = th.ButtonOn.Render("[ Send again ]")
	} else {
		leave = th.ButtonOn.Render("[ Leave it ]")
	}
	k := d.keys
	hint := HintLine(k.Choose, k.Leave, k.Move)
	switch {
	case d.checking && len(d.seen) > 0:
		hint = HintLine(k.Leave) // most likely carried out: nothing invites sending again
	case d.checking:
		hint = HintLine(k.Leave) + "  (send again once the list is read)"
	}
	buttons := []string{lipgloss.JoinHorizontal(lipgloss.Top, leave, "  ", again), th.Muted.Render(ansi.Truncate(hint, inner, th.Glyphs.Ellipsis))}

	why := strings.Split(Wrap("The request was sent, but no answer came back ("+d.why+"). The server may or may not have carried it out.", inner), "\n")
	short := strings.Split(CapText("No answer came back ("+d.why+").", inner, 2, th.Glyphs.Ellipsis), "\n")
	head, items, verdict := d.outcome(inner)
	bullets := func(room int) []string {
		if items == nil {
			return nil
		}
		return d.bullets(items, inner, room)
	}
	found := bullets(-1)
	// The blank lines between the parts, in the order they give way to
	// room: under the title, above the verdict, under the explanation,
	// above the buttons; gaps keeps that many of them, from the last.
	const (
		aboveButtons = iota
		underExplain
		aboveVerdict
		underTitle
		allGaps
	)
	blank := func(gaps, which int) bool { return which < gaps }
	// lines counts the box's lines: its border, the title, the
	// explanation, what was found, the buttons and the blank lines kept
	lines := func(explain, found []string, gaps int) int {
		n := 2 + len(title) + len(explain) + len(head) + len(found) + len(verdict) + len(buttons)
		for g := range gaps {
			if g != underExplain || len(explain) > 0 {
				if g != aboveVerdict || len(verdict) > 0 && len(found) > 0 {
					n++
				}
			}
		}
		return n
	}
	// the explanation gives way first, to its short form, then the blank
	// lines, then the explanation whole, then the hint line (the footer
	// has the same keys), and only then the findings that do not fit
	explain, gaps := why, allGaps
	if h := d.height; h > 0 && lines(why, found, allGaps) > h {
		explain, gaps = nil, 0
		for g := allGaps; g >= 0; g-- {
			if lines(short, found, g) <= h {
				explain, gaps = short, g
				break
			}
		}
		if explain == nil && lines(nil, found, 0) > h {
			buttons = buttons[:1] // the footer has the hint's keys
		}
		if over := lines(nil, found, 0) - h; over > 0 {
			found = bullets(len(found) - over) // the rest are counted
		}
	}

	var body []string
	body = append(body, title...)
	if blank(gaps, underTitle) {
		body = append(body, "")
	}
	if len(explain) > 0 {
		body = append(body, explain...)
		if blank(gaps, underExplain) {
			body = append(body, "")
		}
	}
	body = append(body, head...)
	body = append(body, found...)
	if blank(gaps, aboveVerdict) && len(verdict) > 0 && len(found) > 0 {
		body = append(body, "")
	}
	body = append(body, verdict...)
	if blank(gaps, aboveButtons) {
		body = append(body, "")
	}
	body = append(body, buttons...)
	return Box(th, "", strings.Join(body, "\n"), w)
}

// outcome is what the reading found: a head ("Seen in the services since
// it was sent:") and the verdict ("It was most likely carried out: …") in
// lines of inner cells, and the findings listed between them (bullets);
// each possibly none.
func (d *OutcomeDialog) outcome(inner int) (head, found, verdict []string) {
	th := d.common.Theme
	lines := func(s string) []string { return strings.Split(Wrap(s, inner), "\n") }
	of := Or(d.of, "the list")
	likely := lines("It was most likely carried out: sending it again would do it twice.")
	switch {
	case len(d.seen) > 0:
		found := append(append([]string(nil), d.seen...), d.checked.Found...)
		if d.checked.All {
			found = d.seen // everything now, not what changed
		}
		return lines("Seen in " + of + " since it was sent:"), found, likely
	case d.checking:
		return nil, nil, strings.Split(th.Muted.Render(Wrap("Reading "+of+" again"+th.Glyphs.Ellipsis, inner)), "\n")
	case d.checked.Err != nil:
		return strings.Split(th.Warn.Render(Wrap("Could not read "+of+": "+d.checked.Err.Error(), inner)), "\n"), nil,
			lines("Look at the list yourself before sending it again.")
	case d.of == "":
		return nil, nil, lines("skytui cannot check this change: look at the list before sending it again.")
	case d.effect && (len(d.checked.Found) == 0 || d.checked.All):
		// the change's own check decides: with nothing to compare with,
		// what the list holds proves nothing
		return nil, nil, lines("Nothing in " + d.of + " shows it yet. It may still appear: this updates each time the list is read again.")
	case len(d.checked.Found) == 0:
		return nil, nil, lines("Nothing new in " + d.of + " since it was sent. It was probably not carried out, but it may still appear.")
	case d.checked.All:
		// what was there before is not known: nothing can be said to have
		// appeared, and entries that were there already prove nothing
		return lines("In " + d.of + " now (what was there before could not be read):"), d.checked.Found,
			lines("skytui cannot tell whether it was carried out: look in it yourself for what was sent before sending it again.")
	}
	return lines("Appeared in " + d.of + " since it was sent:"), d.checked.Found, likely
}

// bullets lists what was found, sorted, each wrapped under its bullet,
// never cut: six at most, and only as many whole as fit in room lines
// (room < 0: no bound), the rest counted on a last line ("… and 3 more";
// "… 3 found: a taller terminal lists them" when none fits).
func (d *OutcomeDialog) bullets(found []string, inner, room int) []string {
	th := d.common.Theme
	found = slices.Compact(slices.Sorted(slices.Values(found)))
	lead := "  " + th.Glyphs.Bullet + " "
	indent := strings.Repeat(" ", ansi.StringWidth(lead))
	var out []string
	const most = 6
	for i, f := range found {
		var b []string
		for j, l := range strings.Split(Wrap(f, max(10, inner-len(indent))), "\n") {
			if j == 0 {
				l = lead + l
			} else {
				l = indent + l
			}
			b = append(b, th.Bold.Render(l))
		}
		need := len(b)
		if i < len(found)-1 {
			need++ // the line that counts the rest, should they not fit
		}
		if i == most || room >= 0 && len(out)+need > room {
			more := "  " + th.Glyphs.Ellipsis + " and " + strconv.Itoa(len(found)-i) + " more"
			if i == 0 {
				more = "  " + th.Glyphs.Ellipsis + " " + strconv.Itoa(len(found)) + " found: a taller terminal lists them"
			}
			return append(out, th.Muted.Render(more))
		}
		out = append(out, b...)
	}
	return out
}
