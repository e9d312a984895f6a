package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportsGoOneWay: the folders read as the layers, and the imports
// follow them: cli → tui → screens → forms → kit → the domain (api,
// keystore, config, theme). A screen never imports another screen or the
// root; forms and kit know no screen; the domain knows no UI package.
func TestImportsGoOneWay(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "github.com/skytui/skytui/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/skytui/skytui/"
	layer := func(p string) string {
		p = strings.TrimPrefix(p, mod)
		switch {
		case p == "tui" || strings.HasPrefix(p, "tui/"):
			return "tui"
		case strings.HasPrefix(p, "screens/"):
			return "screens"
		case strings.HasPrefix(p, "forms/"):
			return "forms"
		case p == "kit":
			return "kit"
		case p == "api" || strings.HasPrefix(p, "api/") || p == "keystore" || p == "config" || p == "theme":
			return "domain"
		}
		return ""
	}
	// what each layer may not import
	banned := map[string][]string{
		"screens": {"tui"},
		"forms":   {"tui", "screens"},
		"kit":     {"tui", "screens", "forms"},
		"domain":  {"tui", "screens", "forms", "kit"},
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasSuffix(f[0], ".test") {
			continue
		}
		from := layer(f[0])
		for _, imp := range f[1:] {
			if !strings.HasPrefix(imp, mod) {
				continue
			}
			checked++
			to := layer(imp)
			for _, b := range banned[from] {
				if to == b {
					t.Errorf("%s (%s) imports %s (%s)", f[0], from, imp, to)
				}
			}
			if from == "screens" && to == "screens" {
				t.Errorf("screen %s imports screen %s", f[0], imp)
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d imports of ours were checked: the listing is not what it should be\n%s", checked, out)
	}
}

// TestNoSourceFileOver700Lines: a file someone has to read to find a
// behaviour stays readable: no Go file but tests and the sandbox's store
// (its data) is longer than 700 lines. Split a file that grows past it
// along what it does (a form, a view, a step), not at a line count.
func TestNoSourceFileOver700Lines(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.Dir}} {{join .GoFiles \" \"}}", "github.com/skytui/skytui/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	read := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		for _, name := range f[1:] {
			path := filepath.Join(f[0], name)
			if strings.HasSuffix(filepath.ToSlash(path), "sandbox/store.go") {
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			read++
			if n := strings.Count(string(b), "\n"); n > 700 {
				t.Errorf("%s has %d lines (at most 700)", path, n)
			}
		}
	}
	if read < 100 {
		t.Fatalf("only %d source files were read: the listing is not what it should be\n%s", read, out)
	}
}
