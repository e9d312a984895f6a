package kit

import (
	"testing"

	"charm.land/bubbles/v2/key"
)

// TestDuplicateKeysFindsOne: the check sees a key bound twice, and one
// binding listed twice is one meaning.
func TestDuplicateKeysFindsOne(t *testing.T) {
	grant := key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "show the grant"))
	if dups := DuplicateKeys(grant, DefaultTableKeys.Top, grant); len(dups) != 1 {
		t.Fatalf("DuplicateKeys = %q, want the one on g", dups)
	}
}

// TestDialogKeysOneMeaning: in each of the kit's dialogs and modes (a
// dialog gets every key but ctrl+c and ctrl+z), no key has two meanings.
func TestDialogKeysOneMeaning(t *testing.T) {
	c, o, p := newConfirmKeys(), newOutcomeKeys(), newPickerKeys()
	tk := DefaultTableKeys
	for name, bs := range map[string][]key.Binding{
		"confirm yes/no":    {c.Yes, c.No, c.Move, c.Choose},
		"confirm type name": {c.Submit, c.Cancel},
		"outcome":           {o.Move, o.Leave, o.Choose},
		"picker":            {p.Choose, p.Cancel, tk.Up, tk.Down, tk.PageUp, tk.PageDown, tk.Top, tk.Bottom, tk.Filter},
		"picker filter":     {tk.FilterKeep, tk.FilterClear},
	} {
		if dups := DuplicateKeys(bs...); len(dups) > 0 {
			t.Errorf("%s: keys with two meanings: %q", name, dups)
		}
	}
}
