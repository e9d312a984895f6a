// Package settings is the Settings screen (:settings): the profile in use,
// where secrets are kept (every keystore backend, usable or not and why),
// the API key's fingerprint, and the named bucket credentials and restore
// encryption keys, with adding and removing. Nothing secret is ever shown:
// keys by fingerprint, credentials by identity.
package settings

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// ID is the screen's name on the command line.
const ID = "settings"

// row is one entry of the stored credentials list.
type row struct {
	kind     string // "gcs", "s3" or "encryption key"
	name     string
	identity string
	where    string // the label of the backend it is read from ("" for an encryption key)
}

// id is the row's table ID: a credential and a key may share a name.
func (r row) id() string { return r.kind + "/" + r.name }

// loadedMsg carries what the keystore holds. Loading reads the keystore
// (a keyring call can take seconds), so it runs in a command.
type loadedMsg struct {
	gen      int
	backends []keystore.Status
	label    string
	keyInfo  string
	keyNote  string // a key the keystore holds that is not the one in use
	// keyStored: the keystore holds the profile's key (not the
	// environment's): a key entered at the prompt replaces it
	keyStored bool
	rows      []row
	err       error
}

type formDoneMsg struct {
	form   *huh.Form
	cancel bool
}

type keyMap struct {
	Add, Remove, Key, Reload key.Binding
	// the form: huh moves between the fields (FormNext and FormPrev are
	// listed for help); esc is the screen's
	FormNext, FormPrev, FormCancel key.Binding
}

// Screen is the Settings screen: the profile and the secrets' place
// above, the stored credentials below as a list (kit.ListView).
type Screen struct {
	kit.Name
	*kit.ListView
	common        *kit.Common
	keys          keyMap
	width, height int
	listHeight    int // the list's lines; the rest is the text above it
	headOff       int // the first line shown of the text above (it scrolls)

	gen    int
	loaded *loadedMsg

	form     *huh.Form
	groups   [][]huh.Field        // the form's fields, group by group (kit.FormCut)
	fields   map[string]huh.Field // and by name
	ahead    kit.TypeAhead        // keys typed during a move to the next field
	keyField huh.Field            // the GCS key file's
	reading  *keyRead             // the key file's read under way
	draft    *credDraft
	lastErr  string // why the last credential could not be stored

	configWarnings []string // what the config file holds that was ignored
}

// storeTag marks the store action, so its outcome finds its draft.
type storeTag struct{ draft *credDraft }

// New builds the screen.
func New(c *kit.Common) *Screen {
	s := &Screen{Name: kit.NewName(ID, "Settings"), common: c, keys: keyMap{
		Add:    kit.Bind("a", "add credential"), // short: 60 columns show the scroll keys too
		Remove: kit.Bind("d", "remove selected"),
		Key:    kit.Bind("K", "enter API key"),
		Reload: kit.Bind("ctrl+r", "reload keystore"),

		FormNext:   kit.BindHelp("enter/tab", "next", "enter"),
		FormPrev:   kit.Bind("shift+tab", "back"),
		FormCancel: kit.Bind("esc", "cancel (keeps input but secrets)"),
	}}
	s.ListView = kit.NewListView(c, listTitle, "credentials", []kit.Column{
		{Title: "NAME", Min: 12, Max: 24, Priority: 10},
		{Title: "KIND", Min: 6, Max: 15, Priority: 8},
		{Title: "IDENTITY", Min: 16, Priority: 9},
	})
	// K is the API key here: the pane scrolls with ctrl+d/ctrl+u, which
	// the footer and the help name (J alone would scroll one way only)
	s.Keys.ScrollDown = kit.Bind("ctrl+d", "scroll details down")
	s.Keys.ScrollUp = kit.Bind("ctrl+u", "scroll details up")
	// the pane's "more lines" names them too
	s.Detail.Down, s.Detail.Up = s.Keys.ScrollDown, s.Keys.ScrollUp
	s.DetailOf = s.detailOf
	s.OnRow = []key.Binding{s.keys.Remove}
	// the same keys scroll the text above the list when it is cut
	s.Scroll = s.scroll
	return s
}

// WithConfigWarnings sets the config file's warnings (unknown keys and
// tables, one "FILE:LINE: ..." line each) listed under the profile.
func (s *Screen) WithConfigWarnings(w []string) *Screen {
	s.configWarnings = w
	s.layout()
	return s
}

// maxConfigWarnings is how many warnings the screen lists before "more".
const maxConfigWarnings = 5

// KeyMap implements kit.Screen.
func (s *Screen) KeyMap() help.KeyMap {
	k := s.keys
	if s.form != nil {
		return kit.KeysOf(k.FormNext, k.FormPrev, k.FormCancel)
	}
	b := []key.Binding{k.Add, k.Remove, k.Key, k.Reload}
	if s.common.Demo {
		// the demo's sandbox needs no key: K only says so
		b = []key.Binding{k.Add, k.Remove, k.Reload}
	}
	short := b
	if s.DetailShown() {
		// the entry shown: removing it comes first, before the pane's
		// scroll and close keys (kit.ListView.KeyMap), so that all of
		// them fit 60 columns
		short = slices.Concat([]key.Binding{k.Remove}, slices.DeleteFunc(slices.Clone(b), func(x key.Binding) bool { return x.Help() == k.Remove.Help() }))
	} else if s.headCut() {
		// the text above is cut: how to scroll it comes second (the line
		// under it says so too; the full help says "the text above")
		l := s.ListView.Keys
		short = slices.Concat(b[:1], []key.Binding{kit.ScrollHelp(l.ScrollDown, l.ScrollUp)}, b[1:])
	}
	return s.ListView.KeyMap(short, b...)
}

// headRoom is the lines the text above the list has.
func (s *Screen) headRoom() int { return max(0, s.height-s.listHeight) }

// headCut reports that the text above the list does not fit its room:
// it scrolls (ctrl+d/ctrl+u while the detail is hidden).
func (s *Screen) headCut() bool { return len(s.head()) > s.headRoom() }

// scroll is what ctrl+d/ctrl+u do (kit.ListView.Scroll): scroll the detail
// while it is shown, else the text above the list.
func (s *Screen) scroll(n int) {
	if s.DetailShown() {
		s.Detail.ScrollBy(n)
		return
	}
	s.headOff += n
	s.clampHead()
}

// clampHead keeps the text above from scrolling past its ends: its last
// line shows above the line that says what is above and below.
func (s *Screen) clampHead() {
	s.headOff, _, _ = kit.TextWindow(len(s.head()), s.headRoom(), s.headOff)
}

// SetSize implements kit.Screen.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.layout()
	if s.form != nil {
		s.form.WithWidth(max(20, min(w-2, 90))).WithHeight(s.formHeight())
	}
}

// formHeight is the add-credential form's height: the screen's, but the
// two lines of its heading.
func (s *Screen) formHeight() int { return max(5, s.height-2) }

// minListHeight is what the list keeps on a short terminal (its status
// line, its header and three rows), minPaneHeight with the detail pane
// open (the pane under five lines of table); the text above is cut first.
const (
	minListHeight = 5
	minPaneHeight = 12
)

// layout gives the list the lines the text above it leaves, at least
// minListHeight (the list scrolls; the text is cut). The text changes
// with the keystore's answer, the profile and the last error, so every
// Update lays out again.
func (s *Screen) layout() {
	least := minListHeight
	if s.DetailShown() {
		least = minPaneHeight
	}
	h := min(s.height, max(least, s.height-len(s.head())))
	s.sizeList(h)
	switch {
	case !s.DetailShown() && s.Table.Cut():
		// a list cut to its room says what is below on a line of its own
		// (View), and keeps its rows
		h = min(s.height, max(least+1, h))
		s.sizeList(h - 1)
	case s.DetailShown():
		// the pane open: the list is laid out again each time (the table
		// is made one line shorter below), and a cut table gives its last
		// line to the line saying what is cut (splitView)
		s.ListView.SetSize(s.width, h)
		if s.Table.Cut() {
			s.Table.SetSize(s.tableWidth(), s.Table.Height()-1)
		}
	}
	s.listHeight = h
	s.clampHead()
	// the full help says what the scroll keys scroll now
	down, up := "scroll details down", "scroll details up"
	if !s.DetailShown() && s.headCut() {
		down, up = "scroll the text above down", "scroll the text above up"
	}
	s.Keys.ScrollDown.SetHelp(s.Keys.ScrollDown.Help().Key, down)
	s.Keys.ScrollUp.SetHelp(s.Keys.ScrollUp.Help().Key, up)
	// with the pane open, d removes the entry it shows
	remove := "remove selected"
	if s.DetailShown() {
		remove = "remove"
	}
	s.keys.Remove.SetHelp(s.keys.Remove.Help().Key, remove)
	s.OnRow = []key.Binding{s.keys.Remove}
}

// sizeList gives the list h lines, unless it has them.
func (s *Screen) sizeList(h int) {
	if w, lh := s.ListView.Size(); lh != h || w != s.width {
		s.ListView.SetSize(s.width, h)
	}
}

// keystoreKey is the keystore's listing, polled like the API's lists while
// Settings is shown, so r (and coming back to the screen) shows what other
// screens stored meanwhile (an encryption key kept from a restore).
const keystoreKey kit.Key[*loadedMsg] = "settings/keystore"

// Resources implements kit.Screen: the keystore's listing (nothing of the
// API is polled here).
func (s *Screen) Resources() []kit.Resource {
	st, profile, demo, inUse := s.common.Secrets, s.common.Profile, s.common.Demo, s.keyInUse()
	return []kit.Resource{keystoreKey.Resource(func(context.Context) (*loadedMsg, error) {
		m := read(0, st, profile, demo, inUse)
		return &m, nil
	}, nil).Titled("the keystore")}
}

// CapturesKeys implements kit.Screen: the form, or the list's filter.
func (s *Screen) CapturesKeys() bool { return s.form != nil || s.Capturing() }

// Init implements kit.Screen.
func (s *Screen) Init() tea.Cmd { return s.load() }

// Open implements kit.Opener (":settings").
func (s *Screen) Open(string) tea.Cmd { return s.load() }

func (s *Screen) load() tea.Cmd {
	s.gen++
	gen, st, profile, demo, inUse := s.gen, s.common.Secrets, s.common.Profile, s.common.Demo, s.keyInUse()
	return func() tea.Msg { return read(gen, st, profile, demo, inUse) }
}

// keyInUse is the fingerprint of the API key the session sends ("" for
// none): after a 401 a key entered at the prompt replaces the one read at
// start, which SKYSQL_API_KEY may still hold.
func (s *Screen) keyInUse() string {
	if c := s.common.Client; c != nil {
		return c.KeyFingerprint()
	}
	return ""
}

// demoKeyInfo is the API key's line in the demo, whose sandbox takes no
// key (K there only says so).
const demoKeyInfo = "none needed: the demo's sandbox is built in"

// read reads what the keystore holds. inUse is the fingerprint of the key
// the session sends: the line says where that one came from, and names a
// different key the keystore would read first (the refused SKYSQL_API_KEY,
// read again at the next start).
func read(gen int, st *keystore.Store, profile string, demo bool, inUse string) loadedMsg {
	m := loadedMsg{gen: gen}
	if st == nil {
		m.err = errors.New("no keystore is open in this run")
		return m
	}
	m.backends = st.Probe()
	m.label = st.Backend().Label()
	k, src, err := st.APIKey(profile)
	m.keyStored = err == nil && src.Name() != keystore.BackendEnv
	switch {
	case demo:
		m.keyInfo = demoKeyInfo
	case inUse != "" && (err != nil || keystore.Fingerprint(k) != inUse):
		// not what the keystore reads first: the key entered at the prompt
		m.keyInfo = inUse + " entered at the prompt (in use)"
		if err == nil {
			m.keyNote = src.Label() + " holds " + keystore.Fingerprint(k) + ": not used now"
			if src.Name() == keystore.BackendEnv {
				m.keyNote += ", but read first at the next start"
			}
		}
	case errors.Is(err, keystore.ErrNotFound):
		m.keyInfo = "none stored (K to enter one)"
	case err != nil:
		m.keyInfo = "unreadable: " + err.Error()
	default:
		m.keyInfo = keystore.Fingerprint(k) + " from " + src.Label()
	}
	infos, err := st.ListBucketCredentials()
	if err != nil {
		m.err = err
		return m
	}
	for _, in := range infos {
		r := row{kind: in.Kind, name: in.Name, where: in.Where}
		switch c, err := st.BucketCredential(in.Name); {
		case err != nil:
			r.identity = "unreadable: " + err.Error()
		default:
			switch c := c.(type) {
			case keystore.GCSCredential:
				r.identity = c.ClientEmail()
			case keystore.S3Credential:
				r.identity = c.AccessKeyID + " (" + c.Region + ")"
			}
		}
		m.rows = append(m.rows, r)
	}
	if names, err := st.ListEncryptionKeys(); err == nil {
		for _, n := range names {
			m.rows = append(m.rows, row{kind: "encryption key", name: n, identity: "kept for restores"})
		}
	}
	return m
}

// Update implements kit.Screen.
func (s *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	cmd := s.update(msg)
	s.layout()
	return s, cmd
}

func (s *Screen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case loadedMsg:
		if msg.gen == s.gen {
			s.setLoaded(&msg)
		}
	case kit.DataMsg:
		if m, err, ok := keystoreKey.Of(msg); ok && err == nil && m != nil {
			s.setLoaded(m)
		}
		return nil
	case kit.ActionDoneMsg:
		if t, ok := msg.Tag.(storeTag); ok {
			switch {
			case errors.Is(msg.Err, kit.ErrCancelled):
				// a "no" to replacing a stored one: no error (the root
				// says it was cancelled); the draft stays, as below
			case msg.Err != nil:
				// the draft stays whole, the secret too: a brings back
				// everything typed
				s.lastErr = msg.Err.Error()
			case s.draft == t.draft:
				s.draft, s.lastErr = nil, "" // the secret with it
			}
		}
		return s.load()
	case formDoneMsg:
		return s.formDone(msg)
	case keyReadMsg:
		return s.keyDone(msg)
	case tea.KeyPressMsg:
		if s.form != nil {
			if key.Matches(msg, s.keys.FormCancel) {
				return s.formDone(formDoneMsg{form: s.form, cancel: true})
			}
			return s.updateForm(msg)
		}
		return s.onKey(msg)
	}
	if s.form != nil {
		return s.updateForm(msg)
	}
	return s.ListView.Update(msg)
}

// setLoaded takes what the keystore holds: the text above the list and
// the list's rows (on an error the list keeps its last rows).
func (s *Screen) setLoaded(m *loadedMsg) {
	s.loaded = m
	if m.err != nil {
		s.Failed(m.err)
		return
	}
	// short enough for 60 columns: the table cuts it
	s.Loaded("none yet: a adds one (or `skytui creds add gcs|s3 NAME`)")
	rows := make([]kit.Row, len(m.rows))
	for i, r := range m.rows {
		rows[i] = kit.Row{ID: r.id(), Cells: []string{r.name, r.kind, r.identity}}
	}
	s.SetRows(rows)
}

// row is the entry with the given table ID.
func (s *Screen) row(id string) (row, bool) {
	if s.loaded != nil && id != "" {
		for _, r := range s.loaded.rows {
			if r.id() == id {
				return r, true
			}
		}
	}
	return row{}, false
}

// detailOf is the pane of one entry (kit.ListView.DetailOf).
func (s *Screen) detailOf(id string) (string, []kit.Section, bool) {
	r, ok := s.row(id)
	if !ok {
		return "", nil, false
	}
	what := "Bucket credential"
	if r.kind == "encryption key" {
		what = "Encryption key"
	}
	return what + " " + r.name, []kit.Section{{Fields: []kit.Field{
		{Label: "Name", Value: r.name},
		{Label: "Kind", Value: r.kind},
		{Label: "Identity", Value: r.identity},
		{Label: "Kept in", Value: cmp.Or(r.where, s.loaded.label)},
		{Label: "Note", Value: "The secret itself is never shown. d removes it; forms that name it will need it added again."},
	}}}, true
}

func (s *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	switch {
	case s.Capturing():
		// the filter is being typed: every key is the list's
	case key.Matches(msg, k.Reload):
		return s.load()
	case key.Matches(msg, k.Key):
		reason := s.keyReason()
		return func() tea.Msg { return kit.LoginRequestMsg{Reason: reason} }
	case key.Matches(msg, k.Add):
		if s.common.Secrets == nil {
			return kit.Toast(kit.ToastError, "no keystore is open: bucket credentials cannot be stored in this run")
		}
		return s.openForm()
	case key.Matches(msg, k.Remove):
		r, ok := s.row(s.SelectedID())
		if !ok {
			return kit.Toast(kit.ToastInfo, "nothing to remove")
		}
		return s.remove(r)
	}
	_, cmd := s.HandleKey(msg)
	return cmd
}

// keyReason is why the key prompt K opens asks: a key stored is
// replaced, else the key is stored (read before the keystore answered:
// either).
func (s *Screen) keyReason() string {
	p := s.common.Profile
	switch {
	case s.loaded == nil:
		return "Enter an API key for profile " + p + "; it is stored once the API accepts it, replacing a stored one."
	case s.loaded.keyStored:
		return "Enter a new API key for profile " + p + "; it replaces the stored one once the API accepts it."
	}
	return "Enter an API key for profile " + p + "; it is stored once the API accepts it."
}

// remove asks yes/no (cursor on no) through the action layer. The keystore
// is local: a read-only profile (which guards the account) may still
// tidy its own machine's secrets.
func (s *Screen) remove(r row) tea.Cmd {
	st := s.common.Secrets
	what := r.kind + " credential " + r.name
	run := func(context.Context) (any, error) { return st.DeleteBucketCredential(r.name) }
	if r.kind == "encryption key" {
		what = "encryption key " + r.name
		run = func(context.Context) (any, error) { return st.DeleteEncryptionKey(r.name) }
	}
	return kit.Do(kit.Action{
		Name:     "remove " + what,
		Mutating: false,
		Origin:   ID,
		Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Remove " + what + "?",
			Detail: "It is deleted from " + cmp.Or(r.where, s.loaded.label) + ". Backups and restores that name it will need it added again."},
		Run: run,
		Success: func(v any) string {
			from, _ := v.([]keystore.Backend)
			if len(from) == 0 {
				return what + " removed"
			}
			labels := make([]string, len(from))
			for i, b := range from {
				labels[i] = b.Label()
			}
			return what + " removed from " + strings.Join(labels, " and ")
		},
	})
}

// MouseList implements kit.MouseList: the stored credentials, under the
// text above them (View cuts that text to what the list leaves).
func (s *Screen) MouseList() (*kit.ListView, int) {
	if s.form != nil {
		return nil, 0
	}
	return s.ListView, min(len(s.head()), max(0, s.height-s.listHeight))
}
