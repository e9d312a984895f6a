package services

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/skytui/skytui/kit"
)

// The Services screen's keys and the help of each of its modes.

type keyMap struct {
	Back    key.Binding
	Sort    key.Binding
	Reverse key.Binding
	Create  key.Binding
	Creds   key.Binding
	Allow   key.Binding
	// jumps to the service's backups and restores, and its database shell
	Backups, Restores, Shell key.Binding
	// lifecycle
	StopStart, Delete, Scale key.Binding
	// scale
	ScaleUp, ScaleDown, ScaleChoose, ScaleApply, ScaleBack key.Binding
	// allow list: SSL and the address check
	SSL, Check key.Binding
	// credentials
	Reveal, CopyPassword, CopyCommand, CopyUser, Retry key.Binding
	// allow list
	Add, Remove, AddConfirm, AddCancel key.Binding
	// review
	Launch, Edit key.Binding
	// form
	FormNext, FormPrev, FormCancel key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Back:         key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Sort:         key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort: name/status/created")),
		Reverse:      key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Create:       key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new service")),
		Creds:        key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "credentials")),
		Allow:        key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "allow list")),
		Backups:      key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "backups")),
		Restores:     key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restores")),
		Shell:        key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "db shell")),
		StopStart:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "stop/start")),
		Delete:       key.NewBinding(key.WithKeys("D"), key.WithHelp("D", "delete")),
		Scale:        key.NewBinding(key.WithKeys("z"), key.WithHelp("z", "scale")),
		ScaleUp:      key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("up/k", "move up")),
		ScaleDown:    key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("down/j", "move down")),
		ScaleChoose:  key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		ScaleApply:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply")),
		ScaleBack:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		SSL:          key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "SSL on/off")),
		Check:        key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "check an IP")),
		Reveal:       key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "reveal/hide password")),
		CopyPassword: key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy password")),
		CopyCommand:  key.NewBinding(key.WithKeys("Y", "m"), key.WithHelp("Y", "copy mariadb command")),
		CopyUser:     key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "copy username")),
		Retry:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "read again")),
		Add:          key.NewBinding(key.WithKeys("n", "+"), key.WithHelp("n", "add entry")),
		Remove:       key.NewBinding(key.WithKeys("d", "x", "delete"), key.WithHelp("d", "remove entry")),
		AddConfirm:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "add")),
		AddCancel:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Launch:       key.NewBinding(key.WithKeys("enter", "y"), key.WithHelp("enter", "launch")),
		Edit:         key.NewBinding(key.WithKeys("e", "backspace"), key.WithHelp("e", "edit")),
		FormNext:     key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter/tab", "next")),
		FormPrev:     key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")),
		FormCancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel (keeps input)")),
	}
}

// KeyMap implements kit.Screen: the bindings of the current mode.
func (s *Screen) KeyMap() help.KeyMap {
	k := s.keys
	t := s.Table.Keys
	switch s.mode {
	case modeCreate:
		b := []key.Binding{k.FormNext, k.FormPrev, k.FormCancel}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	case modeReview:
		b := []key.Binding{k.Launch, k.Edit, k.FormCancel}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	case modeCreds:
		b := []key.Binding{k.CopyPassword, k.CopyCommand, k.CopyUser, k.Reveal, k.Back}
		if s.creds != nil && s.creds.err != nil {
			b = append(b, k.Retry)
		}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	case modeAllow:
		if s.allow != nil && s.allow.capturesKeys() {
			b := []key.Binding{k.AddConfirm, k.AddCancel}
			return kit.Keys{Short: b, Full: [][]key.Binding{b}}
		}
		b := []key.Binding{k.Add, k.Remove, k.Check, k.SSL, k.Back}
		return kit.Keys{Short: b, Full: [][]key.Binding{append(b, t.Filter), {t.Up, t.Down}}}
	case modeScale:
		b := []key.Binding{k.ScaleChoose, k.ScaleUp, k.ScaleDown, k.ScaleBack}
		if s.scale != nil && s.scale.step == scaleReview {
			b = []key.Binding{k.ScaleApply, k.ScaleBack}
		}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	}
	// The lifecycle keys come before create, credentials and the allow list
	// in the footer: a narrow footer keeps its first keys.
	short := []key.Binding{s.Keys.Detail, k.StopStart, k.Scale, k.Delete, k.Create, k.Creds, k.Allow, k.Shell, k.Backups, k.Restores, t.Filter}
	return s.ListView.KeyMap(short, k.Create, k.Creds, k.Allow, k.Shell, k.Backups, k.Restores, k.StopStart, k.Scale, k.Delete, k.Sort, k.Reverse)
}
