package theme

import (
	"image/color"
	"reflect"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func styles(t *Theme) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	v := reflect.ValueOf(t).Elem()
	for i := 0; i < v.NumField(); i++ {
		if s, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			out[v.Type().Field(i).Name] = s
		}
	}
	return out
}

func TestNoColorHasNoColours(t *testing.T) {
	th := New(Options{Dark: true, NoColor: true})
	for name, s := range styles(th) {
		out := s.Render("x")
		if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
			t.Errorf("%s has a colour under NO_COLOR: %q", name, out)
		}
	}
	// selection and badges stay visible without colour
	if !th.Selected.GetReverse() || !th.BadgeRO.GetReverse() {
		t.Error("selection or badge invisible without colour")
	}
	for _, c := range []color.Color{th.AccentColor, th.OKColor, th.WarnColor, th.ErrorColor, th.MutedColor} {
		if c != nil {
			t.Errorf("colour %v set under NO_COLOR", c)
		}
	}
}

func TestNoColorEnv(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	if !NoColorEnv(env("1")) || !NoColorEnv(env("yes")) || NoColorEnv(env("")) {
		t.Fatal("NO_COLOR: any non-empty value disables colour")
	}
}

func TestColoursAre256Palette(t *testing.T) {
	for _, dark := range []bool{true, false} {
		th := New(Options{Dark: dark})
		for _, c := range []color.Color{th.AccentColor, th.OKColor, th.WarnColor, th.ErrorColor, th.MutedColor} {
			if _, ok := c.(lipgloss.ANSIColor); !ok {
				t.Errorf("colour %v (%T) is not from the 256-colour palette", c, c)
			}
		}
	}
}

func TestAdaptsToBackground(t *testing.T) {
	d, l := New(Options{Dark: true}), New(Options{Dark: false})
	if d.AccentColor == l.AccentColor || d.WarnColor == l.WarnColor {
		t.Fatal("light and dark backgrounds get the same colours")
	}
}

func TestStatusKind(t *testing.T) {
	for in, want := range map[string]Kind{
		"ready": KindOK, "Succeeded": KindOK, "completed": KindOK,
		"pending_create": KindPending, "pending_modifying": KindPending, "Running": KindPending, "In Progress": KindPending,
		"failed": KindError, "Failed": KindError, "error": KindError,
		"stopped": KindMuted, "retired": KindMuted, "": KindMuted,
		"something-new": KindNeutral,
	} {
		if got := StatusKind(in); got != want {
			t.Errorf("StatusKind(%q) = %d, want %d", in, got, want)
		}
	}
}

func isASCII(s string) bool {
	for _, r := range s {
		if r > 0x7e {
			return false
		}
	}
	return true
}

func TestASCIIGlyphsByDefault(t *testing.T) {
	th := New(Options{Dark: true})
	v := reflect.ValueOf(th.Glyphs)
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i).Interface().(type) {
		case string:
			if !isASCII(f) {
				t.Errorf("glyph %s = %q is not ASCII", v.Type().Field(i).Name, f)
			}
		case []string:
			for _, s := range f {
				if !isASCII(s) {
					t.Errorf("glyph %s frame %q is not ASCII", v.Type().Field(i).Name, s)
				}
			}
		}
	}
	if New(Options{Unicode: true}).Glyphs.Ellipsis != "…" {
		t.Error("Unicode glyphs not selectable")
	}
	if n := len(New(Options{Accessible: true}).Glyphs.Spinner); n != 1 {
		t.Errorf("accessible spinner has %d frames, want 1 (no animation)", n)
	}
}

// TestSparkBlocksOnUTF8: a UTF-8 locale gives the sparkline block
// characters with the ASCII glyph set; any other locale, and the
// accessible mode, keep the ASCII levels.
func TestSparkBlocksOnUTF8(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name       string
		getenv     func(string) string
		accessible bool
		blocks     bool
	}{
		{"LANG en_US.UTF-8", env("LANG", "en_US.UTF-8"), false, true},
		{"LC_ALL C.utf8", env("LC_ALL", "C.utf8", "LANG", "C"), false, true},
		{"LC_ALL C over a UTF-8 LANG", env("LC_ALL", "C", "LANG", "en_US.UTF-8"), false, false},
		{"no locale", env(), false, false},
		{"accessible", env("LANG", "en_US.UTF-8"), true, false},
	} {
		th := New(Options{Dark: true, UTF8: UTF8Env(tc.getenv), Accessible: tc.accessible})
		got := th.Glyphs.Spark[len(th.Glyphs.Spark)-1] == "█"
		if got != tc.blocks {
			t.Errorf("%s: sparkline levels %q", tc.name, th.Glyphs.Spark)
		}
		if th.Glyphs.Cursor != ">" {
			t.Errorf("%s: the glyph set changed beyond the sparkline: cursor %q", tc.name, th.Glyphs.Cursor)
		}
	}
}
