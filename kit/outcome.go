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
	// compare with (the first reading failed), so Found is everything.
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

// View renders the dialog within the SetSize area: the text is cut (with
// an ellipsis) before the buttons and their hint ever are.
func (d *OutcomeDialog) View() string {
	th := d.common.Theme
	width, height := d.width, d.height
	w := min(max(40, width*2/3), width, 76)
	inner := w - 4
	var body []string
	body = append(body, Wrap("The request was sent, but no answer came back ("+d.why+"). The server may or may not have carried it out.", inner))
	body = append(body, "")
	switch {
	case len(d.seen) > 0:
		body = append(body, Wrap("Seen in "+Or(d.of, "the list")+" since it was sent:", inner))
		found := append(append([]string(nil), d.seen...), d.checked.Found...)
		if d.checked.All {
			found = d.seen // everything now, not what changed
		}
		body = append(body, d.bullets(found, inner)...)
		body = append(body, "", Wrap("It was most likely carried out: sending it again would do it twice.", inner))
	case d.checking:
		body = append(body, th.Muted.Render(Wrap("Reading "+Or(d.of, "the list")+" again"+d.common.Theme.Glyphs.Ellipsis, inner)))
	case d.checked.Err != nil:
		body = append(body, th.Warn.Render(Wrap("Could not read "+Or(d.of, "the list")+": "+d.checked.Err.Error(), inner)))
		body = append(body, Wrap("Look at the list yourself before sending it again.", inner))
	case d.of == "":
		body = append(body, Wrap("skytui cannot check this change: look at the list before sending it again.", inner))
	case len(d.checked.Found) == 0 && d.effect:
		body = append(body, Wrap("Nothing in "+d.of+" shows it yet. It may still appear: this updates each time the list is read again.", inner))
	case len(d.checked.Found) == 0:
		body = append(body, Wrap("Nothing new in "+d.of+" since it was sent. It was probably not carried out, but it may still appear.", inner))
	default:
		head := "Appeared in " + d.of + " since it was sent:"
		if d.checked.All {
			head = "In " + d.of + " now (what was there before could not be read):"
		}
		body = append(body, Wrap(head, inner))
		body = append(body, d.bullets(d.checked.Found, inner)...)
		body = append(body, "", Wrap("It was most likely carried out: sending it again would do it twice.", inner))
	}
	// the box's borders, title and the blank under it: 4 lines; the blank,
	// the buttons and the hint below the text: 3
	if room := height - 7; room > 0 {
		lines := strings.Split(strings.Join(body, "\n"), "\n")
		if len(lines) > room {
			lines = append(lines[:max(room-1, 0)], th.Muted.Render(th.Glyphs.Ellipsis))
		}
		body = lines
	}
	body = append(body, "")
	leave, again := th.Button.Render("[ Leave it ]"), th.Button.Render("[ Send again ]")
	if d.checking {
		again = th.Muted.Render("[ Send again ]")
	}
	if d.resend && !d.checking {
		again = th.ButtonOn.Render("[ Send again ]")
	} else {
		leave = th.ButtonOn.Render("[ Leave it ]")
	}
	body = append(body, lipgloss.JoinHorizontal(lipgloss.Top, leave, "  ", again))
	k := d.keys
	hint := HintLine(k.Choose, k.Leave, k.Move)
	if d.checking {
		hint = HintLine(k.Leave) + "  (send again once the list is read)"
	}
	body = append(body, th.Muted.Render(ansi.Truncate(hint, inner, th.Glyphs.Ellipsis)))
	return Box(th, "Outcome unknown: "+d.name, strings.Join(body, "\n"), w)
}

// bullets lists what was found, sorted, six at most.
func (d *OutcomeDialog) bullets(found []string, inner int) []string {
	th := d.common.Theme
	found = slices.Sorted(slices.Values(found))
	found = slices.Compact(found)
	var out []string
	const most = 6
	for i, f := range found {
		if i == most {
			out = append(out, th.Muted.Render("  "+th.Glyphs.Ellipsis+" and "+strconv.Itoa(len(found)-most)+" more"))
			break
		}
		out = append(out, th.Bold.Render(ansi.Truncate("  "+th.Glyphs.Bullet+" "+f, inner, th.Glyphs.Ellipsis)))
	}
	return out
}
