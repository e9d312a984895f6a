package services

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"charm.land/huh/v2"

	"github.com/skytui/skytui/api"
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

func failed[T comparable](err error, zero T) []huh.Option[T] {
	return []huh.Option[T]{huh.NewOption("! "+err.Error(), zero)}
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

// options reads a listing and makes an option of each item; a listing
// that cannot be read is one option saying why.
func options[T any](o *optionSource, what string, list func(context.Context) ([]T, error), option func(T) huh.Option[string]) []huh.Option[string] {
	var items []T
	if err := o.call(what, func(ctx context.Context) (err error) { items, err = list(ctx); return }); err != nil {
		return failed(err, "")
	}
	out := make([]huh.Option[string], 0, len(items))
	for _, it := range items {
		out = append(out, option(it))
	}
	return out
}

func (o *optionSource) providers(cur string) []huh.Option[string] {
	return options(o, "providers", o.client.ListProviders, func(p api.Provider) huh.Option[string] {
		return huh.NewOption(label(p.DisplayName, p.Name), p.Name).Selected(cur == "" && p.Default)
	})
}

func (o *optionSource) regions(provider, cur string) []huh.Option[string] {
	if provider == "" {
		return choose("provider", cur)
	}
	list := func(ctx context.Context) ([]api.Region, error) { return o.client.ListRegions(ctx, provider) }
	return options(o, "regions", list, func(r api.Region) huh.Option[string] {
		return huh.NewOption(label(r.Region, r.Name), r.Name).Selected(cur == "" && r.Default)
	})
}

func (o *optionSource) serviceTypes() []huh.Option[string] {
	return options(o, "service types", o.client.ListServiceTypes, func(t api.ServiceType) huh.Option[string] {
		return huh.NewOption(label(t.DisplayName, t.Name), t.Name)
	})
}

func (o *optionSource) topologies(serviceType, cur string) []huh.Option[string] {
	if serviceType == "" {
		return nil
	}
	list := func(ctx context.Context) ([]api.Topology, error) { return o.client.ListTopologies(ctx, serviceType) }
	return options(o, "topologies", list, func(t api.Topology) huh.Option[string] {
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
		return failed(err, "")
	}
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
		return failed(err, "")
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
	return out
}

func (o *optionSource) versions(topology, cur string) []huh.Option[string] {
	if topology == "" {
		return choose("topology", cur)
	}
	list := func(ctx context.Context) ([]api.Version, error) { return o.client.ListVersions(ctx, topology) }
	return options(o, "versions", list, func(v api.Version) huh.Option[string] {
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
	if err := o.call("storage sizes", func(ctx context.Context) (err error) { ss, err = o.client.ListStorageSizes(ctx, topology); return }); err != nil {
		return failed(err, 0)
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
	out := make([]huh.Option[int], 0, len(sizes))
	for _, n := range sizes {
		out = append(out, huh.NewOption(fmt.Sprintf("%d GB", n), n))
	}
	return out
}
