package tui

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/kit"
)

// commands of the ":" line; those taking an argument end with a space
// when completed.
var commands = []struct {
	name, arg, desc string
	// change: it changes the account (refused on a read-only profile,
	// marked so in the help)
	change bool
}{
	{"services", "", "Services screen", false},
	{"backups", "[service|all]", "Backups of all or of one service", false},
	{"restores", "[service|all]", "Restores of all or of one service", false},
	{"replication", "", "Replication screen", false},
	{"stop", "<service>", "stop a ready service (confirmed)", true},
	{"start", "<service>", "start a stopped service (confirmed)", true},
	{"scale", "<service>", "scale a service: nodes, size or storage", true},
	{"delete", "<service>", "delete a service (type its name)", true},
	{"settings", "", "Settings screen: profile, secrets", false},
	{"profile", "[name]", "switch profile (alone: a picker)", false},
	{"login", "", "enter the API key", false},
	{"log", "", "message log: toasts, changes, errors", false},
	{"help", "", "show help", false},
	{"q", "", "quit", false},
}

type cmdLine struct {
	common *kit.Common
	keys   cmdKeys
	active bool
	input  kit.Input
	hint   []string
	// targets: the services the restores were last listed into (IDs and
	// names, a deleted service's too), for profile generation targetsGen
	targets    map[string]bool
	targetsGen int
}

// cmdKeys are the command line's bindings; the footer lists them while
// the line is open.
type cmdKeys struct {
	Complete, Run, Cancel key.Binding
}

func (k cmdKeys) list() []key.Binding { return []key.Binding{k.Complete, k.Run, k.Cancel} }

func newCmdLine(c *kit.Common) *cmdLine {
	return &cmdLine{common: c, input: kit.NewInput(":", ""), keys: cmdKeys{
		Complete: kit.Bind("tab", "complete"),
		Run:      kit.Bind("enter", "run"),
		Cancel:   kit.Bind("esc", "cancel"),
	}}
}

// setWidth fits the input to a terminal w cells wide (half of it: the
// candidates follow).
func (c *cmdLine) setWidth(w int) { c.input.SetWidth(max(10, w/2)) }

// open opens the line in a terminal w cells wide.
func (c *cmdLine) open(w int) tea.Cmd {
	c.active = true
	c.hint = nil
	c.setWidth(w)
	c.input.SetValue("")
	return c.input.Focus()
}

func (c *cmdLine) close() {
	c.active = false
	c.input.Blur()
	c.hint = nil
}

// Value is the text typed so far (tests).
func (c *cmdLine) Value() string { return c.input.Value() }

func (c *cmdLine) update(m *Model, msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, c.keys.Cancel):
		c.close()
		return nil
	case key.Matches(msg, c.keys.Run):
		line := c.input.Value()
		c.close()
		return m.execute(line)
	case key.Matches(msg, c.keys.Complete):
		c.complete(m)
		return nil
	}
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(msg)
	c.hint = c.candidates(m, c.input.Value())
	return cmd
}

// candidates are the whole lines the current text can complete to.
func (c *cmdLine) candidates(m *Model, v string) []string {
	name, arg, hasArg := strings.Cut(strings.TrimLeft(v, " "), " ")
	var out []string
	if !hasArg {
		for _, cmd := range commands {
			if strings.HasPrefix(cmd.name, name) {
				out = append(out, cmd.name)
			}
		}
		return out
	}
	var args []string
	switch name {
	case "backups", "restores", "stop", "start", "scale", "delete":
		if name == "backups" {
			args = append(args, "all")
		}
		for _, s := range m.known {
			args = append(args, s.Name, s.ID)
		}
	case "profile":
		args = append(args, m.opts.Profiles...)
	}
	sort.Strings(args)
	for _, a := range args {
		if a != "" && strings.HasPrefix(a, strings.TrimSpace(arg)) {
			out = append(out, name+" "+a)
		}
	}
	return out
}

func takesArg(name string) bool {
	for _, c := range commands {
		if c.name == name {
			return c.arg != ""
		}
	}
	return false
}

func (c *cmdLine) complete(m *Model) {
	v := c.input.Value()
	cands := c.candidates(m, v)
	c.hint = cands
	switch len(cands) {
	case 0:
		return
	case 1:
		nv := cands[0]
		if !strings.Contains(nv, " ") && takesArg(nv) {
			nv += " "
		}
		c.input.SetValue(nv)
	default:
		p := cands[0]
		for _, s := range cands[1:] {
			for !strings.HasPrefix(s, p) {
				p = p[:len(p)-1]
			}
		}
		if len(p) > len(v) {
			c.input.SetValue(p)
		}
	}
	c.input.CursorEnd()
	c.hint = c.candidates(m, c.input.Value())
}

func (c *cmdLine) view(m *Model, w int) string {
	th := c.common.Theme
	line := c.input.View()
	hint := c.hint
	if len(hint) == 0 && c.input.Value() == "" {
		for _, cmd := range commands {
			h := cmd.name
			if cmd.arg != "" {
				h += " " + cmd.arg
			}
			hint = append(hint, h)
		}
	}
	if len(hint) > 0 {
		short := make([]string, len(hint))
		for i, h := range hint {
			if _, arg, ok := strings.Cut(h, " "); ok && c.input.Value() != "" {
				h = arg
			}
			short[i] = h
		}
		line += "  " + th.Muted.Render(strings.Join(short, "  "))
	}
	return ansi.Truncate(line, w, th.Glyphs.Ellipsis)
}

// execute runs a command line.
func (m *Model) execute(line string) tea.Cmd {
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil
	}
	name, arg := f[0], strings.Join(f[1:], " ")
	switch name {
	case "services", "service", "svc", "s":
		return m.openScreen("services", arg)
	case "backups", "backup", "b":
		if arg == "" {
			arg = "all"
		}
		return m.openNamed("backups", arg)
	case "restores", "restore":
		return m.openNamed("restores", arg)
	case "stop", "start", "scale", "delete":
		if arg == "" {
			return m.toast(kit.ToastError, ":"+name+" needs a service: :"+name+" <name or ID>")
		}
		return m.openScreen("services", name+" "+arg)
	case "replication", "repl":
		return m.openScreen("replication", arg)
	case "profile", "p":
		if arg == "" {
			return m.openProfilePicker()
		}
		return m.switchProfile(arg)
	case "settings", "set":
		return m.openScreen("settings", arg)
	case "login":
		return m.openKeyPrompt("Enter the API key of profile " + m.common.Profile + ".")
	case "log":
		return m.openLog()
	case "help", "h":
		m.showHelp = true
		return nil
	case "q", "quit", "q!", "exit":
		return m.quit()
	}
	known := make([]string, 0, len(commands))
	for _, c := range commands {
		known = append(known, ":"+c.name)
	}
	return m.toast(kit.ToastError, "unknown command :"+name+" (the commands: "+strings.Join(known, " ")+"; ? says what each does)")
}

// openNamed opens screen id (Backups, Restores) on arg, a service (or
// "all"). From another screen, a name that is no service (nor, for
// Restores, a restore's target) changes nothing: a warning says so, and
// the screen stays. On the screen itself, or before the services are
// read, the screen resolves the name.
func (m *Model) openNamed(id, arg string) tea.Cmd {
	from := m.screen()
	if arg == "" || arg == "all" || from.ID() == id || m.names(id, arg) {
		if id == "backups" {
			arg = m.resolveService(arg)
		}
		return m.openScreen(id, arg)
	}
	return kit.ToastWhile(kit.ToastWarn, fmt.Sprintf("no service named %q; still on %s", arg, from.Title()),
		func() bool { return m.screen().ID() == from.ID() })
}

// names reports that arg may name what screen id shows: a service of the
// last listing (by ID or name), a restore's target on Restores, or
// anything while no listing was read.
func (m *Model) names(id, arg string) bool {
	if m.known == nil {
		return true
	}
	for _, s := range m.known {
		if s.ID == arg || s.Name == arg {
			return true
		}
	}
	return id == "restores" && m.cmdline.targetsGen == m.profileGen && m.cmdline.targets[arg]
}

// noteRestores keeps the services a restores listing names (a deleted
// service's restores stay listed: ":restores ID" shows them).
func (m *Model) noteRestores(d kit.DataMsg) {
	rs, err, ok := kit.RestoresKey.Of(d)
	if !ok || err != nil {
		return
	}
	targets := map[string]bool{}
	for _, r := range rs {
		targets[r.ServiceID], targets[r.ServiceName] = true, true
	}
	delete(targets, "")
	m.cmdline.targets, m.cmdline.targetsGen = targets, m.profileGen
}

// resolveService turns a service name into its ID when it is known.
func (m *Model) resolveService(arg string) string {
	for _, s := range m.known {
		if s.ID == arg {
			return arg
		}
	}
	for _, s := range m.known {
		if s.Name == arg {
			return s.ID
		}
	}
	return arg
}
