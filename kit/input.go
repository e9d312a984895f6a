package kit

import "charm.land/bubbles/v2/textinput"

// Input is the one-line text input of every prompt, filter and typed
// confirmation in skytui; NewInput and NewSecretInput make it.
type Input = textinput.Model

// NewInput is a one-line text input as every prompt, filter and typed
// confirmation in skytui has it: the given prompt and placeholder, and a
// steady cursor (a blinking one redraws twice a second, which costs bytes
// on a slow SSH link and shows in recordings).
func NewInput(prompt, placeholder string) Input {
	in := textinput.New()
	in.Prompt = prompt
	in.Placeholder = placeholder
	st := in.Styles()
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}

// NewSecretInput is NewInput for a secret (an API key, an encryption
// key): what is typed shows as mask, one per character.
func NewSecretInput(prompt, placeholder string, mask rune) Input {
	in := NewInput(prompt, placeholder)
	in.EchoMode = textinput.EchoPassword
	in.EchoCharacter = mask
	return in
}
