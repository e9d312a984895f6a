package restoreform

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// Effects are the consequences of a restore, in the words of the
// interface document: the confirmation says exactly this.
func Effects(target, source string) []string {
	if source == "" {
		source = "the source service"
	}
	return []string{
		target + " is stopped if it is running",
		"all data in " + target + " is erased and replaced by the backup's",
		"its default username and password are replaced by those of " + source,
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

	input kit.Input
	focus int
	wrong bool
	keys  confirmKeys

	width, height int
}

// confirmKeys are the confirmation's bindings. Left and Right move
// between the buttons once the focus is on them (Next's help covers them).
type confirmKeys struct {
	Confirm, Next, Prev, Back, Left, Right key.Binding
}

func newConfirmKeys() confirmKeys {
	return confirmKeys{
		Confirm: kit.Bind("enter", "confirm (name typed)"),
		Next:    kit.Bind("tab", "buttons", "down"),
		Prev:    kit.Bind("shift+tab", "back to the name", "up"),
		Back:    kit.Bind("esc", "back (keeps input)"),
		Left:    key.NewBinding(key.WithKeys("left")),
		Right:   key.NewBinding(key.WithKeys("right")),
	}
}

// Keys lists the bindings the help shows (the footer of the Restores and
// the Replication wizards).
func (c *Confirm) Keys() []key.Binding {
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

// SetTarget refreshes the target (its status changes while the user reads).
func (c *Confirm) SetTarget(s api.Service) { c.Target = s }

// Reset clears what was typed and puts the focus back in the input (after
// a failed attempt: the name is typed again for the next one).
func (c *Confirm) Reset() {
	c.input.SetValue("")
	c.focus = confirmFocusInput
	c.wrong = false
	c.input.Focus()
}

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
		if c.focus == confirmFocusInput {
			var cmd tea.Cmd
			c.input, cmd = c.input.Update(msg)
			c.wrong = false
			return ConfirmPending, cmd
		}
		return ConfirmPending, nil
	}
	k := c.keys
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
			if c.Matches() {
				return ConfirmYes, nil
			}
			c.setFocus(confirmFocusInput)
			return ConfirmPending, nil
		}
		if c.Matches() {
			return ConfirmYes, nil
		}
		c.wrong = true
		return ConfirmPending, nil
	}
	if c.focus != confirmFocusInput {
		switch {
		case key.Matches(kp, k.Left):
			c.setFocus(c.next(-1))
		case key.Matches(kp, k.Right):
			c.setFocus(c.next(1))
		}
		return ConfirmPending, nil
	}
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(msg)
	c.wrong = false
	return ConfirmPending, cmd
}

// next is the focus d steps away, skipping the disabled Restore button.
func (c *Confirm) next(d int) int {
	f := c.focus
	for range 3 {
		f = (f + d + 3) % 3
		if f == confirmFocusRestore && !c.Matches() {
			continue
		}
		return f
	}
	return confirmFocusInput
}

// View renders the step within the SetSize area.
func (c *Confirm) View() string {
	th := c.common.Theme
	w, h := c.width, c.height
	name := c.Name()
	wrap := func(s string, indent int) []string {
		return strings.Split(kit.Wrap(s, max(10, w-indent), " ,/"), "\n")
	}
	var lines []string
	lines = append(lines, " "+th.Error.Render("This erases ALL data in "+name+"."))
	status := c.Target.Status
	if status == "" {
		status = "unknown"
	}
	where := c.Target.Provider
	if c.Target.Region != "" {
		where += "/" + c.Target.Region
	}
	target := name + " (" + c.Target.ID + ")"
	if where != "" {
		target += "  " + where
	}
	lines = append(lines, "   "+th.Label.Render("Target ")+"  "+target+"  status: "+th.Status(status).Render(status))
	if !api.StatusIs(status, "ready", "stopped") {
		for _, l := range wrap("! "+name+" is "+status+": the API may refuse a restore unless the service is ready or stopped", 5) {
			lines = append(lines, "   "+th.Warn.Render(l))
		}
	}
	for i, l := range wrap(c.Source, 13) {
		label := th.Label.Render("Source ")
		if i > 0 {
			label = "       "
		}
		lines = append(lines, "   "+label+"  "+l)
	}
	lines = append(lines, "", " What happens:")
	for _, e := range Effects(name, c.SourceService) {
		for i, l := range wrap(e, 6) {
			p := "   " + th.Glyphs.Bullet + " "
			if i > 0 {
				p = "     "
			}
			lines = append(lines, p+l)
		}
	}
	var req []string
	if c.Request != "" {
		req = append(req, "")
		path := api.DefaultBackupPrefix + "/restores"
		if c.common.Client != nil {
			path = c.common.Client.BackupPath("/restores")
		}
		for _, l := range wrap("POST "+path+" "+c.Request, 2) {
			req = append(req, " "+th.Code.Render(l))
		}
	}
	if c.Err != "" {
		lines = append(lines, "")
		text := "! the API refused it: " + c.Err
		if c.Local {
			text = "! " + c.Err
		}
		for _, l := range wrap(text, 2) {
			lines = append(lines, " "+th.Error.Render(l))
		}
		lines = append(lines, " "+th.Muted.Render("everything else is kept; type the name again to retry, esc to change something"))
	}
	tail := []string{"", " Type " + th.Bold.Render(name) + " to confirm:"}
	tail = append(tail, " "+c.input.View())
	if c.wrong {
		tail = append(tail, " "+th.Error.Render("does not match: type the name exactly ("+name+")"))
	}
	back := "[ Back ]"
	restore := "[ Restore: type the name first ]"
	restoreStyle := th.Muted
	if c.Matches() {
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
	tail = append(tail, " "+backR+"  "+restoreR)
	// On a short terminal the request goes first (the review shows what
	// is sent; the effects matter more), then the end of the
	// explanation; never the input.
	if room := h - len(tail) - len(lines); h > 0 && len(req) > room {
		if room >= 2 {
			req = append(req[:room-1], " "+th.Muted.Render(th.Glyphs.Ellipsis+" request cut: enlarge the terminal to read it"))
		} else {
			req = nil
		}
	}
	lines = append(lines, req...)
	if room := h - len(tail); h > 0 && len(lines) > room {
		lines = append(lines[:max(0, room-1)], " "+th.Muted.Render(th.Glyphs.Ellipsis+" (enlarge the terminal to read everything)"))
	}
	lines = append(lines, tail...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, th.Glyphs.Ellipsis)
	}
	return strings.Join(lines, "\n")
}
