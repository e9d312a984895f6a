package kit

import "charm.land/bubbles/v2/textinput"

// NewInput is a one-line text input as every prompt, filter and typed
// confirmation in skytui has it: the given prompt and placeholder, and a
// steady cursor (a blinking one redraws twice a second, which costs bytes
// on a slow SSH link and shows in recordings).
func NewInput(prompt, placeholder string) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	st := in.Styles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}
