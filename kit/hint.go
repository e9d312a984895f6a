package kit

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// HintLine renders bindings as a dialog's or a form's hint line, "enter
// choose  / filter  esc cancel": each binding's Help().Key and Desc, two
// spaces between. Generated from the bindings Update matches, the line
// cannot drift from the keys. Disabled bindings and bindings without help
// are left out.
func HintLine(bindings ...key.Binding) string {
	parts := make([]string, 0, len(bindings))
	for _, b := range bindings {
		h := b.Help()
		if !b.Enabled() || h.Key == "" {
			continue
		}
		parts = append(parts, h.Key+" "+h.Desc)
	}
	return strings.Join(parts, "  ")
}

// HelpMsg asks the root to open the help (?) of the screen that sends it:
// a pane that takes every key sends it on its own "?" at a step where
// nothing is typed (the restore wizard's choice of where the backup is).
type HelpMsg struct{}
