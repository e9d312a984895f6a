package kit

import (
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
)

// DuplicateKeys lists the keys bound to two meanings among the bindings
// one mode answers to ("g": "g show the grant" and "g/home first row"): a
// binding listed twice (the same help) is one meaning; one without help
// is still reached by its keys. Disabled bindings are left out. The tests
// of every mode's key map use it: one key, one meaning.
func DuplicateKeys(bs ...key.Binding) []string {
	meaning := map[string]string{}
	var dups []string
	for _, b := range bs {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		what := h.Key + " " + h.Desc
		if h.Desc == "" {
			what = strings.Join(b.Keys(), "/") + " (no help)"
		}
		for _, k := range b.Keys() {
			if prev, ok := meaning[k]; ok && prev != what {
				dups = append(dups, fmt.Sprintf("%q: %q and %q", k, prev, what))
				continue
			}
			meaning[k] = what
		}
	}
	sort.Strings(dups)
	return dups
}
