package replsetup

import (
	"os/exec"
	"strings"
	"testing"
)

// The domain knows no terminal: api and the replication setup build
// without Bubble Tea, lipgloss, bubbles, huh, or any package of ours that
// draws (theme, tui, screens). The compiler enforces what the package
// comment promises only if something checks the imports: this does.
func TestDomainImportsNoTerminal(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go tool is not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/skytui/skytui/api", "github.com/skytui/skytui/api/replsetup").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, banned := range []string{"charm.land/", "github.com/charmbracelet/", "github.com/skytui/skytui/tui", "github.com/skytui/skytui/screens", "github.com/skytui/skytui/theme"} {
			if strings.HasPrefix(dep, banned) {
				t.Errorf("the domain imports %s", dep)
			}
		}
	}
}
