package services

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// credsMsg carries the answer of a credentials read.
type credsMsg struct {
	id    string
	creds *api.Credentials
	err   error
}

// credsView shows a ready service's default credentials: username, the
// password masked until revealed, and a ready-to-paste mariadb command. The
// password lives only while the view is open.
type credsView struct {
	common  *kit.Common
	width   int
	height  int
	svc     api.Service
	loading bool
	creds   *api.Credentials
	err     error
	reveal  bool
}

func newCredsView(c *kit.Common, v api.Service) *credsView {
	return &credsView{common: c, svc: v}
}

func (c *credsView) setSize(w, h int) { c.width, c.height = w, h }

// load reads the credentials if the service is ready; before that the
// view explains and waits (the listing keeps being polled).
func (c *credsView) load() tea.Cmd {
	if !c.svc.Ready() || c.loading || c.creds != nil {
		return nil
	}
	c.loading = true
	c.err = nil
	client, id, ctx := c.common.Client, c.svc.ID, c.common.Ctx()
	return func() tea.Msg {
		cr, err := client.GetCredentials(ctx, id)
		return credsMsg{id: id, creds: cr, err: err}
	}
}

func (c *credsView) onLoaded(msg credsMsg) {
	if msg.id != c.svc.ID {
		return
	}
	c.loading = false
	c.creds, c.err = msg.creds, msg.err
}

// onService follows the service's status: when it turns ready while the
// explanation is shown, the credentials are read.
func (c *credsView) onService(v api.Service) tea.Cmd {
	c.svc = v
	if v.Ready() && c.creds == nil && !c.loading && c.err == nil {
		return c.load()
	}
	return nil
}

func (c *credsView) host() string {
	if c.creds != nil && c.creds.Host != "" {
		return c.creds.Host
	}
	return c.svc.FQDN
}

// command is the mariadb client line; -p makes it prompt for the
// password, so the password never lands in shell history.
func (c *credsView) command() string {
	if c.creds == nil {
		return ""
	}
	parts := []string{"mariadb", "--host", c.host()}
	if p := c.svc.ReadWritePort(); p > 0 {
		parts = append(parts, "--port", strconv.Itoa(p))
	}
	parts = append(parts, "--user", c.creds.Username, "-p")
	if c.svc.SSLEnabled {
		parts = append(parts, "--ssl-verify-server-cert")
	}
	return kit.ShellCommand(parts...) // a username like x;curl … stays one word
}

func (s *Screen) onCredsKey(msg tea.KeyPressMsg) tea.Cmd {
	k, c := s.keys, s.creds
	switch {
	case key.Matches(msg, k.Back):
		s.creds = nil // drop the password
		s.mode = modeList
		return nil
	case key.Matches(msg, k.Reveal):
		c.reveal = !c.reveal
		return nil
	case key.Matches(msg, k.CopyPassword):
		if c.creds == nil {
			return nil
		}
		return kit.Copy(s.common, "password of "+c.svc.Name, c.creds.Password)
	case key.Matches(msg, k.CopyUser):
		if c.creds == nil {
			return nil
		}
		return kit.Copy(s.common, "username of "+c.svc.Name, c.creds.Username)
	case key.Matches(msg, k.CopyCommand):
		if c.creds == nil {
			return nil
		}
		return kit.Copy(s.common, "mariadb command for "+c.svc.Name, c.command())
	case key.Matches(msg, k.Retry):
		if c.err != nil {
			c.err = nil
			return c.load()
		}
	}
	return nil
}

func (c *credsView) view() string {
	th, w, h := c.common.Theme, c.width, c.height
	g := th.Glyphs
	var lines []string
	lines = append(lines, th.Bold.Render(" Credentials")+"  "+c.svc.Name+" "+th.Muted.Render("("+c.svc.ID+")"), "")
	row := func(label, value string) {
		lines = append(lines, "  "+th.Label.Render(fmt.Sprintf("%-9s", label))+"  "+value)
	}
	switch {
	case !c.svc.Ready():
		why := "Credentials are readable once the service is ready again."
		if api.StatusIs(c.svc.Status, "pending_create") {
			why = "Credentials exist once the service is ready. A launch takes about 5 minutes; " +
				"this view fills in by itself when the service is ready."
		} else if c.svc.Pending() {
			why = "The service is changing; its credentials are readable when it is ready again. " +
				"This view fills in by itself."
		}
		lines = append(lines,
			"  "+th.Status(c.svc.Status).Render(statusText(&c.svc, c.common.Time())),
			"",
			indent(ansi.Wrap(why, max(20, w-4), " "), "  "),
		)
	case c.loading:
		lines = append(lines, "  reading credentials"+g.Ellipsis)
	case c.err != nil:
		lines = append(lines, "  "+th.Error.Render("Could not read the credentials."),
			indent(ansi.Wrap(credsErrText(c.err), max(20, w-4), " "), "  "),
			"", th.Muted.Render("  enter to try again, esc to go back"))
	case c.creds != nil:
		pw := strings.Repeat(g.Mask, min(12, max(8, len([]rune(c.creds.Password)))))
		if c.reveal {
			pw = c.creds.Password
		}
		port := "-"
		if p := c.svc.ReadWritePort(); p > 0 {
			port = strconv.Itoa(p) + " (readwrite)"
		}
		ssl := "off"
		if c.svc.SSLEnabled {
			ssl = "on"
		}
		row("Host", c.host())
		row("Port", port)
		row("Username", c.creds.Username)
		row("Password", pw+th.Muted.Render("   v "+map[bool]string{false: "reveal", true: "hide"}[c.reveal]))
		row("SSL", ssl)
		lines = append(lines, "", "  "+th.Bold.Render("Connect")+th.Muted.Render(" (prompts for the password)"))
		for _, l := range kit.CommandLines(c.command(), max(20, w-4), true) {
			lines = append(lines, "    "+th.Code.Render(l))
		}
		lines = append(lines, "", th.Muted.Render("  y copy password   Y copy command   u copy username   (OSC 52; works over SSH)"))
	}
	lines = append(lines, "", th.Muted.Render("  esc back"))
	lines = strings.Split(strings.Join(lines, "\n"), "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, g.Ellipsis)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

// credsErrText explains a failed credentials read in words.
func credsErrText(err error) string {
	switch {
	case api.IsConflict(err):
		return "The service is not ready yet (" + err.Error() + ")."
	case api.IsNotFound(err):
		return "The service or its credentials were not found; it may have been deleted."
	case api.IsUnauthorized(err):
		return "The API key was refused."
	}
	return err.Error()
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
