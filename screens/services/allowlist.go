package services

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// allowTag marks allow-list actions' answers.
type allowTag struct {
	serviceID string
	ip        string
	add       bool
}

// allowView shows a service's allow list (polled as kit.AllowListKey while
// open) and adds or removes entries through the action layer.
type allowView struct {
	common *kit.Common
	keys   keyMap
	svc    api.Service
	groups []api.AllowListGroup
	loaded bool
	err    error
	table  *kit.Table
	adding bool
	input  kit.Input
	hint   string
	wide   bool // the typed network is wide: the hint warns
	// replace: the typed address is listed already with another comment,
	// which enter asks before replacing (the hint warns)
	replace bool
	invalid bool
	width   int
	height  int
	tableW  int // the width the table was last given
	// intro is the text under the title, in lines of the width (SetSize):
	// what the list is and the service's outbound IPs, each whole
	intro []string
	// checking: the input asks for an address to check (i), not one to add
	checking bool
	checked  string // the last check's answer, in words
	checkBad bool   // the address is not allowed, or the check failed
	// checkedIP is the address of the answer shown ("": none); checkSeq
	// numbers the checks asked, so an answer older than the last one
	// asked (the list changed meanwhile) is dropped
	checkedIP string
	checkSeq  int
	// draft is what was typed to add and to check, kept through esc while
	// the one input serves the other, and while the list is closed (the
	// screen's allowDrafts)
	draft *allowDraft
	// offer is the address the check's answer offers n to add ("": none)
	offer string
	// hintLines and checkedLines are the hint under the input (while an
	// address is typed) and the check's answer in lines of the width,
	// wrapped between words, an address whole (layout)
	hintLines, checkedLines []string
}

// ipCheckMsg is the answer of "is this address allowed?".
type ipCheckMsg struct {
	serviceID, ip string
	seq           int // the check's number (allowView.checkSeq)
	res           *api.IPAllowed
	err           error
}

// The input's prompt while an address is added (i checks one instead).
const addPrompt, addPlaceholder = "add> ", "203.0.113.7 or 198.51.100.0/24, then a comment"

// addsIt ends a check's answer that offers n to add the address checked.
const addsIt = " (n adds it)"

// newAllowView opens the allow list of v, with what was typed in it
// before, kept in drafts (nil: nothing kept).
func newAllowView(c *kit.Common, keys keyMap, v api.Service, drafts *allowDrafts) *allowView {
	a := &allowView{common: c, keys: keys, svc: v, draft: drafts.of(v.ID)}
	a.table = kit.NewTable(c, []kit.Column{
		{Title: "ADDRESS", Min: 9, Max: 43, Priority: 9},
		{Title: "COMMENT", Min: 7, Max: 40, Priority: 5},
		{Title: "ENDPOINT", Min: 8, Max: 16, Priority: 3},
	})
	a.input = kit.NewInput(addPrompt, addPlaceholder)
	// until the allow-list call answers, show what the listing knows
	for _, e := range v.Endpoints {
		a.groups = append(a.groups, api.AllowListGroup{Name: e.Name, AllowList: e.AllowList})
	}
	a.rebuild()
	return a
}

func (a *allowView) key() string { return kit.AllowListKey(a.svc.ID).String() }

func (a *allowView) resource() kit.Resource {
	c, id := a.common, a.svc.ID
	return kit.AllowListKey(id).Resource(func(ctx context.Context) ([]api.AllowListGroup, error) {
		if c.Client == nil {
			return nil, errors.New("no API client")
		}
		return c.Client.GetAllowList(ctx, id)
	}, nil)
}

// CapturesKeys implements kit.Pane: an address typed or a filter typed
// takes every key.
func (a *allowView) CapturesKeys() bool { return a.adding || a.checking || a.table.Filtering() }

// leaves reports that msg (esc) leaves the allow list: no input is open
// and no filter is typed or kept (esc clears a kept filter first).
func (a *allowView) leaves(msg tea.KeyPressMsg) bool {
	return !a.CapturesKeys() && a.table.Filter() == "" && key.Matches(msg, a.keys.Back)
}

// KeyMap implements kit.Pane.
func (a *allowView) KeyMap() kit.Keys {
	keys := a.keyMap()
	keys.Title = "Allow list" // in ?, under the Services screen's keys
	return keys
}

func (a *allowView) keyMap() kit.Keys {
	k, t := a.keys, a.table.Keys
	switch {
	case a.checking:
		return kit.KeysOf(k.CheckConfirm, k.AddCancel)
	case a.adding && a.replace:
		// the address is listed: enter asks to replace its comment
		return kit.KeysOf(kit.BindHelp(k.AddConfirm.Help().Key, "replace comment", k.AddConfirm.Keys()...), k.AddCancel)
	case a.adding && (a.invalid || strings.TrimSpace(a.input.Value()) == ""):
		// enter would add nothing (the hint says why): not offered
		return kit.KeysOf(k.AddCancel)
	case a.adding:
		return kit.KeysOf(k.AddConfirm, k.AddCancel)
	case a.table.Filtering():
		// the filter's keys: enter keeps it, esc clears it
		return kit.KeysOf(t.FilterKeep, t.FilterClear)
	}
	back := k.Back
	if a.table.Filter() != "" {
		// a kept filter: esc clears it before it leaves (leaves)
		back = kit.BindHelp(k.Back.Help().Key, "clear filter", k.Back.Keys()...)
	}
	b := []key.Binding{k.Add, k.Remove, k.Check, k.SSL, back}
	if _, ok := a.table.Selected(); !ok {
		// no entry (or none the filter shows): nothing for d to remove
		b = slices.DeleteFunc(b, func(x key.Binding) bool { return x.Help() == k.Remove.Help() })
	}
	return kit.ReadOnlyHelp(a.common, kit.Keys{Short: b, Full: [][]key.Binding{append(b, t.Filter), {t.Up, t.Down}}}, k.Add, k.Remove, k.SSL)
}

// SetSize implements kit.Pane.
func (a *allowView) SetSize(w, h int) {
	a.width, a.height = w, h
	a.intro = introLines(a.svc, w)
	a.input.SetWidth(max(10, min(50, w-10)))
	a.layout()
}

// layout wraps the hint and the check's answer to the width and gives the
// table the lines they leave; after every change of either.
func (a *allowView) layout() {
	w := a.width
	a.hintLines, a.checkedLines = nil, nil
	if a.adding || a.checking {
		a.hintLines = strings.Split(kit.Wrap(a.hint, max(10, w-3)), "\n")
	}
	if a.checked != "" {
		a.checkedLines = strings.Split(kit.Wrap(a.checked, max(10, w-1)), "\n")
	}
	// one line each is in the room counted for them
	more := max(0, len(a.hintLines)-1) + max(0, len(a.checkedLines)-1)
	if th := max(3, a.height-5-len(a.intro)-more); th != a.table.Height() || w != a.tableW {
		a.tableW = w
		a.table.SetSize(w, th)
	}
}

// onData takes the allow list's answer; it reports whether msg was it,
// and the address check asked again when the list changed.
func (a *allowView) onData(msg kit.DataMsg) (bool, tea.Cmd) {
	g, err, ok := kit.AllowListKey(a.svc.ID).Of(msg)
	switch {
	case !ok:
		return false, nil
	case err != nil:
		a.err = err
		return true, nil
	}
	a.err = nil
	return true, a.setGroups(g)
}

// setGroups takes the allow list as read or as a change answered it. When
// its addresses changed, the answer of the last address check says what
// the list was: the address is checked again, the answer meanwhile saying
// so.
func (a *allowView) setGroups(g []api.AllowListGroup) tea.Cmd {
	changed := !slices.Equal(allowedIPs(a.groups), allowedIPs(g))
	a.groups, a.loaded = g, true
	a.rebuild()
	if !changed || a.checkedIP == "" {
		return nil
	}
	ip := a.checkedIP
	a.offer = ""
	a.checked, a.checkBad = "the allow list changed: checking "+ip+" again"+a.common.Theme.Glyphs.Ellipsis, false
	a.layout()
	return a.check(ip)
}

// allowedIPs are the addresses of groups, normalized and sorted.
func allowedIPs(groups []api.AllowListGroup) []string {
	var ips []string
	for _, g := range groups {
		for _, e := range g.AllowList {
			ips = append(ips, api.NormalizeAllowListIP(e.IP))
		}
	}
	slices.Sort(ips)
	return slices.Compact(ips)
}

// listed finds ip (normalized) in the allow list: its comment, and
// whether it is there.
func (a *allowView) listed(ip string) (comment string, ok bool) {
	for _, g := range a.groups {
		for _, e := range g.AllowList {
			if api.NormalizeAllowListIP(e.IP) == ip {
				return e.Comment, true
			}
		}
	}
	return "", false
}

func (a *allowView) rebuild() {
	// a read-only profile (which may become one while the list is open)
	// is not invited to add
	a.table.Empty = kit.Invite(a.common, "no entries: no address may connect", "n adds one")
	var rows []kit.Row
	for _, g := range a.groups {
		for _, e := range g.AllowList {
			rows = append(rows, kit.Row{ID: e.IP, Cells: []string{e.IP, e.Comment, g.Name}})
		}
	}
	a.table.SetRows(rows)
}

// splitEntry reads what is typed to add: the address or network, then,
// after a space, a comment ("203.0.113.7 office VPN").
func splitEntry(typed string) (ip, comment string) {
	ip, comment, _ = strings.Cut(strings.TrimSpace(typed), " ")
	return ip, strings.TrimSpace(comment)
}

func (a *allowView) validate() {
	v, comment := splitEntry(a.input.Value())
	a.invalid, a.wide, a.replace = false, false, false
	if v == "" {
		a.hint = "an address (a /32 is added for one host) or a CIDR network, then a comment if you like"
		return
	}
	if err := api.ValidateAllowListIP(v); err != nil {
		a.hint = err.Error()
		a.invalid = true
		return
	}
	ip := api.NormalizeAllowListIP(v)
	if old, ok := a.listed(ip); ok {
		// listed already: enter sets a new comment, asked when it
		// replaces one; anything else would change nothing
		switch {
		case comment != "" && old == "":
			a.hint = fmt.Sprintf("%s is in the allow list already, without a comment: will set its comment to %q", ip, comment)
		case comment != "" && comment != old:
			a.hint = fmt.Sprintf("warning: %s is in the allow list already with the comment %q; asked before replacing it with %q", ip, old, comment)
			a.replace = true
		case old != "":
			a.hint = fmt.Sprintf("%s is in the allow list already with the comment %q (type a new comment after the address to replace it)", ip, old)
			a.invalid = true
		default:
			a.hint = fmt.Sprintf("%s is in the allow list already (type a comment after the address to set one)", ip)
			a.invalid = true
		}
		return
	}
	a.hint = "will add " + ip
	if comment != "" {
		a.hint += fmt.Sprintf(" with the comment %q", comment)
	}
	if wide := api.WideNetwork(v); wide != "" {
		a.hint, a.wide = "warning: "+wide+"; asked before adding", true
	}
}

// Update takes a key, a paste, the address check it asked for or a
// component message (the input's cursor, the table's filter).
func (a *allowView) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(ipCheckMsg); ok {
		a.onCheck(m)
		return nil
	}
	if a.adding || a.checking {
		var cmd tea.Cmd
		a.input, cmd = a.input.Update(msg)
		if _, paste := msg.(tea.PasteMsg); paste && a.adding {
			// a pasted address is checked as a typed one is
			a.validate()
			a.layout()
		}
		return cmd
	}
	_, cmd := a.table.Update(msg)
	return cmd
}

// onCheck takes the answer of an address check.
func (a *allowView) onCheck(msg ipCheckMsg) {
	if msg.serviceID != a.svc.ID || msg.seq != a.checkSeq {
		return // another service's, or asked before the list changed
	}
	defer a.layout()
	a.offer = ""
	switch {
	case msg.err != nil:
		a.checked, a.checkBad = "could not check "+msg.ip+": "+msg.err.Error(), true
	case msg.res.IsAllowed:
		a.checked, a.checkBad = msg.ip+" is allowed to connect to "+a.svc.Name, false
	default:
		a.checked, a.checkBad = msg.ip+" is NOT allowed to connect to "+a.svc.Name, true
		// n would be refused on a read-only profile, and brings back what
		// was typed to add when there is something (or types, while adding)
		if !a.common.ReadOnly && !a.adding && a.draft.add == "" {
			a.offer = msg.ip
			a.checked += addsIt
		}
	}
}

// allowChangeKey is the action key of every change of a service's allow
// list: one at a time, as a comment is set by reading the list and
// putting it back whole (a second change meanwhile would be overwritten).
func allowChangeKey(serviceID string) string { return "allowlist:" + serviceID }

// leaveInput leaves the input open for (*open: adding, checking),
// keeping what was typed in it in *kept for the next time it opens.
func (a *allowView) leaveInput(open *bool, kept *string) {
	*open, *kept = false, a.input.Value()
	a.input.Blur()
}

// checkKey handles the keys while the address to check is typed.
func (a *allowView) checkKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case key.Matches(msg, a.keys.AddCancel):
		a.leaveInput(&a.checking, &a.draft.check) // kept for the next i
		return nil
	case key.Matches(msg, a.keys.AddConfirm):
		v := strings.TrimSpace(a.input.Value())
		if ip := net.ParseIP(v); ip == nil {
			a.hint, a.invalid = "ip_address: enter one address, such as 203.0.113.7", true
			return nil // nothing typed is lost
		}
		a.checking = false
		a.input.Blur()
		a.input.SetValue("")
		a.draft.check = ""
		a.offer = ""
		a.checked, a.checkBad = "checking "+v+a.common.Theme.Glyphs.Ellipsis, false
		return a.check(v)
	}
	var cmd tea.Cmd
	a.input, cmd = a.input.Update(msg)
	a.hint, a.invalid = "the address to check, such as 203.0.113.7", false
	return cmd
}

// check asks the service whether ip may connect; the answer replaces the
// one shown (checkedIP), and an answer of a check asked before is dropped.
func (a *allowView) check(ip string) tea.Cmd {
	a.checkSeq++
	a.checkedIP = ip
	client, id, seq := a.common.Client, a.svc.ID, a.checkSeq
	ctx := a.common.Ctx()
	return func() tea.Msg {
		if client == nil {
			return ipCheckMsg{serviceID: id, ip: ip, seq: seq, err: errors.New("no API client")}
		}
		res, err := client.IsIPAllowed(ctx, id, ip)
		return ipCheckMsg{serviceID: id, ip: ip, seq: seq, res: res, err: err}
	}
}

// toggleSSL turns the service's SSL off or on, confirmed.
func (a *allowView) toggleSSL() tea.Cmd {
	client, id, name, on := a.common.Client, a.svc.ID, a.svc.Name, !a.svc.SSLEnabled
	word, detail := "on", fmt.Sprintf("Turn SSL on for %s (%s)? Clients must then connect with SSL.", name, id)
	if !on {
		word, detail = "off", fmt.Sprintf("Turn SSL off for %s (%s)? Connections are then accepted unencrypted; clients that require SSL cannot connect.", name, id)
	}
	return serviceChange(client, id, "ssl", kit.Action{
		Name:    "turn SSL " + word + " for " + name,
		Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Turn SSL " + word + "?", Detail: detail},
		Run:     func(ctx context.Context) (any, error) { return on, client.SetSSL(ctx, id, on) },
		Success: func(any) string { return "SSL " + word + " for " + name },
	})
}

// onLifecycleDone notes a changed SSL setting at once.
func (a *allowView) onLifecycleDone(msg kit.ActionDoneMsg, tag lifecycleTag) {
	if tag.verb == "ssl" && tag.serviceID == a.svc.ID && msg.Err == nil {
		if on, ok := msg.Result.(bool); ok {
			a.svc.SSLEnabled = on
		}
	}
}

// onKey takes a key; what it changes is laid out again.
func (a *allowView) onKey(msg tea.KeyPressMsg) tea.Cmd {
	cmd := a.handleKey(msg)
	a.layout()
	return cmd
}

func (a *allowView) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	c := a.common
	if a.checking {
		return a.checkKey(msg)
	}
	if a.adding {
		switch {
		case key.Matches(msg, a.keys.AddCancel):
			a.leaveInput(&a.adding, &a.draft.add) // kept for the next n
			return nil
		case key.Matches(msg, a.keys.AddConfirm):
			a.validate()
			v, comment := splitEntry(a.input.Value())
			if a.invalid || v == "" {
				return nil // the message is shown; nothing typed is lost
			}
			ip := api.NormalizeAllowListIP(v)
			client, id := c.Client, a.svc.ID
			var confirm kit.Confirm
			name := fmt.Sprintf("add %s to the allow list of %s", ip, a.svc.Name)
			success := func(any) string {
				if comment != "" {
					return fmt.Sprintf("%s is in the allow list of %s with the comment %q", ip, a.svc.Name, comment)
				}
				return fmt.Sprintf("%s added to the allow list of %s", ip, a.svc.Name)
			}
			old, listed := a.listed(ip)
			switch wide := api.WideNetwork(ip); {
			case listed:
				name = fmt.Sprintf("set the comment of %s in the allow list of %s", ip, a.svc.Name)
				if old != "" {
					confirm = kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Replace the comment?",
						Detail: fmt.Sprintf("%s is in the allow list of %s (%s) already, with the comment %q. Replace its comment with %q?", ip, a.svc.Name, id, old, comment)}
				}
				success = func(any) string {
					return fmt.Sprintf("the comment of %s in the allow list of %s is now %q", ip, a.svc.Name, comment)
				}
			case wide != "":
				confirm = kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Allow a wide network?",
					Detail: fmt.Sprintf("%s: only the password then keeps them out. Add it to the allow list of %s (%s) anyway?", wide, a.svc.Name, id)}
			}
			// what a reading shows of it, whatever else the list holds; none
			// when the list had it already (nothing a reading could show)
			var effect func(kit.DataMsg) string
			if !listed || comment != old {
				effect = kit.AllowListEffect(id, a.svc.Name, ip, comment)
			}
			return kit.Do(kit.Action{
				Name:     name,
				Key:      allowChangeKey(id),
				Confirm:  confirm,
				Mutating: true,
				Origin:   ID,
				Tag:      allowTag{serviceID: id, ip: ip, add: true},
				Run: func(ctx context.Context) (any, error) {
					if comment != "" {
						// POST takes no comment: read the list, put it back whole
						return client.SetAllowListComment(ctx, id, ip, comment)
					}
					return client.AddAllowListEntry(ctx, id, ip)
				},
				Success:    success,
				Refresh:    []string{a.key(), kit.ServicesKey.String()},
				Evidence:   kit.AllowListEvidence(client, id, a.svc.Name),
				EvidenceOf: "the allow list of " + a.svc.Name,
				Effect:     effect,
			})
		}
		var cmd tea.Cmd
		a.input, cmd = a.input.Update(msg)
		a.validate()
		return cmd
	}
	if used, cmd := a.table.FilterFirst(msg, a.keys.Back); used {
		return cmd // the filter typed, or a kept one cleared by esc
	}
	switch {
	case key.Matches(msg, a.keys.Check):
		a.checking = true
		a.input.SetValue(a.draft.check)
		a.input.Prompt, a.input.Placeholder = "check> ", "203.0.113.7"
		a.hint, a.invalid = "the address to check, such as 203.0.113.7", false
		return a.input.Focus()
	case key.Matches(msg, a.keys.SSL):
		return a.toggleSSL()
	case key.Matches(msg, a.keys.Add):
		if a.common.ReadOnly {
			return kit.RefuseReadOnly(a.common, "adding to the allow list of "+a.svc.Name)
		}
		a.adding = true
		if a.offer != "" {
			// the check's answer offered it: the address checked, the
			// cursor after it for a comment (unless something was typed
			// since); the answer offers it no more
			if a.draft.add == "" {
				a.draft.add = a.offer
			}
			a.offer, a.checked = "", strings.TrimSuffix(a.checked, addsIt)
		}
		a.input.SetValue(a.draft.add)
		a.input.Prompt, a.input.Placeholder = addPrompt, addPlaceholder
		a.validate()
		return a.input.Focus()
	case key.Matches(msg, a.keys.Remove):
		r, ok := a.table.Selected()
		if !ok {
			why := "the allow list of " + a.svc.Name + " has no entry to remove"
			if a.table.Filter() != "" {
				why = "no entry of the allow list of " + a.svc.Name + " matches the filter: nothing to remove"
			}
			return kit.Toast(kit.ToastInfo, why)
		}
		ip, client, id, name := r.ID, c.Client, a.svc.ID, a.svc.Name
		return kit.Do(kit.Action{
			Name:     fmt.Sprintf("remove %s from the allow list of %s", ip, name),
			Key:      allowChangeKey(id),
			Mutating: true,
			Origin:   ID,
			Tag:      allowTag{serviceID: id, ip: ip},
			Confirm: kit.Confirm{
				Kind:   kit.ConfirmYesNo,
				Title:  "Remove allow-list entry?",
				Detail: fmt.Sprintf("Remove %s from the allow list of %s (%s)? Connections from that address will be refused.", ip, name, id),
			},
			Run: func(ctx context.Context) (any, error) {
				return client.RemoveAllowListEntry(ctx, id, ip)
			},
			Success: func(any) string { return fmt.Sprintf("%s removed from the allow list of %s", ip, name) },
			Refresh: []string{a.key(), kit.ServicesKey.String()},
		})
	}
	_, cmd := a.table.Update(msg)
	return cmd
}

func (a *allowView) onActionDone(msg kit.ActionDoneMsg, tag allowTag) tea.Cmd {
	if tag.serviceID != a.svc.ID || msg.Err != nil {
		return nil
	}
	if tag.add {
		a.adding = false
		a.input.SetValue("")
		a.draft.add = ""
		a.input.Blur()
		a.hint, a.invalid, a.wide, a.replace = "", false, false, false
		a.layout()
	}
	if g, ok := msg.Result.([]api.AllowListGroup); ok && g != nil {
		return a.setGroups(g)
	}
	return nil
}

// View implements kit.Pane.
func (a *allowView) View() string {
	th, w, h := a.common.Theme, a.width, a.height
	head := th.Bold.Render(" Allow list") + "  " + a.svc.Name + " " + th.Muted.Render("("+a.svc.ID+")")
	switch {
	case a.err != nil:
		head += "  " + th.Warn.Render("could not refresh: "+a.err.Error())
	case !a.loaded:
		head += "  " + th.Muted.Render("reading"+th.Glyphs.Ellipsis)
	}
	ssl := "SSL off"
	if a.svc.SSLEnabled {
		ssl = "SSL on"
	}
	lines := []string{ansi.Truncate(head+"  "+ssl, w, th.Glyphs.Ellipsis)}
	for _, l := range a.intro {
		lines = append(lines, th.Muted.Render(l))
	}
	if len(a.checkedLines) == 0 {
		lines = append(lines, "")
	}
	st := th.OK
	if a.checkBad {
		st = th.Warn
	}
	for _, l := range a.checkedLines {
		lines = append(lines, st.Render(" "+l))
	}
	lines = append(lines, a.table.View())
	body := strings.Join(lines, "\n")
	n := strings.Count(body, "\n") + 1
	if pad := h - 2 - max(1, len(a.hintLines)) - n; pad > 0 {
		body += strings.Repeat("\n", pad)
	}
	var foot []string
	if a.adding || a.checking {
		foot = append(foot, " "+a.input.View())
		st := th.Muted
		switch {
		case a.invalid:
			st = th.Error
		case a.wide || a.replace:
			st = th.Warn
		}
		for _, l := range a.hintLines {
			foot = append(foot, "   "+st.Render(l))
		}
	} else {
		foot = append(foot, "", "")
	}
	return body + "\n\n" + strings.Join(foot, "\n")
}

// introLines is the text under the allow list's title in w cells: what
// the list is, and the service's outbound IPs (what its own connections
// come from). When it is too long for one line, the outbound IPs start a
// line of their own and wrap between addresses, each whole, the lines
// after it indented.
func introLines(v api.Service, w int) []string {
	what := "Addresses allowed to connect."
	ips := "Outbound IPs of this service: " + kit.OrDash(strings.Join(v.OutboundIPs, ", "))
	if ansi.StringWidth(what+" "+ips) <= w-1 {
		return []string{" " + what + " " + ips}
	}
	first, rest, _ := strings.Cut(kit.Wrap(ips, max(10, w-1)), "\n")
	lines := []string{" " + what, " " + first}
	if rest != "" {
		for _, l := range strings.Split(kit.Wrap(strings.ReplaceAll(rest, "\n", " "), max(10, w-3)), "\n") {
			lines = append(lines, "   "+l)
		}
	}
	return lines
}
