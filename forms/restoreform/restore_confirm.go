package restoreform

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// Effects are the consequences of a restore, in the words of the
// interface document: the confirmation says exactly this. source is the
// service the backup was taken of, "" when not known (a file in your own
// bucket, a backup ID of a service not listed): the credentials are then
// said to be the backup's, not a source service's nobody named.
func Effects(target, source string) []string {
	creds := "its default username and password are replaced by those of " + source
	if source == "" {
		creds = "its default username and password are replaced by the backup's"
	}
	return []string{
		target + " is stopped if it is running",
		"all data in " + target + " is erased and replaced by the backup's",
		creds,
	}
}

// ConfirmAnswer is what a Confirm decided after a key.
type ConfirmAnswer int

// Answers of Confirm.Update.
const (
	ConfirmPending ConfirmAnswer = iota // still asking
	ConfirmBack                         // esc or the Back button
	ConfirmYes                          // the typed name matched and the user confirmed
)

// Focus positions of the confirmation: the name input, then the buttons.
const (
	confirmFocusInput = iota
	confirmFocusBack
	confirmFocusRestore
)

// Confirm is the last step of every restore (the Restores wizard
// and the Replication wizard): it says what the restore does, names the
// target with its current status and the source, shows the request, and
// asks to type the target's name. The Restore button stays disabled until
// the name matches exactly; focus starts in the input and reaches the
// buttons with tab, on Back first, so the cursor never starts on Restore.
type Confirm struct {
	common *kit.Common
	// Target is the service whose data will be erased; the host updates
	// it (SetTarget) so its status is current.
	Target api.Service
	// Source describes the backup: "backup 4f3a…:dbt… (full, 2h ago, 2.4 GB)".
	Source string
	// SourceService names the service whose credentials the target gets
	// ("" when unknown).
	SourceService string
	// Request is the body that will be sent, secrets masked.
	Request string
	// Err is why the previous attempt did not start a restore; nothing
	// typed was lost. It is the API's answer ("the API refused it: …")
	// unless Local says it never came from the API (nothing was sent, or
	// no answer came).
	Err   string
	Local bool

	// describe, when set, says the source as of a time (a backup's age
	// moves with the clock); Source is what it said when the step opened
	describe func(now time.Time) string
	// gone says the target is no longer in the services listing: the
	// restore is refused here, nothing is sent (goneTried: enter was
	// pressed with the name typed, the refusal is said by the input)
	gone, goneTried bool

	input kit.Input
	focus int
	wrong bool
	keys  confirmKeys
	// top is the first line of the explanation shown (scrolled).
	top int

	width, height int
}

// confirmKeys are the confirmation's bindings. Left and Right move
// between the buttons once the focus is on them (Next's help covers them).
type confirmKeys struct {
	Confirm, Next, Prev, Back, Left, Right key.Binding
	// More and Less scroll the explanation when it does not fit.
	More, Less key.Binding
}

func newConfirmKeys() confirmKeys {
	return confirmKeys{
		Confirm: kit.Bind("enter", "confirm (name typed)"),
		Next:    kit.Bind("tab", "buttons", "down"),
		Prev:    kit.Bind("shift+tab", "back to the name", "up"),
		Back:    kit.Bind("esc", "back (keeps input)"),
		Left:    key.NewBinding(key.WithKeys("left")),
		Right:   key.NewBinding(key.WithKeys("right")),
		More:    kit.BindHelp("pgdn", "scroll", "pgdown"),
		Less:    kit.Bind("pgup", "scroll back"),
	}
}

// SetBackHelp words what esc does where the host does not keep what was
// typed ("back" instead of "back (keeps input)").
func (c *Confirm) SetBackHelp(desc string) { c.keys.Back.SetHelp("esc", desc) }

// Keys lists the bindings the help shows (the footer of the Restores and
// the Replication wizards): the scroll too while the explanation is cut.
func (c *Confirm) Keys() []key.Binding {
	if c.Cut() { // second, so a narrow footer keeps it
		return []key.Binding{c.keys.Confirm, kit.ScrollHelp(c.keys.More, c.keys.Less), c.keys.Next, c.keys.Back}
	}
	return []key.Binding{c.keys.Confirm, c.keys.Next, c.keys.Back}
}

// NewConfirm builds the confirmation step.
func NewConfirm(c *kit.Common, target api.Service, source, sourceService, request string) *Confirm {
	in := kit.NewInput("> ", "")
	in.Focus()
	return &Confirm{common: c, Target: target, Source: source, SourceService: sourceService, Request: request, input: in, keys: newConfirmKeys()}
}

// SetSize gives the step its area; View renders exactly that.
func (c *Confirm) SetSize(w, h int) {
	c.width, c.height = w, h
	c.input.SetWidth(max(10, min(w-6, 40)))
}

// Name is what must be typed: the target's name (its ID when it has none).
func (c *Confirm) Name() string {
	if c.Target.Name != "" {
		return c.Target.Name
	}
	return c.Target.ID
}

// Typed is what was typed so far.
func (c *Confirm) Typed() string { return c.input.Value() }

// Matches reports that the typed text is exactly the target's name: the
// Restore button is enabled.
func (c *Confirm) Matches() bool { return c.input.Value() == c.Name() }

// OnRestore reports that the focus is on the Restore button.
func (c *Confirm) OnRestore() bool { return c.focus == confirmFocusRestore }

// SetTarget refreshes the target (its status changes while the user
// reads); a target listed again is no longer gone.
func (c *Confirm) SetTarget(s api.Service) {
	c.Target = s
	c.gone, c.goneTried = false, false
}

// SetGone says the target is no longer in the services listing (deleted
// since it was chosen): the step says so and refuses to confirm, keeping
// what was typed; Target stays as it was last listed, to name it.
func (c *Confirm) SetGone() { c.gone = true }

// Gone reports that the target was said gone (SetGone).
func (c *Confirm) Gone() bool { return c.gone }

// SourceText is the source as the step says it now (a backup's age as of
// the clock).
func (c *Confirm) SourceText() string {
	if c.describe != nil {
		return c.describe(c.common.Time())
	}
	return c.Source
}

// armed reports that the Restore button is enabled: the name typed, and
// the target still listed.
func (c *Confirm) armed() bool { return c.Matches() && !c.gone }

// goneWords is what the confirmation and the steps before it say of a
// target no longer listed.
const goneWords = "gone: no longer listed"

// goneWhy is the refusal of a restore into a target no longer listed.
func (c *Confirm) goneWhy() string {
	return "not sent: " + c.Name() + " is no longer among the services (deleted?); esc goes back, ctrl+x leaves"
}

// Reset clears what was typed and puts the focus back in the input (after
// a failed attempt: the name is typed again for the next one), the
// explanation at its top, where the refusal of that attempt is said.
func (c *Confirm) Reset() {
	c.top = 0
	c.input.SetValue("")
	c.focus = confirmFocusInput
	c.wrong, c.goneTried = false, false
	c.input.Focus()
}

// reopen is Reset for the step opened again (n after ctrl+x, enter on
// the step before): at its top, the target and its status in sight.
func (c *Confirm) reopen() { c.Reset() }

func (c *Confirm) setFocus(f int) {
	c.focus = f
	if f == confirmFocusInput {
		c.input.Focus()
	} else {
		c.input.Blur()
	}
}

// Update handles a key or a paste.
func (c *Confirm) Update(msg tea.Msg) (ConfirmAnswer, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if _, paste := msg.(tea.PasteMsg); paste || c.focus == confirmFocusInput {
			// a paste on a button is typing too: it goes to the name
			return ConfirmPending, c.typeKey(msg)
		}
		return ConfirmPending, nil
	}
	k := c.keys
	if d := kit.ScrollDir(kp, k.More, k.Less); d != 0 {
		c.scroll(d)
		return ConfirmPending, nil
	}
	switch {
	case key.Matches(kp, k.Back):
		return ConfirmBack, nil
	case key.Matches(kp, k.Next):
		c.setFocus(c.next(1))
		return ConfirmPending, nil
	case key.Matches(kp, k.Prev):
		c.setFocus(c.next(-1))
		return ConfirmPending, nil
	case key.Matches(kp, k.Confirm):
		switch c.focus {
		case confirmFocusBack:
			return ConfirmBack, nil
		case confirmFocusRestore:
			if c.armed() {
				return ConfirmYes, nil
			}
			c.setFocus(confirmFocusInput)
			return ConfirmPending, nil
		}
		if c.armed() {
			return ConfirmYes, nil
		}
		if c.Matches() {
			c.goneTried = true // the name is right, the target is gone
			return ConfirmPending, nil
		}
		c.wrong = true
		return ConfirmPending, nil
	}
	if c.focus != confirmFocusInput {
		switch {
		case key.Matches(kp, k.Left):
			c.setFocus(c.next(-1))
			return ConfirmPending, nil
		case key.Matches(kp, k.Right):
			c.setFocus(c.next(1))
			return ConfirmPending, nil
		case !typing(kp):
			return ConfirmPending, nil
		}
	}
	return ConfirmPending, c.typeKey(msg)
}

// typing reports that a key edits text: a printable character or
// backspace. Typed while a button has the focus, it goes to the name (the
// focus moves there), so nothing typed is lost and enter after it
// confirms what was typed instead of pressing the button.
func typing(kp tea.KeyPressMsg) bool {
	return kp.Text != "" || kp.Code == tea.KeyBackspace
}

// typeKey gives a key or a paste to the name's input, focused first.
func (c *Confirm) typeKey(msg tea.Msg) tea.Cmd {
	c.setFocus(confirmFocusInput)
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(msg)
	c.wrong, c.goneTried = false, false
	return cmd
}

// next is the focus d steps away, skipping the disabled Restore button.
func (c *Confirm) next(d int) int {
	f := c.focus
	for range 3 {
		f = (f + d + 3) % 3
		if f == confirmFocusRestore && !c.armed() {
			continue
		}
		return f
	}
	return confirmFocusInput
}

// layout is the step's text in three parts: the warning that stays on
// top, the explanation that scrolls when the terminal is short (the
// previous refusal, target, source, what happens, the request), and the
// foot that always shows (the name to type, the buttons).
func (c *Confirm) layout() (head, body, foot []string) {
	th := c.common.Theme
	w := c.width
	name := c.Name()
	wrap := func(s string, indent int) []string {
		return strings.Split(kit.Wrap(s, max(10, w-indent), " ,/"), "\n")
	}
	labelled := func(label, text string) {
		for i, l := range wrap(text, 13) {
			lb := th.Label.Render(label)
			if i > 0 {
				lb = strings.Repeat(" ", len(label))
			}
			body = append(body, "   "+lb+"  "+l)
		}
	}
	head = []string{" " + th.Error.Render("This erases ALL data in "+name+".")}
	if c.Err != "" {
		// the previous attempt's refusal opens the explanation: a long one
		// scrolls with it (its trace ID reached with pgdn) and never
		// pushes the name to type and the buttons off the screen
		text := "! the API refused it: " + c.Err
		if c.Local {
			text = "! " + c.Err
		}
		for _, l := range wrap(text, 2) {
			body = append(body, " "+th.Error.Render(l))
		}
		for _, l := range wrap("everything else is kept; type the name again to retry, esc to change something", 2) {
			body = append(body, " "+th.Muted.Render(l))
		}
		body = append(body, "")
	}
	status := c.Target.Status
	if status == "" {
		status = "unknown"
	}
	if c.gone {
		status = "gone" // the line under it says why
	}
	where := c.Target.Provider
	if c.Target.Region != "" {
		where += "/" + c.Target.Region
	}
	target := name + " (" + c.Target.ID + ")"
	if where != "" {
		target += "  " + where
	}
	labelled("Target ", target+"  status: "+status)
	style := th.Status(status)
	if c.gone {
		style = th.Error
	}
	if last := len(body) - 1; strings.HasSuffix(body[last], " "+status) {
		body[last] = strings.TrimSuffix(body[last], status) + style.Render(status)
	}
	switch {
	case c.gone:
		for _, l := range wrap("! "+name+" is no longer among the services: it was deleted since it was chosen, so this restore will not be sent", 5) {
			body = append(body, "   "+th.Error.Render(l))
		}
	case !api.StatusIs(status, "ready", "stopped"):
		for _, l := range wrap("! "+name+" is "+status+": the API may refuse a restore unless the service is ready or stopped", 5) {
			body = append(body, "   "+th.Warn.Render(l))
		}
	}
	labelled("Source ", c.SourceText())
	body = append(body, "", " What happens:")
	for _, e := range Effects(name, c.SourceService) {
		for i, l := range wrap(e, 6) {
			p := "   " + th.Glyphs.Bullet + " "
			if i > 0 {
				p = "     "
			}
			body = append(body, p+l)
		}
	}
	if c.Request != "" {
		body = append(body, "")
		path := api.DefaultBackupPrefix + "/restores"
		if c.common.Client != nil {
			path = c.common.Client.BackupPath("/restores")
		}
		for _, l := range requestLines("POST "+path+" "+c.Request, max(10, w-2)) {
			body = append(body, " "+th.Code.Render(l))
		}
	}
	foot = append(foot, "", " Type "+th.Bold.Render(name)+" to confirm:", " "+c.input.View())
	if c.wrong {
		foot = append(foot, " "+th.Error.Render("does not match: type the name exactly ("+name+")"))
	}
	if c.goneTried {
		for _, l := range wrap("! "+c.goneWhy(), 2) {
			foot = append(foot, " "+th.Error.Render(l))
		}
	}
	back := "[ Back ]"
	restore := "[ Restore: type the name first ]"
	restoreStyle := th.Muted
	switch {
	case c.gone:
		restore = "[ Restore: " + name + " is gone ]"
	case c.Matches():
		restore = "[ Restore and erase " + name + " ]"
		restoreStyle = th.Button
	}
	backR := th.Button.Render(back)
	restoreR := restoreStyle.Render(restore)
	switch c.focus {
	case confirmFocusBack:
		backR = th.ButtonOn.Render(back)
	case confirmFocusRestore:
		restoreR = th.ButtonOn.Render(restore)
	}
	foot = append(foot, " "+backR+"  "+restoreR)
	return head, body, foot
}

// window is how the explanation shows: from line top, rows lines of it,
// and whether it is cut (one more row then says what is above or below).
// top is c.top within what the size allows.
func (c *Confirm) window() (top, rows int, cut bool) {
	head, body, foot := c.layout()
	room := len(body)
	if c.height > 0 {
		room = c.height - len(head) - len(foot)
	}
	return kit.TextWindow(len(body), room, c.top)
}

// Cut reports that the explanation does not fit and pgdown/pgup scroll it.
func (c *Confirm) Cut() bool {
	_, _, cut := c.window()
	return cut
}

// scroll moves the explanation by a page (less one line, to keep context).
func (c *Confirm) scroll(dir int) {
	top, rows, cut := c.window()
	if !cut {
		return
	}
	_, body, _ := c.layout()
	c.top = kit.PageTop(top, rows, len(body), dir)
}

// View renders the step within the SetSize area. On a short terminal the
// explanation scrolls (pgdown, pgup) between the warning on top and the
// name to type, which never leave the screen.
func (c *Confirm) View() string {
	th := c.common.Theme
	head, body, foot := c.layout()
	top, rows, cut := c.window()
	lines := append([]string{}, head...)
	if cut {
		lines = append(lines, body[top:top+rows]...)
		if c.height-len(head)-len(foot) > 0 {
			lines = append(lines, " "+th.Muted.Render(kit.MoreLine(c.common, c.keys.More, c.keys.Less, top, len(body)-top-rows)))
		}
	} else {
		lines = append(lines, body...)
	}
	lines = append(lines, foot...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, c.width, th.Glyphs.Ellipsis)
	}
	return strings.Join(lines, "\n")
}

// requestLines lays out a request line and its JSON body in lines of at
// most w cells, breaking after the path and after the commas between
// members, never inside a string (a moment's "2026-11-24 10:00:00" stays
// whole). A member wider than a line breaks after its name's colon; only
// a value wider than a line is wrapped inside, at its spaces, commas,
// slashes and colons (a long bucket path, a backup's key).
func requestLines(req string, w int) []string {
	var lines []string
	cur := ""
	for _, member := range jsonTokens(req, ", ") {
		if ansi.StringWidth(strings.TrimRight(cur+member, " ")) <= w {
			cur += member
			continue
		}
		if cur != "" {
			lines = append(lines, strings.TrimRight(cur, " "))
			cur = ""
		}
		for _, tok := range jsonTokens(member, ":") {
			switch {
			case ansi.StringWidth(cur+tok) <= w:
				cur += tok
			case ansi.StringWidth(tok) <= w:
				lines = append(lines, cur)
				cur = tok
			default:
				// a backup's key (colons between its parts) or a bucket
				// path wider than a line: broken after a colon, a slash…,
				// never at a hyphen inside a part
				parts := strings.Split(kit.WrapAfter(cur+tok, w, " ,/:"), "\n")
				lines = append(lines, parts[:len(parts)-1]...)
				cur = parts[len(parts)-1]
			}
		}
	}
	if cur != "" {
		lines = append(lines, strings.TrimRight(cur, " "))
	}
	return lines
}

// jsonTokens cuts s after each of the runes in after that is outside a
// string.
func jsonTokens(s, after string) []string {
	var toks []string
	var b strings.Builder
	for r, quoted := range api.Quoting(s, false) {
		b.WriteRune(r)
		if !quoted && strings.ContainsRune(after, r) {
			toks = append(toks, b.String())
			b.Reset()
		}
	}
	if b.Len() > 0 {
		toks = append(toks, b.String())
	}
	return toks
}
