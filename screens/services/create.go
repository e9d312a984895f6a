package services

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The create form: a huh form whose choices come from the option listings
// (provider -> region; service type -> topology -> architecture and size,
// version, storage), then a review step that shows the exact JSON body
// before anything is sent. What was typed survives esc and a failed submit.

// draft is what the user typed or chose.
type draft struct {
	Provider, Region, ServiceType, Topology, Architecture, Size, Version string
	Storage                                                              int
	Name, Nodes, AllowList                                               string
	SSL                                                                  bool
	// top is the first line of the request the review shows (scrolled);
	// it is not sent
	top int
	// at is the field the form was left on (esc), or atReview: n
	// reopens it there
	at string
	// named are the services the listing showed with the name of the
	// draft's last launch when it was sent: one listed since is what it
	// launched (lostLaunch)
	named []string
}

// atReview is where a draft left on its review (esc) is: n shows the
// review again, as it was scrolled.
const atReview = "review"

type formValues struct {
	provider, region, serviceType, topology, arch, size, version *kit.Value[string]
	storage                                                      *kit.Value[int]
	name, nodes, allow                                           *kit.Value[string]
	ssl                                                          *kit.Value[bool]
}

func newFormValues(d *draft) *formValues {
	if d == nil {
		d = &draft{Nodes: "1", SSL: true}
	}
	return &formValues{
		provider: kit.NewValue(d.Provider), region: kit.NewValue(d.Region),
		serviceType: kit.NewValue(d.ServiceType), topology: kit.NewValue(d.Topology),
		arch: kit.NewValue(d.Architecture), size: kit.NewValue(d.Size), version: kit.NewValue(d.Version),
		storage: kit.NewValue(d.Storage),
		name:    kit.NewValue(d.Name), nodes: kit.NewValue(d.Nodes), allow: kit.NewValue(d.AllowList),
		ssl: kit.NewValue(d.SSL),
	}
}

func (v *formValues) draft() *draft {
	return &draft{
		Provider: v.provider.Get(), Region: v.region.Get(), ServiceType: v.serviceType.Get(),
		Topology: v.topology.Get(), Architecture: v.arch.Get(), Size: v.size.Get(),
		Version: v.version.Get(), Storage: v.storage.Get(), Name: v.name.Get(),
		Nodes: v.nodes.Get(), AllowList: v.allow.Get(), SSL: v.ssl.Get(),
	}
}

// request builds the body that will be sent.
func (d *draft) request() (api.CreateServiceRequest, error) {
	req := api.CreateServiceRequest{
		ServiceType: d.ServiceType, Topology: d.Topology, Provider: d.Provider,
		Region: d.Region, Architecture: d.Architecture, Size: d.Size,
		Storage: d.Storage, Name: strings.TrimSpace(d.Name), Version: d.Version,
		SSLEnabled: d.SSL,
	}
	n, err := parseNodesFor(d.Nodes, d.Topology)
	if err != nil {
		return req, err
	}
	req.Nodes = n
	entries, err := parseAllowList(d.AllowList)
	if err != nil {
		return req, err
	}
	req.AllowList = entries
	return req, req.Validate()
}

func parseNodes(s string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 1 {
		return 0, errors.New("nodes: must be a whole number, at least 1")
	}
	return n, nil
}

// parseNodesFor is parseNodes and the topology's node range, in the
// API's words: "nodes: es-replica has 2 to 5 nodes".
func parseNodesFor(s, topology string) (int, error) {
	lo, hi, known := api.NodeRange(topology)
	n, err := parseNodes(s)
	switch {
	case err != nil && known && lo < hi:
		// not a number: the rule is the topology's range
		return 0, fmt.Errorf("nodes: must be a whole number; %s has %d to %d nodes", topology, lo, hi)
	case err != nil:
		return 0, err
	case !known || (n >= lo && n <= hi):
		return n, nil
	case lo == hi:
		return 0, fmt.Errorf("nodes: %s has exactly %s", topology, kit.Count(lo, "node", "nodes"))
	}
	return 0, fmt.Errorf("nodes: %s has %d to %d nodes", topology, lo, hi)
}

// fitNodes is the nodes after a change of topology: what was typed when
// it fits the new topology, else the topology's least.
func fitNodes(typed, topology string) string {
	if _, err := parseNodesFor(typed, topology); err == nil {
		return typed
	}
	lo, _, _ := api.NodeRange(topology)
	return strconv.Itoa(lo)
}

// parseAllowList reads "203.0.113.7, 198.51.100.0/24" (commas or spaces),
// each checked by the API's own rule.
func parseAllowList(s string) ([]api.AllowListEntry, error) {
	var out []api.AllowListEntry
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		if err := api.ValidateAllowListIP(f); err != nil {
			return nil, err
		}
		n := api.NormalizeAllowListIP(f)
		for _, e := range out {
			if e.IP == n {
				// as networks: 10.1.1.1 is 10.1.1.1/32 (the API refuses it)
				return nil, fmt.Errorf("allow list: %s is given twice", n)
			}
		}
		out = append(out, api.AllowListEntry{IP: n})
	}
	return out, nil
}

// formDoneMsg is the huh form's submit or cancel.
type formDoneMsg struct {
	form   *huh.Form
	cancel bool
}

type createForm struct {
	common *kit.Common
	// named is the draft's (kept in the drafts it makes)
	named  []string
	keys   keyMap
	width  int
	height int // the form's, as given WithHeight
	form   *huh.Form
	ahead  kit.TypeAhead // keys typed during a move to the next field
	values *formValues
	opts   *optionSource
	fields map[string]huh.Field // by the names namedField gives
	groups [][]huh.Field        // as in the form
	// nodes is the nodes field, given the topology's least when a new
	// topology (topology: the one it was last fitted to) leaves what it
	// holds out of range
	nodes    *huh.Input
	topology string
	// hintWidth is what the hints under the fields are wrapped to (the
	// field's width inside its bar), between words only: huh's own wrap
	// breaks at every "." and so inside an address
	hintWidth *kit.Value[int]
	// lists are the form's lists, in its order
	lists []formList
	// rechecking: the lists' rules say only why a listing gave nothing
	// (recheck)
	rechecking bool
}

// choice is one of the form's lists: its options read again when a
// choice it hangs on (binds) or its retry count (formRetry, while one of
// its listings gave nothing) changes, its rule through kit.Back
// (shift+tab leaves it whatever it holds).
func choice[T comparable](f *createForm, title string, acc huh.Accessor[T], height int, options func() []huh.Option[T], binds []any, listings []func() string, rule func(T) error) *huh.Select[T] {
	retry := kit.NewValue(0)
	s := huh.NewSelect[T]().Title(title).Accessor(acc).Height(height).
		OptionsFunc(options, append(binds, retry.Bind()))
	s.Validate(kit.Back(&f.ahead, s, rule))
	f.lists = append(f.lists, formList{field: s, listings: listings, retry: retry})
	return s
}

// of are listing keys, for choice.
func of(keys ...func() string) []func() string { return keys }

func required(what string) func(string) error {
	return func(s string) error {
		if s == "" {
			return fmt.Errorf("choose a %s", what)
		}
		return nil
	}
}

// after is rule, once the field parent (what) its choices hang on is
// chosen: before, the field is refused with what to choose first.
func after[T any](parent *kit.Value[string], what string, rule func(T) error) func(T) error {
	return func(v T) error {
		if parent.Get() == "" {
			return fmt.Errorf("choose a %s first", what)
		}
		return rule(v)
	}
}

// nameHint is the as-you-type message under the name field, from the
// API's own rule.
func nameHint(name string, taken []string) string {
	if strings.TrimSpace(name) == "" {
		// nothing typed yet is no mistake: what to type (tab or enter on
		// it still says it is required)
		return fmt.Sprintf("type the service's name: %d to %d characters", api.ServiceNameMin, api.ServiceNameMax)
	}
	if err := api.ValidateServiceName(name); err != nil {
		return "! " + err.Error()
	}
	for _, t := range taken {
		if strings.EqualFold(strings.TrimSpace(name), t) {
			// a warning, not a refusal: the API decides
			return fmt.Sprintf("! a service named %s exists already: two of that name are easy to mix up", t)
		}
	}
	return fmt.Sprintf("ok: %d characters (4 to 24)", len([]rune(name)))
}

func allowHint(s string) string {
	entries, err := parseAllowList(s)
	if err != nil {
		return "! " + err.Error()
	}
	if len(entries) == 0 {
		return "optional; addresses or CIDR networks, comma separated (203.0.113.7, 198.51.100.0/24)"
	}
	if wide := wideNetworks(entries); wide != "" {
		return "! warning: " + wide + "; asked before launching"
	}
	ips := make([]string, len(entries))
	for i, e := range entries {
		ips[i] = e.IP
	}
	return "ok: " + strings.Join(ips, ", ")
}

// wideNetworks is what api.WideNetwork says of the entries that open the
// service to a large part of the internet (the allow-list screen's rule),
// "; "-joined, or "".
func wideNetworks(entries []api.AllowListEntry) string {
	var wide []string
	for _, e := range entries {
		if w := api.WideNetwork(e.IP); w != "" {
			wide = append(wide, w)
		}
	}
	return strings.Join(wide, "; ")
}

// wideConfirm is the yes/no before a service is launched with a wide
// network in its allow list, in the allow-list screen's words; nothing to
// ask otherwise.
func wideConfirm(req api.CreateServiceRequest) kit.Confirm {
	wide := wideNetworks(req.AllowList)
	if wide == "" {
		return kit.Confirm{}
	}
	return kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Allow a wide network?",
		Detail: fmt.Sprintf("%s: only the password then keeps them out. Launch %s with it in its allow list anyway?", wide, req.Name)}
}

func newCreateForm(c *kit.Common, keys keyMap, d *draft, taken []string) *createForm {
	v := newFormValues(d)
	o := &optionSource{client: c.Client, ctx: c.Ctx(), sizes: map[string][]api.Size{}, notes: map[string]string{}}
	f := &createForm{common: c, keys: keys, values: v, opts: o, hintWidth: kit.NewValue(0)}
	if d != nil {
		f.named = d.named
	}
	// the listings each list's choices are read from
	providers := func() string { return listing("providers") }
	regions := func() string { return listing("regions", v.provider.Get()) }
	types := func() string { return listing("service types") }
	topologies := func() string { return listing("topologies", v.serviceType.Get()) }
	sizes := func() string { return listing("sizes", v.provider.Get(), v.topology.Get()) }
	archSizes := func() string { return listing("sizes", v.provider.Get(), v.topology.Get(), v.arch.Get()) }
	versions := func() string { return listing("versions", v.topology.Get()) }
	storages := func() string { return listing("storage sizes", v.topology.Get()) }
	provider := choice(f, "Provider", v.provider, 5, func() []huh.Option[string] { return o.providers(v.provider.Get()) }, nil,
		of(providers), listed(f, providers, required("provider")))
	region := choice(f, "Region", v.region, 7, func() []huh.Option[string] { return o.regions(v.provider.Get(), v.region.Get()) },
		[]any{v.provider.Bind()}, of(regions),
		after(v.provider, "provider", listed(f, regions, required("region"))))
	stype := choice(f, "Service type", v.serviceType, 4, func() []huh.Option[string] { return o.serviceTypes(v.serviceType.Get()) }, nil,
		of(types), listed(f, types, required("service type")))
	topo := choice(f, "Topology", v.topology, 6, func() []huh.Option[string] { return o.topologies(v.serviceType.Get(), v.topology.Get()) },
		[]any{v.serviceType.Bind()}, of(topologies),
		after(v.serviceType, "service type", listed(f, topologies, required("topology"))))
	arch := choice(f, "Architecture", v.arch, 4,
		func() []huh.Option[string] { return o.architectures(v.provider.Get(), v.topology.Get(), v.arch.Get()) },
		[]any{v.provider.Bind(), v.topology.Bind()}, of(sizes),
		after(v.provider, "provider", after(v.topology, "topology", listed(f, sizes, required("architecture")))))
	size := choice(f, "Size", v.size, 7,
		func() []huh.Option[string] {
			return o.sizesFor(v.provider.Get(), v.topology.Get(), v.arch.Get(), v.size.Get())
		},
		[]any{v.provider.Bind(), v.topology.Bind(), v.arch.Bind()}, of(sizes, archSizes),
		after(v.topology, "topology", after(v.arch, "architecture",
			listed(f, sizes, listed(f, archSizes, required("size"))))))
	version := choice(f, "Version", v.version, 5, func() []huh.Option[string] { return o.versions(v.topology.Get(), v.version.Get()) },
		[]any{v.topology.Bind()}, of(versions),
		after(v.topology, "topology", listed(f, versions, func(string) error { return nil })))
	storage := choice(f, "Storage", v.storage, 6, func() []huh.Option[int] { return o.storage(v.topology.Get(), v.storage.Get()) },
		[]any{v.topology.Bind()}, of(storages),
		after(v.topology, "topology", listed(f, storages, func(n int) error {
			if n <= 0 {
				return errors.New("choose a storage size")
			}
			return nil
		})))
	name := huh.NewInput().Title("Name").Accessor(v.name).CharLimit(40).
		Placeholder("e.g. orders-db").
		DescriptionFunc(func() string { return f.hint(nameHint(v.name.Get(), taken)) }, []any{v.name.Bind(), f.hintWidth.Bind()})
	name.Validate(kit.Back(&f.ahead, name, api.ValidateServiceName))
	nodes := huh.NewInput().Title("Nodes").Accessor(v.nodes).CharLimit(3)
	nodes.Validate(kit.Back(&f.ahead, nodes, func(s string) error { _, err := parseNodesFor(s, v.topology.Get()); return err }))
	f.nodes, f.topology = nodes, v.topology.Get()
	ssl := huh.NewConfirm().Title("SSL").Affirmative("on").Negative("off").Accessor(v.ssl)
	allow := huh.NewInput().Title("Allow list").Accessor(v.allow).
		Placeholder("e.g. 203.0.113.7, 198.51.100.0/24").
		DescriptionFunc(func() string { return f.hint(allowHint(v.allow.Get())) }, []any{v.allow.Bind(), f.hintWidth.Bind()})
	allow.Validate(kit.Back(&f.ahead, allow, func(s string) error { _, err := parseAllowList(s); return err }))

	f.fields = map[string]huh.Field{"provider": provider, "region": region, "service type": stype, "topology": topo,
		"architecture": arch, "size": size, "version": version, "storage": storage, "name": name, "nodes": nodes,
		"ssl": ssl, "allow list": allow}
	f.groups = [][]huh.Field{{provider, region}, {stype, topo}, {arch, size}, {version, storage}, {name, nodes, ssl, allow}}
	f.ahead = kit.TypeAhead{}
	f.form = kit.NewForm(c,
		huh.NewGroup(f.groups[0]...).Title("New service 1/5: where").
			Description("Choices come from the API's option listings."),
		huh.NewGroup(f.groups[1]...).Title("New service 2/5: what"),
		huh.NewGroup(f.groups[2]...).Title("New service 3/5: hardware"),
		huh.NewGroup(f.groups[3]...).Title("New service 4/5: software and storage"),
		huh.NewGroup(f.groups[4]...).Title("New service 5/5: name and access"),
	)
	form := f.form
	f.form.SubmitCmd = func() tea.Msg { return formDoneMsg{form: form} }
	f.form.CancelCmd = func() tea.Msg { return formDoneMsg{form: form, cancel: true} }
	return f
}

// hint is a field's hint wrapped to the field, between words (kit.Wrap):
// an address or a service's name is never cut in two.
func (f *createForm) hint(s string) string {
	if w := f.hintWidth.Get(); w > 0 {
		return kit.Wrap(s, w)
	}
	return s
}

// fieldWords are the words by which a refusal names a field of the form,
// the more specific first ("storage size" is storage, "nodes for
// topology" is nodes).
var fieldWords = []struct{ word, field string }{
	{"storage", "storage"}, {"allow", "allow list"}, {"ip_address", "allow list"}, {"node", "nodes"},
	{"architecture", "architecture"}, {"topology", "topology"}, {"service_type", "service type"},
	{"service type", "service type"}, {"version", "version"}, {"region", "region"}, {"provider", "provider"},
	{"size", "size"}, {"ssl", "ssl"}, {"name", "name"},
}

// namedField is the field of the create form a refusal's text names, or
// "".
func namedField(text string) string {
	t := kit.RefusalWords(text)
	for _, fw := range fieldWords {
		if strings.Contains(t, fw.word) {
			return fw.field
		}
	}
	return ""
}

// focus moves the form to field (a namedField name). Unknown: the
// form stays on its first field.
func (f *createForm) focus(field string) tea.Cmd {
	return kit.FocusField(f.form, f.groups, f.fields[field])
}

// draft is what the form holds.
func (f *createForm) draft() *draft {
	d := f.values.draft()
	d.named = f.named
	return d
}

// left is what the form holds when it is left (esc), and where.
func (f *createForm) left() *draft {
	d := f.draft()
	d.at = f.focused()
	return d
}

// fieldOrder are the form's fields in the order it shows them.
var fieldOrder = []string{"provider", "region", "service type", "topology", "architecture", "size", "version",
	"storage", "name", "nodes", "ssl", "allow list"}

// firstUnfilled is the first field of the form, in its order, that the
// draft leaves empty or that its rule refuses; "" when there is none.
// The version may be empty (the API's default).
func (d *draft) firstUnfilled() string {
	for _, f := range []struct {
		field string
		bad   bool
	}{
		{"provider", d.Provider == ""}, {"region", d.Region == ""}, {"service type", d.ServiceType == ""},
		{"topology", d.Topology == ""}, {"architecture", d.Architecture == ""}, {"size", d.Size == ""},
		{"storage", d.Storage <= 0}, {"name", api.ValidateServiceName(d.Name) != nil},
	} {
		if f.bad {
			return f.field
		}
	}
	if _, err := parseNodesFor(d.Nodes, d.Topology); err != nil {
		return "nodes"
	}
	if _, err := parseAllowList(d.AllowList); err != nil {
		return "allow list"
	}
	if _, err := d.request(); err != nil {
		return namedField(err.Error())
	}
	return ""
}

// reopenAt is the field a draft's form opens on: where it was left, or
// the first field before it that is empty or refused (the form never
// opens past a field that needs the user, nor on a list whose choices
// hang on one not chosen yet).
func (d *draft) reopenAt() string {
	first := d.firstUnfilled()
	if d.at != "" && (first == "" || slices.Index(fieldOrder, d.at) < slices.Index(fieldOrder, first)) {
		return d.at
	}
	return first
}

// focused is the name of the field that has the focus.
func (f *createForm) focused() string {
	cur := f.form.GetFocusedField()
	for n, fl := range f.fields {
		if fl == cur {
			return n
		}
	}
	return ""
}

// SetSize implements kit.Pane.
func (f *createForm) SetSize(w, h int) {
	f.width, f.height = w, max(5, h-2)
	fw := max(20, min(w-2, 100))
	f.form.WithWidth(fw).WithHeight(f.height)
	bar := kit.HuhTheme(f.common).Theme(f.common.Theme.Dark).Focused.Base
	f.hintWidth.Set(max(10, fw-bar.GetHorizontalFrameSize()))
}

// filtering reports that a select's "/" filter is open: esc then closes
// the filter, not the form.
func (f *createForm) filtering() bool {
	fl, ok := f.form.GetFocusedField().(interface{ GetFiltering() bool })
	return ok && fl.GetFiltering()
}

// retryMsg has the form look at its lists' bindings again (formRetry).
type retryMsg struct{}

// Update passes a message to the huh form; formRetry reads again the
// lists whose listing gave nothing.
func (f *createForm) Update(msg tea.Msg) tea.Cmd {
	f.opts.setClient(f.common.Client) // a key entered meanwhile: its client
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, formHelp) && f.helps() {
		return kit.Send(kit.HelpMsg{})
	}
	if k, ok := msg.(tea.KeyPressMsg); ok && key.Matches(k, formRetry) {
		for _, l := range f.failing() {
			l.retry.Set(l.retry.Get() + 1)
		}
		msg = retryMsg{}
	}
	var cmd tea.Cmd
	f.form, cmd = f.ahead.Update(f.form, msg)
	f.fitNodes()
	f.recheck()
	return cmd
}

// fitNodes follows a change of topology: the nodes become its least
// unless what they hold fits it.
func (f *createForm) fitNodes() {
	v := f.values
	if t := v.topology.Get(); t != f.topology {
		f.topology = t
		if n := fitNodes(v.nodes.Get(), t); n != v.nodes.Get() {
			v.nodes.Set(n)
			f.nodes.Accessor(v.nodes) // the field shows it
		}
	}
}

// CapturesKeys implements kit.Pane: the form takes every key.
func (f *createForm) CapturesKeys() bool { return true }

// formHelp opens the help where nothing is typed (a list, SSL): the form
// takes every key, so the root's ? does not reach it (kit.HelpMsg asks
// the root); in a text field, or a list's filter, ? is typed.
var formHelp = kit.Bind("?", "help")

// retryFirst is the way below a list whose listing gave nothing, as the
// line of a step cut short names it.
var retryFirst = kit.BindHelp("ctrl+r, then enter", "read the list again, then go on", "ctrl+r")

// helps reports that ? opens the help: the focused field takes no text.
func (f *createForm) helps() bool {
	_, typed := f.form.GetFocusedField().(*huh.Input)
	return !typed && !f.filtering()
}

// KeyMap implements kit.Pane.
// The footer offers ctrl+r while a listing gave nothing to choose, before
// ? and shift+tab (the footer keeps keys in their order, esc first, as
// far as they fit: at 80 columns ctrl+r was the one left out); ? where it
// opens the help. The help lists them all.
func (f *createForm) KeyMap() kit.Keys {
	k := f.keys
	short := []key.Binding{k.FormNext}
	if len(f.failing()) > 0 {
		short = append(short, formRetry)
	}
	if f.helps() {
		short = append(short, formHelp)
	}
	short = append(short, k.FormPrev, k.FormCancel)
	all := []key.Binding{k.FormNext, k.FormPrev, k.FormCancel, formRetry, formHelp}
	return kit.Keys{Short: short, Full: [][]key.Binding{all}, Title: "Create a service"}
}

// View implements kit.Pane. When the step's fields do not all fit, the
// blank line under the heading goes and the last line says which fields
// are below and above the ones shown (kit.FormCut).
func (f *createForm) View() string {
	th, w := f.common.Theme, f.width
	head := ansi.Truncate(th.Bold.Render(" Create a service")+th.Muted.Render("  / filter a list"), w, th.Glyphs.Ellipsis)
	form := kit.FormView(f.common, f.form, f.height)
	next := f.keys.FormNext
	for _, l := range f.failing() {
		if l.field == f.form.GetFocusedField() {
			next = retryFirst // enter is refused until the list is read
		}
	}
	mark := kit.FormCut(f.common, f.form, f.groups, f.fields, form, next, f.keys.FormPrev, w)
	if mark == "" {
		return head + "\n\n" + form
	}
	return head + "\n" + form + "\n" + mark
}

// openCreate opens the form, with what was typed before if anything.
func (s *Screen) openCreate() tea.Cmd {
	if s.common.ReadOnly {
		return kit.RefuseReadOnly(s.common, "creating a service")
	}
	if s.draft != nil && s.draft.at == atReview {
		// left on its review: back there (e opens the form), what it
		// says of the last launch kept
		s.draft.at = ""
		s.mode = modeReview
		return s.maybeSentNote()
	}
	taken := make([]string, 0, len(s.services))
	for _, v := range s.services {
		taken = append(taken, v.Name)
	}
	s.form = newCreateForm(s.common, s.keys, s.draft, taken)
	s.form.SetSize(s.Size())
	s.mode = modeCreate
	// after a refusal (the API's, or the request's own check), e goes to
	// the field it names
	field := namedField(s.submitErr)
	if s.declined {
		// the no was to a wide network in the allow list
		field = "allow list"
	}
	if s.draft != nil {
		// never past a field that needs the user (a list on a later step
		// hangs on it)
		if at := s.draft.reopenAt(); field == "" || (at != "" && slices.Index(fieldOrder, at) < slices.Index(fieldOrder, field)) {
			field = at
		}
	}
	s.submitErr, s.notSent, s.declined = "", false, false
	init := s.form.form.Init()
	return tea.Batch(init, s.form.focus(field), s.maybeSentNote())
}

// maybeSentNote is the toast of a draft reopened after a launch of it
// that was sent and never answered; nil otherwise.
func (s *Screen) maybeSentNote() tea.Cmd {
	if s.maybeSent == "" || s.draft == nil {
		return nil
	}
	return kit.ToastHere(kit.ToastWarn, s.maybeSentText())
}

func (s *Screen) onFormDone(msg formDoneMsg) tea.Cmd {
	if s.form == nil || msg.form != s.form.form {
		return nil
	}
	s.draft = s.form.draft()
	s.form = nil
	if msg.cancel {
		s.mode = modeList
		return nil
	}
	s.mode = modeReview
	return nil
}
