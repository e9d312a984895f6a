package kit

import (
	"fmt"

	"context"
	"errors"

	tea "charm.land/bubbletea/v2"
)

// ConfirmKind is how an action is confirmed before it runs.
type ConfirmKind int

const (
	// ConfirmNone runs the action at once (a form's review step already
	// was the confirmation).
	ConfirmNone ConfirmKind = iota
	// ConfirmYesNo asks yes / no with the cursor on "no".
	ConfirmYesNo
	// ConfirmTypeName asks the user to type Confirm.Name (the worst
	// actions: delete, restore over a service).
	ConfirmTypeName
)

// Confirm describes the confirmation of an action.
type Confirm struct {
	Kind   ConfirmKind
	Title  string // "Remove allow-list entry?"
	Detail string // what will happen, in one or two sentences
	Name   string // the text to type for ConfirmTypeName
	// Live, when set, says the action as its owner's data shows it now,
	// for a dialog that stays open while that data moves (a restore's
	// status and age): the detail to show instead of Detail, and why the
	// action no longer applies ("" while it does: what it acts on has
	// finished, or is no longer listed). While a why is given, a
	// ConfirmTypeName dialog says that nothing will be sent, keeps what
	// was typed, and only esc answers (no). It is called in Update and
	// View: it reads, never writes, and does no I/O.
	Live func() (detail, refused string)
}

// Action is a request to the one action layer in tui. Every mutating call
// goes through it: it refuses mutating actions on a read-only profile
// (before asking anything, and without calling Run), asks the
// confirmation, runs Run exactly once (the api client never retries a
// POST), marks the application as submitting (quit asks first) and turns
// the outcome into a toast and an ActionDoneMsg for the screen that asked.
//
// Run must capture everything it sends; a form that held a typed secret
// clears it once it has handed the Action over.
type Action struct {
	// Name says what the action does, in the words of a toast: "create
	// service orders-db", "remove 203.0.113.7/32 from orders-db".
	Name string
	// Mutating actions are refused on read-only profiles.
	Mutating bool
	// Key de-duplicates: a second request with the same key while the
	// first is still being submitted is refused. Defaults to Name.
	Key string
	// Supersedes names what this action's success makes of an earlier
	// failure: the failures of actions with the same Supersedes are taken
	// off the message line (the log keeps them). Defaults to Name; set it
	// where the Name carries the value asked for ("change schedule 1 to
	// …"), so a change that succeeds retires one to another value that
	// failed.
	Supersedes string
	Confirm    Confirm
	// Run performs the call. It runs in a tea.Cmd.
	Run func(ctx context.Context) (any, error)
	// Success renders the success toast from Run's result; nil means
	// "<Name>: done".
	Success func(result any) string
	// Refresh lists resource keys to re-fetch after success, and after an
	// outcome that is unknown.
	Refresh []string
	// Evidence reads what the change would leave behind, as ID -> one line
	// ("restore 4 into orders-db: Running"): the target's restores, the
	// service's backup jobs, the services. The action layer reads it just
	// before the change is sent and again when the change's outcome is
	// unknown (sent, never answered), and shows what appeared in between,
	// before the user may choose to send it again. Nil: nothing to compare.
	Evidence func(ctx context.Context) (map[string]string, error)
	// EvidenceOf names what Evidence reads, for the dialog: "restores of
	// orders-db".
	EvidenceOf string
	// Effect tells whether a reading of one of the Refresh resources shows
	// the change carried out, for a change of an existing item's state,
	// which Evidence cannot see as something new (ServiceEffect: a stop
	// shows as pending_stop or stopped). While the change's outcome is
	// unknown, every fresh reading is given to it; the line it returns
	// ("replica-west (db1): pending_stop") is what shows it, "" nothing
	// yet. It runs in Update: no I/O.
	Effect func(msg DataMsg) string
	// Follow is the watch the change starts once the server carried it
	// out (done, accepted with an unreadable answer, or its Effect seen
	// after an unknown outcome): it says when the item reaches the state
	// the change leads to ("service replica-west (db1) is stopped").
	// The zero Watch: none.
	Follow Watch
	// Ends lists the watches (kit.Watch keys) this change ends: the
	// delete of a restore being followed. When the change succeeds, or the
	// watch finds the operation gone while the change is being sent, the
	// watch stops without a word: the change's own toast says it.
	Ends []string
	// Origin is the ID of the screen that asked; its Update receives the
	// ActionDoneMsg. Set by the screen (Do fills it from the screen).
	Origin string
	// Tag is returned unchanged in ActionDoneMsg, for the screen's use.
	Tag any
}

// NotSentError is the error of an action's Run that refused before it
// sent anything (a last look found the change no longer applies): the
// message line says "<name>: not sent: <why>", never "failed".
type NotSentError struct{ Why string }

func (e *NotSentError) Error() string { return e.Why }

// ActionRequestMsg carries an Action to the action layer.
type ActionRequestMsg struct{ Action Action }

// Do returns a command that hands an action to the action layer.
func Do(a Action) tea.Cmd {
	return Send(ActionRequestMsg{Action: a})
}

// ActionSentMsg tells the originating screen that its action is being sent:
// it needed no confirmation, or the user said yes. A screen says
// "sending…" from here, not from its Do, so nothing claims to be sent
// while the confirmation still asks (a "no" ends with ErrCancelled).
type ActionSentMsg struct {
	Name string
	Tag  any
}

// ActionDoneMsg tells the originating screen how an action ended: Err is
// ErrReadOnly, ErrCancelled, ErrBusy, or the API's error. A change whose
// outcome was unknown (api.IsOutcomeUnknown) that a later reading shows
// carried out (Action.Effect) ends a second time: Err nil, Found true,
// no Result.
type ActionDoneMsg struct {
	Name   string
	Tag    any
	Result any
	Err    error
	Found  bool
}

// Errors the action layer reports without calling the API.
var (
	ErrReadOnly  = errors.New("profile is read-only")
	ErrCancelled = errors.New("cancelled")
	ErrBusy      = errors.New("already being submitted")
)

// ToastLevel is the kind of a toast.
type ToastLevel int

// Toast levels.
const (
	ToastInfo ToastLevel = iota
	ToastSuccess
	ToastWarn
	ToastError
)

// ToastMsg shows a short message above the footer.
type ToastMsg struct {
	Level ToastLevel
	Text  string
	// Holds, when set, tells whether the text still says what is so (a
	// refusal because of a service's status, while that status lasts):
	// once it returns false, or the screen that sent it is left, the toast
	// is taken down, shown or waiting. The message log keeps it.
	Holds func() bool
}

// Toast returns a command that shows a toast.
func Toast(level ToastLevel, text string) tea.Cmd {
	return Send(ToastMsg{Level: level, Text: text})
}

// ToastWhile returns a command that shows a toast for as long as holds
// returns true (ToastMsg.Holds) and the screen that sent it is shown: it
// speaks of that screen (its view, its keys). A newer one from the same
// screen replaces it.
func ToastWhile(level ToastLevel, text string, holds func() bool) tea.Cmd {
	return Send(ToastMsg{Level: level, Text: text, Holds: holds})
}

// ToastHere is a toast about the screen that sends it (a refusal that
// names its keys): shown only while that screen is (ToastWhile).
func ToastHere(level ToastLevel, text string) tea.Cmd {
	return ToastWhile(level, text, func() bool { return true })
}

// RefuseReadOnly tells, at the key that would start a change, that the
// profile is read-only: the user learns it before typing anything into a
// form that could not be sent. The action layer refuses the change anyway.
func RefuseReadOnly(c *Common, what string) tea.Cmd {
	return Toast(ToastWarn, ReadOnlyText(c, what))
}

// ReadOnlyText is how a read-only profile's refusal reads, wherever it
// happens (at the key, or in the action layer): the verdict first, then
// what was refused ("delete service x", "creating a service"), so a
// narrow message line cuts only the end of what. A run started with
// --read-only says so after the profile's name: the profile itself may
// be writable.
func ReadOnlyText(c *Common, what string) string {
	by := ""
	if c.ReadOnlyFlag {
		by = " (--read-only)"
	}
	return fmt.Sprintf("%s%s%s: %s", ReadOnlyPrefix, c.Profile, by, what)
}

// ReadOnlyFix is the way out of a read-only refusal, for a fix to name:
// a run started with --read-only is read-only on every profile (start it
// again without), else another profile may be writable.
func ReadOnlyFix(c *Common) string {
	if c.ReadOnlyFlag {
		return "start skytui again without --read-only"
	}
	return "switch to a writable profile (:profile)"
}

// ReadOnlyPrefix starts every read-only refusal: the answer to a key, so
// a newer one replaces one still waiting to be shown.
const ReadOnlyPrefix = "not allowed on read-only profile "

// OpenDialogMsg pushes a dialog on the root's dialog stack.
type OpenDialogMsg struct{ Dialog Dialog }

// OpenDialog returns a command that opens a dialog.
func OpenDialog(d Dialog) tea.Cmd {
	return Send(OpenDialogMsg{Dialog: d})
}

// CloseDialogMsg pops the front dialog.
type CloseDialogMsg struct{}

// Dialog is a modal box on the root's dialog stack; only the front one
// gets keys.
type Dialog interface {
	Update(msg tea.Msg) (Dialog, tea.Cmd)
	// SetSize gives the area the box must fit in (the root calls it when
	// the dialog opens and on every resize).
	SetSize(width, height int)
	// View renders the box within the SetSize area. It writes no state.
	View() string
}

// LoginRequestMsg asks the root to open the API key prompt (Settings).
type LoginRequestMsg struct{ Reason string }
