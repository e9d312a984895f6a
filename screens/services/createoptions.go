package services

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"charm.land/huh/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The create form's choices, read from the API's option listings: a
// provider's regions, a service type's topologies, a topology's
// architectures, sizes, versions and storage sizes.

// optionSource reads the option listings, with a small cache so moving
// back and forth in the form does not refetch.
type optionSource struct {
	client *api.Client
	ctx    context.Context
	mu     sync.Mutex
	sizes  map[string][]api.Size
	// notes holds, by listing (what and the choices it was read for:
	// listing), why the last reading of it gave nothing to choose: the
	// field is then refused until formRetry reads it again
	notes map[string]string
}

// formRetry reads again the lists whose listing gave nothing (formList).
var formRetry = kit.Bind("ctrl+r", "read lists again")

// listing is the key of a listing read for the choices parents.
func listing(what string, parents ...string) string {
	return what + "|" + strings.Join(parents, "/")
}

// note says why a listing gave nothing to choose ("" when it did); its
// field is refused with it.
func (o *optionSource) note(key string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.notes[key]
}

// noted keeps why a listing gave nothing ("": it did).
func (o *optionSource) noted(key, why string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if why == "" {
		delete(o.notes, key)
		return
	}
	o.notes[key] = why
}

// nothing is the one option of a listing that gave nothing to choose:
// why, and how to read it again. It holds the value the field has, so a
// choice made before (a draft reopened) is not replaced by it.
func nothing[T comparable](o *optionSource, key, why string, cur T) []huh.Option[T] {
	why += "; " + formRetry.Help().Key + " reads it again"
	o.noted(key, why)
	return []huh.Option[T]{huh.NewOption("! "+why, cur)}
}

// listingError is the refusal of a list whose listing gave nothing to
// choose: why (the listing's note).
type listingError struct{ listing, why string }

func (e listingError) Error() string { return e.why }

// listed is rule, but a field whose listing (key) gave nothing to choose
// is refused with why, whatever it holds. While f rechecks, only that is
// said (of this listing, or of one rule lists).
func listed[T any](f *createForm, key func() string, rule func(T) error) func(T) error {
	return func(v T) error {
		k := key()
		if why := f.opts.note(k); why != "" {
			return listingError{listing: k, why: why}
		}
		err := rule(v)
		if f.rechecking && !errors.As(err, new(listingError)) {
			return nil
		}
		return err
	}
}

// setClient is the client the listings are read with from now on: the
// screen's, which a key entered at the prompt replaces while a form is
// open or left as a draft.
func (o *optionSource) setClient(c *api.Client) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.client = c
}

// call reads a listing (what) with the client of the moment.
func (o *optionSource) call(what string, f func(ctx context.Context, c *api.Client) error) error {
	o.mu.Lock()
	c := o.client
	o.mu.Unlock()
	if c == nil {
		return errors.New("no API client")
	}
	ctx, cancel := context.WithTimeout(o.ctx, 20*time.Second)
	defer cancel()
	if err := f(ctx, c); err != nil {
		return fmt.Errorf("could not load %s: %w", what, err)
	}
	return nil
}

// choose is the one option of a list whose choices hang on a field of
// an earlier step not chosen (a form opened past it): it says which, and
// holds the value the field has. A select with no option takes no key at
// all, not even shift+tab or tab, and the form was stuck on it. A list
// whose field is on its own step has no option while that field's
// choices are read: typed keys wait for them (kit.TypeAhead).
func choose[T comparable](what string, cur T) []huh.Option[T] {
	return []huh.Option[T]{huh.NewOption("! choose a "+what+" first", cur)}
}

func label(display, name string) string {
	if display != "" && display != name {
		return display + " (" + name + ")"
	}
	return name
}

// options reads a listing (key) and makes an option of each item; a
// listing that cannot be read, or lists nothing, is one option saying
// why (nothing).
func options[T any](o *optionSource, what, key, cur string, list func(context.Context, *api.Client) ([]T, error), option func(T) huh.Option[string]) []huh.Option[string] {
	var items []T
	if err := o.call(what, func(ctx context.Context, c *api.Client) (err error) { items, err = list(ctx, c); return }); err != nil {
		return nothing(o, key, err.Error(), cur)
	}
	if len(items) == 0 {
		return nothing(o, key, "the API lists no "+what, cur)
	}
	o.noted(key, "")
	out := make([]huh.Option[string], 0, len(items))
	for _, it := range items {
		out = append(out, option(it))
	}
	return out
}

func (o *optionSource) providers(cur string) []huh.Option[string] {
	return options(o, "providers", listing("providers"), cur, func(ctx context.Context, c *api.Client) ([]api.Provider, error) { return c.ListProviders(ctx) }, func(p api.Provider) huh.Option[string] {
		return huh.NewOption(label(p.DisplayName, p.Name), p.Name).Selected(cur == "" && p.Default)
	})
}

func (o *optionSource) regions(provider, cur string) []huh.Option[string] {
	if provider == "" {
		return choose("provider", cur)
	}
	list := func(ctx context.Context, c *api.Client) ([]api.Region, error) { return c.ListRegions(ctx, provider) }
	return options(o, "regions", listing("regions", provider), cur, list, func(r api.Region) huh.Option[string] {
		return huh.NewOption(label(r.Region, r.Name), r.Name).Selected(cur == "" && r.Default)
	})
}

func (o *optionSource) serviceTypes(cur string) []huh.Option[string] {
	return options(o, "service types", listing("service types"), cur, func(ctx context.Context, c *api.Client) ([]api.ServiceType, error) { return c.ListServiceTypes(ctx) }, func(t api.ServiceType) huh.Option[string] {
		return huh.NewOption(label(t.DisplayName, t.Name), t.Name)
	})
}

func (o *optionSource) topologies(serviceType, cur string) []huh.Option[string] {
	if serviceType == "" {
		return nil
	}
	list := func(ctx context.Context, c *api.Client) ([]api.Topology, error) {
		return c.ListTopologies(ctx, serviceType)
	}
	return options(o, "topologies", listing("topologies", serviceType), cur, list, func(t api.Topology) huh.Option[string] {
		return huh.NewOption(label(t.DisplayName, t.Name), t.Name)
	})
}

// parentOf is what, when the value it names is empty, else or.
func parentOf(value, what, or string) string {
	if value == "" {
		return what
	}
	return or
}

func (o *optionSource) sizeList(provider, topology string) ([]api.Size, error) {
	k := provider + "/" + topology
	o.mu.Lock()
	if s, ok := o.sizes[k]; ok {
		o.mu.Unlock()
		return s, nil
	}
	o.mu.Unlock()
	var ss []api.Size
	err := o.call("sizes", func(ctx context.Context, c *api.Client) (err error) {
		ss, err = c.ListSizes(ctx, provider, topology, "")
		return
	})
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	o.sizes[k] = ss
	o.mu.Unlock()
	return ss, nil
}

func (o *optionSource) architectures(provider, topology, cur string) []huh.Option[string] {
	if provider == "" || topology == "" {
		return choose(parentOf(provider, "provider", "topology"), cur)
	}
	ss, err := o.sizeList(provider, topology)
	if err != nil {
		return nothing(o, listing("sizes", provider, topology), err.Error(), cur)
	}
	if len(ss) == 0 {
		return nothing(o, listing("sizes", provider, topology), "the API lists no sizes", cur)
	}
	o.noted(listing("sizes", provider, topology), "")
	seen := map[string]bool{}
	var archs []string
	for _, s := range ss {
		a := s.Architecture
		if a == "" {
			a = "amd64"
		}
		if !seen[a] {
			seen[a] = true
			archs = append(archs, a)
		}
	}
	sort.Strings(archs)
	if len(archs) == 0 {
		archs = []string{"amd64"}
	}
	return huh.NewOptions(archs...)
}

func (o *optionSource) sizesFor(provider, topology, arch, cur string) []huh.Option[string] {
	if provider == "" || topology == "" {
		return choose(parentOf(provider, "provider", "topology"), cur)
	}
	if arch == "" {
		return nil
	}
	ss, err := o.sizeList(provider, topology)
	if err != nil {
		return nothing(o, listing("sizes", provider, topology), err.Error(), cur)
	}
	var out []huh.Option[string]
	for _, s := range ss {
		a := s.Architecture
		if a == "" {
			a = "amd64"
		}
		if a != arch {
			continue
		}
		l := label(s.DisplayName, s.Name)
		if spec := s.Spec(); spec != "" {
			l += "  " + spec
		}
		out = append(out, huh.NewOption(l, s.Name))
	}
	if len(out) == 0 {
		return nothing(o, listing("sizes", provider, topology, arch), "the API lists no "+arch+" sizes", cur)
	}
	o.noted(listing("sizes", provider, topology, arch), "")
	return out
}

func (o *optionSource) versions(topology, cur string) []huh.Option[string] {
	if topology == "" {
		return choose("topology", cur)
	}
	list := func(ctx context.Context, c *api.Client) ([]api.Version, error) { return c.ListVersions(ctx, topology) }
	return options(o, "versions", listing("versions", topology), cur, list, func(v api.Version) huh.Option[string] {
		l := label(v.DisplayName, v.Name)
		if v.Default {
			l += "  (default)"
		}
		return huh.NewOption(l, v.Name).Selected(cur == "" && v.Default)
	})
}

func (o *optionSource) storage(topology string, cur int) []huh.Option[int] {
	if topology == "" {
		return choose("topology", cur)
	}
	var ss []api.StorageSizes
	key := listing("storage sizes", topology)
	if err := o.call("storage sizes", func(ctx context.Context, c *api.Client) (err error) {
		ss, err = c.ListStorageSizes(ctx, topology)
		return
	}); err != nil {
		return nothing(o, key, err.Error(), cur)
	}
	seen := map[int]bool{}
	var sizes []int
	for _, s := range ss {
		for _, n := range s.StorageSizes {
			if !seen[n] {
				seen[n] = true
				sizes = append(sizes, n)
			}
		}
	}
	sort.Ints(sizes)
	if len(sizes) == 0 {
		return nothing(o, key, "the API lists no storage sizes", cur)
	}
	o.noted(key, "")
	out := make([]huh.Option[int], 0, len(sizes))
	for _, n := range sizes {
		out = append(out, huh.NewOption(fmt.Sprintf("%d GB", n), n))
	}
	return out
}

// formList is one of the form's lists: the listings its choices are
// read from (for the choices made before it), and its count of the
// ctrl+r that read it again, in its options' binding: huh keeps a list's
// options for the choices they were read for, so a listing that failed
// was never asked again. formRetry adds one to the lists whose listing
// gave nothing; a list read fine is kept.
type formList struct {
	field    huh.Field
	listings []func() string
	retry    *kit.Value[int]
}

// failed reports that a listing of the list gave nothing to choose, for
// the choices made now.
func (l formList) failed(o *optionSource) bool {
	return slices.ContainsFunc(l.listings, func(k func() string) bool { return o.note(k()) != "" })
}

// failing are the lists whose listing gave nothing to choose, for the
// choices made now.
func (f *createForm) failing() []formList {
	var out []formList
	for _, l := range f.lists {
		if l.failed(f.opts) {
			out = append(out, l)
		}
	}
	return out
}

// recheck says the errors shown under lists because their listing gave
// nothing (listingError) as the listings say now: one read since is
// said no more (huh keeps a field's error until a key reaches it, and
// ctrl+r is the form's), one that failed again says its last failure
// (not both). huh checks a field when it is blurred.
func (f *createForm) recheck() {
	focused := f.form.GetFocusedField()
	for _, l := range f.lists {
		var le listingError
		if !errors.As(l.field.Error(), &le) || le.why == f.opts.note(le.listing) {
			continue
		}
		f.rechecking = true
		_ = l.field.Blur() // checks it
		f.rechecking = false
		if l.field == focused {
			_ = l.field.Focus()
		}
	}
}
