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
		b := []key.Binding{k.Add, k.Remove, t.Filter, k.Back}
		return kit.Keys{Short: b, Full: [][]key.Binding{b, {t.Up, t.Down}}}
	}
	short := []key.Binding{s.Keys.Detail, k.Create, k.Creds, k.Allow, t.Filter, k.Sort}
	return s.ListView.KeyMap(short, k.Create, k.Creds, k.Allow, k.Sort, k.Reverse)
}
