package services

import (
	"context"
	"errors"
	"fmt"
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

// formRetry reads the step's lists again: huh keeps a list's options
// for the choices it was read for, so a listing that failed was never
// asked again (every list's binding holds the form's retry count).
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

// anyNote reports that a listing gave nothing to choose.
func (o *optionSource) anyNote() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.notes) > 0
}

// nothing is the one option of a listing that gave nothing to choose:
// why, and how to read it again. It holds the value the field has, so a
// choice made before (a draft reopened) is not replaced by it.
func nothing[T comparable](o *optionSource, key, why string, cur T) []huh.Option[T] {
	why += "; " + formRetry.Help().Key + " reads it again"
	o.noted(key, why)
	return []huh.Option[T]{huh.NewOption("! "+why, cur)}
}

// listed is rule, but a field whose listing gave nothing to choose is
// refused with why, whatever it holds.
func listed[T any](o *optionSource, key func() string, rule func(T) error) func(T) error {
	return func(v T) error {
		if why := o.note(key()); why != "" {
			return errors.New(why)
		}
		return rule(v)
	}
}

func (o *optionSource) call(what string, f func(ctx context.Context) error) error {
	if o.client == nil {
		return errors.New("no API client")
	}
	ctx, cancel := context.WithTimeout(o.ctx, 20*time.Second)
	defer cancel()
	if err := f(ctx); err != nil {
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
func options[T any](o *optionSource, what, key, cur string, list func(context.Context) ([]T, error), option func(T) huh.Option[string]) []huh.Option[string] {
	var items []T
	if err := o.call(what, func(ctx context.Context) (err error) { items, err = list(ctx); return }); err != nil {
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
	return options(o, "providers", listing("providers"), cur, o.client.ListProviders, func(p api.Provider) huh.Option[string] {
		return huh.NewOption(label(p.DisplayName, p.Name), p.Name).Selected(cur == "" && p.Default)
	})
}

func (o *optionSource) regions(provider, cur string) []huh.Option[string] {
	if provider == "" {
		return choose("provider", cur)
	}
	list := func(ctx context.Context) ([]api.Region, error) { return o.client.ListRegions(ctx, provider) }
	return options(o, "regions", listing("regions", provider), cur, list, func(r api.Region) huh.Option[string] {
		return huh.NewOption(label(r.Region, r.Name), r.Name).Selected(cur == "" && r.Default)
	})
}

func (o *optionSource) serviceTypes(cur string) []huh.Option[string] {
	return options(o, "service types", listing("service types"), cur, o.client.ListServiceTypes, func(t api.ServiceType) huh.Option[string] {
		return huh.NewOption(label(t.DisplayName, t.Name), t.Name)
	})
}

func (o *optionSource) topologies(serviceType, cur string) []huh.Option[string] {
	if serviceType == "" {
		return nil
	}
	list := func(ctx context.Context) ([]api.Topology, error) { return o.client.ListTopologies(ctx, serviceType) }
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
	err := o.call("sizes", func(ctx context.Context) (err error) {
		ss, err = o.client.ListSizes(ctx, provider, topology, "")
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
	list := func(ctx context.Context) ([]api.Version, error) { return o.client.ListVersions(ctx, topology) }
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
	if err := o.call("storage sizes", func(ctx context.Context) (err error) { ss, err = o.client.ListStorageSizes(ctx, topology); return }); err != nil {
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
