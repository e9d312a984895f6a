package services

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"github.com/skytui/skytui/kit"
)

// The Services screen's keys and the help of each of its modes.

type keyMap struct {
	Back   key.Binding
	Create key.Binding
	Creds  key.Binding
	Allow  key.Binding
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
	// CheckConfirm is enter in the address check's input (i)
	CheckConfirm key.Binding
	// review
	Launch, Edit key.Binding
	// form
	FormNext, FormPrev, FormCancel key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Back:         kit.Bind("esc", "back"),
		Create:       kit.Bind("n", "new service"),
		Creds:        kit.Bind("c", "credentials"),
		Allow:        kit.Bind("a", "allow list"),
		Backups:      kit.Bind("b", "backups"),
		Restores:     kit.Bind("R", "restores"),
		Shell:        kit.Bind("m", "db shell"),
		StopStart:    kit.Bind("x", "stop/start"),
		Delete:       kit.Bind("D", "delete"),
		Scale:        kit.Bind("z", "scale"),
		ScaleUp:      kit.DefaultTableKeys.Up,
		ScaleDown:    kit.DefaultTableKeys.Down,
		ScaleChoose:  kit.Bind("enter", "choose"),
		ScaleApply:   kit.Bind("enter", "apply"),
		ScaleBack:    kit.Bind("esc", "back"),
		SSL:          kit.Bind("t", "SSL on/off"),
		Check:        kit.Bind("i", "check an IP"),
		Reveal:       kit.Bind("v", "reveal/hide password"),
		CopyPassword: kit.Bind("y", "copy password"),
		CopyCommand:  kit.Bind("Y", "copy mariadb command", "m"),
		CopyUser:     kit.Bind("u", "copy username"),
		Retry:        kit.Bind("enter", "read again"),
		Add:          kit.Bind("n", "add entry", "+"),
		Remove:       kit.Bind("d", "remove entry", "x", "delete"),
		AddConfirm:   kit.Bind("enter", "add"),
		AddCancel:    kit.Bind("esc", "cancel"),
		CheckConfirm: kit.Bind("enter", "check"),
		Launch:       kit.Bind("enter", "launch", "y"),
		Edit:         kit.Bind("e", "edit", "backspace"),
		FormNext:     kit.BindHelp("enter/tab", "next", "enter", "tab"),
		FormPrev:     kit.Bind("shift+tab", "previous"),
		FormCancel:   kit.Bind("esc", "cancel (keeps input)"),
	}
}

// KeyMap implements kit.Screen: the bindings of the current mode.
func (s *Screen) KeyMap() help.KeyMap {
	if p := s.pane(); p != nil {
		return p.KeyMap()
	}
	k, t := s.keys, s.Table.Keys
	// The lifecycle keys come before create, credentials and the allow list
	// in the footer: a narrow footer keeps its first keys.
	short := []key.Binding{s.Keys.Detail, k.StopStart, k.Scale, k.Delete, k.Create, k.Creds, k.Allow, k.Shell, k.Backups, k.Restores, t.Filter}
	return s.ListView.KeyMap(short, k.Create, k.Creds, k.Allow, k.Shell, k.Backups, k.Restores, k.StopStart, k.Scale, k.Delete)
}
