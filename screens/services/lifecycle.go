package services

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The lifecycle of a service from the list: stop or start (x), scale (z:
// nodes, size or storage, reviewed before → after) and delete (D, the name
// typed). Each goes through the action layer: read-only refused, confirmed,
// sent once, its outcome a toast; the listing is refreshed after it.

// lifecycleTag marks the answers of lifecycle actions.
type lifecycleTag struct {
	serviceID string
	verb      string // stop, start, scale, delete, ssl
}

// serviceChange sends a change of service id through the action layer: a
// gives its name, confirmation, call and success; every such change is
// mutating, answers this screen (lifecycleTag{id, verb}), refreshes the
// listing and, for an unknown outcome, reads the services' statuses.
func serviceChange(client *api.Client, id, verb string, a kit.Action) tea.Cmd {
	a.Mutating, a.Origin, a.Tag = true, ID, lifecycleTag{id, verb}
	a.Refresh = []string{kit.ServicesKey.String()}
	a.Evidence, a.EvidenceOf = kit.ServiceStatusEvidence(client), "the services"
	return kit.Do(a)
}

// refusePending says why a change of a pending service is not offered.
func (s *Screen) refusePending(v api.Service, verb string) tea.Cmd {
	return s.refuseStatus(v, "it can be "+verb+" once it is no longer pending")
}

// refuseStatus says that v's status ("x is stopped: …") is why something
// is not done, for as long as the listing shows v in that status.
func (s *Screen) refuseStatus(v api.Service, why string) tea.Cmd {
	return kit.ToastWhile(kit.ToastWarn, fmt.Sprintf("%s is %s: %s", v.Name, kit.OrDash(v.Status), why),
		func() bool {
			now, ok := s.service(v.ID)
			return ok && now.Status == v.Status
		})
}

// stopStart stops a ready service or starts a stopped one.
func (s *Screen) stopStart(v api.Service) tea.Cmd {
	switch {
	case v.Pending():
		return s.refusePending(v, "stopped or started")
	case api.StatusIs(v.Status, "stopped"):
		return s.power(v, startPower)
	case v.Ready():
		return s.power(v, stopPower)
	}
	return s.refuseStatus(v, "only a ready service can be stopped and a stopped one started")
}

// powerChange is a stop or a start: its words, the statuses it passes
// through and its call.
type powerChange struct {
	verb, ask, doing string // "stop", "Stop", "stopping"
	consequence      string // what the confirmation says follows
	passing, settled string // the statuses it goes through
	call             func(*api.Client, context.Context, string) error
}

var (
	startPower = powerChange{verb: "start", ask: "Start", doing: "starting",
		consequence: "It is pending_start for a few minutes, then ready and accepting connections.",
		passing:     "pending_start", settled: "ready", call: (*api.Client).StartService}
	stopPower = powerChange{verb: "stop", ask: "Stop", doing: "stopping",
		consequence: "Every connection to it drops and replication to it stops until it is started again (x).",
		passing:     "pending_stop", settled: "stopped", call: (*api.Client).StopService}
)

// power sends p for v once confirmed.
func (s *Screen) power(v api.Service, p powerChange) tea.Cmd {
	client, id, name := s.common.Client, v.ID, v.Name
	return serviceChange(client, id, p.verb, kit.Action{
		Name: p.verb + " " + name,
		Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: p.ask + " service?",
			Detail: fmt.Sprintf("%s %s (%s)? %s", p.ask, name, id, p.consequence)},
		Run:     func(ctx context.Context) (any, error) { return nil, p.call(client, ctx, id) },
		Success: func(any) string { return fmt.Sprintf("%s %s: %s, then %s", p.doing, name, p.passing, p.settled) },
		Effect:  kit.ServiceEffect(id, name, kit.StatusIn(p.passing, p.settled)),
		Follow:  kit.ServiceWatch(client, ID, id, name, p.verb),
	})
}

// deleteService deletes a service once its name is typed.
func (s *Screen) deleteService(v api.Service) tea.Cmd {
	if v.Pending() {
		return s.refusePending(v, "deleted")
	}
	client, id, name := s.common.Client, v.ID, v.Name
	return serviceChange(client, id, "delete", kit.Action{
		Name: "delete " + name,
		Confirm: kit.Confirm{Kind: kit.ConfirmTypeName, Title: "Delete service?", Name: name,
			Live: func() (string, string) { return s.deleteDetail(id, name) }},
		Run:     func(ctx context.Context) (any, error) { return nil, client.DeleteService(ctx, id) },
		Success: func(any) string { return fmt.Sprintf("deleting %s: pending_delete, then gone", name) },
		Effect:  kit.ServiceEffect(id, name, kit.GoneOr("pending_delete", "deleted")),
		Follow:  kit.ServiceWatch(client, ID, id, name, "delete"),
	})
}

// deleteDetail is the delete's confirmation as the listing shows the
// service now: one deleted elsewhere, or gone pending since it was asked,
// is said and nothing is sent (the API would refuse it).
func (s *Screen) deleteDetail(id, name string) (detail, refused string) {
	v, ok := s.service(id)
	switch {
	case !ok:
		return fmt.Sprintf("%s (%s) is no longer listed (deleted elsewhere?): there is nothing left to delete.", name, id), name + " is no longer listed"
	case v.Pending():
		return fmt.Sprintf("%s (%s) is %s since this was asked: a pending service cannot be deleted.", name, id, v.Status), name + " is " + v.Status
	}
	return fmt.Sprintf("Delete %s (%s) and all its data? This cannot be undone: connections drop, replication to and from it ends. Type its name to confirm.", name, id), ""
}

// ---- scale ----

// Scale kinds.
const (
	scaleNodes = iota
	scaleSize
	scaleStorage
)

var scaleKindNames = [...]string{"nodes", "size", "storage"}

type scaleStep int

const (
	scalePickKind scaleStep = iota
	scalePickValue
	scaleReview
)

// scaleChoice is one offered value; blocked says why it cannot be chosen.
type scaleChoice struct {
	label   string
	spec    string // what a size gives ("2 vCPU, 8 GB RAM"), a column of its own
	value   string
	n       int
	blocked string
}

// scaleChoicesMsg carries the choices read for a kind.
type scaleChoicesMsg struct {
	serviceID string
	kind      int
	choices   []scaleChoice
	err       error
}

// scaleView chooses what to scale, then the new value, then reviews
// before → after.
type scaleView struct {
	common  *kit.Common
	keys    keyMap
	svc     api.Service
	step    scaleStep
	kind    int
	cursor  int
	kinds   []scaleChoice
	choices []scaleChoice
	loading bool
	err     error
	width   int
	height  int
}

func storageOf(v api.Service) int {
	if v.StorageVolume != nil {
		return v.StorageVolume.Size
	}
	return 0
}

func newScaleView(c *kit.Common, keys keyMap, v api.Service) *scaleView {
	sv := &scaleView{common: c, keys: keys, svc: v}
	nodes := scaleChoice{label: fmt.Sprintf("nodes    now %d", v.Nodes), value: "nodes"}
	if api.SingleNode(v.Topology) {
		nodes.blocked = "topology " + v.Topology + " has one node"
	}
	sv.kinds = []scaleChoice{
		nodes,
		{label: "size     now " + kit.OrDash(v.Size), value: "size"},
		{label: fmt.Sprintf("storage  now %d GB (only grows)", storageOf(v)), value: "storage"},
	}
	if nodes.blocked != "" {
		sv.cursor = 1
	}
	return sv
}

// load reads the choices of the chosen kind (sizes, storage) in a command.
func (sv *scaleView) load() tea.Cmd {
	v, kind, client := sv.svc, sv.kind, sv.common.Client
	if kind == scaleNodes {
		var out []scaleChoice
		for n := 1; n <= 9; n++ {
			c := scaleChoice{label: strconv.Itoa(n), value: strconv.Itoa(n), n: n}
			if _, err := parseNodesFor(c.value, v.Topology); err != nil {
				c.blocked = strings.TrimPrefix(err.Error(), "nodes: ") // "es-replica has 2 to 5 nodes"
			} else if n == v.Nodes {
				c.blocked = "current"
			}
			out = append(out, c)
		}
		// the cursor on one more than now, else the nearest that can be chosen
		sv.choices, sv.cursor = out, min(v.Nodes, len(out)-1)
		for d := 0; d < len(out); d++ {
			if i := sv.cursor - d; i >= 0 && out[i].blocked == "" {
				sv.cursor = i
				break
			}
			if i := sv.cursor + d; i < len(out) && out[i].blocked == "" {
				sv.cursor = i
				break
			}
		}
		return nil
	}
	sv.loading, sv.err, sv.choices = true, nil, nil
	return func() tea.Msg {
		msg := scaleChoicesMsg{serviceID: v.ID, kind: kind}
		if client == nil {
			msg.err = errors.New("no API client")
			return msg
		}
		ctx := context.Background()
		switch kind {
		case scaleSize:
			sizes, err := client.ListSizes(ctx, v.Provider, v.Topology, v.Architecture)
			if err != nil {
				msg.err = err
				return msg
			}
			for _, z := range sizes {
				c := scaleChoice{label: z.Name, value: z.Name, spec: z.Spec()}
				if z.Name == v.Size {
					c.blocked = "current"
				}
				msg.choices = append(msg.choices, c)
			}
		case scaleStorage:
			listing, err := client.ListStorageSizes(ctx, v.Topology)
			if err != nil {
				msg.err = err
				return msg
			}
			cur := storageOf(v)
			seen := map[int]bool{}
			for _, l := range listing {
				for _, gb := range l.StorageSizes {
					if seen[gb] {
						continue
					}
					seen[gb] = true
					c := scaleChoice{label: fmt.Sprintf("%d GB", gb), value: strconv.Itoa(gb), n: gb}
					switch {
					case gb == cur:
						c.blocked = "current"
					case gb < cur:
						c.blocked = "storage only grows"
					}
					msg.choices = append(msg.choices, c)
				}
			}
		}
		return msg
	}
}

// Update implements kit.PaneUpdater: the choices it asked for.
func (sv *scaleView) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(scaleChoicesMsg); ok {
		sv.onChoices(m)
	}
	return nil
}

func (sv *scaleView) onChoices(msg scaleChoicesMsg) {
	if msg.serviceID != sv.svc.ID || msg.kind != sv.kind || sv.step != scalePickValue {
		return
	}
	sv.loading, sv.err, sv.choices, sv.cursor = false, msg.err, msg.choices, 0
	for i, c := range sv.choices {
		if c.blocked == "" {
			sv.cursor = i
			break
		}
	}
}

func (sv *scaleView) list() []scaleChoice {
	if sv.step == scalePickKind {
		return sv.kinds
	}
	return sv.choices
}

// move moves the cursor by d, stopping at the list's ends (as the
// Services list does: a j held past the last choice stays on it).
func (sv *scaleView) move(d int) {
	n := len(sv.list())
	if n == 0 {
		return
	}
	sv.cursor = max(0, min(n-1, sv.cursor+d))
}

// before and after, in words.
func (sv *scaleView) change() (before, after string) {
	c := sv.choices[sv.cursor]
	switch sv.kind {
	case scaleNodes:
		return strconv.Itoa(sv.svc.Nodes), c.value
	case scaleSize:
		return kit.OrDash(sv.svc.Size), c.value
	}
	return fmt.Sprintf("%d GB", storageOf(sv.svc)), c.label
}

// choose moves on from the current step; at the review it returns the action.
func (sv *scaleView) choose() (tea.Cmd, string) {
	list := sv.list()
	if sv.cursor >= len(list) {
		return nil, ""
	}
	if b := list[sv.cursor].blocked; b != "" {
		return nil, b
	}
	switch sv.step {
	case scalePickKind:
		sv.kind, sv.step, sv.cursor = sv.cursor, scalePickValue, 0
		return sv.load(), ""
	case scalePickValue:
		sv.step = scaleReview
		return nil, ""
	}
	return sv.action(), ""
}

func (sv *scaleView) back() bool {
	switch sv.step {
	case scaleReview:
		sv.step = scalePickValue
	case scalePickValue:
		sv.step, sv.cursor, sv.choices, sv.loading, sv.err = scalePickKind, sv.kind, nil, false, nil
	default:
		return false
	}
	return true
}

func (sv *scaleView) action() tea.Cmd {
	client, id, name := sv.common.Client, sv.svc.ID, sv.svc.Name
	c := sv.choices[sv.cursor]
	before, after := sv.change()
	what, arrow, kind := scaleKindNames[sv.kind], sv.common.Theme.Glyphs.Arrow, sv.kind
	var run func(ctx context.Context) (any, error)
	switch sv.kind {
	case scaleNodes:
		run = func(ctx context.Context) (any, error) { return nil, client.SetNodes(ctx, id, c.n) }
	case scaleSize:
		run = func(ctx context.Context) (any, error) { return nil, client.SetSize(ctx, id, c.value) }
	default:
		run = func(ctx context.Context) (any, error) { return nil, client.SetStorageSize(ctx, id, c.n) }
	}
	return serviceChange(client, id, "scale", kit.Action{
		Name:       fmt.Sprintf("scale %s %s %s %s %s", name, what, before, arrow, after),
		Supersedes: "scale " + id + " " + what, // to another value that failed
		Run:        run,
		Success: func(any) string {
			return fmt.Sprintf("scaling %s: %s %s %s %s (pending_scale, then ready)", name, what, before, arrow, after)
		},
		Effect: kit.ServiceEffect(id, name, func(v *api.Service) bool {
			return v != nil && (api.StatusIs(v.Status, "pending_scale") || scaledTo(kind, v, c))
		}),
	})
}

// scaledTo reports that v has the value c chosen for kind.
func scaledTo(kind int, v *api.Service, c scaleChoice) bool {
	switch kind {
	case scaleNodes:
		return v.Nodes == c.n
	case scaleSize:
		return v.Size == c.value
	}
	return storageOf(*v) == c.n
}

// SetSize implements kit.Pane.
func (sv *scaleView) SetSize(w, h int) { sv.width, sv.height = w, h }

// CapturesKeys implements kit.Pane.
func (sv *scaleView) CapturesKeys() bool { return false }

// KeyMap implements kit.Pane: the choice, then its review.
func (sv *scaleView) KeyMap() kit.Keys {
	keys := sv.keyMap()
	keys.Title = "Scale" // in ?
	return keys
}

func (sv *scaleView) keyMap() kit.Keys {
	k := sv.keys
	if sv.step == scaleReview {
		return kit.KeysOf(k.ScaleApply, k.ScaleBack)
	}
	return kit.KeysOf(k.ScaleChoose, k.ScaleUp, k.ScaleDown, k.ScaleBack)
}

// View implements kit.Pane.
func (sv *scaleView) View() string {
	th, w := sv.common.Theme, sv.width
	trunc := func(s string) string { return kit.CapText(s, max(1, w), 1, th.Glyphs.Ellipsis) }
	lines := []string{trunc(th.Bold.Render(" Scale") + "  " + sv.svc.Name + " " + th.Muted.Render("("+sv.svc.ID+", "+sv.svc.Topology+" on "+sv.svc.Provider+")")), ""}
	switch sv.step {
	case scalePickKind:
		lines = append(lines, " What to change:")
	case scalePickValue:
		lines = append(lines, " New "+scaleKindNames[sv.kind]+":")
	case scaleReview:
		before, after := sv.change()
		lines = append(lines,
			" Review",
			"",
			fmt.Sprintf("   %s  %s %s %s", scaleKindNames[sv.kind], before, th.Glyphs.Arrow, th.Bold.Render(after)),
			"",
			th.Muted.Render(trunc(" The service is pending_scale for a few minutes, then ready.")),
			"",
			"")
		return strings.Join(lines, "\n")
	}
	switch {
	case sv.loading:
		lines = append(lines, "   "+th.Muted.Render("reading the choices"+th.Glyphs.Ellipsis))
	case sv.err != nil:
		lines = append(lines, "   "+th.Error.Render(trunc("could not read the choices: "+sv.err.Error())))
	}
	list := sv.list()
	// the list takes the rest of the area; cut, its last line says what
	// is below and above
	room := max(1, sv.height-len(lines))
	start, rows := 0, len(list)
	if len(list) > room {
		rows = max(1, room-1)
		start = max(0, min(sv.cursor-rows+1, len(list)-rows))
	}
	// the names as one column, what they give as the next
	nameW := 0
	for _, c := range list {
		nameW = max(nameW, ansi.StringWidth(c.label))
	}
	for i := start; i < len(list) && i < start+rows; i++ {
		c := list[i]
		prefix := "   "
		if i == sv.cursor {
			prefix = " " + th.Glyphs.Cursor + " "
		}
		text := c.label
		if c.spec != "" {
			text += strings.Repeat(" ", nameW-ansi.StringWidth(c.label)) + "  " + c.spec
		}
		line := prefix + text
		if c.blocked != "" {
			line = prefix + th.Muted.Render(text+"  ("+c.blocked+")")
		} else if i == sv.cursor {
			line = prefix + th.Bold.Render(text)
		}
		lines = append(lines, trunc(line))
	}
	if rows < len(list) {
		lines = append(lines, trunc("   "+th.Muted.Render(kit.MoreOf(sv.common, sv.keys.ScaleDown, sv.keys.ScaleUp, start, len(list)-start-rows, "choice", "choices"))))
	}
	return strings.Join(lines, "\n")
}

// ---- the command line ----

// Open implements kit.Opener: ":services NAME" selects a service; the
// verbs ":stop NAME", ":start NAME", ":scale NAME" and ":delete NAME"
// arrive as "stop NAME" … and act on it (the action layer still refuses
// and confirms). A verb that arrives before the listing waits for it.
func (s *Screen) Open(arg string) tea.Cmd {
	f := strings.Fields(arg)
	if len(f) == 0 {
		return nil
	}
	verb, name := "", f[0]
	switch f[0] {
	case "stop", "start", "scale", "delete":
		verb = f[0]
		if len(f) < 2 {
			return kit.Toast(kit.ToastWarn, ":"+verb+" needs a service name or ID")
		}
		name = strings.Join(f[1:], " ")
	}
	if !s.IsLoaded() {
		s.opening = &openRequest{verb: verb, name: name}
		return nil
	}
	return s.openNow(verb, name, false)
}

type openRequest struct{ verb, name string }

// notFound says that no service has the name or ID a command typed (a
// warning, gone in its time like any other: a typing slip, not a failure
// to keep), and, when the text is part of names, which to type: a command
// acts on a whole name or ID only, never on a part. Short, for the
// message line of an 80-column terminal.
func notFound(verb, name string, svcs []api.Service) string {
	cmd := ":" + ID
	if verb != "" {
		cmd = ":" + verb
	}
	var holding []string
	named := map[string]int{}
	for _, v := range svcs {
		named[v.Name]++
	}
	for _, v := range svcs {
		if v.Name != "" && strings.Contains(strings.ToLower(v.Name), strings.ToLower(name)) {
			if named[v.Name] > 1 {
				// a name two services share: the ID is what to type
				holding = append(holding, v.ID+" ("+v.Name+")")
				continue
			}
			holding = append(holding, v.Name)
		}
	}
	slices.Sort(holding)
	switch n := len(holding); {
	case n == 1:
		return fmt.Sprintf("no service is named %q: type the whole name, %s %s", name, cmd, holding[0])
	case n > 1:
		if n > 3 {
			holding = append(holding[:3], "…")
		}
		return fmt.Sprintf("no service is named %q: type one whole (%s)", name, strings.Join(holding, ", "))
	}
	return fmt.Sprintf("no service has the name or ID %q", name)
}

// shared says that more than one service has the name a verb was given,
// with their IDs and statuses, and how to name one (":delete ID").
func shared(verb, name string, found []*api.Service) string {
	return fmt.Sprintf("%s: give its ID, :%s ID", api.SharedName(name, found, true), verb)
}

// openNow selects the service name names and does verb to it. A verb
// acts on the service as it is now: unless the listing was just read for
// it (fresh), it is read again first and the verb done on its answer —
// the listing kept while another screen was in front may be minutes old,
// a stop made since unseen (":start X" from the Replication screen's fix
// was refused as "X is ready").
func (s *Screen) openNow(verb, name string, fresh bool) tea.Cmd {
	found := api.ServicesNamed(s.services, name)
	if len(found) == 0 {
		return kit.Toast(kit.ToastWarn, notFound(verb, name, s.services))
	}
	if len(found) > 1 && verb != "" {
		// a name shared: the typed-name confirmation could not tell them
		// apart either, so nothing is chosen for the user
		return kit.Toast(kit.ToastWarn, shared(verb, name, found))
	}
	v := *found[0]
	s.mode = modeList
	s.Table.SetFilter("")
	s.Table.Select(v.ID)
	s.RefreshDetail()
	if verb != "" && !fresh {
		s.opening = &openRequest{verb: verb, name: name}
		return kit.Refresh(kit.ServicesKey.String())
	}
	switch verb {
	case "stop":
		if !v.Ready() {
			return s.refuseStatus(v, "only a ready service can be stopped")
		}
		return s.stopStart(v)
	case "start":
		if !api.StatusIs(v.Status, "stopped") {
			return s.refuseStatus(v, "only a stopped service can be started")
		}
		return s.stopStart(v)
	case "scale":
		return s.openScale(v)
	case "delete":
		return s.deleteService(v)
	}
	if len(found) > 1 {
		return kit.Toast(kit.ToastInfo, fmt.Sprintf("%d services are named %q: %s is selected (:services ID for another)", len(found), name, v.ID))
	}
	return nil
}

func (s *Screen) openScale(v api.Service) tea.Cmd {
	if !v.Ready() {
		if v.Pending() {
			return s.refusePending(v, "scaled")
		}
		return s.refuseStatus(v, "only a ready service can be scaled")
	}
	if s.common.ReadOnly {
		return kit.RefuseReadOnly(s.common, "scale "+v.Name)
	}
	s.scale = newScaleView(s.common, s.keys, v)
	s.scale.SetSize(s.Size())
	s.mode = modeScale
	return nil
}

func (s *Screen) onScaleKey(msg tea.KeyPressMsg) tea.Cmd {
	sv, k := s.scale, s.keys
	switch {
	case key.Matches(msg, k.ScaleBack):
		if !sv.back() {
			s.scale, s.mode = nil, modeList
		}
	case key.Matches(msg, k.ScaleChoose), key.Matches(msg, k.ScaleApply):
		cmd, blocked := sv.choose()
		if blocked != "" {
			return kit.Toast(kit.ToastWarn, "cannot choose that: "+blocked)
		}
		return cmd
	case sv.step == scaleReview:
		// only enter and esc
	case key.Matches(msg, k.ScaleUp):
		sv.move(-1)
	case key.Matches(msg, k.ScaleDown):
		sv.move(1)
	}
	return nil
}
