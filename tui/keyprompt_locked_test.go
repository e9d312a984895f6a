package tui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// armPrompt lets the quiet pass after which a key prompt that opened by
// itself (a 401) takes enter (keyPromptArmDelay without a key).
func armPrompt(h *harness) int {
	return h.Fire(func(msg tea.Msg) bool { _, ok := msg.(keyPromptArmMsg); return ok })
}

// unlockPrompt arms the prompt a 401 opened and presses enter, after which
// it takes a key.
func unlockPrompt(t *testing.T, h *harness) {
	t.Helper()
	armPrompt(h)
	h.Key("enter")
	h.sees(t, "> paste the API key", "enter should open the prompt's input")
}

// TestUnaskedPromptTakesNothingTyped: the prompt that a 401 opened under
// the user's fingers does not take what was being typed into its masked
// input: keys typed then are dropped and said to be, enter included (also
// when the typing goes on after a pause, which is not said to be typed as
// it opened), nothing reaches the API as a key; an enter after a pause
// then opens the input.
func TestUnaskedPromptTakesNothingTyped(t *testing.T) {
	h, fl := refusedKeyHarness(t, false)
	h.sees(t, "The API refused the key of profile prod", "a 401 should open the key prompt")
	h.sees(t, "wait: keys typed now are dropped", "the prompt that opened by itself should say it takes no key yet")

	// typed while it opened, then on after the arm delay
	h.TypeText(":restores legacy")
	armPrompt(h)
	h.TypeText("-batch")
	h.Key("enter")
	if fl.calls != 0 {
		t.Fatalf("typed input reached the API as a key (%d checks)", fl.calls)
	}
	h.sees(t, "23 keys dropped, 16 of them typed as this opened", "the dropped keys should be said")
	if strings.Contains(h.Screen(), "> ****") {
		t.Fatalf("typed input went into the masked field:\n%s", h.Screen())
	}

	// an enter after a pause opens the input, empty
	armPrompt(h)
	h.sees(t, "enter type a new key", "after the pause the prompt should say how to start typing")
	h.Key("enter")
	h.sees(t, "> paste the API key", "enter should open the input, empty")
	if strings.Contains(h.Screen(), "dropped") {
		t.Fatalf("the note on the dropped keys should go once the input is open:\n%s", h.Screen())
	}
	h.TypeText(testKey)
	h.Key("enter")
	h.toastSays(t, "accepted and stored")
	if fl.calls != 1 || fl.stored["prod"] != testKey {
		t.Fatalf("checks %d, stored %v", fl.calls, fl.stored)
	}
}

// TestAskedPromptTakesKeysAtOnce: the prompt the user asked for (:login)
// takes what is typed at once, without the deliberate enter.
func TestAskedPromptTakesKeysAtOnce(t *testing.T) {
	h, fl := refusedKeyHarness(t, false)
	armPrompt(h)
	h.Key("esc")
	h.loginWith(t, fl, "prod")
}

// TestUnaskedPromptSaysWhatWorksNow: the prompt a 401 opened says, in its
// box and in the footer, only what works at that moment: before the quiet
// that arms it, that keys typed now are dropped (esc is one of them, and
// is counted: "1 key … was dropped"); once armed, enter and esc. A key
// dropped after it was armed is not said to be typed as it opened. At
// 100x30 and at 60x16 the line of its keys stays in the box under the
// count of dropped keys.
func TestUnaskedPromptSaysWhatWorksNow(t *testing.T) {
	const wait, enter, esc = "wait: keys typed now are dropped", "enter type a new key", "esc later (:login reopens)"
	for _, size := range [][2]int{{100, 30}, {MinWidth, MinHeight}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h, _ := refusedKeyHarness(t, false)
			h.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			says := func(when string, want, not []string) {
				t.Helper()
				lines := strings.Split(h.Screen(), "\n")
				box, footer := unboxed(strings.Join(lines[:len(lines)-1], "\n")), lines[len(lines)-1]
				for _, w := range want {
					if !strings.Contains(box, w) || !strings.Contains(footer, w) {
						t.Errorf("%s the box and the footer should say %q:\n%s", when, w, h.Screen())
					}
				}
				for _, n := range not {
					if strings.Contains(box, n) || strings.Contains(footer, n) {
						t.Errorf("%s nothing should say %q:\n%s", when, n, h.Screen())
					}
				}
			}
			says("on opening", []string{wait}, []string{enter, esc})
			h.Key("esc")
			says("after an early esc", []string{wait}, []string{enter, esc})
			h.sees(t, "API key for profile prod", "an esc typed as it opened should not close the prompt")
			if s := unboxed(h.Screen()); !strings.Contains(s, "1 key typed as this opened was dropped: nothing was sent") {
				t.Errorf("the dropped esc should be said, in good grammar:\n%s", h.Screen())
			}
			armPrompt(h)
			says("once armed", []string{enter, esc}, []string{wait})
			h.Key("x")
			says("after a key typed once armed", []string{wait}, []string{enter, esc})
			if s := unboxed(h.Screen()); !strings.Contains(s, "2 keys dropped, 1 of them typed as this opened: nothing was sent") {
				t.Errorf("a key typed after the quiet should not be said to be typed as it opened:\n%s", h.Screen())
			}
			armPrompt(h)
			says("armed again", []string{enter, esc}, []string{wait})
			h.Key("esc")
			if strings.Contains(h.Screen(), "API key for profile") {
				t.Fatalf("esc once armed should close the prompt:\n%s", h.Screen())
			}
		})
	}
}
